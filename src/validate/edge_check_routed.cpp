// The input edges routed as kernel 1 routes them (graph/edge_router.hpp): each process checks the
// entries (v, u) of its block against the gathered values of its row set (depth and parent
// fingerprint per row, original row-local ids) and column set (depth, original column-local ids);
// the entries' ids are the original ones, so the renumbering (Nakao et al. 2021, section 4.2)
// plays no part. Memory per process: two bytes per row and one per column (narrow), the row
// set's parents as 32-bit column-local ids (none with one grid column), and one chunk's routing
// buffers; no copy of the edge list.
#include <omp.h>

#include <cstring>

#include "comm/large_count.hpp"
#include "graph/column_blocks.hpp"
#include "graph/edge_router.hpp"
#include "util/huge_pages.hpp"
#include "validate/edge_check_parts.hpp"

namespace g500::edge_check {
namespace {

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
  std::vector<Target> target;  // read at random: huge pages (util/huge_pages.hpp)
  assign_huge(target, static_cast<size_t>(d.row_set_size()), Target{0});
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

// The row set's words and the column set's stored depths from the owners' depths: the row set's
// blocks over the row communicator, the column set's over the column communicator (after the
// transpose of the row-major layout, graph/column_blocks.hpp). The fingerprints come from the
// targets, as column-local ids are what the entries carry.
template <class Rows, typename Target>
void gather_set_values(const Distribution& d, const ProcessGrid& grid, const std::vector<int32_t>& depth,
                       const Target* target, std::vector<typename Rows::Row>& row_word,
                       std::vector<typename Rows::Depth>& col_depth) {
  using Row = typename Rows::Row;
  using Depth = typename Rows::Depth;
  // Both are read at random: huge pages spare a page walk per read (util/huge_pages.hpp).
  assign_huge(row_word, static_cast<size_t>(d.row_set_size()), Row{0});
  assign_huge(col_depth, static_cast<size_t>(d.col_set_size()), Depth{0});
  Row* row_mine = row_word.data() + static_cast<int64_t>(d.col) * d.block;  // the communicators' orders
  Depth* col_mine = col_depth.data() + static_cast<int64_t>(d.row) * d.block;
  // The column set's block at our position: ours when the layout needs no transpose, else from
  // its owner (our own block's depths then go to the process that hosts it).
  std::vector<Depth> owned(d.columns_aligned() ? 0 : d.block);
  Depth* own = d.columns_aligned() ? col_mine : owned.data();
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < d.block; ++k) {
    row_mine[k] = Rows::word(depth[k], 0);  // the fingerprint is added after the gather
    own[k] = stored_depth<Depth>(depth[k]);
  }
  const int64_t col_bytes = d.block * static_cast<int64_t>(sizeof(Depth));
  const void* hosted = hosted_column_block(own, col_mine, col_bytes, MPI_BYTE, d, grid);
  if (hosted != col_mine) std::memcpy(col_mine, hosted, static_cast<size_t>(col_bytes));
  std::vector<Depth>().swap(owned);
  comm::allgather(MPI_IN_PLACE, row_word.data(), d.block * static_cast<int64_t>(sizeof(Row)), MPI_BYTE, grid.row_comm(),
                  grid.limits());
  comm::allgather(MPI_IN_PLACE, col_depth.data(), col_bytes, MPI_BYTE, grid.col_comm(), grid.limits());
  const int64_t nrows = d.row_set_size();
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < nrows; ++v) row_word[v] = Rows::with_fingerprint(row_word[v], static_cast<uint64_t>(target[v]));
}

// The check of one routed chunk's entries (v's row-local id << 32 | u's column-local id); sums the
// entries with a reached row and keeps the lowest failing edge.
template <class Rows, typename Target>
struct EntryCheck {
  using Row = typename Rows::Row;
  using Depth = typename Rows::Depth;
  const Distribution& d;
  const Row* row_word;
  const Depth* col_depth;
  const Target* target;
  uint64_t* seen;  // the row set's tree-edge marks
  Candidates candidates{};
  int64_t reached_entries = 0;
  BadEdge bad{};

  void operator()(const uint64_t* entries, int64_t n) {
    // The row and column values are read at random: prefetching ahead overlaps the misses
    // (32 entries measured best at SCALE 22, 16 was 10 % slower, 64 no better).
    constexpr int64_t kAhead = 32;
    int64_t reached = 0;
#pragma omp parallel reduction(+ : reached)
    {
      std::vector<uint64_t>& mine = candidates.mine();
      BadEdge my_bad;
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
        if (__builtin_expect(depths_bad(du, dv), 0))
          my_bad.consider(d.global_from_row_local(v, d.row), unstored_depth(dv), d.global_from_col_local(u, d.col),
                          unstored_depth(du));
        reached += dv != 0;
        if (__builtin_expect(Rows::candidate(row, du, u), 0)) mine.push_back(entry);
      }
      Candidates::resolve(mine, target, seen, [](uint64_t v) { return static_cast<int64_t>(v); });
#pragma omp critical
      bad.merge(my_bad);
    }
    reached_entries += reached;
  }
};

template <class Rows, typename Target>
EdgeCheck check_entries(const EdgeSource& source, const Distribution& d, const ProcessGrid& grid,
                        const std::vector<int32_t>& depth, const Target* target, const EdgeCheckOptions& options,
                        Bitmap& tree_edge_seen) {
  std::vector<typename Rows::Row> row_word;
  std::vector<typename Rows::Depth> col_depth;
  gather_set_values<Rows>(d, grid, depth, target, row_word, col_depth);
  EntryCheck<Rows, Target> check{d, row_word.data(), col_depth.data(), target, tree_edge_seen.data()};
  Router router(d, grid);
  RawBuffer<gen::Edge> buffer;
  RoutingSeconds seconds;
  for_each_routed_chunk(
      source, grid.world(), router, buffer, seconds, [&](const uint64_t* entries, int64_t n) { check(entries, n); },
      options.chunk_edges);
  EdgeCheck result;
  result.reached_entries = check.reached_entries;
  report(check.bad, result);
  return result;
}

template <class Rows>
EdgeCheck check_with_targets(const EdgeSource& source, const Distribution& d, const ProcessGrid& grid,
                             const std::vector<int64_t>& parents, const std::vector<int32_t>& depth,
                             const EdgeCheckOptions& options, Bitmap& tree_edge_seen) {
  // One grid column: the row set is the owned block and column-local ids are global ids, so the
  // parents are the targets already.
  if (d.C == 1) return check_entries<Rows>(source, d, grid, depth, parents.data(), options, tree_edge_seen);
  // 32-bit targets leave one value for kNoTarget unless a column set has 2^32 vertices.
  if (d.col_set_size() <= static_cast<int64_t>(kNoTarget<LocalId>)) {
    const std::vector<LocalId> target = gather_targets<LocalId>(d, grid, parents);
    return check_entries<Rows>(source, d, grid, depth, target.data(), options, tree_edge_seen);
  }
  const std::vector<int64_t> target = gather_targets<int64_t>(d, grid, parents);
  return check_entries<Rows>(source, d, grid, depth, target.data(), options, tree_edge_seen);
}

}  // namespace

EdgeCheck check_routed(const EdgeSource& source, const Distribution& d, const ProcessGrid& grid,
                       const std::vector<int64_t>& parents, const std::vector<int32_t>& depth, bool narrow,
                       const EdgeCheckOptions& options, Bitmap& tree_edge_seen) {
  if (narrow) return check_with_targets<NarrowRows>(source, d, grid, parents, depth, options, tree_edge_seen);
  return check_with_targets<WideRows>(source, d, grid, parents, depth, options, tree_edge_seen);
}

double routed_bytes(const Distribution& d) {
  const double rows = static_cast<double>(d.row_set_size()), cols = static_cast<double>(d.col_set_size());
  const double values = rows * sizeof(NarrowRows::Row) + cols * sizeof(NarrowRows::Depth);
  const double targets = d.C == 1 ? 0.0 : rows * sizeof(LocalId);
  // One chunk: the edges read, and in the router the entries made, their destinations, the send
  // buffer and what is received, two entries per edge each.
  const double chunk = static_cast<double>(kCheckChunkEdges);
  const double buffers = chunk * sizeof(gen::Edge) + 2 * chunk * (3 * sizeof(uint64_t) + sizeof(int));
  return values + targets + buffers;
}

}  // namespace g500::edge_check
