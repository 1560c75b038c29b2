// Kernel 1 computes N, the largest vertex id + 1, for files whose header declares more vertices:
// g500 bfs on a bin file of 2048 vertices and g500 sssp on a Matrix Market file of 3000, both with
// largest id 1000, through mpiexec at 1, 2, 4 and 6 ranks. Both print and record N = 1001; the
// input keeps its declared vertices (the per-vertex files list all of them, those past N
// unreached), and the roots are chosen on the declared size: the bin file's by the reference rule
// on 2^11 vertices, the mtx file's sampled the same at every rank count.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "gen/kronecker.hpp"
#include "gen/roots.hpp"
#include "run_command.hpp"

namespace g500::graph {
namespace {

using testing::read_file;
using testing::run_g500;

constexpr int64_t kLargestId = 1000;
constexpr int64_t kBinVertices = 2048;  // 2^11: the reference root rule applies
constexpr int64_t kMtxVertices = 3000;

// Edges among 0..kLargestId with kLargestId in one of them, and a self-loop.
std::vector<std::pair<int64_t, int64_t>> test_edges() {
  std::vector<std::pair<int64_t, int64_t>> edges;
  for (int64_t k = 0; k < 400; ++k) edges.emplace_back((k * 37) % 997, (k * 101 + 7) % 991);
  edges.emplace_back(kLargestId, 3);
  edges.emplace_back(5, 5);
  return edges;
}

// The vertices with an edge other than a self-loop.
std::set<int64_t> vertices_with_edges() {
  std::set<int64_t> with;
  for (const auto& [a, b] : test_edges())
    if (a != b) with.insert({a, b});
  return with;
}

std::string bin_file(const std::string& dir) {
  std::string bytes("G500EDGE\x01\0\0\0\0\0\0\0", 16);
  const int64_t n = kBinVertices, m = static_cast<int64_t>(test_edges().size());
  bytes.append(reinterpret_cast<const char*>(&n), 8).append(reinterpret_cast<const char*>(&m), 8);
  for (const auto& [a, b] : test_edges())
    bytes.append(reinterpret_cast<const char*>(&a), 8).append(reinterpret_cast<const char*>(&b), 8);
  return testing::write_file(dir, "g.bin", bytes);
}

std::string mtx_file(const std::string& dir) {
  std::ostringstream text;
  text << "%%MatrixMarket matrix coordinate pattern general\n"
       << kMtxVertices << " " << kMtxVertices << " " << test_edges().size() << "\n";
  for (const auto& [a, b] : test_edges()) text << a + 1 << " " << b + 1 << "\n";
  return testing::write_file(dir, "g.mtx", text.str());
}

// "id value" lines after one comment line.
std::map<int64_t, std::string> read_values(const std::string& path) {
  std::istringstream in(read_file(path));
  std::string line;
  std::map<int64_t, std::string> values;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    int64_t id = -1;
    std::string value;
    fields >> id >> value;
    values[id] = value;
  }
  return values;
}

// The reference rule's first `count` roots on 2^scale vertices, skipping those without an edge.
std::vector<int64_t> reference_roots(int scale, int count) {
  gen::KroneckerSpec spec;
  spec.scale = scale;
  const std::set<int64_t> with = vertices_with_edges();
  return gen::select_roots(spec, count, [&](const std::vector<int64_t>& candidates, std::vector<char>& usable) {
    for (size_t k = 0; k < candidates.size(); ++k) usable[k] = with.count(candidates[k]) ? 1 : 0;
  });
}

std::vector<int64_t> roots_of(const nlohmann::json& j) {
  std::vector<int64_t> roots;
  for (const auto& root : j["roots"]) roots.push_back(root["root"]);
  return roots;
}

TEST(VertexCountCli, BfsOnABinFileComputesNFromItsEdges) {
  const std::string dir = testing::make_temp_dir();
  const std::string bin = bin_file(dir);
  const int64_t with_edges = static_cast<int64_t>(vertices_with_edges().size());
  for (int ranks : {1, 2, 4, 6}) {
    auto r = run_g500(ranks,
                      "bfs --input " + bin + " --roots 4 --json " + dir + "/r.json --output-parents " + dir + "/p.txt");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("# g500 bfs: N 1001 (largest vertex id + 1), "), std::string::npos) << r.out;
    const auto j = nlohmann::json::parse(read_file(dir + "/r.json"));
    EXPECT_EQ(j["summary"]["nvertices_computed"], kLargestId + 1);
    EXPECT_EQ(j["input"]["vertices"], kBinVertices);
    EXPECT_EQ(j["input"]["vertices_without_edges"], kBinVertices - with_edges);
    EXPECT_EQ(roots_of(j), reference_roots(11, 4)) << ranks << " ranks";
    const auto parents = read_values(dir + "/p.txt");
    ASSERT_EQ(static_cast<int64_t>(parents.size()), kBinVertices);
    for (int64_t v = kLargestId + 1; v < kBinVertices; ++v) EXPECT_EQ(parents.at(v), "-1") << v;
  }
}

TEST(VertexCountCli, SsspOnAnMtxFileComputesNFromItsEdges) {
  const std::string dir = testing::make_temp_dir();
  const std::string mtx = mtx_file(dir);
  const std::set<int64_t> with = vertices_with_edges();
  std::vector<int64_t> first_roots;
  for (int ranks : {1, 2, 4, 6}) {
    auto r = run_g500(
        ranks, "sssp --input " + mtx + " --roots 4 --json " + dir + "/r.json --output-distances " + dir + "/d.txt");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("# g500 sssp: SCALE 12, N 1001 (largest vertex id + 1), "), std::string::npos) << r.out;
    const auto j = nlohmann::json::parse(read_file(dir + "/r.json"));
    EXPECT_EQ(j["summary"]["nvertices_computed"], kLargestId + 1);
    EXPECT_EQ(j["input"]["vertices"], kMtxVertices);
    const std::vector<int64_t> roots = roots_of(j);  // in the file's 1-based ids
    ASSERT_EQ(roots.size(), 4u);
    for (int64_t root : roots) EXPECT_TRUE(with.count(root - 1)) << root;
    if (first_roots.empty()) first_roots = roots;
    EXPECT_EQ(roots, first_roots) << ranks << " ranks";
    const auto distances = read_values(dir + "/d.txt");
    ASSERT_EQ(static_cast<int64_t>(distances.size()), kMtxVertices);
    for (int64_t id = kLargestId + 2; id <= kMtxVertices; ++id) EXPECT_EQ(distances.at(id), "inf") << id;
  }
}

}  // namespace
}  // namespace g500::graph
