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
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/local_graph.hpp"

namespace g500 {

struct ValidationResult {
  bool ok = false;
  std::string error;                 // the first failure found, empty when ok
  int64_t reached = 0;
  int64_t nedge = 0;                 // the TEPS edge count
  std::vector<int64_t> level_sizes;  // from the tree depths
  uint64_t depth_hash = 0;           // sum of splitmix64(v * 64 + depth(v)) over reached v
};

// Switches for tests: both settings give the same verdicts; the defaults are the fast ones.
struct ValidateOptions {
  bool narrow_depths = true;    // 8-bit depths in the edge check when the tree is at most 252 deep
  bool local_tree_walk = true;  // on one process, tree depths by walking parent chains
};

// Collective. `parents` holds the owned vertices' parents (global ids, -1 when unreached).
ValidationResult validate_bfs(const LocalGraph& graph, const ProcessGrid& grid, int64_t root,
                              const std::vector<int64_t>& parents, const ValidateOptions& options = {});

}  // namespace g500
