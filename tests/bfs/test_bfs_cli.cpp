// g500 bfs end to end through mpiexec: the result block and JSON of a validated run equal the
// test vectors, and each kind of bad input gives one error line and a non-zero exit.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "run_command.hpp"
#include "usage_error.hpp"
#include "testvectors.hpp"

namespace g500 {
namespace {

using testing::run_g500;

void expect_usage_error(int ranks, const std::string& args, const std::string& message);

void expect_usage_error(int ranks, const std::string& args, const std::string& message) {
  testing::expect_usage_error("bfs", ranks, args, message);
}

TEST(BfsCli, ValidatedRunMatchesVectorsAndPrintsTheResultBlock) {
  for (int ranks : {1, 4}) {
    const std::string dir = testing::make_temp_dir();
    auto r = run_g500(ranks, "bfs --scale 10 --json " + dir + "/run.json");
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* field : {"SCALE:                          10", "NBFS:                           64",
                              "num_mpi_processes:", "construction_time:", "bfs  median_TEPS:",
                              "bfs  harmonic_mean_TEPS:     !  ", "bfs  harmonic_stddev_TEPS:", "bfs  max_validate:",
                              "min_nedge:                      16239"})
      EXPECT_NE(r.out.find(field), std::string::npos) << field << "\n" << r.out;
    auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
    const auto vec = testing::load_graph_vector(10);
    ASSERT_EQ(j["roots"].size(), 64u);
    EXPECT_EQ(j["config"]["ranks"], ranks);
    for (size_t k = 0; k < 64; ++k) {
      EXPECT_EQ(j["roots"][k]["root"], vec.roots[k].root);
      EXPECT_EQ(j["roots"][k]["reached"], vec.roots[k].reached);
      EXPECT_EQ(j["roots"][k]["nedge"], vec.roots[k].nedge_for_teps);
      EXPECT_EQ(j["roots"][k]["level_sizes"].get<std::vector<int64_t>>(), vec.roots[k].level_sizes);
      EXPECT_TRUE(j["roots"][k]["validated"]);
    }
    EXPECT_GT(j["summary"]["harmonic_mean_TEPS"].get<double>(), 0);
    EXPECT_TRUE(j["summary"]["validation_passed"]);
  }
}

// A permuted placement of 6 ranks on a 3x2 grid (rows on a 3-node ring, columns on a 2-node
// mesh) from `g500 map`: the BFS must still match the test vectors, in both layouts.
TEST(BfsCli, RankmapFromTheMappingToolGivesTheSameResults) {
  const std::string dir = testing::make_temp_dir();
  auto map = testing::run_command(std::string(G500_BINARY) + " map --shape 3t,2m --nodes 6 --grid 3x2 --shuffle-ranks 7 --output " +
                                  dir + "/map.csv");
  ASSERT_EQ(map.status, 0) << map.err << map.out;
  // Also with the row-major layout (`yoo` off), whose transposes and world exchanges address
  // processes by the placement's world ranks.
  for (const std::string extra : {"", " --disable yoo"}) {
    auto r = run_g500(6, "bfs --scale 12 --rankmap " + dir + "/map.csv --json " + dir + "/run.json" + extra);
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
    EXPECT_EQ(j["config"]["grid"]["rows"], 3);
    EXPECT_EQ(j["config"]["grid"]["cols"], 2);
    EXPECT_EQ(j["config"]["options"]["disabled"].size(), extra.empty() ? 0u : 1u);
    const auto vec = testing::load_graph_vector(12);
    for (size_t k = 0; k < 64; ++k) {
      EXPECT_EQ(j["roots"][k]["reached"], vec.roots[k].reached);
      EXPECT_EQ(j["roots"][k]["nedge"], vec.roots[k].nedge_for_teps);
      EXPECT_EQ(j["roots"][k]["level_sizes"].get<std::vector<int64_t>>(), vec.roots[k].level_sizes);
      EXPECT_TRUE(j["roots"][k]["validated"]);
    }
  }
  expect_usage_error(4, "--scale 8 --rankmap " + dir + "/map.csv", "map.csv");
  expect_usage_error(1, "--scale 8 --rankmap /nonexistent.csv", "nonexistent.csv");
}

TEST(BfsCli, BadInput) {
  for (int ranks : {1, 4}) {
    expect_usage_error(ranks, "--bogus", "--bogus");
    expect_usage_error(ranks, "--scale 0", "--scale");
    expect_usage_error(ranks, "--scale 43", "--scale");
    expect_usage_error(ranks, "--edgefactor 0", "--edgefactor");
    expect_usage_error(ranks, "--roots 0", "--roots");
    expect_usage_error(ranks, "--seed 1", "--seed '1' is not of the form A,B");
    expect_usage_error(ranks, "--scale 30", "needs about");
    expect_usage_error(ranks, "--scale 40", "needs about");
    expect_usage_error(ranks, "--scale 8 --json /nonexistent-dir/out.json", "cannot write '/nonexistent-dir/out.json'");
    expect_usage_error(ranks, "--scale 8 --alltoallv nosuch", "unknown --alltoallv algorithm 'nosuch'");
    expect_usage_error(ranks, "--scale 8 --disable bcsr,frobnicate", "unknown technique 'frobnicate'");
  }
  expect_usage_error(4, "--scale 8 --grid 3x3", "--grid 3x3 needs 9 MPI ranks but the job has 4");
  expect_usage_error(4, "--scale 8 --grid 4by1", "is not of the form RxC");
}

}  // namespace
}  // namespace g500
