// Kernel 1: distributed graph construction (Nakao et al. 2021: the data layout of section 3.2,
// Yoo's distribution of section 4.3).
//
// N, the number of vertices, is not given: a first read of every rank's share of the edge list
// finds the largest vertex id (graph/vertex_count.hpp), and the distribution is made from it.
//
// Every rank reads its share of the edge list in chunks and routes each edge {a, b} (self-loops
// dropped) as two directed entries: (v=a, u=b) to P(row(a), col(b)) and (v=b, u=a) to
// P(row(b), col(a)) (graph/edge_router.hpp). The edge list is never held whole. The receivers keep
// the entries of a slab of their rows, grouped by buckets of consecutive rows as each chunk
// arrives; pass 1 also counts the rows of the other slabs. The rows are then renumbered
// (`reorder`, Nakao et al. 2021, section 4.2) and filled bucket by bucket, each bucket sorted in
// cache so every row comes out in descending-degree order (`degree-sort`), into plain 32-bit
// neighbours or packed gaps (`packed_rows`, graph/packed_rows.hpp); each further slab is one more
// pass over the input (the generator is random-access). One slab when the entries fit, so the
// edges are generated once; the number of slabs trades passes for memory. No access per entry
// lands at a random place of a whole-graph array except the lookup of the neighbour's sort key.
//
// The steps' own files: the kept entries (graph/kernel1_entries.hpp), the count of their rows
// (graph/kernel1_row_count.hpp, graph/row_lengths.hpp), the mirrors (graph/kernel1_mirrors.hpp),
// the rows' plan (graph/kernel1_plan.hpp) and the fill (graph/kernel1_fill.hpp); here the passes
// and the slab loop.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <optional>
#include <vector>

#include "comm/large_count.hpp"
#include "comm/typed.hpp"
#include "graph/column_blocks.hpp"
#include "graph/column_originals.hpp"
#include "graph/edge_router.hpp"
#include "graph/kernel1_entries.hpp"
#include "graph/kernel1_fill.hpp"
#include "graph/kernel1_mirrors.hpp"
#include "graph/kernel1_plan.hpp"
#include "graph/kernel1_row_count.hpp"
#include "graph/local_graph.hpp"
#include "graph/memory_plan.hpp"
#include "graph/owned_degrees.hpp"
#include "graph/packed_rows.hpp"
#include "graph/row_buckets.hpp"
#include "graph/set_map.hpp"
#include "graph/vertex_count.hpp"
#include "util/huge_pages.hpp"
#include "util/large_array.hpp"
#include "util/page_release.hpp"
#include "util/raw_buffer.hpp"

namespace g500::graph {
namespace {

using kernel1::BucketedEntries;
using kernel1::BucketFill;
using kernel1::count_rows;
using kernel1::fill_column_values;
using kernel1::index_row_originals;
using kernel1::neighbor_order;
using kernel1::PackedRowSink;
using kernel1::PlainRowSink;
using kernel1::plan_degrees;
using kernel1::plan_rows;
using kernel1::RowAndMirrorCount;
using kernel1::RowMap;
using kernel1::SlabMirrors;

// Slabs: runs of whole row buckets whose entries are kept and filled together. Pass s over the
// input keeps slab s's entries only, so the kept entries of one slab, not of the whole block, are
// in memory at a time; one slab is the whole block when it fits.
struct RowSlabs {
  int64_t count = 1;
  int64_t buckets_per_slab = 0;
  int64_t total_buckets = 0;

  RowSlabs(const RowBuckets& buckets, int64_t slabs)
      : count(std::max<int64_t>(1, slabs)), buckets_per_slab((buckets.count + count - 1) / count),
        total_buckets(buckets.count) {}
  int64_t first_bucket(int64_t s) const { return std::min(total_buckets, s * buckets_per_slab); }
  int64_t end_bucket(int64_t s) const { return std::min(total_buckets, (s + 1) * buckets_per_slab); }
};

// The first neighbour of every row the row index addresses (empty rows of plain CSR get 0).
StoredIdArray first_neighbors_of(const LocalGraph& g) {
  const RowIndex& rows = g.rows;
  const int64_t count = rows.num_slots();
  StoredIdArray first(StoredIdWidth::for_ids(g.dist.col_set_size()));
  first.resize(count);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < count; ++r) {
    const int64_t begin = rows.slot_start(r);
    first.set(r, rows.slot_start(r + 1) > begin ? g.neighbors[begin] : 0);
  }
  return first;
}

// Kernel 1 in slabs: pass 1 keeps slab 0's entries and counts the others' rows; the rows are then
// renumbered and ordered, and each slab is filled bucket by bucket (pass s + 1 keeps slab s + 1's
// entries). With one slab this is one pass over the input.
class SlabbedBuild {
 public:
  SlabbedBuild(LocalGraph& g, const EdgeSource& source, const ProcessGrid& grid, const GraphOptions& options,
               const Kernel1Observer& observe)
      : g_(g), source_(source), grid_(grid), options_(options), observe_(observe), d_(g.dist),
        nrows_(d_.row_set_size()), expected_(expected_entries_per_rank(source.global_edges, grid.size())),
        buckets_(nrows_, expected_),
        slabs_(buckets_, options.passes),  // the same on every rank: each pass routes collectively
        expected_per_slab_(static_cast<int64_t>(kSlabSizeHeadroom * static_cast<double>(expected_) / slabs_.count) + 1),
        mirror_(options.mirror && (options.degree_sort || options.packed_rows) && nrows_ <= int64_t{1} << 31),
        mirrors_counted_after_pass_(grid.size() == 1),
        router_(d_, grid,
                options.tuning.chunk_edges > 0 ? options.tuning.chunk_edges
                                               : chunk_edges_for(source.local_count, kChunkEdges)) {}

  void run() {
    observe_(0, slabs_.count, "routing the edges");
    util::Bitmap columns_met;
    std::unique_ptr<BucketedEntries> kept;
    RowLengths lengths = first_pass(kept, columns_met);
    observe_(0, slabs_.count, "planning the rows");
    const double plan_start = MPI_Wtime();
    // The columns' values first, so the columns met are freed before the rows are planned.
    plan_degrees(g_, lengths, grid_, options_);
    ColumnKeys order;  // the ids unless the degree order says otherwise
    if (options_.degree_sort) order = neighbor_order(g_, grid_, options_);
    std::optional<SetMap> column_values = fill_column_values(g_, grid_, options_, order, columns_met);
    columns_met = util::Bitmap();
    RowMap row_new = plan_rows(g_, std::move(lengths), grid_, options_);
    Sinks sinks;
    make_sinks(order, sinks);
    seconds()[Kernel1Steps::kPlan] += MPI_Wtime() - plan_start;
    {
      const BucketFill fill = fill_of(row_new, column_values);
      for (int64_t s = 0; s < slabs_.count; ++s) {
        if (s > 0) {  // only this slab's entries are routed
          router_.keep_rows(slab_rows(s).first, slab_rows(s).second);
          kept = keep_slab(s, nullptr, nullptr, nullptr);
        }
        fill_slab(s, std::move(kept), fill, column_values ? column_values->whole_table() : nullptr, sinks);
      }
    }
    row_new.reset();  // the fill's maps, freed before the rows' original ids are made
    column_values.reset();
    const double originals_start = MPI_Wtime();
    index_row_originals(g_, grid_);
    seconds()[Kernel1Steps::kPlan] += MPI_Wtime() - originals_start;
    if (sinks.packed)
      g_.packed.bytes.resize(static_cast<size_t>(sinks.stream_end.load()));
    else
      g_.first_neighbors = first_neighbors_of(g_);
    g_.local_entries = g_.rows.num_entries();
    g_.kernel1_passes = slabs_.count;
  }

 private:
  // Reserved address space, so room for slabs somewhat above the average costs nothing.
  static constexpr double kSlabSizeHeadroom = 1.25;

  // Where the filled rows go: plain neighbours or packed rows (`packed_rows`).
  struct Sinks {
    std::atomic<int64_t> stream_end{0};
    std::optional<PlainRowSink> plain;
    std::optional<PackedRowSink> packed;
  };

  Kernel1Steps& seconds() { return g_.kernel1_seconds; }
  std::pair<int64_t, int64_t> slab_rows(int64_t s) const {
    return {buckets_.first_row(slabs_.first_bucket(s)), std::min(nrows_, buckets_.first_row(slabs_.end_bucket(s)))};
  }
  // Of pass 1's entries, the rows of those it does not keep, to be counted (the column left out):
  // the entries beyond slab 0 and the mirrors routed only to be counted.
  Entry not_kept(Entry e) const {
    constexpr Entry kRowPart = ~Entry{0} << kLocalIdBits;
    if (mirror_ && (e & kMirrorFlag)) return e & ~kMirrorFlag & kRowPart;  // with mirrors the rows are below half
    return buckets_.of(e) < slabs_.end_bucket(0) ? BucketedEntries::kNotPicked : e & kRowPart;
  }

  // One pass over the input keeping slab s's entries; pass 1 also counts the other rows into
  // `other_lengths`, marks the columns it meets, and keeps the rows of the entries it does not
  // keep in `others` (when it counts the rows met only).
  std::unique_ptr<BucketedEntries> keep_slab(int64_t s, int64_t* other_lengths, util::Bitmap* columns,
                                             BucketedEntries* others) {
    // Pass 1 routes the mirrors of slab 0 only to count their rows; one process has them at hand
    // (they are its kept entries' columns) and counts them after the pass (RowAndMirrorCount).
    if (mirror_) router_.mirror_rows(slab_rows(s).first, slab_rows(s).second, s == 0 && !mirrors_counted_after_pass_);
    auto kept =
        std::make_unique<BucketedEntries>(buckets_, slabs_.first_bucket(s), slabs_.end_bucket(s), expected_per_slab_,
                                          d_.col_set_size(), options_.tuning.direct_write_buckets);
    RoutingSeconds routing;
    for_each_routed_chunk(source_, grid_.world(), router_, buffer_, routing, [&](const Entry* entries, int64_t n) {
      observe_(s, slabs_.count, "routing the edges");
      const double start = MPI_Wtime();
      kept->append_chunk(entries, n, other_lengths, columns);
      if (others) others->append_chunk_picked(entries, n, nullptr, nullptr, [this](Entry e) { return not_kept(e); });
      seconds()[Kernel1Steps::kBucket] += MPI_Wtime() - start;
    });
    kept->appended_all();
    seconds()[Kernel1Steps::kGenerate] += routing.read;
    seconds()[Kernel1Steps::kRoute] += routing.route;
    return kept;
  }

  // Pass 1: slab 0's entries into `kept`, the columns met into `columns_met` (with `reorder` on a
  // grid of several rows the fill's column values are kept for those only, fill_column_values),
  // and every row's length: a word per row, counted at random places (the other slabs' entries, the
  // routed mirrors), on huge pages; or, where that is smaller, the rows met only, from the rows of
  // the entries it does not keep (graph/row_lengths.hpp).
  RowLengths first_pass(std::unique_ptr<BucketedEntries>& kept, util::Bitmap& columns_met) {
    const bool rows_met_only = lengths_of_rows_met(
        GraphShape{source_.global_edges, source_.kronecker_scale, source_.local_count}, d_, options_);
    const bool counts_others = slabs_.count > 1 || (mirror_ && !mirrors_counted_after_pass_);
    std::vector<int64_t> lengths;
    if (!rows_met_only) util::assign_huge(lengths, static_cast<size_t>(nrows_), int64_t{0});
    std::unique_ptr<BucketedEntries> others;
    if (rows_met_only && counts_others)
      others = std::make_unique<BucketedEntries>(buckets_, 0, buckets_.count, expected_, 1,
                                                 options_.tuning.direct_write_buckets);
    columns_met = util::Bitmap(options_.reorder && d_.R > 1 ? d_.col_set_size() : 0);
    kept = keep_slab(0, counts_others && !rows_met_only ? lengths.data() : nullptr,
                     columns_met.size() > 0 ? &columns_met : nullptr, others.get());
    if (rows_met_only) return lengths_of_rows_met_by(*kept, others.get());
    if (mirror_ && mirrors_counted_after_pass_)
      RowAndMirrorCount(slab_rows(0).first, slab_rows(0).second - slab_rows(0).first).count(*kept, lengths.data());
    else
      count_rows(*kept, lengths.data());
    return RowLengths::whole(std::move(lengths));
  }

  // The lengths of the rows met, counted a bucket at a time over slab 0's kept entries and the
  // rows of the others.
  RowLengths lengths_of_rows_met_by(const BucketedEntries& kept, BucketedEntries* others) const {
    if (others) others->appended_all();
    return RowLengths::of_rows_met(nrows_, buckets_.shift, [&](int64_t b, int64_t* counts) {
      const int64_t first = buckets_.first_row(b);
      auto add = [&](const Entry* entries, int64_t n) {
        for (int64_t k = 0; k < n; ++k) ++counts[entry_row(entries[k]) - first];
      };
      if (b >= kept.first_bucket() && b < kept.first_bucket() + kept.buckets())
        kept.for_each_segment(b - kept.first_bucket(), add);
      if (others) others->for_each_segment(b, add);
    });
  }

  BucketFill fill_of(const RowMap& row_new, const std::optional<SetMap>& column_values) const {
    const int64_t ncols = d_.col_set_size();
    return BucketFill{
        buckets_,
        nrows_,
        g_.rows,
        row_new ? &*row_new : nullptr,
        column_values ? &*column_values : nullptr,
        options_.degree_sort || options_.packed_rows,  // packed rows without the degree order: by id
        static_cast<int>(std::bit_width(static_cast<uint64_t>(std::max<int64_t>(1, ncols - 1)))),
        options_.tuning.radix_digit_bits > 0 ? options_.tuning.radix_digit_bits : BucketFill::kMaxDigitBits};
  }

  // The graph's neighbour arrays, sized from the row index, and the sink that writes them (plain
  // rows turn the keys into ids through `order`; packed rows keep it).
  void make_sinks(ColumnKeys& order, Sinks& sinks) {
    const int64_t entries = g_.rows.num_entries();
    if (!options_.packed_rows) {
      g_.neighbors.resize(entries);
      sinks.plain.emplace(PlainRowSink{g_.rows, g_.neighbors.data(), options_.degree_sort ? &order : nullptr});
      return;
    }
    const int64_t slots = g_.rows.num_slots();
    if (options_.degree_sort) g_.packed.keys = std::move(order);
    g_.packed.in_use = true;
    const RowIndex& rows = g_.rows;
    const int64_t ncols = d_.col_set_size();
    const StoredIdWidth id_width = StoredIdWidth::for_ids(ncols);
    g_.packed.place_rows(
        slots, [&rows](int64_t r) { return rows.slot_start(r + 1) - rows.slot_start(r); }, omp_get_max_threads(),
        id_width);
    // Reserved, not touched: only the bytes written count in memory.
    g_.packed.bytes.resize(static_cast<size_t>(entries) *
                           varint::size(static_cast<LocalId>(std::max<int64_t>(0, ncols - 1))));
    g_.first_neighbors = StoredIdArray(id_width);
    g_.first_neighbors.zeroed(slots);
    sinks.packed.emplace(PackedRowSink{g_.rows, g_.packed, g_.first_neighbors, sinks.stream_end, {}});
  }

  // Slab s's rows filled from its kept entries (given back bucket by bucket) and their mirrors.
  void fill_slab(int64_t s, std::unique_ptr<BucketedEntries> kept, const BucketFill& fill,
                 const LocalId* whole_column_values, Sinks& sinks) {
    std::optional<SlabMirrors> mirrors;
    if (mirror_)
      mirrors.emplace(buckets_, slabs_.first_bucket(s), slabs_.end_bucket(s), expected_per_slab_,
                      std::max(expected_per_slab_, kept->entries()), d_, grid_, router_, whole_column_values,
                      options_.tuning.direct_write_buckets, options_.tuning.mirrors_per_group);
    SlabMirrors* made = mirrors ? &*mirrors : nullptr;
    observe_(s, slabs_.count, "filling the rows");
    double& mirror_seconds = seconds()[Kernel1Steps::kMirror];
    const double fill_start = MPI_Wtime(), mirror_before = mirror_seconds;
    if (sinks.packed)
      fill.run(*kept, made, *sinks.packed, nullptr, mirror_seconds);
    else
      fill.run(*kept, made, *sinks.plain, g_.neighbors.data(), mirror_seconds);
    kept.reset();
    seconds()[Kernel1Steps::kFill] += MPI_Wtime() - fill_start - (mirror_seconds - mirror_before);
  }

  LocalGraph& g_;
  const EdgeSource& source_;
  const ProcessGrid& grid_;
  const GraphOptions& options_;
  const Kernel1Observer& observe_;
  const Distribution& d_;
  const int64_t nrows_, expected_;
  const RowBuckets buckets_;
  const RowSlabs slabs_;
  const int64_t expected_per_slab_;
  // Edges inside one slab kept once, their mirrors made by the fill (SlabMirrors): only when the
  // rows are sorted by key (in input order the mirrors would change the order) and the row ids
  // leave the flag bit free.
  const bool mirror_;
  const bool mirrors_counted_after_pass_;
  Router router_;
  util::RawBuffer<gen::Edge> buffer_;
};

}  // namespace

LocalGraph build_local_graph(const EdgeSource& source, const ProcessGrid& grid, const GraphOptions& options,
                             const Kernel1Observer& observe) {
  const Kernel1Observer tell = observe ? observe : [](int64_t, int64_t, const char*) {};
  tell(0, 0, "counting the vertices");
  LocalGraph g;
  const VertexCount n = count_vertices(
      source, grid.world(),
      options.tuning.chunk_edges > 0 ? options.tuning.chunk_edges : chunk_edges_for(source.local_count, kChunkEdges));
  g.kernel1_seconds[Kernel1Steps::kGenerate] += n.seconds;
  g.dist = Distribution(n.nvertices, grid.rows(), grid.cols(), grid.row(), grid.col(), options.layout);
  SlabbedBuild(g, source, grid, options, tell).run();
  tell(g.kernel1_passes, g.kernel1_passes, "the columns' original ids");
  make_column_originals(g, grid);
  make_search_tables(g);
  util::release_free_heap();  // kernel 1's freed scratch: glibc would keep it, counted in the search's memory
  g.global_directed_edges = comm::Communicator(grid.world()).sum(g.local_edges());
  return g;
}

}  // namespace g500::graph
