// Rules 3 and 4 on the input edges (edge_check.hpp): gather the row and column sets' depths and
// the row set's parents, stream the input edges through kernel 1's router, check every entry.
//
// The entries arrive in the generator's order, so every entry reads its row's and its column's
// values at random (kernel 1's graph had the rows in order; the input has no order). What keeps
// the check near two random reads per entry: the row's depth and a fingerprint of its target
// (the low byte of the parent's column-local id) share one 16-bit word, so the target itself is
// read only for entries that may be the tree edge (about one per reached row, plus one in 256 of
// the entries one level up).
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
// depth, no fingerprint (the target is read for every entry one level up).
struct NarrowRows {
  using Depth = uint8_t;
  using Row = uint16_t;
  static constexpr bool kFingerprint = true;
  static Depth depth(Row r) { return static_cast<Depth>(r); }
  static Row with_fingerprint(Row r, uint64_t target) { return static_cast<Row>(r | (target & 0xffU) << 8); }
  static bool may_be_target(Row r, LocalId u) { return (r >> 8) == (u & 0xffU); }
};
struct WideRows {
  using Depth = uint32_t;
  using Row = uint32_t;
  static constexpr bool kFingerprint = false;
  static Depth depth(Row r) { return r; }
  static bool may_be_target(Row, LocalId) { return true; }
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
  int64_t reached_entries = 0;
  uint64_t first_bad = std::numeric_limits<uint64_t>::max();

  void operator()(const uint64_t* entries, int64_t n) {
    // The row and column values are read at random: they are prefetched 2 * kAhead entries
    // ahead; kAhead entries ahead, the row's word is in cache, and the target is prefetched when
    // the fingerprint says the entry may be the tree edge.
    constexpr int64_t kAhead = 32;
    int64_t reached = 0;
    uint64_t bad = first_bad;
#pragma omp parallel for schedule(static) reduction(+ : reached) reduction(min : bad)
    for (int64_t k = 0; k < n; ++k) {
      if (k + 2 * kAhead < n) {
        const uint64_t ahead = entries[k + 2 * kAhead];
        __builtin_prefetch(row_word + entry_row(ahead));
        __builtin_prefetch(col_depth + entry_col(ahead));
      }
      if (k + kAhead < n) {
        const uint64_t ahead = entries[k + kAhead];
        if (Rows::may_be_target(row_word[entry_row(ahead)], entry_col(ahead))) __builtin_prefetch(target + entry_row(ahead));
      }
      const uint64_t entry = entries[k];
      const LocalId v = entry_row(entry), u = entry_col(entry);
      const Row row = row_word[v];
      const Depth dv = Rows::depth(row), du = col_depth[u];
      if (depths_bad(du, dv)) bad = std::min(bad, entry);
      reached += dv != 0;
      if (one_level_up(du, dv) && Rows::may_be_target(row, u) && static_cast<Target>(u) == target[v])
        std::atomic_ref<uint64_t>(seen[v / kBitsPerWord]).fetch_or(uint64_t{1} << (v % kBitsPerWord),
                                                                   std::memory_order_relaxed);
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
  EntryCheck<Rows, Target> check{row_word.data(), col_depth.data(), target, tree_edge_seen.data()};
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
  int64_t reached_entries = 0;
  uint64_t first_bad = std::numeric_limits<uint64_t>::max();  // as the lower of the edge's two entries

  // The direction v -> u: marks v when u is its parent.
  void tree_edge(int64_t v, Row row, Depth dv, int64_t u, Depth du) const {
    if (one_level_up(du, dv) && Rows::may_be_target(row, static_cast<LocalId>(u)) && parent[v] == u)
      std::atomic_ref<uint64_t>(seen[v / kBitsPerWord]).fetch_or(uint64_t{1} << (v % kBitsPerWord),
                                                                 std::memory_order_relaxed);
  }

  void operator()(const gen::Edge* edges, int64_t n) {
    constexpr int64_t kAhead = 32;  // as in EntryCheck
    int64_t reached = 0;
    uint64_t bad = first_bad;
#pragma omp parallel for schedule(static) reduction(+ : reached) reduction(min : bad)
    for (int64_t k = 0; k < n; ++k) {
      if (k + 2 * kAhead < n) {
        __builtin_prefetch(word + edges[k + 2 * kAhead].v0);
        __builtin_prefetch(word + edges[k + 2 * kAhead].v1);
      }
      if (k + kAhead < n) {
        const int64_t a = edges[k + kAhead].v0, b = edges[k + kAhead].v1;
        if (Rows::may_be_target(word[a], static_cast<LocalId>(b))) __builtin_prefetch(parent + a);
        if (Rows::may_be_target(word[b], static_cast<LocalId>(a))) __builtin_prefetch(parent + b);
      }
      const int64_t a = edges[k].v0, b = edges[k].v1;
      if (a == b) continue;  // self-loops are not edges of the graph
      const Row wa = word[a], wb = word[b];
      const Depth da = Rows::depth(wa), db = Rows::depth(wb);
      if (depths_bad(da, db))
        bad = std::min(bad, static_cast<uint64_t>(std::min(a, b)) << 32 | static_cast<uint64_t>(std::max(a, b)));
      reached += (da != 0) + (db != 0);
      tree_edge(a, wa, da, b, db);
      tree_edge(b, wb, db, a, da);
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
  EdgePairCheck<Rows> check{word.data(), parents.data(), tree_edge_seen.data()};
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
