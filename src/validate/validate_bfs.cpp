// The four Graph500 rules of a BFS result on the 2D-partitioned graph (validate_bfs.hpp lists
// them): parent values, tree depths (validate/tree_depths.hpp), the depth rule on every input
// edge and the parent of each vertex among its input neighbours (validate/edge_check.hpp, 8-bit
// depths when the tree is shallow, to keep every vertex's gathered depth in cache).
#include "validate/validate_bfs.hpp"

#include <omp.h>

#include <algorithm>

#include "comm/typed.hpp"
#include "util/agree.hpp"
#include "util/bitmap.hpp"
#include "util/splitmix64.hpp"
#include "validate/tree_depths.hpp"

namespace g500::validate {

namespace {

// Rule 1: parent values are vertex ids or -1, padding vertices unreached, the root its own parent.
std::string check_parent_values(const graph::Distribution& d, int64_t root, const std::vector<int64_t>& parents) {
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

std::string describe_bad_edge(const EdgeCheck& edges) {
  if (!edges.bad) return {};
  return "edge (" + std::to_string(edges.bad_v) + ", " + std::to_string(edges.bad_u) + ") joins depths " +
         std::to_string(edges.bad_dv) + " and " + std::to_string(edges.bad_du) +
         " (-1 = unreached): levels must differ by at most one and the tree must span the component";
}

// Rule 4: every reached vertex but the root found its parent among its input neighbours (marked
// on its owner by the edge check). Also sums the reached vertices' degrees as kernel 1 counted
// them, the cross-check of the TEPS edge count.
std::string check_parents_are_neighbours(const graph::LocalGraph& graph, int64_t root,
                                         const std::vector<int64_t>& parents, const std::vector<int32_t>& depth,
                                         const util::Bitmap& tree_edge_seen, int64_t& degree_sum) {
  const graph::Distribution& d = graph.dist;
  const int64_t first = d.owned_begin();
  std::string error;
  degree_sum = 0;
  for (int64_t k = 0; k < d.block; ++k) {
    if (depth[k] == kUnreachedDepth) continue;
    const int64_t v = first + k;
    degree_sum += graph.owned_degree[k];
    if (v != root && !tree_edge_seen.test(k) && error.empty())
      error = "the parent " + std::to_string(parents[k]) + " of vertex " + std::to_string(v) +
              " is not one of its neighbours";
  }
  return error;
}

// Collective: the most input-edge endpoints a process owns (kernel 1's degrees of its owned
// vertices) over the mean, for the edge check's chunk (EdgeCheckOptions::fullest_owner_load).
double fullest_owner_load(const graph::LocalGraph& graph, const comm::Communicator& ranks) {
  int64_t mine = 0;
#pragma omp parallel for schedule(static) reduction(+ : mine)
  for (int64_t k = 0; k < graph.dist.block; ++k) mine += graph.owned_degree[k];
  const int64_t total = ranks.sum(mine), most = ranks.max(mine);
  return total > 0 ? static_cast<double>(most) * ranks.size() / static_cast<double>(total) : 1.0;
}

}  // namespace

ValidationResult validate_bfs(const graph::LocalGraph& graph, const graph::EdgeSource& edges,
                              const graph::ProcessGrid& grid, int64_t root, const std::vector<int64_t>& parents,
                              const ValidateOptions& options) {
  const graph::Distribution& d = graph.dist;
  const comm::Communicator ranks(grid.world(), grid.limits());
  ValidationResult result;
  result.error = util::first_error(check_parent_values(d, root, parents), grid.world());
  if (!result.error.empty()) return result;
  std::vector<int32_t> depth;
  result.error = tree_depths(d, grid, root, parents, depth, options.tree_walk);
  if (!result.error.empty()) return result;
  int32_t max_depth = 0;
#pragma omp parallel for schedule(static) reduction(max : max_depth)
  for (int64_t k = 0; k < d.block; ++k) max_depth = std::max(max_depth, depth[k]);
  max_depth = ranks.max(max_depth);

  util::Bitmap tree_edge_seen(d.block);
  EdgeCheckOptions check_options{options.narrow_depths, options.chunk_edges, options.way};
  check_options.fullest_owner_load = fullest_owner_load(graph, ranks);
  const EdgeCheck checked = check_input_edges(edges, d, grid, parents, depth, max_depth, check_options, tree_edge_seen);
  result.error = util::first_error(describe_bad_edge(checked), grid.world());
  if (!result.error.empty()) return result;
  int64_t degree_sum = 0;
  result.error = util::first_error(
      check_parents_are_neighbours(graph, root, parents, depth, tree_edge_seen, degree_sum), grid.world());
  if (!result.error.empty()) return result;
  tree_edge_seen = util::Bitmap();

  const int64_t first = d.owned_begin();
  std::vector<int64_t> levels(max_depth + 1, 0);
  uint64_t hash = 0;
  for (int64_t k = 0; k < d.block; ++k) {
    if (depth[k] == kUnreachedDepth) continue;
    ++levels[depth[k]];
    hash += util::splitmix64(static_cast<uint64_t>(first + k) * 64 + static_cast<uint64_t>(depth[k]));
  }
  ranks.sum_in_place(levels);
  hash = ranks.sum(hash);
  int64_t counts[2] = {checked.reached_entries, degree_sum};
  ranks.sum_in_place(counts);
  if (counts[0] != counts[1]) {
    result.error = "TEPS edge count mismatch: " + std::to_string(counts[0]) +
                   " input edge entries with reached endpoints but " + std::to_string(counts[1]) +
                   " by the reached vertices' degrees";
    return result;
  }
  result.level_sizes = levels;
  for (int64_t size : levels) result.reached += size;
  result.nedge = counts[0] / 2;
  result.depth_hash = hash;
  result.ok = true;
  return result;
}

}  // namespace g500::validate
