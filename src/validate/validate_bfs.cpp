// The four Graph500 rules of a BFS result on the 2D-partitioned graph (validate_bfs.hpp lists
// them): parent values, tree depths (validate/tree_depths.hpp), the depth rule on every edge
// entry each process holds (8-bit depths when the tree is shallow, to keep the gathered row and
// column depths in cache), and the parent of each vertex among its neighbours.
#include "validate/validate_bfs.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "comm/large_count.hpp"
#include "graph/column_blocks.hpp"
#include "util/agree.hpp"
#include "util/bitmap.hpp"
#include "util/splitmix64.hpp"
#include "validate/tree_depths.hpp"

namespace g500 {

namespace {

// Rule 1: parent values are vertex ids or -1, padding vertices unreached, the root its own parent.
std::string check_parent_values(const Distribution& d, int64_t root, const std::vector<int64_t>& parents) {
  const int64_t first = d.owned_begin();
  for (int64_t k = 0; k < d.block; ++k) {
    const int64_t v = first + k, p = parents[k];
    if (p < -1 || p >= d.nvertices || (v >= d.nvertices && p != -1))
      return "vertex " + std::to_string(v) + " has an invalid parent " + std::to_string(p);
    if (v == root && p != root) return "the root " + std::to_string(root) + " is not its own parent";
    if (v != root && p == v) return "vertex " + std::to_string(v) + " is its own parent but is not the root";
  }
  return {};
}

// Depths as stored for the edge check: 0 for unreached, depth + 2 for reached. With depths up to
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

struct EdgeCheck {
  int64_t reached_entries = 0;
  int64_t bad_v = -1, bad_u = -1, bad_dv = 0, bad_du = 0;
};

// Rules 3 and 4 over this process's edges (v in the row set, u in the column set): the depth rule
// on every entry, and per row whether the row's parent (as a column-local id of this process's
// column set, -1 when it is elsewhere) is among its neighbours.
template <typename T>
EdgeCheck check_edges(const LocalGraph& graph, const std::vector<T>& row_depth, const std::vector<T>& col_depth,
                      const std::vector<int64_t>& row_target, Bitmap& tree_edge_seen) {
  EdgeCheck result;
  const RowIndex& rows = graph.rows;
  const bool compressed = rows.compressed();
  const int64_t* starts = rows.starts();
  const int64_t* word_offsets = rows.word_offsets();
  const uint64_t* has_edges = rows.has_edges().data();
  const int64_t nwords = rows.has_edges().num_words();
  const LocalId* neighbors = graph.neighbors.data();
  const int64_t nentries = graph.local_edges();
  constexpr int64_t kPrefetchDistance = 32;
  const T* cdepth = col_depth.data();
  uint64_t* seen = tree_edge_seen.data();
  int64_t reached_entries = 0;
  int64_t bad_v = std::numeric_limits<int64_t>::max();  // the lowest row with a bad entry
  const PackedRows& packed = graph.packed;
  LargeArray<LocalId> unpacked;  // a packed row decoded (resized without zeroing)
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : reached_entries) reduction(min : bad_v) firstprivate(unpacked)
  for (int64_t w = 0; w < nwords; ++w) {
    uint64_t bits = has_edges[w];
    int64_t r = compressed ? word_offsets[w] : 0;
    uint64_t seen_word = 0;
    while (bits) {
      const int bit = std::countr_zero(bits);
      bits &= bits - 1;
      const int64_t v = w * kBitsPerWord + bit;
      const int64_t slot = compressed ? r : v;
      const int64_t begin = starts[slot];
      const int64_t end = starts[slot + 1];
      ++r;
      const T dv = row_depth[v];
      const int64_t target = row_target[v];
      bool bad = false, found = false;
      const LocalId* row = neighbors + begin;
      int64_t readable = nentries - begin;
      if (packed.active() && end > begin) {  // packed rows (`compress`): decoded one at a time
        unpacked.resize(end - begin);
        packed.decode_row(slot, end - begin, graph.first_neighbors[slot], unpacked.data());
        row = unpacked.data();
        readable = end - begin;
      }
      for (int64_t i = 0; i < end - begin; ++i) {
        if (i + kPrefetchDistance < readable) __builtin_prefetch(cdepth + row[i + kPrefetchDistance]);
        const LocalId u = row[i];
        bad |= depths_bad(cdepth[u], dv);
        found |= static_cast<int64_t>(u) == target;
      }
      if (dv != 0) reached_entries += end - begin;
      if (found) seen_word |= uint64_t{1} << bit;
      if (bad && v < bad_v) bad_v = v;
    }
    seen[w] = seen_word;
  }
  result.reached_entries = reached_entries;
  if (bad_v != std::numeric_limits<int64_t>::max()) {
    result.bad_v = bad_v;
    result.bad_dv = unstored_depth(row_depth[bad_v]);
    const RowIndex::Extent extent = rows.extent(bad_v);
    const LocalId* row = neighbors + extent.begin;
    if (packed.active()) {
      unpacked.resize(extent.end - extent.begin);
      packed.decode_row(extent.slot, extent.end - extent.begin, graph.first_neighbors[extent.slot], unpacked.data());
      row = unpacked.data();
    }
    for (int64_t i = 0; i < extent.end - extent.begin; ++i)
      if (depths_bad(cdepth[row[i]], row_depth[bad_v])) {
        result.bad_u = row[i];
        result.bad_du = unstored_depth(cdepth[row[i]]);
        break;
      }
  }
  return result;
}

// Depths (stored as T) of the row set and the column set in the graph's ids, gathered from the
// owners' depths (original offsets).
template <typename T>
void gather_depths(const LocalGraph& graph, const ProcessGrid& grid, const std::vector<int32_t>& depth,
                   std::vector<T>& row_depth, std::vector<T>& col_depth) {
  const Distribution& d = graph.dist;
  row_depth.resize(d.row_set_size());
  col_depth.resize(d.col_set_size());
  T* row_mine = row_depth.data() + static_cast<int64_t>(d.col) * d.block;  // the communicators' orders
  T* col_mine = col_depth.data() + static_cast<int64_t>(d.row) * d.block;
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < d.block; ++k) row_mine[k] = stored_depth<T>(depth[graph.owned_original(k)]);
  const int64_t count = d.block * static_cast<int64_t>(sizeof(T));  // bytes
  // The column set's block at our position: ours with Yoo's layout, else from its owner.
  const void* hosted = hosted_column_block(row_mine, col_mine, count, MPI_BYTE, d, grid);
  if (hosted != col_mine) std::memcpy(col_mine, hosted, static_cast<size_t>(count));
  comm::allgather(MPI_IN_PLACE, row_depth.data(), count, MPI_BYTE, grid.row_comm(), grid.limits());
  comm::allgather(MPI_IN_PLACE, col_depth.data(), count, MPI_BYTE, grid.col_comm(), grid.limits());
}

template <typename T>
EdgeCheck gather_and_check_edges(const LocalGraph& graph, const ProcessGrid& grid, const std::vector<int32_t>& depth,
                                 const std::vector<int64_t>& row_target, Bitmap& tree_edge_seen) {
  std::vector<T> row_depth, col_depth;
  gather_depths(graph, grid, depth, row_depth, col_depth);
  return check_edges(graph, row_depth, col_depth, row_target, tree_edge_seen);
}

// Per row of the row set, its parent as a column-local id in the graph's ids of this process's
// column set (-1 when unreached or in another column set): the only neighbour that can be the
// tree edge (ids differ from the original ones when the graph is renumbered, Nakao et al. 2021,
// section 4.2). Collective over the row and column communicators.
std::vector<int64_t> tree_edge_targets(const LocalGraph& graph, const ProcessGrid& grid,
                                       const std::vector<int64_t>& parents) {
  const Distribution& d = graph.dist;
  std::vector<int64_t> row_target(d.row_set_size());
  int64_t* mine = row_target.data() + static_cast<int64_t>(d.col) * d.block;  // the row communicator's order
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < d.block; ++k) mine[k] = parents[graph.owned_original(k)];
  comm::allgather(MPI_IN_PLACE, row_target.data(), d.block, MPI_INT64_T, grid.row_comm(), grid.limits());
  // Original column-local id x = position * B + offset -> the graph's: position * B plus the new
  // offset in that position's block, from its owner's owned_new (the column set's blocks are
  // those hosted by P(0..R-1, j), in the column communicator's order).
  std::vector<LocalId> gathered_new;
  const LocalId* new_offset = nullptr;
  if (graph.renumbering.active()) {
    if (d.R == 1) {  // one block, ours (in both layouts)
      new_offset = graph.renumbering.owned_new.data();
    } else {
      gathered_new.resize(d.col_set_size());
      std::vector<LocalId> hosted(d.columns_aligned() ? 0 : d.block);
      comm::allgather(hosted_column_block(graph.renumbering.owned_new.data(), hosted.data(), d.block, MPI_UINT32_T, d, grid),
                      gathered_new.data(), d.block, MPI_UINT32_T, grid.col_comm(), grid.limits());
      new_offset = gathered_new.data();
    }
  }
  const int64_t nrows = d.row_set_size();
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < nrows; ++v) {
    const int64_t p = row_target[v];
    if (p < 0 || d.col_set_of(p) != d.col) {
      row_target[v] = -1;
      continue;
    }
    const LocalId x = d.col_local(p);
    row_target[v] = new_offset ? x - static_cast<LocalId>(d.by_block.remainder(x)) + new_offset[x] : x;
  }
  return row_target;
}

// Rule 3 on this process's edges, in the narrowest depth type that holds the tree's depths;
// also marks in tree_edge_seen the rows whose parent is among their neighbours here.
EdgeCheck check_edges_against_depths(const LocalGraph& graph, const ProcessGrid& grid, const std::vector<int32_t>& depth,
                                     int32_t max_depth, const std::vector<int64_t>& parents, bool narrow_depths,
                                     Bitmap& tree_edge_seen) {
  const std::vector<int64_t> row_target = tree_edge_targets(graph, grid, parents);
  constexpr int32_t kNarrowMaxDepth = 252;  // stored_depth<uint8_t> holds depth + 2 <= 254
  if (narrow_depths && max_depth <= kNarrowMaxDepth)
    return gather_and_check_edges<uint8_t>(graph, grid, depth, row_target, tree_edge_seen);
  return gather_and_check_edges<uint32_t>(graph, grid, depth, row_target, tree_edge_seen);
}

std::string describe_bad_edge(const LocalGraph& graph, const EdgeCheck& edges) {
  if (edges.bad_v < 0) return {};
  const Distribution& d = graph.dist;
  const int64_t v = d.global_from_row_local(graph.original_row_local(static_cast<LocalId>(edges.bad_v)), d.row);
  const int64_t u = d.global_from_col_local(graph.original_col_local(static_cast<LocalId>(edges.bad_u)), d.col);
  return "edge (" + std::to_string(v) + ", " + std::to_string(u) + ") joins depths " + std::to_string(edges.bad_dv) +
         " and " + std::to_string(edges.bad_du) +
         " (-1 = unreached): levels must differ by at most one and the tree must span the component";
}

// Rule 4: every reached vertex but the root found its parent among its neighbours on some process
// of its grid row (the rows' marks are OR-ed onto the owners). Also sums the reached vertices'
// degrees, the cross-check of the TEPS edge count.
std::string check_parents_are_neighbours(const LocalGraph& graph, const ProcessGrid& grid, int64_t root,
                                         const std::vector<int64_t>& parents, const std::vector<int32_t>& depth,
                                         const Bitmap& tree_edge_seen, int64_t& degree_sum) {
  const Distribution& d = graph.dist;
  std::vector<uint64_t> owned_seen(d.block / kBitsPerWord);
  comm::reduce_scatter_block(tree_edge_seen.data(), owned_seen.data(), d.block / kBitsPerWord, MPI_UINT64_T, MPI_BOR,
                             grid.row_comm(), grid.limits());
  const int64_t first = d.owned_begin();
  std::string error;
  degree_sum = 0;
  for (int64_t k = 0; k < d.block; ++k) {
    if (depth[k] == kUnreachedDepth) continue;
    const int64_t v = first + k;
    degree_sum += graph.owned_degree[k];
    const int64_t local = graph.owned_local(k);
    if (v != root && !((owned_seen[local / kBitsPerWord] >> (local % kBitsPerWord)) & 1U) && error.empty())
      error = "the parent " + std::to_string(parents[k]) + " of vertex " + std::to_string(v) +
              " is not one of its neighbours";
  }
  return error;
}

}  // namespace

ValidationResult validate_bfs(const LocalGraph& graph, const ProcessGrid& grid, int64_t root,
                              const std::vector<int64_t>& parents, const ValidateOptions& options) {
  const Distribution& d = graph.dist;
  ValidationResult result;
  result.error = first_error(check_parent_values(d, root, parents), grid.world());
  if (!result.error.empty()) return result;
  std::vector<int32_t> depth;
  result.error = tree_depths(d, grid, root, parents, depth, options.local_tree_walk);
  if (!result.error.empty()) return result;
  int32_t max_depth = 0;
#pragma omp parallel for schedule(static) reduction(max : max_depth)
  for (int64_t k = 0; k < d.block; ++k) max_depth = std::max(max_depth, depth[k]);
  MPI_Allreduce(MPI_IN_PLACE, &max_depth, 1, MPI_INT32_T, MPI_MAX, grid.world());

  Bitmap tree_edge_seen(d.row_set_size());
  const EdgeCheck edges =
      check_edges_against_depths(graph, grid, depth, max_depth, parents, options.narrow_depths, tree_edge_seen);
  result.error = first_error(describe_bad_edge(graph, edges), grid.world());
  if (!result.error.empty()) return result;
  int64_t degree_sum = 0;
  result.error =
      first_error(check_parents_are_neighbours(graph, grid, root, parents, depth, tree_edge_seen, degree_sum), grid.world());
  if (!result.error.empty()) return result;

  const int64_t first = d.owned_begin();
  std::vector<int64_t> levels(max_depth + 1, 0);
  uint64_t hash = 0;
  for (int64_t k = 0; k < d.block; ++k) {
    if (depth[k] == kUnreachedDepth) continue;
    ++levels[depth[k]];
    hash += splitmix64(static_cast<uint64_t>(first + k) * 64 + static_cast<uint64_t>(depth[k]));
  }
  comm::allreduce(MPI_IN_PLACE, levels.data(), static_cast<int64_t>(levels.size()), MPI_INT64_T, MPI_SUM, grid.world(),
                  grid.limits());
  MPI_Allreduce(MPI_IN_PLACE, &hash, 1, MPI_UINT64_T, MPI_SUM, grid.world());
  int64_t counts[2] = {edges.reached_entries, degree_sum};
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, grid.world());
  if (counts[0] != counts[1]) {
    result.error = "TEPS edge count mismatch: " + std::to_string(counts[0]) + " edge entries with reached endpoints but " +
                   std::to_string(counts[1]) + " by the reached vertices' degrees";
    return result;
  }
  result.level_sizes = levels;
  for (int64_t size : levels) result.reached += size;
  result.nedge = counts[0] / 2;
  result.depth_hash = hash;
  result.ok = true;
  return result;
}

}  // namespace g500
