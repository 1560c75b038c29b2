// g500 sssp end to end through mpiexec: the result block and JSON of a validated run equal the
// test vectors, the Dijkstra comparison runs, and bad input gives one error line and exit 2.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "run_command.hpp"
#include "testvectors.hpp"
#include "usage_error.hpp"

namespace g500::sssp {
namespace {

using testing::run_g500;

void expect_usage_error(int ranks, const std::string& args, const std::string& message) {
  testing::expect_usage_error("sssp", ranks, args, message);
}

// Every one of the 64 roots of a run's JSON was validated and its distance sum is the vectors'.
void expect_validated_sums(const nlohmann::json& j, int scale) {
  const auto vec = testing::load_graph_vector(scale);
  ASSERT_EQ(j["roots"].size(), 64u);
  for (size_t k = 0; k < 64; ++k) {
    const auto& root = j["roots"][k];
    EXPECT_LE(std::fabs(root["sum_dist"].get<double>() - vec.roots[k].sssp_sum_dist),
              1e-6 * vec.roots[k].sssp_sum_dist);
    EXPECT_TRUE(root["validated"]);
  }
}

TEST(SsspCli, ValidatedRunMatchesVectorsAndPrintsTheResultBlock) {
  for (int ranks : {1, 4}) {
    const std::string dir = testing::make_temp_dir();
    auto r = run_g500(ranks, "sssp --scale 10 --compare-dijkstra 4 --json " + dir + "/run.json");
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* field :
         {"SCALE:                          10", "NBFS:                           64", "num_mpi_processes:",
          "construction_time:", "sssp min_time:", "sssp median_TEPS:", "sssp harmonic_mean_TEPS:     !  ",
          "sssp harmonic_stddev_TEPS:", "sssp min_validate:", "sssp stddev_validate:",
          "min_nedge:                      16239", "speed-up over Dijkstra:", "distances agree with Dijkstra: yes"})
      EXPECT_NE(r.out.find(field), std::string::npos) << field << "\n" << r.out;
    // The kernel not run prints zeros (the specification's rule for a run of one kernel).
    EXPECT_NE(r.out.find("bfs  harmonic_mean_TEPS:     !  0\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("bfs  median_time:               0\n"), std::string::npos) << r.out;
    auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
    const auto vec = testing::load_graph_vector(10);
    ASSERT_EQ(j["roots"].size(), 64u);
    EXPECT_EQ(j["config"]["ranks"], ranks);
    for (size_t k = 0; k < 64; ++k) {
      const auto& root = j["roots"][k];
      EXPECT_EQ(root["root"], vec.roots[k].root);
      EXPECT_EQ(root["reached"], vec.roots[k].reached);
      EXPECT_EQ(root["nedge"], vec.roots[k].nedge_for_teps);
      EXPECT_LE(std::fabs(root["sum_dist"].get<double>() - vec.roots[k].sssp_sum_dist),
                1e-6 * vec.roots[k].sssp_sum_dist);
      EXPECT_LE(std::fabs(root["max_dist"].get<double>() - vec.roots[k].sssp_max_dist),
                1e-6 * vec.roots[k].sssp_max_dist);
      EXPECT_TRUE(root["validated"]);
    }
    EXPECT_GT(j["summary"]["sssp_harmonic_mean_TEPS"].get<double>(), 0);
    EXPECT_TRUE(j["summary"]["validation_passed"]);
    // graph_generation: the generation step of kernel 1, so a part of construction_time.
    const double generation = j["summary"]["graph_generation"].get<double>();
    EXPECT_GT(generation, 0);
    EXPECT_LE(generation, j["summary"]["construction_time"].get<double>());
    EXPECT_EQ(j["dijkstra"]["roots"], 4);
    EXPECT_TRUE(j["dijkstra"]["agrees"]);
    EXPECT_GT(j["dijkstra"]["speedup"].get<double>(), 0);
    // The memory estimate is the runtime and the data of the run, near the peak (it once added
    // 512 MiB per rank, which refused 64 ranks of SCALE 10 on a 24 GiB node).
    const double peak = j["memory"]["peak_rss_bytes_max_rank"].get<double>();
    const double estimate = j["memory"]["estimated_bytes_max_rank"].get<double>();
    EXPECT_GT(estimate, 0.75 * peak) << estimate << " vs " << peak;
    EXPECT_LT(estimate, 1.5 * peak) << estimate << " vs " << peak;
  }
}

// A shuffled placement of 6 ranks on a 3x2 grid from `g500 map` (as g500 bfs --rankmap): the
// distances still equal the vectors.
TEST(SsspCli, RankmapFromTheMappingTool) {
  const std::string dir = testing::make_temp_dir();
  auto map =
      testing::run_command(std::string(G500_BINARY) +
                           " map --shape 3t,2m --nodes 6 --grid 3x2 --shuffle-ranks 5 --output " + dir + "/map.csv");
  ASSERT_EQ(map.status, 0) << map.err << map.out;
  auto r = run_g500(6, "sssp --scale 10 --rankmap " + dir + "/map.csv --json " + dir + "/run.json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
  EXPECT_EQ(j["config"]["grid"]["rows"], 3);
  EXPECT_EQ(j["config"]["grid"]["cols"], 2);
  expect_validated_sums(j, 10);
  expect_usage_error(6, "--scale 8 --grid 2x3 --rankmap " + dir + "/map.csv",
                     "disagrees with the 3x2 grid of --rankmap");
}

TEST(SsspCli, DeltaOptionAndNoValidate) {
  auto r = run_g500(2, "sssp --scale 8 --roots 4 --delta 0.3 --no-validate");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("delta 0.3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NBFS:                           4"), std::string::npos) << r.out;
}

TEST(SsspCli, DisableReorder) {
  // Without the degree-order renumbering the validated distances are the same (the vectors').
  const std::string dir = testing::make_temp_dir();
  auto r = run_g500(2, "sssp --scale 8 --disable reorder --json " + dir + "/run.json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
  EXPECT_EQ(j["config"]["options"]["reorder"], false);
  expect_validated_sums(j, 8);
}

TEST(SsspCli, ParentNotes) {
  // Parents from the notes of one-column and one-row grids (1 process; R x 1 and 1 x C grids of
  // 2, 4 and 6 ranks, whose pushed or pulled candidates carry their source to other processes)
  // and, with `--disable parent-notes`, searched afterwards: validated trees, and the vectors'
  // distances either way.
  const std::pair<int, const char*> runs[] = {{1, ""},           {1, "--disable parent-notes"},
                                              {2, "--grid 2x1"}, {2, "--grid 2x1 --disable parent-notes"},
                                              {2, "--grid 1x2"}, {4, "--grid 4x1"},
                                              {4, "--grid 1x4"}, {6, "--grid 6x1"}};
  for (const auto& [ranks, options] : runs) {
    const std::string dir = testing::make_temp_dir();
    const std::string threads = ranks > 2 ? "1" : "2";  // 2 cores
    auto r = run_g500(ranks, "sssp --scale 10 --threads " + threads + " " + options + " --json " + dir + "/run.json");
    ASSERT_EQ(r.status, 0) << options << ": " << r.err;
    auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
    EXPECT_EQ(j["config"]["options"]["parent_notes"], std::string(options).find("parent-notes") == std::string::npos);
    EXPECT_EQ(j["config"]["options"]["column_pull"], std::string(options).find("--grid 1x") != std::string::npos);
    expect_validated_sums(j, 10);
  }
}

TEST(SsspCli, BadInput) {
  for (int ranks : {1, 2}) {
    expect_usage_error(ranks, "--bogus", "--bogus");
    expect_usage_error(ranks, "--scale 0", "--scale");
    expect_usage_error(ranks, "--edgefactor 0", "--edgefactor");
    expect_usage_error(ranks, "--roots 0", "--roots");
    expect_usage_error(ranks, "--delta 0", "--delta");
    expect_usage_error(ranks, "--delta -1", "--delta");
    expect_usage_error(ranks, "--disable bcsr",
                       "--disable: unknown technique 'bcsr' (switchable for sssp: reorder, parent-notes)");
    expect_usage_error(ranks, "--seed 1", "--seed '1' is not of the form A,B");
    expect_usage_error(ranks, "--scale 40", "needs about");
    expect_usage_error(ranks, "--scale 8 --json /nonexistent-dir/out.json", "cannot write '/nonexistent-dir/out.json'");
  }
  expect_usage_error(2, "--scale 8 --grid 3x3", "--grid 3x3 needs 9 MPI ranks but the job has 2");
}

// Each bad number or empty value is one line naming the option, its rule and the value, before
// any work (nothing on stdout).
TEST(SsspCli, BadValuesAreNamedWithTheirRule) {
  const std::pair<const char*, const char*> cases[] = {
      {"--roots 0", "--roots must be at least 1 (got '0')"},
      {"--threads 0", "--threads must be a whole number from 1 to 4096 (got '0')"},
      {"--threads 100000000", "--threads must be a whole number from 1 to 4096 (got '100000000')"},
      {"--edgefactor 0", "--edgefactor must be at least 1 (got '0')"},
      {"--scale abc", "--scale must be a whole number from 1 to 42 (got 'abc')"},
      {"--delta 0", "--delta must be a positive number (got '0')"},
      {"--delta abc", "--delta must be a positive number (got 'abc')"},
      {"--sub-buckets 0", "--sub-buckets must be a whole number from 1 to 1024 (got '0')"},
      {"--pull-factor -1", "--pull-factor must be zero or a positive number (got '-1')"},
      {"--compare-dijkstra -1", "--compare-dijkstra must be at least 0 (got '-1')"},
      {"--compare-dijkstra 5 --roots 4", "--compare-dijkstra 5 is more than the run's 4 roots"},
      {"--weight-seed x", "--weight-seed must be a whole number from 0 to 18446744073709551615 (got 'x')"},
      {"--root-seed x", "--root-seed must be a whole number from 0 to 18446744073709551615 (got 'x')"},
      {"--output-distances ''", "--output-distances must not be empty"},
      {"--root 5 --roots 3", "--roots excludes --root"},
  };
  for (int ranks : {1, 4})
    for (const auto& [args, message] : cases) testing::expect_exact_usage_error("sssp", ranks, args, message);
  // Not a number at all (checked while parsing, alike on every rank: one process). A width too
  // small to number the buckets is raised by the run instead (test_sssp_extreme_weights).
  testing::expect_exact_usage_error_alone("sssp", "--delta nan", "--delta must be a positive number (got 'nan')");
}

// As for bfs: the reference rule finds 39 roots in SCALE 6, and the run says so once.
TEST(SsspCli, FewerRootsThanAskedAreStated) {
  for (int ranks : {1, 4}) {
    const std::string dir = testing::make_temp_dir();
    auto r = run_g500(ranks, "sssp --scale 6 --roots 100000 --json " + dir + "/run.json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(testing::lines_starting(r.err, "g500 sssp: note:"),
              std::vector<std::string>{"g500 sssp: note: running 39 roots instead of 100000: the root rule found 39 "
                                       "of the 61 vertices of SCALE 6 that have an edge"})
        << r.err;
    auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
    EXPECT_EQ(j["config"]["nroots"], 100000);
    EXPECT_EQ(j["config"]["nroots_run"], 39);
    EXPECT_EQ(j["roots"].size(), 39u);
  }
}

}  // namespace
}  // namespace g500::sssp
