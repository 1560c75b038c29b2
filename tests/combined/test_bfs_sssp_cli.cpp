// g500 bfs --sssp, the combined run, end to end through mpiexec at 1, 2, 4 and 6 ranks: one
// result block with the reference bfs_sssp build's lines in its order, every BFS and SSSP root
// equal to the test vectors; and the one-kernel runs print the other kernel's lines as zeros.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.hpp"
#include "testvectors.hpp"

namespace g500::combined {
namespace {

using testing::run_g500;

// The keys of the reference's bfs_sssp output (src/main.c of the reference 3.0), in order.
std::vector<std::string> reference_keys() {
  std::vector<std::string> keys{
      "SCALE:", "edgefactor:", "NBFS:", "graph_generation:", "num_mpi_processes:", "construction_time:"};
  const std::vector<std::string> stats{"min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev"};
  const std::vector<std::string> teps{"min", "firstquartile", "median",         "thirdquartile",
                                      "max", "harmonic_mean", "harmonic_stddev"};
  for (const char* k : {"bfs", "sssp"})
    for (const auto& s : stats) keys.push_back(std::string(k) + " " + s + "_time:");
  for (const auto& s : stats) keys.push_back(s + "_nedge:");
  for (const char* k : {"bfs", "sssp"})
    for (const auto& s : teps) keys.push_back(std::string(k) + " " + s + "_TEPS:");
  for (const char* k : {"bfs", "sssp"})
    for (const auto& s : stats) keys.push_back(std::string(k) + " " + s + "_validate:");
  return keys;
}

struct BlockLine {
  std::string key;  // the kernel prefix's spaces folded to one, "!" dropped
  double value = 0;
};

// The result block's lines ("key: value", not comments) of a run's stdout, up to the first blank line.
std::vector<BlockLine> block_lines(const std::string& out) {
  std::vector<BlockLine> lines;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() && !lines.empty()) break;
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon + 1);
    if (const size_t two = key.find("  "); two != std::string::npos) key.erase(two, 1);  // "bfs  x" -> "bfs x"
    std::string value = line.substr(colon + 1);
    if (const size_t bang = value.find('!'); bang != std::string::npos) value.erase(bang, 1);
    lines.push_back({key, std::stod(value)});
  }
  return lines;
}

double value_of(const std::vector<BlockLine>& lines, const std::string& key) {
  for (const auto& l : lines)
    if (l.key == key) return l.value;
  ADD_FAILURE() << "no line " << key;
  return NAN;
}

TEST(BfsSsspCli, BothBlocksInTheReferenceOrderMatchTheVectors) {
  const auto vec = testing::load_graph_vector(10);
  for (int ranks : {1, 2, 4, 6}) {
    const std::string dir = testing::make_temp_dir();
    auto r = run_g500(ranks, "bfs --sssp --scale 10 --json " + dir + "/run.json");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<BlockLine> lines = block_lines(r.out);
    const std::vector<std::string> keys = reference_keys();
    ASSERT_EQ(lines.size(), keys.size()) << r.out;
    for (size_t k = 0; k < keys.size(); ++k) EXPECT_EQ(lines[k].key, keys[k]) << "line " << k << "\n" << r.out;
    EXPECT_EQ(value_of(lines, "NBFS:"), 64);
    EXPECT_GT(value_of(lines, "graph_generation:"), 0);
    EXPECT_GT(value_of(lines, "bfs harmonic_mean_TEPS:"), 0);
    EXPECT_GT(value_of(lines, "sssp harmonic_mean_TEPS:"), 0);
    EXPECT_GT(value_of(lines, "sssp min_validate:"), 0);

    auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
    EXPECT_EQ(j["config"]["kernel"], "bfs+sssp");
    EXPECT_TRUE(j["summary"]["validation_passed"]);
    EXPECT_GT(j["summary"]["sssp_harmonic_mean_TEPS"].get<double>(), 0);
    ASSERT_EQ(j["roots"].size(), 64u);
    ASSERT_EQ(j["sssp"]["roots"].size(), 64u);
    for (size_t k = 0; k < 64; ++k) {
      const auto& want = vec.roots[k];
      const auto& bfs = j["roots"][k];
      EXPECT_EQ(bfs["root"], want.root);
      EXPECT_EQ(bfs["reached"], want.reached);
      EXPECT_EQ(bfs["nedge"], want.nedge_for_teps);
      EXPECT_EQ(bfs["level_sizes"].get<std::vector<int64_t>>(), want.level_sizes);
      EXPECT_EQ(std::stoull(bfs["depth_hash"].get<std::string>(), nullptr, 16), want.depth_hash)
          << "root " << want.root;
      const auto& sssp = j["sssp"]["roots"][k];
      EXPECT_EQ(sssp["root"], want.root);
      EXPECT_EQ(sssp["reached"], want.reached);
      EXPECT_EQ(sssp["nedge"], want.nedge_for_teps);
      EXPECT_TRUE(sssp["validated"]);
      EXPECT_LE(std::fabs(sssp["sum_dist"].get<double>() - want.sssp_sum_dist), 1e-6 * want.sssp_sum_dist);
      EXPECT_LE(std::fabs(sssp["max_dist"].get<double>() - want.sssp_max_dist), 1e-6 * want.sssp_max_dist);
    }
  }
}

// A run of one kernel has the same block, the other kernel's time, TEPS and validation as zeros.
TEST(BfsSsspCli, OneKernelRunsPrintTheOtherKernelAsZeros) {
  for (const std::string kernel : {"bfs", "sssp"}) {
    auto r = run_g500(2, kernel + " --scale 8 --roots 4");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<BlockLine> lines = block_lines(r.out);
    const std::vector<std::string> keys = reference_keys();
    ASSERT_EQ(lines.size(), keys.size()) << r.out;
    const std::string other = kernel == "bfs" ? "sssp " : "bfs ";
    for (size_t k = 0; k < keys.size(); ++k) {
      EXPECT_EQ(lines[k].key, keys[k]) << r.out;
      if (keys[k].rfind(other, 0) == 0) {
        EXPECT_EQ(lines[k].value, 0) << keys[k];
      }
      if (keys[k].rfind(kernel + " median_TEPS", 0) == 0) {
        EXPECT_GT(lines[k].value, 0) << keys[k];
      }
    }
    EXPECT_EQ(value_of(lines, "min_nedge:"), 4011);  // the vectors' SCALE 8 edge count
  }
}

}  // namespace
}  // namespace g500::combined
