#include "testvectors.hpp"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace g500::testing {

std::string testvector_path(const std::string& file) { return std::string(G500_TESTVECTORS) + "/" + file; }

static uint64_t parse_hex(const std::string& s) { return std::stoull(s, nullptr, 16); }

GraphVector load_graph_vector(int scale) {
  std::ifstream in(testvector_path("g500_s" + std::to_string(scale) + ".json"));
  if (!in) throw std::runtime_error("cannot open test vector for scale " + std::to_string(scale));
  nlohmann::json j = nlohmann::json::parse(in);
  GraphVector g;
  g.scale = j.at("scale");
  g.edgefactor = j.at("edgefactor");
  g.nvertices = j.at("nvertices");
  g.nedges_generated = j.at("nedges_generated");
  g.self_loops = j.at("self_loops");
  g.non_isolated_vertices = j.at("non_isolated_vertices");
  g.max_degree = j.at("max_degree");
  g.edge_multiset_hash_sum = parse_hex(j.at("edge_multiset_hash_sum"));
  g.edge_multiset_hash_xor = parse_hex(j.at("edge_multiset_hash_xor"));
  for (const auto& r : j.at("roots")) {
    RootVector v;
    v.root = r.at("root");
    v.reached = r.at("reached");
    v.max_depth = r.at("max_depth");
    v.nedge_for_teps = r.at("nedge_for_teps");
    v.depth_hash = parse_hex(r.at("depth_hash"));
    v.level_sizes = r.at("level_sizes").get<std::vector<int64_t>>();
    v.sssp_sum_dist = r.at("sssp_sum_dist");
    v.sssp_max_dist = r.at("sssp_max_dist");
    g.roots.push_back(std::move(v));
  }
  return g;
}

std::vector<TsvEdge> load_kron_tsv(int scale) {
  std::ifstream in(testvector_path("kron_s" + std::to_string(scale) + "_ef16_weighted.tsv"));
  if (!in) throw std::runtime_error("cannot open tsv test vector for scale " + std::to_string(scale));
  std::vector<TsvEdge> edges;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    TsvEdge e{};
    if (std::sscanf(line.c_str(), "%ld\t%ld\t%f", &e.v0, &e.v1, &e.weight) != 3)
      throw std::runtime_error("bad tsv line: " + line);
    edges.push_back(e);
  }
  return edges;
}

uint64_t splitmix64_finalizer(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace g500::testing
