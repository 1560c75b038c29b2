// Distributed validation of a BFS result by the Graph500 rules (specification section on kernel
// 2 validation; the reference 3.0 validator checks the same properties):
//  1. the root is its own parent and every parent is a vertex id or -1;
//  2. the parent pointers form a tree rooted at the root (no cycle; every chain reaches the root);
//     tree depths are computed from it;
//  3. every input edge joins vertices whose depths differ by at most one, or two unreached ones
//     (so the tree spans the root's component and every tree edge spans exactly one level);
//  4. every parent-child pair is an input edge.
// It also computes what the benchmark reports: reached vertices, level sizes and the TEPS edge
// count (input edges, not self-loops, with reached endpoints, duplicates counted), cross-checked
// against the degree sum of the reached vertices.
//
// Rules 3 and 4 and the edge count are checked on the input edges, read again from the source
// kernel 1 read (validate/edge_check.hpp), not on the graph kernel 1 built: the graph provides
// only its distribution and the owned vertices' degrees (the cross-check's other side).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/edge_source.hpp"
#include "graph/local_graph.hpp"
#include "validate/edge_check.hpp"
#include "validate/tree_depths.hpp"

namespace g500::validate {

struct ValidationResult {
  bool ok = false;
  std::string error;  // the first failure found, empty when ok
  int64_t reached = 0;
  int64_t nedge = 0;                 // the TEPS edge count
  std::vector<int64_t> level_sizes;  // from the tree depths
  uint64_t depth_hash = 0;           // sum of splitmix64(v * 64 + depth(v)) over reached v
};

// Switches for tests: every setting gives the same verdicts; the defaults are the fast ones.
struct ValidateOptions {
  bool narrow_depths = true;                     // 8-bit depths in the edge check when the tree is shallow
  TreeWalk tree_walk = TreeWalk::kDefault;       // how rule 2 finds the depths
  int64_t chunk_edges = 0;                       // input edges read at a time (0: check_chunk_edges)
  EdgeCheckWay way = EdgeCheckWay::kFewerBytes;  // owner queries or replicated (validate/edge_check.hpp)
};

// Collective. `edges` is this rank's share of the input edges (the source kernel 1 built `graph`
// from, or any other split of the same edge list over the ranks); `parents` holds the owned
// vertices' parents (global ids, -1 when unreached).
ValidationResult validate_bfs(const graph::LocalGraph& graph, const graph::EdgeSource& edges,
                              const graph::ProcessGrid& grid, int64_t root, const std::vector<int64_t>& parents,
                              const ValidateOptions& options = {});

}  // namespace g500::validate
