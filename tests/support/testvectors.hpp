// Access to the Graph500 reference test vectors in tests/vectors (see its README.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace g500::testing {

struct RootVector {
  int64_t root = 0;
  int64_t reached = 0;
  int64_t max_depth = 0;
  int64_t nedge_for_teps = 0;
  uint64_t depth_hash = 0;
  std::vector<int64_t> level_sizes;
  double sssp_sum_dist = 0;
  double sssp_max_dist = 0;
};

struct GraphVector {
  int scale = 0;
  int edgefactor = 0;
  int64_t nvertices = 0;
  int64_t nedges_generated = 0;
  int64_t self_loops = 0;
  int64_t non_isolated_vertices = 0;
  int64_t max_degree = 0;
  uint64_t edge_multiset_hash_sum = 0;
  uint64_t edge_multiset_hash_xor = 0;
  std::vector<RootVector> roots;
};

struct TsvEdge {
  int64_t v0, v1;
  float weight;
};

std::string testvector_path(const std::string& file);
GraphVector load_graph_vector(int scale);       // g500_s<scale>.json
std::vector<TsvEdge> load_kron_tsv(int scale);  // kron_s<scale>_ef16_weighted.tsv
uint64_t splitmix64_finalizer(uint64_t z);      // as defined in the README

}  // namespace g500::testing
