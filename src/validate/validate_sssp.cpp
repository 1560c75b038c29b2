// The Graph500 3.0 rules of an SSSP result (validate_sssp.hpp lists them), checked on the
// weighted 2D-partitioned graph: distances and parents of the row and column sets are gathered
// along the grid, every edge entry is checked on the process that holds it, and the checks' first
// failure is agreed on by all ranks.
#include "validate/validate_sssp.hpp"

#include <omp.h>

#include <cmath>

#include "comm/large_count.hpp"
#include "comm/typed.hpp"
#include "util/agree.hpp"
#include "util/bitmap.hpp"
#include "validate/tree_depths.hpp"

namespace g500::validate {
namespace {

bool within(double got, double want) {
  return std::fabs(got - want) <= kDistanceTolerance * std::max(1.0, std::fabs(want));
}

std::string check_values(const graph::Distribution& d, int64_t root, const std::vector<double>& dist,
                         const std::vector<int64_t>& parents) {
  const int64_t first = d.owned_begin();
  for (int64_t k = 0; k < d.block; ++k) {
    const int64_t v = first + k, p = parents[k];
    const double dv = dist[k];
    if (p < -1 || p >= d.nvertices || (v >= d.nvertices && p != -1))
      return "vertex " + std::to_string(v) + " has an invalid parent " + std::to_string(p);
    if (std::isnan(dv) || dv < 0)
      return "vertex " + std::to_string(v) + " has an invalid distance " + std::to_string(dv);
    if ((p >= 0) != std::isfinite(dv))
      return "vertex " + std::to_string(v) +
             (p >= 0 ? " has a parent but no distance" : " has a distance but no parent");
    if (v == root && (p != root || dv != 0))
      return "the root " + std::to_string(root) + " is not its own parent at distance 0";
    if (v != root && p == v) return "vertex " + std::to_string(v) + " is its own parent but is not the root";
  }
  return {};
}

// values[original[x]] for every x: values gathered by original id, in the graph's order.
template <class T>
std::vector<T> in_graph_order(const std::vector<T>& values, const graph::IdTable& original) {
  std::vector<T> out(values.size());
#pragma omp parallel for schedule(static)
  for (size_t x = 0; x < values.size(); ++x) out[x] = values[original[x]];
  return out;
}

void distance_summary(const graph::Distribution& d, const std::vector<double>& dist, MPI_Comm comm,
                      SsspValidation& result) {
  double sum = 0, max = 0;
  int64_t reached = 0;
  for (int64_t k = 0; k < d.block; ++k)
    if (std::isfinite(dist[k])) {
      sum += dist[k];
      max = std::max(max, dist[k]);
      ++reached;
    }
  const comm::Communicator ranks(comm);
  result.sum_dist = ranks.sum(sum);
  result.max_dist = ranks.max(max);
  result.reached = ranks.sum(reached);
}

// The distances of this process's row and column sets and the parents of its row set, in the
// graph's order (the results are by original offset, a renumbered graph's rows and neighbours in
// its own ids).
struct SetValues {
  std::vector<double> row_dist, col_dist;
  std::vector<int64_t> row_parent;
};
SetValues gather_set_values(const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                            const std::vector<double>& dist, const std::vector<int64_t>& parents) {
  const graph::Distribution& d = graph.dist;
  SetValues g{std::vector<double>(d.row_set_size()), std::vector<double>(d.col_set_size()),
              std::vector<int64_t>(d.row_set_size())};
  const util::MessageLimits& limits = grid.limits();
  comm::allgather(dist.data(), g.row_dist.data(), d.block, MPI_DOUBLE, grid.row_comm(), limits);
  comm::allgather(dist.data(), g.col_dist.data(), d.block, MPI_DOUBLE, grid.col_comm(), limits);
  comm::allgather(parents.data(), g.row_parent.data(), d.block, MPI_INT64_T, grid.row_comm(), limits);
  // Put the gathered values into the graph's order; ids are translated back where they are reported.
  if (graph.renumbering.active()) {
    g.row_dist = in_graph_order(g.row_dist, graph.renumbering.row_original);
    g.col_dist = in_graph_order(g.col_dist, graph.renumbering.col_original);
    g.row_parent = in_graph_order(g.row_parent, graph.renumbering.row_original);
  }
  return g;
}

// Rules 3-5 over this process's entries (v in the row set, u in the column set, weight w): rule 4
// for every entry (the first failure is this process's error), and for rules 3 and 5 the row-set
// vertices whose parent is a neighbour (parent_edge) at the right distance (parent_weight).
// Counts the entries with a reached v (for the TEPS edge count).
std::string check_entries(const graph::WeightedLocalGraph& wg, const SetValues& g, util::Bitmap& parent_edge,
                          util::Bitmap& parent_weight, int64_t& reached_entries) {
  const graph::LocalGraph& graph = wg.graph;
  const graph::Distribution& d = graph.dist;
  int64_t bad_v = -1, bad_u = -1;
  double bad_w = 0;
  const int64_t nrows = d.row_set_size();
  int64_t reached = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : reached)
  for (int64_t v = 0; v < nrows; ++v) {
    const double dv = g.row_dist[v];
    const int64_t parent = g.row_parent[v];
    for (int64_t e = graph.row_begin(v); e < graph.row_end(v); ++e) {
      const graph::LocalId u = graph.neighbors[e];
      const double du = g.col_dist[u], w = static_cast<double>(wg.weights[e]);
      // dist[v] <= dist[u] + w; an unreached v next to a reached u fails it (infinity).
      if (std::isfinite(du) && !(dv <= du + w || within(dv, du + w))) {
#pragma omp critical(validate_sssp_bad_edge)
        if (bad_v < 0) {
          bad_v = v;
          bad_u = u;
          bad_w = w;
        }
      }
      if (std::isfinite(dv)) ++reached;
      if (parent >= 0 && parent == d.global_from_col_local(graph.original_col_local(u), d.col)) {
        parent_edge.test_and_set_atomic(v);
        if (within(dv, du + w)) parent_weight.test_and_set_atomic(v);
      }
    }
  }
  reached_entries = reached;
  if (bad_v < 0) return {};
  const int64_t v = d.global_from_row_local(graph.original_row_local(static_cast<graph::LocalId>(bad_v)), d.row);
  const int64_t u = d.global_from_col_local(graph.original_col_local(static_cast<graph::LocalId>(bad_u)), d.col);
  return "edge (" + std::to_string(u) + ", " + std::to_string(v) + ", " + std::to_string(bad_w) + "): dist " +
         std::to_string(g.row_dist[bad_v]) + " of " + std::to_string(v) + " exceeds dist " +
         std::to_string(g.col_dist[bad_u]) + " of " + std::to_string(u) +
         " plus the weight (a wrong distance, or a vertex of the root's component left unreached)";
}

// Rules 3 and 5 for the owned vertices, from the row bitmaps of check_entries() ORed along the
// grid row; sums the reached owned vertices' degrees (for the TEPS edge count).
std::string check_parent_edges(const graph::LocalGraph& graph, const graph::ProcessGrid& grid, int64_t root,
                               const std::vector<double>& dist, const std::vector<int64_t>& parents,
                               const util::Bitmap& parent_edge, const util::Bitmap& parent_weight,
                               int64_t& degree_sum) {
  const graph::Distribution& d = graph.dist;
  std::vector<uint64_t> owned_edge(d.block / util::kBitsPerWord), owned_weight(d.block / util::kBitsPerWord);
  comm::reduce_scatter_block(parent_edge.data(), owned_edge.data(), d.block / util::kBitsPerWord, MPI_UINT64_T, MPI_BOR,
                             grid.row_comm(), grid.limits());
  comm::reduce_scatter_block(parent_weight.data(), owned_weight.data(), d.block / util::kBitsPerWord, MPI_UINT64_T,
                             MPI_BOR, grid.row_comm(), grid.limits());
  const int64_t first = d.owned_begin();
  std::string error;
  degree_sum = 0;
  for (int64_t k = 0; k < d.block; ++k) {
    if (!std::isfinite(dist[k])) continue;
    const int64_t v = first + k;
    degree_sum += graph.owned_degree[k];
    if (v == root || !error.empty()) continue;
    const int64_t x = graph.owned_local(k);  // the bitmaps are in the graph's ids
    const bool edge = (owned_edge[x / util::kBitsPerWord] >> (x % util::kBitsPerWord)) & 1U;
    const bool weight = (owned_weight[x / util::kBitsPerWord] >> (x % util::kBitsPerWord)) & 1U;
    if (!edge)
      error = "the parent " + std::to_string(parents[k]) + " of vertex " + std::to_string(v) +
              " is not one of its neighbours (not an input edge)";
    else if (!weight)
      error = "tree edge (" + std::to_string(parents[k]) + ", " + std::to_string(v) + "): dist " +
              std::to_string(dist[k]) + " is not the parent's distance plus the edge weight";
  }
  return error;
}

}  // namespace

SsspValidation sssp_statistics(const graph::WeightedLocalGraph& wg, const graph::ProcessGrid& grid,
                               const std::vector<double>& dist) {
  SsspValidation result;
  const graph::Distribution& d = wg.graph.dist;
  distance_summary(d, dist, grid.world(), result);
  int64_t degree_sum = 0;
  for (int64_t k = 0; k < d.block; ++k)
    if (std::isfinite(dist[k])) degree_sum += wg.graph.owned_degree[k];
  result.nedge = comm::Communicator(grid.world()).sum(degree_sum) / 2;
  result.ok = true;
  return result;
}

SsspValidation validate_sssp(const graph::WeightedLocalGraph& wg, const graph::ProcessGrid& grid, int64_t root,
                             const std::vector<double>& dist, const std::vector<int64_t>& parents) {
  const graph::LocalGraph& graph = wg.graph;
  const graph::Distribution& d = graph.dist;
  SsspValidation result;
  result.error = util::first_error(check_values(d, root, dist, parents), grid.world());
  if (!result.error.empty()) return result;
  std::vector<int32_t> depth;  // rule 2 only needs the walk to reach every vertex with a parent
  result.error = tree_depths(d, grid, root, parents, depth);
  if (!result.error.empty()) return result;

  const SetValues g = gather_set_values(graph, grid, dist, parents);
  util::Bitmap parent_edge(d.row_set_size()), parent_weight(d.row_set_size());
  int64_t reached_entries = 0;
  result.error = util::first_error(check_entries(wg, g, parent_edge, parent_weight, reached_entries), grid.world());
  if (!result.error.empty()) return result;
  int64_t degree_sum = 0;
  result.error = util::first_error(
      check_parent_edges(graph, grid, root, dist, parents, parent_edge, parent_weight, degree_sum), grid.world());
  if (!result.error.empty()) return result;

  int64_t counts[2] = {reached_entries, degree_sum};
  comm::Communicator(grid.world()).sum_in_place(counts);
  if (counts[0] != counts[1]) {
    result.error = "TEPS edge count mismatch: " + std::to_string(counts[0]) +
                   " edge entries with reached endpoints but " + std::to_string(counts[1]) +
                   " by the reached vertices' degrees";
    return result;
  }
  distance_summary(d, dist, grid.world(), result);
  result.nedge = counts[0] / 2;
  result.ok = true;
  return result;
}

}  // namespace g500::validate
