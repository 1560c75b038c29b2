// Rules 3 and 4 on the input edges (edge_check.hpp): gather the row and column sets' depths and
// the row set's parents, stream the input edges through kernel 1's router, check every entry.
//
// The entries arrive in the generator's order, so every entry reads its row's and its column's
// values at random (kernel 1's graph had the rows in order; the input has no order). What keeps
// the check near two random reads per entry:
//  - a row's depth and a fingerprint of its target (the low byte of the parent's column-local id)
//    share one 16-bit word, so one compare of the row's word with the word the entry would give
//    if it were the tree edge leaves about one candidate per reached row (plus one in 256 of the
//    entries one level up);
//  - each thread checks its candidates' targets after its share of the chunk, in order, with
//    prefetching: a random read of the target at every candidate waits for memory each time
//    (measured at SCALE 22: that wait cost as much as the rest of the check).
#include "validate/edge_check.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "comm/large_count.hpp"
#include "graph/column_blocks.hpp"
#include "graph/edge_router.hpp"
#include "validate/tree_depths.hpp"

namespace g500 {
namespace {

// Depths as stored for the check: 0 for unreached, depth + 2 for reached. With depths up to
// max(T) - 3, (T)(du - dv + 1) <= 2 holds exactly when both are unreached or both are reached
// with depths at most one apart: differences are taken modulo 2^bits, and no stored reached value
// is within one (cyclically) of 0.
template <typename T>
T stored_depth(int32_t depth) {
  return depth == kUnreachedDepth ? T{0} : static_cast<T>(depth + 2);
}
template <typename T>
int64_t unstored_depth(T stored) {
  return stored == 0 ? -1 : static_cast<int64_t>(stored) - 2;
}
template <typename T>
bool depths_bad(T du, T dv) {
  return static_cast<T>(du - dv + 1) > T{2};
}
// u can be v's parent only one level above it: stored(du) + 1 == stored(dv) (never true when
// either is unreached, as no reached value is stored as 1).
template <typename T>
bool one_level_up(T du, T dv) {
  return static_cast<T>(du + 1) == dv;
}

// What a row holds for the check. Narrow: the 8-bit stored depth in the low byte and the low byte
// of the row's target above it. Wide (trees deeper than kNarrowMaxDepth): the 32-bit stored
// depth, no fingerprint (every entry one level up is a candidate).
struct NarrowRows {
  using Depth = uint8_t;
  using Row = uint16_t;
  static constexpr bool kFingerprint = true;
  static Depth depth(Row r) { return static_cast<Depth>(r); }
  static Row with_fingerprint(Row r, uint64_t target) { return static_cast<Row>(r | (target & 0xffU) << 8); }
  // v's word when u, at stored depth du, is v's parent: one compare does the level and the
  // fingerprint.
  static bool candidate(Row row_v, Depth du, uint64_t u) {
    return row_v == static_cast<Row>(static_cast<Depth>(du + 1) | (u & 0xffU) << 8);
  }
};
struct WideRows {
  using Depth = uint32_t;
  using Row = uint32_t;
  static constexpr bool kFingerprint = false;
  static Depth depth(Row r) { return r; }
  static bool candidate(Row row_v, Depth du, uint64_t) { return one_level_up(du, row_v); }
};

// Entries (v << 32 | u) that may be v's tree edge, found by one thread in its share of a chunk;
// the thread then reads their targets in order, prefetching ahead, and marks the rows whose
// target is u. Reused from chunk to chunk.
class Candidates {
 public:
  Candidates() : per_thread_(omp_get_max_threads()) {}
  std::vector<uint64_t>& mine() { return per_thread_[omp_get_thread_num()]; }
  // Called by each thread on its own list, in the parallel region that filled it.
  template <typename Target>
  static void resolve(std::vector<uint64_t>& list, const Target* target, uint64_t* seen) {
    constexpr int64_t kAhead = 16;
    const int64_t n = static_cast<int64_t>(list.size());
    for (int64_t i = 0; i < n; ++i) {
      if (i + kAhead < n) __builtin_prefetch(target + entry_row(list[i + kAhead]));
      const LocalId v = entry_row(list[i]), u = entry_col(list[i]);
      if (static_cast<int64_t>(target[v]) == static_cast<int64_t>(u))
        std::atomic_ref<uint64_t>(seen[v / kBitsPerWord]).fetch_or(uint64_t{1} << (v % kBitsPerWord),
                                                                   std::memory_order_relaxed);
    }
    list.clear();
  }

 private:
  std::vector<std::vector<uint64_t>> per_thread_;
};

// The value of a row's target when its parent is not in this process's column set (or it has none).
template <typename Target>
constexpr Target kNoTarget = std::numeric_limits<Target>::max();
template <>
constexpr int64_t kNoTarget<int64_t> = -1;

// Owned vertices per slice of the parents' gather: its temporary is C slices of 8 bytes each.
constexpr int64_t kTargetSlice = int64_t{1} << 18;

// Per row of the row set, its parent as a column-local id of this process's column set, or
// kNoTarget<Target> (unreached, or the parent lives in another column set): the one column an
// entry of the row must have to be its tree edge. The parents are global ids, and whether one
// falls in the column set depends on the receiving process, so they are gathered along the row
// as they are, a slice of every block at a time, and translated here.
template <typename Target>
std::vector<Target> gather_targets(const Distribution& d, const ProcessGrid& grid, const std::vector<int64_t>& parents) {
  std::vector<Target> target(d.row_set_size());
  std::vector<int64_t> gathered(static_cast<size_t>(std::min(d.block, kTargetSlice)) * d.C);
  for (int64_t begin = 0; begin < d.block; begin += kTargetSlice) {
    const int64_t count = std::min(kTargetSlice, d.block - begin);
    comm::allgather(parents.data() + begin, gathered.data(), count, MPI_INT64_T, grid.row_comm(), grid.limits());
#pragma omp parallel for schedule(static) collapse(2)
    for (int t = 0; t < d.C; ++t)
      for (int64_t k = 0; k < count; ++k) {
        const int64_t p = gathered[t * count + k];
        target[t * d.block + begin + k] =
            p >= 0 && d.col_set_of(p) == d.col ? static_cast<Target>(d.col_local(p)) : kNoTarget<Target>;
      }
  }
  return target;
}

// The row set's words (original row-local ids) and the column set's stored depths (original
// column-local ids) from the owners' depths: the row set's blocks over the row communicator, the
// column set's over the column communicator (after the transpose of the row-major layout,
// graph/column_blocks.hpp). The targets' fingerprints are added to the row words here.
template <class Rows, typename Target>
void gather_set_values(const Distribution& d, const ProcessGrid& grid, const std::vector<int32_t>& depth,
                       const Target* target, std::vector<typename Rows::Row>& row_word,
                       std::vector<typename Rows::Depth>& col_depth) {
  using Row = typename Rows::Row;
  using Depth = typename Rows::Depth;
  row_word.resize(d.row_set_size());
  col_depth.resize(d.col_set_size());
  Row* row_mine = row_word.data() + static_cast<int64_t>(d.col) * d.block;  // the communicators' orders
  Depth* col_mine = col_depth.data() + static_cast<int64_t>(d.row) * d.block;
  // The column set's block at our position: ours when the layout needs no transpose, else from
  // its owner (our own block's depths then go to the process that hosts it).
  std::vector<Depth> owned(d.columns_aligned() ? 0 : d.block);
  Depth* own = d.columns_aligned() ? col_mine : owned.data();
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < d.block; ++k) {
    row_mine[k] = stored_depth<Depth>(depth[k]);
    own[k] = stored_depth<Depth>(depth[k]);
  }
  const int64_t col_bytes = d.block * static_cast<int64_t>(sizeof(Depth));
  const void* hosted = hosted_column_block(own, col_mine, col_bytes, MPI_BYTE, d, grid);
  if (hosted != col_mine) std::memcpy(col_mine, hosted, static_cast<size_t>(col_bytes));
  std::vector<Depth>().swap(owned);
  comm::allgather(MPI_IN_PLACE, row_word.data(), d.block * static_cast<int64_t>(sizeof(Row)), MPI_BYTE, grid.row_comm(),
                  grid.limits());
  comm::allgather(MPI_IN_PLACE, col_depth.data(), col_bytes, MPI_BYTE, grid.col_comm(), grid.limits());
  if constexpr (Rows::kFingerprint) {
    const int64_t nrows = d.row_set_size();
#pragma omp parallel for schedule(static)
    for (int64_t v = 0; v < nrows; ++v) row_word[v] = Rows::with_fingerprint(row_word[v], static_cast<uint64_t>(target[v]));
  }
}

// The check of one routed chunk's entries (v's row-local id << 32 | u's column-local id); sums the
// entries with a reached row and keeps the lowest failing entry.
template <class Rows, typename Target>
struct EntryCheck {
  using Row = typename Rows::Row;
  using Depth = typename Rows::Depth;
  const Row* row_word;
  const Depth* col_depth;
  const Target* target;
  uint64_t* seen;  // the row set's tree-edge marks
  Candidates candidates;
  int64_t reached_entries = 0;
  uint64_t first_bad = std::numeric_limits<uint64_t>::max();

  void operator()(const uint64_t* entries, int64_t n) {
    // The row and column values are read at random: prefetching ahead overlaps the misses
    // (32 entries measured best at SCALE 22, 16 was 10 % slower, 64 no better).
    constexpr int64_t kAhead = 32;
    int64_t reached = 0;
    uint64_t bad = first_bad;
#pragma omp parallel reduction(+ : reached) reduction(min : bad)
    {
      std::vector<uint64_t>& mine = candidates.mine();
#pragma omp for schedule(static) nowait
      for (int64_t k = 0; k < n; ++k) {
        if (k + kAhead < n) {
          __builtin_prefetch(row_word + entry_row(entries[k + kAhead]));
          __builtin_prefetch(col_depth + entry_col(entries[k + kAhead]));
        }
        const uint64_t entry = entries[k];
        const LocalId v = entry_row(entry), u = entry_col(entry);
        const Row row = row_word[v];
        const Depth dv = Rows::depth(row), du = col_depth[u];
        if (depths_bad(du, dv)) bad = std::min(bad, entry);
        reached += dv != 0;
        if (__builtin_expect(Rows::candidate(row, du, u), 0)) mine.push_back(entry);
      }
      Candidates::resolve(mine, target, seen);
    }
    reached_entries += reached;
    first_bad = bad;
  }
};

// Rules 3 and 4 on the entries routed to this process.
template <class Rows, typename Target>
EdgeCheck check_routed_entries(const EdgeSource& source, const Distribution& d, const ProcessGrid& grid,
                               const std::vector<int32_t>& depth, const Target* target, const EdgeCheckOptions& options,
                               Bitmap& tree_edge_seen) {
  std::vector<typename Rows::Row> row_word;
  std::vector<typename Rows::Depth> col_depth;
  gather_set_values<Rows>(d, grid, depth, target, row_word, col_depth);
  EntryCheck<Rows, Target> check{row_word.data(), col_depth.data(), target, tree_edge_seen.data(), {}};
  Router router(d, grid);
  RawBuffer<gen::Edge> buffer;
  double read_seconds = 0;
  for_each_routed_chunk(
      source, grid.world(), router, buffer, read_seconds, [&](const uint64_t* entries, int64_t n) { check(entries, n); },
      options.chunk_edges);
  EdgeCheck result;
  result.reached_entries = check.reached_entries;
  if (check.first_bad != std::numeric_limits<uint64_t>::max()) {
    const LocalId v = entry_row(check.first_bad), u = entry_col(check.first_bad);
    result.bad = true;
    result.bad_v = d.global_from_row_local(v, d.row);
    result.bad_u = d.global_from_col_local(u, d.col);
    result.bad_dv = unstored_depth(Rows::depth(row_word[v]));
    result.bad_du = unstored_depth(col_depth[u]);
  }
  return result;
}

// One process: it receives both entries of every edge, and its row-local and column-local ids
// are the global ids (the routing is the identity), so each edge {a, b} is checked as it is read,
// both directions from the two endpoints' words (depth and target fingerprint, one array for
// rows and columns): two random reads per edge instead of the four of its two entries, and no
// routed copy of the chunk.
template <class Rows>
struct EdgePairCheck {
  using Row = typename Rows::Row;
  using Depth = typename Rows::Depth;
  const Row* word;
  const int64_t* parent;  // the targets: on one process, the parents themselves
  uint64_t* seen;
  Candidates candidates;
  int64_t reached_entries = 0;
  uint64_t first_bad = std::numeric_limits<uint64_t>::max();  // as the lower of the edge's two entries

  void operator()(const gen::Edge* edges, int64_t n) {
    constexpr int64_t kAhead = 16;  // two reads per edge: as many lines in flight as EntryCheck
    int64_t reached = 0;
    uint64_t bad = first_bad;
#pragma omp parallel reduction(+ : reached) reduction(min : bad)
    {
      std::vector<uint64_t>& mine = candidates.mine();
#pragma omp for schedule(static) nowait
      for (int64_t k = 0; k < n; ++k) {
        if (k + kAhead < n) {
          __builtin_prefetch(word + edges[k + kAhead].v0);
          __builtin_prefetch(word + edges[k + kAhead].v1);
        }
        const uint64_t a = static_cast<uint64_t>(edges[k].v0), b = static_cast<uint64_t>(edges[k].v1);
        if (a == b) continue;  // self-loops are not edges of the graph
        const Row wa = word[a], wb = word[b];
        const Depth da = Rows::depth(wa), db = Rows::depth(wb);
        if (depths_bad(da, db)) bad = std::min(bad, std::min(a, b) << 32 | std::max(a, b));
        reached += (da != 0) + (db != 0);
        if (__builtin_expect(Rows::candidate(wa, db, b), 0)) mine.push_back(a << 32 | b);
        if (__builtin_expect(Rows::candidate(wb, da, a), 0)) mine.push_back(b << 32 | a);
      }
      Candidates::resolve(mine, parent, seen);
    }
    reached_entries += reached;
    first_bad = bad;
  }
};

template <class Rows>
EdgeCheck check_edges_on_one_process(const EdgeSource& source, const Distribution& d, const std::vector<int64_t>& parents,
                                     const std::vector<int32_t>& depth, const EdgeCheckOptions& options,
                                     Bitmap& tree_edge_seen) {
  using Row = typename Rows::Row;
  std::vector<Row> word(d.block);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < d.block; ++v) {
    const Row stored = stored_depth<typename Rows::Depth>(depth[v]);
    if constexpr (Rows::kFingerprint) word[v] = Rows::with_fingerprint(stored, static_cast<uint64_t>(parents[v]));
    else word[v] = stored;
  }
  EdgePairCheck<Rows> check{word.data(), parents.data(), tree_edge_seen.data(), {}};
  const int64_t chunk = std::min(source.local_count, options.chunk_edges);
  std::vector<gen::Edge> edges(chunk);
  for (int64_t offset = 0; offset < source.local_count; offset += chunk) {
    const int64_t count = std::min(chunk, source.local_count - offset);
    source.read(offset, count, edges.data());
    check(edges.data(), count);
  }
  EdgeCheck result;
  result.reached_entries = check.reached_entries;
  if (check.first_bad != std::numeric_limits<uint64_t>::max()) {
    const int64_t v = static_cast<int64_t>(check.first_bad >> 32), u = static_cast<int64_t>(check.first_bad & 0xffffffffU);
    result.bad = true;
    result.bad_v = v;
    result.bad_u = u;
    result.bad_dv = unstored_depth(Rows::depth(word[v]));
    result.bad_du = unstored_depth(Rows::depth(word[u]));
  }
  return result;
}

template <class Rows>
EdgeCheck check_with_rows(const EdgeSource& source, const Distribution& d, const ProcessGrid& grid,
                          const std::vector<int64_t>& parents, const std::vector<int32_t>& depth,
                          const EdgeCheckOptions& options, Bitmap& tree_edge_seen) {
  if (grid.size() == 1) return check_edges_on_one_process<Rows>(source, d, parents, depth, options, tree_edge_seen);
  // One grid column: the row set is the owned block and column-local ids are global ids, so the
  // parents are the targets already.
  if (d.C == 1) return check_routed_entries<Rows>(source, d, grid, depth, parents.data(), options, tree_edge_seen);
  // 32-bit targets leave one value for kNoTarget unless a column set has 2^32 vertices.
  if (d.col_set_size() <= static_cast<int64_t>(kNoTarget<LocalId>)) {
    const std::vector<LocalId> target = gather_targets<LocalId>(d, grid, parents);
    return check_routed_entries<Rows>(source, d, grid, depth, target.data(), options, tree_edge_seen);
  }
  const std::vector<int64_t> target = gather_targets<int64_t>(d, grid, parents);
  return check_routed_entries<Rows>(source, d, grid, depth, target.data(), options, tree_edge_seen);
}

}  // namespace

EdgeCheck check_input_edges(const EdgeSource& source, const Distribution& d, const ProcessGrid& grid,
                            const std::vector<int64_t>& parents, const std::vector<int32_t>& depth, int32_t max_depth,
                            const EdgeCheckOptions& options, Bitmap& tree_edge_seen) {
  if (options.narrow_depths && max_depth <= kNarrowMaxDepth)
    return check_with_rows<NarrowRows>(source, d, grid, parents, depth, options, tree_edge_seen);
  return check_with_rows<WideRows>(source, d, grid, parents, depth, options, tree_edge_seen);
}

double input_edge_check_bytes(const Distribution& d, int nranks) {
  const double chunk = static_cast<double>(kCheckChunkEdges);
  const double read = chunk * sizeof(gen::Edge);  // the chunk of input edges
  if (nranks == 1) return static_cast<double>(d.block) * sizeof(NarrowRows::Row) + read;
  const double rows = static_cast<double>(d.row_set_size()), cols = static_cast<double>(d.col_set_size());
  const double values = rows * sizeof(NarrowRows::Row) + cols * sizeof(NarrowRows::Depth);
  const double targets = d.C == 1 ? 0.0 : rows * sizeof(LocalId);
  // Router (graph/edge_router.hpp): the entries made, their destinations, the send buffer and
  // what is received, two entries per edge each.
  const double routing = 2 * chunk * (3 * sizeof(uint64_t) + sizeof(int));
  return values + targets + read + routing;
}

}  // namespace g500
