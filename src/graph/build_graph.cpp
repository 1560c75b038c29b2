// Kernel 1: distributed graph construction (Nakao et al. 2021: the data layout of section 3.2,
// Yoo's distribution of section 4.3).
//
// Every rank reads its share of the edge list in chunks and routes each edge {a, b} (self-loops
// dropped) as two directed entries: (v=a, u=b) to P(row(a), col(b)) and (v=b, u=a) to
// P(row(b), col(a)). The edge list is never held whole. Two ways to build the CSR from there:
//  - kept entries (when they fit in memory, the single-node case): pass 1 keeps the routed
//    entries, grouped by buckets of consecutive rows as each chunk arrives; the rows are counted,
//    renumbered (`reorder`, Nakao et al. 2021, section 4.2) and filled bucket by bucket, each
//    bucket sorted in cache so every row comes out in descending-degree order (`degree-sort`).
//    Memory: the entries, then the CSR; no access per entry lands at a random place of a
//    whole-graph array except the lookup of the neighbour's sort key.
//  - regenerate (memory short): pass 1 routes the chunks so receivers count row lengths; pass 2
//    re-reads the same chunks (the generator is random-access), routes them again and fills the
//    CSR at cursors; the rows are then sorted. Memory: the CSR plus one chunk's buffers.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <vector>

#include "comm/large_count.hpp"
#include "graph/column_blocks.hpp"
#include "graph/edge_router.hpp"
#include "graph/local_graph.hpp"
#include "graph/pack_rows.hpp"
#include "util/fast_divisor.hpp"
#include "util/memory.hpp"

namespace g500 {
namespace {

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

// The order of every row's neighbours with `degree-sort`: descending degree, ties by the graph's
// column id, so the bottom-up search meets the vertices most likely to be in the frontier first
// and stops early (the aim of Nakao et al. 2021, section 4.2). key_of[u] is column u's position
// in that order and column_of[key] the column at that position. With `reorder` and R == 1 the
// column set is one renumbered block whose ids already are in this order: the keys are the ids,
// no tables.
struct NeighborOrder {
  bool keys_are_ids = false;
  std::vector<LocalId> key_of, column_of;

  LocalId key(LocalId u) const { return keys_are_ids ? u : key_of[u]; }
  LocalId column(LocalId key) const { return keys_are_ids ? key : column_of[key]; }
};

// Collective over the grid column, and over the world with the row-major layout (except when the
// keys are the ids).
NeighborOrder neighbor_order(const LocalGraph& g, const ProcessGrid& grid) {
  NeighborOrder order;
  const Distribution& d = g.dist;
  if (g.renumbering.active() && d.R == 1) {
    order.keys_are_ids = true;
    return order;
  }
  std::vector<int64_t> owned(d.block), column_degree(d.col_set_size());  // in the graph's ids
  for (int64_t k = 0; k < d.block; ++k) owned[k] = g.owned_degree[g.owned_original(k)];
  std::vector<int64_t> hosted(d.columns_aligned() ? 0 : d.block);
  comm::allgather(hosted_column_block(owned.data(), hosted.data(), d.block, MPI_INT64_T, d, grid), column_degree.data(),
                  d.block, MPI_INT64_T, grid.col_comm(), grid.limits());
  order.column_of = degree_order(column_degree);  // stable: ties keep ascending ids
  order.key_of.resize(order.column_of.size());
  const int64_t n = static_cast<int64_t>(order.column_of.size());
#pragma omp parallel for schedule(static)
  for (int64_t key = 0; key < n; ++key) order.key_of[order.column_of[key]] = static_cast<LocalId>(key);
  return order;
}

// Regenerate path: sorts every filled row by its neighbours' keys.
void sort_rows_by_degree(LocalGraph& g, const NeighborOrder& order, const std::vector<int64_t>& row_starts) {
  const int64_t nrows = static_cast<int64_t>(row_starts.size()) - 1;
  LocalId* neighbors = g.neighbors.data();
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t v = 0; v < nrows; ++v) {
    LocalId* first = neighbors + row_starts[v];
    LocalId* last = neighbors + row_starts[v + 1];
    if (last - first < 2) continue;
    if (!order.keys_are_ids)
      for (LocalId* u = first; u != last; ++u) *u = order.key_of[*u];
    std::sort(first, last);
    if (!order.keys_are_ids)
      for (LocalId* u = first; u != last; ++u) *u = order.column_of[*u];
  }
}

// Kept-entries path: the entries are grouped by buckets of 2^shift consecutive (original) row
// ids, sized so that one bucket's entries, its rows' cursors and the scratch to sort it stay in a
// core's cache. Counting the rows and filling them then touch memory bucket by bucket instead of
// at a random place per entry.
struct RowBuckets {
  int shift = 0;
  int64_t count = 0;

  RowBuckets(int64_t nrows, int64_t expected_entries) {
    constexpr int64_t kEntriesPerBucket = int64_t{1} << 16;  // 512 KiB of entries
    const int64_t per_row = std::max<int64_t>(1, expected_entries / std::max<int64_t>(1, nrows));
    const int64_t rows = std::max<int64_t>(1, kEntriesPerBucket / per_row);
    shift = std::bit_width(static_cast<uint64_t>(rows)) - 1;
    count = (nrows + (int64_t{1} << shift) - 1) >> shift;
  }
  int64_t first_row(int64_t b) const { return b << shift; }
  int64_t of(uint64_t entry) const { return static_cast<int64_t>(entry >> (32 + shift)); }
};

// Pass 1's entries, kept with one copy only: each routed chunk is appended already grouped by row
// bucket (a stable counting sort while the chunk is still in cache), so bucket b's entries are one
// segment per chunk, and reading the segments in chunk order gives them in arrival order.
class BucketedEntries {
 public:
  BucketedEntries(const RowBuckets& buckets, int64_t expected_entries) : buckets_(buckets) {
    entries_.reserve(static_cast<size_t>(expected_entries));
    segment_starts_.push_back(0);
  }

  void append_chunk(const uint64_t* in, int64_t n) {
    const int T = omp_get_max_threads();
    const int64_t nb = buckets_.count;
    const int64_t base = static_cast<int64_t>(entries_.size());
    entries_.resize(base + n);  // uninitialised: every element is written below
    uint64_t* out = entries_.data();
    const size_t starts_at = segment_starts_.size() - 1;  // the previous chunk's end: this chunk's start
    segment_starts_.resize(starts_at + nb + 1);
    int64_t* starts = &segment_starts_[starts_at];
    next_.assign(static_cast<size_t>(T) * nb, 0);  // [thread][bucket]
#pragma omp parallel num_threads(T)
    {
      const int t = omp_get_thread_num();
      const int64_t lo = n * t / T, hi = n * (t + 1) / T;
      int64_t* mine = &next_[static_cast<size_t>(t) * nb];
      for (int64_t k = lo; k < hi; ++k) ++mine[buckets_.of(in[k])];
#pragma omp barrier
#pragma omp single
      {
        int64_t total = base;
        for (int64_t b = 0; b < nb; ++b) {
          starts[b] = total;
          for (int s = 0; s < T; ++s) {
            int64_t& c = next_[static_cast<size_t>(s) * nb + b];
            const int64_t here = c;
            c = total;
            total += here;
          }
        }
        starts[nb] = total;
      }
      for (int64_t k = lo; k < hi; ++k) out[mine[buckets_.of(in[k])]++] = in[k];
    }
    ++chunks_;
  }

  // Calls f(entries, count) for each of bucket b's segments, in chunk order.
  template <class F>
  void for_each_segment(int64_t b, F f) const {
    for (int64_t c = 0; c < chunks_; ++c) {
      const int64_t* starts = &segment_starts_[static_cast<size_t>(c) * buckets_.count];
      if (starts[b + 1] > starts[b]) f(entries_.data() + starts[b], starts[b + 1] - starts[b]);
    }
  }
  int64_t bucket_size(int64_t b) const {
    int64_t n = 0;
    for_each_segment(b, [&](const uint64_t*, int64_t count) { n += count; });
    return n;
  }
  void release() {
    LargeArray<uint64_t>().swap(entries_);
    std::vector<int64_t>().swap(segment_starts_);
  }

 private:
  const RowBuckets& buckets_;
  LargeArray<uint64_t> entries_;
  // Chunk c's bucket b begins at [c * count + b] and ends at [c * count + b + 1]: a chunk's end is
  // the next chunk's start.
  std::vector<int64_t> segment_starts_;
  std::vector<int64_t> next_;
  int64_t chunks_ = 0;
};

// Row lengths (original row ids) from the bucketed entries; each bucket's rows are its own.
void count_rows(const BucketedEntries& kept, const RowBuckets& buckets, int64_t* lengths) {
#pragma omp parallel for schedule(dynamic, 8)
  for (int64_t b = 0; b < buckets.count; ++b)
    kept.for_each_segment(b, [&](const uint64_t* entries, int64_t n) {
      for (int64_t k = 0; k < n; ++k) ++lengths[entry_row(entries[k])];
    });
}

// Fills the CSR from the bucketed entries, one bucket at a time per thread. Without an order the
// rows keep the entries' (input) order. With one, each bucket's entries become (key, row) items,
// are sorted by key with an in-cache LSD radix sort, and are then dealt to their rows in that
// order: every row comes out sorted by key, and the result does not depend on the input order.
struct BucketFill {
  const RowBuckets& buckets;
  int64_t nrows;
  const int64_t* row_starts;   // in the graph's row ids
  const LocalId* row_new;      // original row-local id -> graph's (null: the same)
  const LocalId* col_new;      // original column-local id -> graph's (null: the same)
  const NeighborOrder* order;  // null: input order
  const LocalId* key_of_entry_column;  // with an order: original column-local id -> key
  int key_bits;

  void run(const BucketedEntries& kept, LocalId* neighbors) const {
    const int passes = std::max(1, (key_bits + 10) / 11);
    const int digit_bits = (key_bits + passes - 1) / passes;
#pragma omp parallel
    {
      std::vector<int64_t> cursor(int64_t{1} << buckets.shift);
      std::vector<int64_t> digit_count(size_t{1} << digit_bits);
      RawBuffer<uint64_t> scratch_a, scratch_b;
#pragma omp for schedule(dynamic, 1)
      for (int64_t b = 0; b < buckets.count; ++b) {
        const int64_t first = buckets.first_row(b);
        const int64_t rows = std::min<int64_t>(int64_t{1} << buckets.shift, nrows - first);
        for (int64_t r = 0; r < rows; ++r) cursor[r] = row_starts[row_new ? row_new[first + r] : first + r];
        if (!order) {
          kept.for_each_segment(b, [&](const uint64_t* entries, int64_t n) {
            for (int64_t k = 0; k < n; ++k) {
              const LocalId u = static_cast<LocalId>(entries[k]);
              neighbors[cursor[entry_row(entries[k]) - first]++] = col_new ? col_new[u] : u;
            }
          });
          continue;
        }
        const int64_t n = kept.bucket_size(b);
        uint64_t* items = scratch_a.get(n);
        uint64_t* spare = scratch_b.get(n);
        int64_t filled = 0;
        kept.for_each_segment(b, [&](const uint64_t* entries, int64_t count) {
          // The key table is read at random: prefetching a few entries ahead overlaps the misses
          // (better than the compiler's vector gather, which waits for each of them).
          constexpr int64_t kAhead = 48;
          for (int64_t k = 0; k < count; ++k) {
            if (k + kAhead < count) __builtin_prefetch(key_of_entry_column + static_cast<LocalId>(entries[k + kAhead]));
            items[filled + k] = (static_cast<uint64_t>(key_of_entry_column[static_cast<LocalId>(entries[k])]) << 32) |
                                static_cast<uint64_t>(entry_row(entries[k]) - first);
          }
          filled += count;
        });
        for (int p = 0; p < passes; ++p) {
          const int low = 32 + p * digit_bits;
          const uint64_t mask = (uint64_t{1} << digit_bits) - 1;
          std::fill(digit_count.begin(), digit_count.end(), 0);
          for (int64_t k = 0; k < n; ++k) ++digit_count[(items[k] >> low) & mask];
          int64_t total = 0;
          for (int64_t& c : digit_count) {
            const int64_t here = c;
            c = total;
            total += here;
          }
          for (int64_t k = 0; k < n; ++k) spare[digit_count[(items[k] >> low) & mask]++] = items[k];
          std::swap(items, spare);
        }
        for (int64_t k = 0; k < n; ++k)
          neighbors[cursor[static_cast<uint32_t>(items[k])]++] = order->column(static_cast<LocalId>(items[k] >> 32));
      }
    }
  }
};

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
  return every_node_has_room(entries_per_rank * (sizeof(uint64_t) + sizeof(LocalId)), kKeepEntriesMemoryShare,
                             grid.world());
}

// From the row lengths of pass 1 (original row ids): the owned degrees, the renumbering with
// `reorder` (forward maps for placing the entries), and the row starts in the graph's ids.
std::vector<int64_t> plan_rows(LocalGraph& g, const std::vector<int64_t>& lengths, const ProcessGrid& grid,
                               const GraphOptions& options, ForwardMaps& forward) {
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  // Full degree of each owned vertex: the sum of its row lengths over the processes of the grid row.
  g.owned_degree.assign(d.block, 0);
  comm::reduce_scatter_block(lengths.data(), g.owned_degree.data(), d.block, MPI_INT64_T, MPI_SUM, grid.row_comm(),
                             grid.limits());
  if (options.reorder) g.renumbering = build_renumbering(g.owned_degree, d, grid, forward);
  std::vector<int64_t> row_starts(nrows + 1, 0);
  const LocalId* row_new = options.reorder ? forward.row_new.data() : nullptr;
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < nrows; ++v) row_starts[(row_new ? row_new[v] : v) + 1] = lengths[v];
  for (int64_t v = 0; v < nrows; ++v) row_starts[v + 1] += row_starts[v];
  return row_starts;
}

// The kept-entries path: pass 1 keeps the routed entries, which are then grouped by row bucket,
// counted and dealt to the rows bucket by bucket (sorted on the way with `degree-sort`).
std::vector<int64_t> build_from_kept_entries(LocalGraph& g, const EdgeSource& source, const ProcessGrid& grid,
                                             const GraphOptions& options, NeighborOrder& order) {
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  const int64_t expected = static_cast<int64_t>(2.1 * static_cast<double>(source.global_edges) / grid.size());
  const RowBuckets buckets(nrows, expected);
  BucketedEntries kept(buckets, expected);
  {  // the chunk buffers are freed before the CSR is allocated
    Router router(d, grid);
    RawBuffer<gen::Edge> buffer;
    for_each_routed_chunk(source, grid.world(), router, buffer, g.input_read_seconds,
                          [&](const uint64_t* entries, int64_t n) { kept.append_chunk(entries, n); });
  }
  std::vector<int64_t> lengths(nrows, 0);
  count_rows(kept, buckets, lengths.data());
  ForwardMaps forward;
  std::vector<int64_t> row_starts = plan_rows(g, lengths, grid, options, forward);
  std::vector<int64_t>().swap(lengths);
  g.neighbors.resize(row_starts[nrows]);

  std::vector<LocalId> key_of_entry_column;
  const LocalId* col_new = options.reorder ? forward.col_new.data() : nullptr;
  if (options.degree_sort) {
    order = neighbor_order(g, grid);
    if (order.keys_are_ids) {
      key_of_entry_column = forward.col_new;
    } else {
      key_of_entry_column.resize(d.col_set_size());
      const int64_t ncols = d.col_set_size();
#pragma omp parallel for schedule(static)
      for (int64_t u = 0; u < ncols; ++u) key_of_entry_column[u] = order.key_of[col_new ? col_new[u] : u];
    }
  }
  const BucketFill fill{buckets,
                        nrows,
                        row_starts.data(),
                        options.reorder ? forward.row_new.data() : nullptr,
                        col_new,
                        options.degree_sort ? &order : nullptr,
                        key_of_entry_column.data(),
                        static_cast<int>(std::bit_width(static_cast<uint64_t>(std::max<int64_t>(1, d.col_set_size() - 1))))};
  fill.run(kept, g.neighbors.data());
  kept.release();
  return row_starts;
}

// The regenerate path (memory short): pass 1 counts the routed entries, pass 2 generates and
// routes the same edges again and fills each row at its cursor in arrival order; the rows are
// then sorted with `degree-sort`. Memory is the CSR plus one chunk's buffers.
std::vector<int64_t> build_by_regenerating(LocalGraph& g, const EdgeSource& source, const ProcessGrid& grid,
                                           const GraphOptions& options, NeighborOrder& order) {
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  Router router(d, grid);
  RawBuffer<gen::Edge> buffer;
  RowRangeApplier applier(nrows, omp_get_max_threads());
  std::vector<int64_t> cursor(nrows, 0);
  for_each_routed_chunk(source, grid.world(), router, buffer, g.input_read_seconds, [&](const uint64_t* entries, int64_t n) {
    applier.run(entries, n, [&](uint64_t entry) { ++cursor[entry_row(entry)]; });
  });
  ForwardMaps forward;
  std::vector<int64_t> row_starts = plan_rows(g, cursor, grid, options, forward);
  g.neighbors.resize(row_starts[nrows]);

  // Cursors stay indexed by original row: the applier gives each thread whole original rows.
  const LocalId* row_new = options.reorder ? forward.row_new.data() : nullptr;
  const LocalId* col_new = options.reorder ? forward.col_new.data() : nullptr;
  for (int64_t v = 0; v < nrows; ++v) cursor[v] = row_starts[row_new ? row_new[v] : v];
  auto fill = [&](const uint64_t* entries, int64_t n) {
    if (col_new)
      applier.run(entries, n, [&](uint64_t entry) {
        g.neighbors[cursor[entry_row(entry)]++] = col_new[static_cast<LocalId>(entry)];
      });
    else
      applier.run(entries, n, [&](uint64_t entry) { g.neighbors[cursor[entry_row(entry)]++] = static_cast<LocalId>(entry); });
  };
  for_each_routed_chunk(source, grid.world(), router, buffer, g.input_read_seconds, fill);
  forward = ForwardMaps();
  std::vector<int64_t>().swap(cursor);
  if (options.degree_sort) {
    order = neighbor_order(g, grid);
    sort_rows_by_degree(g, order, row_starts);
  }
  return row_starts;
}

}  // namespace

LocalGraph build_local_graph(const EdgeSource& source, const ProcessGrid& grid, const GraphOptions& options) {
  LocalGraph g;
  g.dist = Distribution(source.nvertices, grid.rows(), grid.cols(), grid.row(), grid.col(), options.layout);
  const bool keep = options.keep_entries && keep_entries_for_pass_two(source, grid);
  NeighborOrder order;  // with `degree-sort`: the rows' order, which packed rows keep
  std::vector<int64_t> row_starts = keep ? build_from_kept_entries(g, source, grid, options, order)
                                         : build_by_regenerating(g, source, grid, options, order);
  g.rows = RowIndex(std::move(row_starts), options.bcsr);
  g.first_neighbors = first_neighbors_of(g);
  if (g.renumbering.active()) {
    g.first_neighbors_original.resize(g.first_neighbors.size());
    const LocalId* col_original = g.renumbering.col_original.data();
#pragma omp parallel for schedule(static)
    for (size_t r = 0; r < g.first_neighbors.size(); ++r)
      g.first_neighbors_original[r] = col_original[g.first_neighbors[r]];
  }
  int64_t local = g.local_edges();
  MPI_Allreduce(&local, &g.global_directed_edges, 1, MPI_INT64_T, MPI_SUM, grid.world());
  if (options.compress) pack_rows(g, RowOrder{options.degree_sort, std::move(order.key_of), std::move(order.column_of)});
  return g;
}

}  // namespace g500
