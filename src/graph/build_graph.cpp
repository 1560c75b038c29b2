// Kernel 1: distributed graph construction (001 section 3.2 data layout, Yoo's distribution 4.3).
//
// Every rank reads its share of the edge list in chunks and routes each edge {a, b} (self-loops
// dropped) as two directed entries: (v=a, u=b) to P(row(a), col(b)) and (v=b, u=a) to
// P(row(b), col(a)). Pass 1 routes the chunks so receivers can count row lengths; pass 2 re-reads
// the same chunks (the generator is random-access) and routes them again to fill the CSR at
// cursors. The edge list is never held whole: memory is the CSR plus one chunk's buffers.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "graph/local_graph.hpp"
#include "util/fast_divisor.hpp"
#include "util/memory.hpp"

namespace g500 {
namespace {

constexpr int64_t kChunkEdges = int64_t{1} << 22;

// A growable array whose elements are not initialised: chunk buffers are overwritten anyway,
// and zeroing them costs as much as using them.
template <class T>
class RawBuffer {
 public:
  T* get(size_t n) {
    if (n > capacity_) {
      data_.reset(new T[n]);
      capacity_ = n;
    }
    return data_.get();
  }

 private:
  std::unique_ptr<T[]> data_;
  size_t capacity_ = 0;
};

// Entry (v, u): v's row-local id in the high half, u's column-local id in the low half.
inline uint64_t make_entry(LocalId v, LocalId u) { return (static_cast<uint64_t>(v) << 32) | u; }
inline LocalId entry_row(uint64_t entry) { return static_cast<LocalId>(entry >> 32); }

// Where a vertex lives: its grid row and column and its ids inside its row and column sets.
struct Placement {
  int row, col;
  LocalId row_local, col_local;
};

inline Placement place(const Distribution& d, int64_t v) {
  const uint64_t k = d.by_block.divide(static_cast<uint64_t>(v));
  const uint64_t offset = static_cast<uint64_t>(v) - k * d.block;
  const uint64_t col = d.by_rows.divide(k);
  const uint64_t row = k - col * d.R;
  return Placement{static_cast<int>(row), static_cast<int>(col), static_cast<LocalId>(col * d.block + offset),
                   static_cast<LocalId>(row * d.block + offset)};
}

// Routes the entries of edge chunks to the processes that store them; buffers are reused.
class Router {
 public:
  Router(const Distribution& d, const ProcessGrid& grid) : d_(d), grid_(grid), nranks_(grid.size()) {}

  // Returns the entries this process receives for the chunk, valid until the next call.
  const uint64_t* route(const gen::Edge* edges, int64_t count, int64_t& received) {
    const int nthreads = omp_get_max_threads();
    if (nranks_ == 1) {  // everything stays here: no bucketing, no copy through MPI
      uint64_t* out = recv_.get(2 * count);
      std::vector<int64_t> ends(nthreads);
#pragma omp parallel num_threads(nthreads)
      {
        const int t = omp_get_thread_num();
        const int64_t lo = count * t / nthreads, hi = count * (t + 1) / nthreads;
        int64_t at = 2 * lo;
        for (int64_t e = lo; e < hi; ++e) {
          const int64_t a = edges[e].v0, b = edges[e].v1;
          if (a == b) continue;
          const Placement pa = place(d_, a), pb = place(d_, b);
          out[at++] = make_entry(pa.row_local, pb.col_local);
          out[at++] = make_entry(pb.row_local, pa.col_local);
        }
        ends[t] = at;
      }
      // Close the gaps left by self-loops at the end of each slice.
      received = ends[0];
      for (int t = 1; t < nthreads; ++t) {
        const int64_t begin = 2 * (count * t / nthreads);
        std::memmove(out + received, out + begin, (ends[t] - begin) * sizeof(uint64_t));
        received += ends[t] - begin;
      }
      return out;
    }
    // Pass A: entries and destinations per thread slice, counts per destination.
    uint64_t* entries = entries_.get(2 * count);
    int* dest = dest_.get(2 * count);
    std::vector<int64_t> counts(static_cast<size_t>(nthreads) * nranks_, 0);
    std::vector<int64_t> kept(nthreads + 1, 0);
#pragma omp parallel num_threads(nthreads)
    {
      const int t = omp_get_thread_num();
      const int64_t lo = count * t / nthreads, hi = count * (t + 1) / nthreads;
      int64_t* mine = &counts[static_cast<size_t>(t) * nranks_];
      int64_t at = 2 * lo;
      for (int64_t e = lo; e < hi; ++e) {
        const int64_t a = edges[e].v0, b = edges[e].v1;
        if (a == b) continue;
        const Placement pa = place(d_, a), pb = place(d_, b);
        entries[at] = make_entry(pa.row_local, pb.col_local);
        dest[at] = grid_.world_rank_of(pa.row, pb.col);
        ++mine[dest[at++]];
        entries[at] = make_entry(pb.row_local, pa.col_local);
        dest[at] = grid_.world_rank_of(pb.row, pa.col);
        ++mine[dest[at++]];
      }
      kept[t + 1] = at;  // end of this slice's entries (they start at 2 * lo)
    }
    std::vector<int> send_counts(nranks_), send_displs(nranks_);
    std::vector<int64_t> cursor(counts.size());
    int64_t total = 0;
    for (int r = 0; r < nranks_; ++r) {
      send_displs[r] = static_cast<int>(total);
      for (int t = 0; t < nthreads; ++t) {
        cursor[static_cast<size_t>(t) * nranks_ + r] = total;
        total += counts[static_cast<size_t>(t) * nranks_ + r];
      }
      send_counts[r] = static_cast<int>(total - send_displs[r]);
    }
    // Pass B: scatter by destination.
    uint64_t* send = send_.get(total);
#pragma omp parallel num_threads(nthreads)
    {
      const int t = omp_get_thread_num();
      const int64_t lo = 2 * (count * t / nthreads), hi = kept[t + 1];
      int64_t* next = &cursor[static_cast<size_t>(t) * nranks_];
      for (int64_t k = lo; k < hi; ++k) send[next[dest[k]]++] = entries[k];
    }
    std::vector<int> recv_counts(nranks_), recv_displs(nranks_);
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, grid_.world());
    received = 0;
    for (int r = 0; r < nranks_; ++r) {
      recv_displs[r] = static_cast<int>(received);
      received += recv_counts[r];
    }
    uint64_t* recv = recv_.get(received);
    MPI_Alltoallv(send, send_counts.data(), send_displs.data(), MPI_UINT64_T, recv, recv_counts.data(),
                  recv_displs.data(), MPI_UINT64_T, grid_.world());
    return recv;
  }

 private:
  const Distribution& d_;
  const ProcessGrid& grid_;
  int nranks_;
  RawBuffer<uint64_t> entries_, send_, recv_;
  RawBuffer<int> dest_;
};

// Applies apply(entry) to every entry, each by the thread owning the entry's row (thread t owns
// rows [t * per_thread, (t + 1) * per_thread)): a stable counting sort by owning thread, then
// every thread walks its own part in order. No atomics, and the result is deterministic.
class RowRangeApplier {
 public:
  RowRangeApplier(int64_t nrows, int nthreads)
      : threads_(nthreads), per_thread_(std::max<int64_t>(1, (nrows + nthreads - 1) / nthreads)) {}

  template <class Apply>
  void run(const uint64_t* entries, int64_t n, Apply apply) {
    const int T = threads_;
    if (T == 1) {
      for (int64_t k = 0; k < n; ++k) apply(entries[k]);
      return;
    }
    std::vector<int64_t> counts(static_cast<size_t>(T) * T, 0);  // [slice][owner]
    uint64_t* sorted = sorted_.get(n);
#pragma omp parallel num_threads(T)
    {
      const int t = omp_get_thread_num();
      const int64_t lo = n * t / T, hi = n * (t + 1) / T;
      int64_t* mine = &counts[static_cast<size_t>(t) * T];
      for (int64_t k = lo; k < hi; ++k) ++mine[per_thread_.divide(entry_row(entries[k]))];
#pragma omp barrier
#pragma omp single
      {
        int64_t total = 0;
        for (int owner = 0; owner < T; ++owner)
          for (int slice = 0; slice < T; ++slice) {
            int64_t& c = counts[static_cast<size_t>(slice) * T + owner];
            const int64_t here = c;
            c = total;
            total += here;
          }
      }
      for (int64_t k = lo; k < hi; ++k) sorted[mine[per_thread_.divide(entry_row(entries[k]))]++] = entries[k];
#pragma omp barrier
      const int64_t begin = t == 0 ? 0 : counts[static_cast<size_t>(T - 1) * T + (t - 1)];
      const int64_t end = counts[static_cast<size_t>(T - 1) * T + t];
      for (int64_t k = begin; k < end; ++k) apply(sorted[k]);
    }
  }

 private:
  int threads_;
  FastDivisor per_thread_;
  RawBuffer<uint64_t> sorted_;
};

// Calls body(entries, count) with the entries this process receives for every chunk of every
// rank's share; every rank makes the same number of calls because routing is collective.
template <class Body>
void for_each_routed_chunk(const EdgeSource& source, MPI_Comm comm, Router& router, RawBuffer<gen::Edge>& buffer,
                           double& read_seconds, Body body) {
  int64_t chunks = (source.local_count + kChunkEdges - 1) / kChunkEdges;
  MPI_Allreduce(MPI_IN_PLACE, &chunks, 1, MPI_INT64_T, MPI_MAX, comm);
  gen::Edge* edges = buffer.get(std::min(source.local_count, kChunkEdges));
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t offset = std::min(source.local_count, c * kChunkEdges);
    const int64_t count = std::min(source.local_count - offset, kChunkEdges);
    const double start = MPI_Wtime();
    if (count > 0) source.read(offset, count, edges);
    read_seconds += MPI_Wtime() - start;
    int64_t received = 0;
    const uint64_t* entries = router.route(edges, count, received);
    body(entries, received);
  }
}

// Sorts every row's neighbours by descending degree (ties by id), so the bottom-up search meets
// the vertices most likely to be in the frontier first and stops early (the aim of 001 4.2).
void sort_rows_by_degree(LocalGraph& g, const std::vector<int64_t>& owned_degree, const std::vector<int64_t>& row_starts,
                         const ProcessGrid& grid) {
  const Distribution& d = g.dist;
  std::vector<uint32_t> owned(d.block), column_degree(d.col_set_size());
  for (int64_t k = 0; k < d.block; ++k)
    owned[k] = static_cast<uint32_t>(std::min<int64_t>(owned_degree[k], UINT32_MAX));
  MPI_Allgather(owned.data(), static_cast<int>(d.block), MPI_UINT32_T, column_degree.data(), static_cast<int>(d.block),
                MPI_UINT32_T, grid.col_comm());
  const int64_t nrows = static_cast<int64_t>(row_starts.size()) - 1;
#pragma omp parallel
  {
    std::vector<uint64_t> keys;  // (inverted degree, id): ascending keys = descending degree
#pragma omp for schedule(dynamic, 256)
    for (int64_t v = 0; v < nrows; ++v) {
      const int64_t begin = row_starts[v], end = row_starts[v + 1];
      if (end - begin < 2) continue;
      keys.resize(end - begin);
      for (int64_t e = begin; e < end; ++e) {
        const LocalId u = g.neighbors[e];
        keys[e - begin] = (static_cast<uint64_t>(~column_degree[u]) << 32) | u;
      }
      std::sort(keys.begin(), keys.end());
      for (int64_t e = begin; e < end; ++e) g.neighbors[e] = static_cast<LocalId>(keys[e - begin]);
    }
  }
}

// The first neighbour of every row the row index addresses (empty rows of plain CSR get 0).
std::vector<LocalId> first_neighbors_of(const LocalGraph& g) {
  const int64_t* starts = g.rows.starts();
  const int64_t count = g.rows.compressed() ? g.rows.nonempty_rows() : g.rows.num_rows();
  std::vector<LocalId> first(count);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < count; ++r) first[r] = starts[r + 1] > starts[r] ? g.neighbors[starts[r]] : 0;
  return first;
}

// Keep pass 1's entries (8 bytes each) when, with the CSR (4 bytes each), they use at most this
// share of the node's memory.
constexpr double kKeepEntriesMemoryShare = 0.4;

bool keep_entries_for_pass_two(const EdgeSource& source, const ProcessGrid& grid) {
  const double entries_per_rank = 2.0 * static_cast<double>(source.global_edges) / grid.size();
  const double need = entries_per_rank * (sizeof(uint64_t) + sizeof(LocalId)) * ranks_on_this_node(grid.world());
  int keep = need <= kKeepEntriesMemoryShare * static_cast<double>(physical_memory_bytes()) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &keep, 1, MPI_INT, MPI_MIN, grid.world());
  return keep == 1;
}

}  // namespace

LocalGraph build_local_graph(const EdgeSource& source, const ProcessGrid& grid, const GraphOptions& options) {
  LocalGraph g;
  g.dist = Distribution(source.nvertices, grid.rows(), grid.cols(), grid.row(), grid.col());
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  Router router(d, grid);
  RawBuffer<gen::Edge> buffer;
  RowRangeApplier applier(nrows, omp_get_max_threads());

  // Pass 1: row lengths.
  const bool keep = keep_entries_for_pass_two(source, grid);
  std::vector<uint64_t> kept;
  if (keep) kept.reserve(static_cast<size_t>(2.1 * static_cast<double>(source.global_edges) / grid.size()));
  std::vector<int64_t> cursor(nrows + 1, 0);
  for_each_routed_chunk(source, grid.world(), router, buffer, g.input_read_seconds, [&](const uint64_t* entries, int64_t n) {
    applier.run(entries, n, [&](uint64_t entry) { ++cursor[entry_row(entry)]; });
    if (keep) kept.insert(kept.end(), entries, entries + n);
  });
  // Full degree of each owned vertex: the sum of its row lengths over the processes of the grid row.
  g.owned_degree.assign(d.block, 0);
  MPI_Reduce_scatter_block(cursor.data(), g.owned_degree.data(), static_cast<int>(d.block), MPI_INT64_T, MPI_SUM,
                           grid.row_comm());
  // With `reorder` the rows and columns take their degree-order ids from here on.
  ForwardMaps forward;
  if (options.reorder) {
    g.renumbering = build_renumbering(g.owned_degree, d, grid, forward);
    std::vector<int64_t> lengths(nrows + 1, 0);
    for (int64_t v = 0; v < nrows; ++v) lengths[forward.row_new[v]] = cursor[v];
    cursor.swap(lengths);
  }
  const LocalId* row_new = options.reorder ? forward.row_new.data() : nullptr;
  const LocalId* col_new = options.reorder ? forward.col_new.data() : nullptr;
  std::vector<int64_t> row_starts(nrows + 1, 0);
  for (int64_t v = 0; v < nrows; ++v) row_starts[v + 1] = row_starts[v] + cursor[v];
  g.neighbors.resize(row_starts[nrows]);

  // Pass 2: fill each row at its cursor, in arrival order. The applier gives each thread whole
  // original rows, so with renumbering each thread still owns whole rows.
  std::copy(row_starts.begin(), row_starts.end() - 1, cursor.begin());
  auto fill = [&](const uint64_t* entries, int64_t n) {
    if (row_new)
      applier.run(entries, n, [&](uint64_t entry) {
        g.neighbors[cursor[row_new[entry_row(entry)]]++] = col_new[static_cast<LocalId>(entry)];
      });
    else
      applier.run(entries, n, [&](uint64_t entry) { g.neighbors[cursor[entry_row(entry)]++] = static_cast<LocalId>(entry); });
  };
  if (keep) {
    fill(kept.data(), static_cast<int64_t>(kept.size()));
    std::vector<uint64_t>().swap(kept);
  } else {
    for_each_routed_chunk(source, grid.world(), router, buffer, g.input_read_seconds, fill);
  }
  forward = ForwardMaps();

  if (options.degree_sort) {
    std::vector<int64_t> local_degree(d.block);  // in the graph's ids
    for (int64_t k = 0; k < d.block; ++k) local_degree[k] = g.owned_degree[g.owned_original(k)];
    sort_rows_by_degree(g, local_degree, row_starts, grid);
  }
  g.rows = RowIndex(std::move(row_starts), options.bcsr);
  g.first_neighbors = first_neighbors_of(g);
  int64_t local = g.local_edges();
  MPI_Allreduce(&local, &g.global_directed_edges, 1, MPI_INT64_T, MPI_SUM, grid.world());
  return g;
}

}  // namespace g500
