// Kernel 1 with weights (see graph/weighted_graph.hpp). N from a first read of the edges, as in
// build_graph.cpp (graph/vertex_count.hpp). Then the same routing as build_graph.cpp: every
// rank reads its share of the edge list in chunks and sends each directed entry (v, u, w) to
// P(row(v), col(u)); pass 1 counts row lengths (and keeps the routed entries when they fit in
// memory), pass 2 deals the entries to their rows: the kept ones, or the chunks read and routed
// again. With `reorder` the vertices are renumbered by degree inside every block between the
// passes, as the BFS's kernel 1 does (Nakao et al. 2021, section 4.2). Rows are then sorted by (weight,
// neighbour), which also makes the result independent of the arrival order, and their lightest
// weights are kept as a byte each for the search.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "comm/large_count.hpp"
#include "comm/typed.hpp"
#include "graph/owned_degrees.hpp"
#include "graph/sort_by_weight.hpp"
#include "graph/vertex_count.hpp"
#include "graph/weighted_graph.hpp"
#include "util/atomic_ref.hpp"
#include "util/huge_pages.hpp"
#include "util/large_array.hpp"
#include "util/memory.hpp"

namespace g500::graph {
namespace {

constexpr int64_t kChunkEdges = int64_t{1} << 22;
// Keep pass 1's entries (12 bytes each) when, with the CSR (8 bytes each), they use at most this
// share of the node's memory (the BFS build's rule, graph/build_graph.cpp).
constexpr double kKeepEntriesMemoryShare = 0.4;
// Pass 2 groups a batch of entries by ranges of consecutive rows, at most this many, before
// writing them: each range's rows are then filled by one thread, their writes close together.
constexpr int64_t kFillRanges = 1024;

struct WeightedEntry {
  LocalId v;
  LocalId u;
  float w;
};
// Entry buffers are written in full right after they are sized: no zeroing (util/large_array.hpp).
using EntryArray = util::LargeArray<WeightedEntry>;

// Routes the directed entries of `count` edges to the processes that store them and returns what
// this process receives (on one process, what it sends: no copy).
EntryArray route(const gen::Edge* edges, const float* weights, int64_t count, const Distribution& d,
                 const ProcessGrid& grid) {
  const int nranks = grid.size();
  const int nthreads = omp_get_max_threads();
  std::vector<int64_t> counts(static_cast<size_t>(nthreads) * nranks, 0);
  auto dest_of = [&](int64_t v, int64_t u) { return grid.world_rank_of(d.row_set_of(v), d.col_set_of(u)); };
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    const int64_t lo = count * t / nthreads, hi = count * (t + 1) / nthreads;
    int64_t* mine = &counts[static_cast<size_t>(t) * nranks];
    for (int64_t e = lo; e < hi; ++e) {
      const int64_t a = edges[e].v0, b = edges[e].v1;
      if (a == b) continue;
      ++mine[dest_of(a, b)];
      ++mine[dest_of(b, a)];
    }
  }
  comm::AlltoallvLayout layout;  // in bytes
  layout.send_counts.assign(nranks, 0);
  std::vector<int64_t> cursor(counts.size());
  int64_t total = 0;
  for (int r = 0; r < nranks; ++r) {
    const int64_t before = total;
    for (int t = 0; t < nthreads; ++t) {
      cursor[static_cast<size_t>(t) * nranks + r] = total;
      total += counts[static_cast<size_t>(t) * nranks + r];
    }
    layout.send_counts[r] = (total - before) * static_cast<int64_t>(sizeof(WeightedEntry));
  }
  EntryArray send(total);
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    const int64_t lo = count * t / nthreads, hi = count * (t + 1) / nthreads;
    int64_t* next = &cursor[static_cast<size_t>(t) * nranks];
    for (int64_t e = lo; e < hi; ++e) {
      const int64_t a = edges[e].v0, b = edges[e].v1;
      if (a == b) continue;
      const float w = weights[e];
      send[next[dest_of(a, b)]++] = WeightedEntry{d.row_local(a), d.col_local(b), w};
      send[next[dest_of(b, a)]++] = WeightedEntry{d.row_local(b), d.col_local(a), w};
    }
  }
  if (nranks == 1) return send;
  comm::exchange_counts(layout, grid.world());
  EntryArray recv(layout.recv_total / static_cast<int64_t>(sizeof(WeightedEntry)));
  comm::alltoallv(send.data(), recv.data(), MPI_BYTE, layout, grid.world(), comm::find_alltoallv("mpi"), grid.limits());
  return recv;
}

// Reads the source's edges chunk by chunk into the buffers and hands each chunk to `body`; the
// time spent reading (generating) is added to `read_seconds`.
template <class Body>
void for_each_chunk(const WeightedEdgeSource& source, MPI_Comm comm, std::vector<gen::Edge>& buffer,
                    std::vector<float>& weights, double& read_seconds, Body body) {
  const int64_t local_count = source.edges.local_count;
  const int64_t chunks = comm::Communicator(comm).max((local_count + kChunkEdges - 1) / kChunkEdges);
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t offset = std::min(local_count, c * kChunkEdges);
    const int64_t count = std::min(local_count - offset, kChunkEdges);
    const double start = MPI_Wtime();
    if (count > 0) source.read(offset, count, buffer.data(), weights.data());
    read_seconds += MPI_Wtime() - start;
    body(buffer.data(), weights.data(), count);
  }
}

// Bytes per directed entry of the kept entries with the CSR they become.
constexpr double kKeptEntryBytes = sizeof(WeightedEntry) + sizeof(LocalId) + sizeof(float);

bool keep_entries_for_pass_two(const WeightedEdgeSource& source, const ProcessGrid& grid) {
  const double entries_per_rank = 2.0 * static_cast<double>(source.edges.global_edges) / grid.size();
  return util::every_node_has_room(entries_per_rank * kKeptEntryBytes, kKeepEntriesMemoryShare, grid.world());
}

// Pass 2's dealer: writes batches of entries (original row-local v, original column-local u, w)
// into the CSR at per-row cursors, in the graph's ids. Writing each entry at its row directly
// puts every write at a random place of the whole edge array (a cache and TLB miss each, the
// largest cost of kernel 1); instead a batch is first grouped by row range (a counting sort with
// few, sequentially written destinations), then every range is written by one thread.
class RowDealer {
 public:
  RowDealer(WeightedLocalGraph& wg, const util::LargeArray<int64_t>& row_starts, const LocalId* row_new,
            const LocalId* col_new)
      : wg_(wg), row_new_(row_new), col_new_(col_new), cursor_(row_starts.begin(), row_starts.end() - 1) {
    const int64_t nrows = static_cast<int64_t>(cursor_.size());
    while ((nrows >> shift_) >= kFillRanges) ++shift_;
    nranges_ = (nrows >> shift_) + 1;
  }

  void deal(const WeightedEntry* entries, int64_t n) {
    const int nthreads = omp_get_max_threads();
    counts_.assign(static_cast<size_t>(nthreads) * nranges_, 0);
    grouped_.resize(n);
#pragma omp parallel num_threads(nthreads)
    {
      const int t = omp_get_thread_num();
      const int64_t lo = n * t / nthreads, hi = n * (t + 1) / nthreads;
      int64_t* mine = &counts_[static_cast<size_t>(t) * nranges_];
      for (int64_t k = lo; k < hi; ++k) ++mine[row_of(entries[k].v) >> shift_];
#pragma omp barrier
#pragma omp single
      {
        int64_t at = 0;  // range-major, then thread: each range is one contiguous stretch
        starts_.assign(nranges_ + 1, 0);
        for (int64_t r = 0; r < nranges_; ++r) {
          starts_[r] = at;
          for (int other = 0; other < nthreads; ++other) {
            const int64_t c = counts_[static_cast<size_t>(other) * nranges_ + r];
            counts_[static_cast<size_t>(other) * nranges_ + r] = at;
            at += c;
          }
        }
        starts_[nranges_] = at;
      }
      for (int64_t k = lo; k < hi; ++k) {
        const LocalId x = row_of(entries[k].v);
        grouped_[mine[x >> shift_]++] =
            WeightedEntry{x, col_new_ ? col_new_[entries[k].u] : entries[k].u, entries[k].w};
      }
#pragma omp barrier
      LocalId* neighbors = wg_.graph.neighbors.data();
      float* weights = wg_.weights.data();
#pragma omp for schedule(dynamic, 1)
      for (int64_t r = 0; r < nranges_; ++r)
        for (int64_t k = starts_[r]; k < starts_[r + 1]; ++k) {
          const WeightedEntry& e = grouped_[k];
          const int64_t at = cursor_[e.v]++;
          neighbors[at] = e.u;
          weights[at] = e.w;
        }
    }
  }

 private:
  LocalId row_of(LocalId v) const { return row_new_ ? row_new_[v] : v; }

  WeightedLocalGraph& wg_;
  const LocalId* row_new_;
  const LocalId* col_new_;
  std::vector<int64_t> cursor_;  // by row (graph's ids): where its next entry goes
  int shift_ = 0;                // range of row x: x >> shift_
  int64_t nranges_ = 1;
  std::vector<int64_t> counts_, starts_;
  EntryArray grouped_;
};

}  // namespace

bool weighted_kernel1_keeps_entries(double entries, double node_bytes_per_rank, const WeightedGraphOptions& options) {
  return options.keep_entries && entries * kKeptEntryBytes <= kKeepEntriesMemoryShare * node_bytes_per_rank;
}

std::vector<util::MemoryPart> weighted_kernel1_parts(double edges, double entries, double rows,
                                                     double node_bytes_per_rank, const WeightedGraphOptions& options) {
  const bool keep = weighted_kernel1_keeps_entries(entries, node_bytes_per_rank, options);
  const double chunk = std::min(edges, static_cast<double>(kChunkEdges));
  const double read_buffers = chunk * (sizeof(gen::Edge) + sizeof(float));
  // A chunk's routed entries (about 2 per edge read, from every process) in pass 1, and pass 2's
  // grouped copy of one batch of them.
  const double batch = 2 * chunk * sizeof(WeightedEntry);
  // Pass 2's start: every kept batch, the CSR, the grouped batch and the read buffers.
  return {{"kernel 1: read buffers", read_buffers, util::GrowsWith::kFixed},
          {keep ? "kernel 1: kept entries" : "kernel 1: a routed batch", keep ? entries * sizeof(WeightedEntry) : batch,
           keep ? util::GrowsWith::kEdgeShare : util::GrowsWith::kFixed},
          {"kernel 1: grouped batch", batch, util::GrowsWith::kFixed},
          {"weighted neighbours", entries * (sizeof(LocalId) + sizeof(float)), util::GrowsWith::kEdgeShare},
          {"row starts", rows * 2 * sizeof(int64_t), util::GrowsWith::kRowSet}};
}

WeightedEdgeSource kronecker_weighted_edge_source(const gen::KroneckerGenerator& generator, int rank, int nranks) {
  WeightedEdgeSource source;
  source.edges = kronecker_edge_source(generator, rank, nranks);
  const int64_t begin = source.edges.local_begin;
  source.read = [&generator, begin](int64_t offset, int64_t count, gen::Edge* out, float* weights) {
    constexpr int64_t kPiece = 4096;
    const int64_t pieces = (count + kPiece - 1) / kPiece;
#pragma omp parallel for schedule(dynamic, 4)
    for (int64_t p = 0; p < pieces; ++p) {
      const int64_t first = p * kPiece;
      const int64_t last = std::min(count, first + kPiece);
      generator.generate(begin + offset + first, begin + offset + last, out + first, weights + first);
    }
  };
  return source;
}

namespace {
// The owned vertices' degrees into g.owned_degree from the counted row lengths; returns the
// lengths (none on a grid of one column: the degrees are the lengths).
std::vector<int64_t> count_owned_degrees(std::vector<int64_t> lengths, LocalGraph& g, const ProcessGrid& grid) {
  RowLengths counted = RowLengths::whole(std::move(lengths));
  g.owned_degree = owned_degrees(counted, g.dist, grid);
  return counted.take_whole();
}

// With reordering: the degree-order renumbering into g and the row and column sets' maps to it.
ForwardMaps reorder_maps(LocalGraph& g, const ProcessGrid& grid, bool reorder) {
  ForwardMaps forward;
  if (reorder) {
    g.renumbering = build_renumbering(g.owned_degree);
    gather_set_maps(g.renumbering, g.dist, grid, forward);
  }
  return forward;
}

// Pass 2 from the kept batches: each dealt to its rows, then freed.
void deal_kept_batches(RowDealer& dealer, std::vector<EntryArray>& kept) {
  for (auto& entries : kept) {
    dealer.deal(entries.data(), static_cast<int64_t>(entries.size()));
    EntryArray().swap(entries);
  }
}

// The row starts (rows in their new order) from the row lengths, and room for the rows and their
// weights. The search reads the rows, weights and row starts at random: huge pages (util/huge_pages.hpp).
util::LargeArray<int64_t> lay_out_rows(WeightedLocalGraph& wg, const int64_t* row_lengths, const LocalId* row_new,
                                       int64_t nrows) {
  LocalGraph& g = wg.graph;
  util::LargeArray<int64_t> row_starts;
  util::assign_huge(row_starts, static_cast<size_t>(nrows + 1), int64_t{0});
  for (int64_t v = 0; v < nrows; ++v) row_starts[(row_new ? row_new[v] : v) + 1] = row_lengths[v];
  for (int64_t x = 0; x < nrows; ++x) row_starts[x + 1] += row_starts[x];
  g.neighbors.reserve(row_starts[nrows]);
  util::advise_huge_pages(g.neighbors.data(), row_starts[nrows] * sizeof(LocalId));
  g.neighbors.resize(row_starts[nrows]);
  util::assign_huge(wg.weights, static_cast<size_t>(row_starts[nrows]), 0.0f);
  return row_starts;
}

// After the rows are filled: each row sorted by weight, the lightest-weight bounds, the column
// index when the options ask for it, and the search's tables.
void finish_weighted_graph(WeightedLocalGraph& wg, util::LargeArray<int64_t> row_starts, const ProcessGrid& grid,
                           const WeightedGraphOptions& options) {
  LocalGraph& g = wg.graph;
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  sort_lists_by_weight(row_starts.data(), nrows, wg.weights.data(), g.neighbors.data());

  wg.row_light_bounds = lightest_weight_bounds(row_starts.data(), nrows, wg.weights.data());
  if (options.column_index && grid.cols() > grid.rows()) {
    wg.columns = build_column_index(row_starts.data(), nrows, g.neighbors.data(), wg.weights.data(), d.col_set_size());
    wg.column_light_bounds =
        lightest_weight_bounds(wg.columns.starts.data(), d.col_set_size(), wg.columns.weights.data());
  }
  // Plain CSR: the SSSP kernels index row starts directly by row-local id.
  g.rows = RowIndex(std::move(row_starts), /*compressed=*/false);
  g.local_entries = static_cast<int64_t>(g.neighbors.size());
  make_search_tables(g);
  g.global_directed_edges = comm::Communicator(grid.world()).sum(g.local_edges());
}
}  // namespace

WeightedLocalGraph build_weighted_local_graph(const WeightedEdgeSource& source, const ProcessGrid& grid,
                                              const WeightedGraphOptions& options, const Kernel1Observer& observe) {
  const Kernel1Observer tell = observe ? observe : [](int64_t, int64_t, const char*) {};
  tell(0, 0, "counting the vertices");
  WeightedLocalGraph wg;
  LocalGraph& g = wg.graph;
  const VertexCount n = count_vertices(source.edges, grid.world(), kChunkEdges);
  g.dist = Distribution(n.nvertices, grid.rows(), grid.cols(), grid.row(), grid.col());
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  const size_t chunk = static_cast<size_t>(std::min(source.edges.local_count, kChunkEdges));
  std::vector<gen::Edge> buffer(chunk);
  std::vector<float> weights(chunk);
  double& generate_seconds = g.kernel1_seconds[Kernel1Steps::kGenerate];  // the graph_generation time
  generate_seconds += n.seconds;  // the pass that found N generated the edges too

  // Pass 1: row lengths (original row-local ids); the routed entries are kept when they fit.
  const bool keep = options.keep_entries && keep_entries_for_pass_two(source, grid);
  const int64_t passes = keep ? 1 : 2;  // over the input edges
  tell(0, passes, "routing the edges");
  std::vector<EntryArray> kept;
  std::vector<int64_t> lengths(nrows + 1, 0);
  for_each_chunk(source, grid.world(), buffer, weights, generate_seconds,
                 [&](const gen::Edge* edges, const float* w, int64_t count) {
                   tell(0, passes, "routing the edges");
                   auto entries = route(edges, w, count, d, grid);
                   const int64_t routed = static_cast<int64_t>(entries.size());
#pragma omp parallel for schedule(static)
                   for (int64_t k = 0; k < routed; ++k)
                     util::AtomicRef<int64_t>(lengths[entries[k].v]).fetch_add(1, std::memory_order_relaxed);
                   if (keep) kept.push_back(std::move(entries));
                 });
  lengths = count_owned_degrees(std::move(lengths), g, grid);
  const int64_t* row_lengths = lengths.empty() ? g.owned_degree.data() : lengths.data();
  const ForwardMaps forward = reorder_maps(g, grid, options.reorder);
  const LocalId* row_new = options.reorder ? forward.row_new.data() : nullptr;
  const LocalId* col_new = options.reorder ? forward.col_new.data() : nullptr;

  util::LargeArray<int64_t> row_starts = lay_out_rows(wg, row_lengths, row_new, nrows);

  // Pass 2: deal the entries to their rows (in arrival order; the row sort fixes the order).
  std::vector<int64_t>().swap(lengths);
  tell(passes - 1, passes, "filling the rows");
  RowDealer dealer(wg, row_starts, row_new, col_new);
  if (keep) {
    deal_kept_batches(dealer, kept);
  } else {
    for_each_chunk(source, grid.world(), buffer, weights, generate_seconds,
                   [&](const gen::Edge* edges, const float* w, int64_t count) {
                     tell(passes - 1, passes, "filling the rows");
                     auto entries = route(edges, w, count, d, grid);
                     dealer.deal(entries.data(), static_cast<int64_t>(entries.size()));
                   });
  }

  tell(passes, passes, "sorting the rows by weight");
  finish_weighted_graph(wg, std::move(row_starts), grid, options);
  return wg;
}

}  // namespace g500::graph
