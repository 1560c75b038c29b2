// g500 bfs end to end through mpiexec: the result block and JSON of a validated run equal the
// test vectors, and each kind of bad input gives one error line and a non-zero exit.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "run_command.hpp"
#include "testvectors.hpp"
#include "usage_error.hpp"

namespace g500::bfs {
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
    for (const char* field :
         {"SCALE:                          10", "NBFS:                           64",
          "num_mpi_processes:", "construction_time:", "bfs  median_TEPS:", "bfs  harmonic_mean_TEPS:     !  ",
          "bfs  harmonic_stddev_TEPS:", "bfs  max_validate:", "min_nedge:                      16239"})
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
  auto map =
      testing::run_command(std::string(G500_BINARY) +
                           " map --shape 3t,2m --nodes 6 --grid 3x2 --shuffle-ranks 7 --output " + dir + "/map.csv");
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

// The graph-memory table and the JSON show the packed rows with `--packed-rows on`, and `--disable
// packed-rows` gives the plain neighbour array with the same validated results. By default (auto)
// the rows are packed only when plain rows would not fit in 85 % of the node's memory: never at
// SCALE 12.
TEST(BfsCli, PackedRowsAreReportedAndCanBeSwitchedOff) {
  const std::string dir = testing::make_temp_dir();
  auto packed = run_g500(1, "bfs --scale 12 --roots 4 --packed-rows on --json " + dir + "/packed.json");
  ASSERT_EQ(packed.status, 0) << packed.err;
  for (const char* row :
       {"packed rows", "dst first", "dst gaps", "dst short", "dst offsets", "dst unpacked:", "bytes per input edge"})
    EXPECT_NE(packed.out.find(row), std::string::npos) << row << "\n" << packed.out;
  auto plain = run_g500(1, "bfs --scale 12 --roots 4 --disable packed-rows --json " + dir + "/plain.json");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.out.find("dst gaps"), std::string::npos) << plain.out;
  for (const char* choice : {"", " --packed-rows auto", " --packed-rows off"}) {
    auto chosen = run_g500(1, std::string("bfs --scale 12 --roots 4 --no-validate") + choice);
    ASSERT_EQ(chosen.status, 0) << chosen.err;
    EXPECT_NE(chosen.out.find("Graph memory on the largest rank (bitmap-based CSR):"), std::string::npos) << choice;
  }
  auto p = nlohmann::json::parse(testing::read_file(dir + "/packed.json"));
  auto q = nlohmann::json::parse(testing::read_file(dir + "/plain.json"));
  const auto& packed_arrays = p["memory"]["graph_arrays_max_rank"];
  const auto& plain_arrays = q["memory"]["graph_arrays_max_rank"];
  EXPECT_TRUE(packed_arrays["packed_rows"]["active"]);
  EXPECT_FALSE(plain_arrays["packed_rows"]["active"]);
  EXPECT_EQ(packed_arrays["dst"], 0);
  // The plain array is 4 bytes per stored entry: 2 x (input edges - self-loops) on one rank.
  const auto vec = testing::load_graph_vector(12);
  EXPECT_EQ(plain_arrays["dst"], 8 * (vec.nedges_generated - vec.self_loops));
  EXPECT_EQ(packed_arrays["packed_rows"]["plain_dst"], plain_arrays["dst"]);
  EXPECT_GT(packed_arrays["packed_rows"]["gaps"].get<int64_t>(), 0);
  EXPECT_LT(packed_arrays["packed_rows"]["gaps"].get<int64_t>(), plain_arrays["dst"].get<int64_t>() / 2);
  EXPECT_GT(packed_arrays["packed_rows"]["short_rows"].get<int64_t>(), 0);
  EXPECT_LT(packed_arrays["packed_rows"]["short_rows"].get<int64_t>(), plain_arrays["dst"].get<int64_t>() / 4);
  EXPECT_LT(p["memory"]["graph_bytes_max_rank"].get<int64_t>(), q["memory"]["graph_bytes_max_rank"].get<int64_t>());
  EXPECT_EQ(q["config"]["options"]["disabled"], nlohmann::json::array({"packed-rows"}));
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(p["roots"][k]["level_sizes"], q["roots"][k]["level_sizes"]);
    EXPECT_TRUE(p["roots"][k]["validated"]);
    EXPECT_TRUE(q["roots"][k]["validated"]);
  }
}

// `--level-buffers by-direction` frees each direction's buffers when the search turns (a 2x2 grid:
// the column frontier and a top-down level's, with its bitmap gathered in slices): the same
// validated searches as with kept ones, and the run says which it took; by default (auto) they
// are kept where the run fits.
TEST(BfsCli, LevelBuffersByDirectionSearchAlike) {
  const std::string dir = testing::make_temp_dir();
  const std::string args = "bfs --scale 14 --roots 8 --threads 1 --json " + dir;
  auto by_direction = run_g500(4, args + "/by.json --level-buffers by-direction");
  ASSERT_EQ(by_direction.status, 0) << by_direction.err;
  EXPECT_NE(by_direction.out.find("the search's level buffers by direction"), std::string::npos) << by_direction.out;
  auto kept = run_g500(4, args + "/kept.json");
  ASSERT_EQ(kept.status, 0) << kept.err;
  EXPECT_EQ(kept.out.find("level buffers by direction"), std::string::npos) << kept.out;
  const auto p = nlohmann::json::parse(testing::read_file(dir + "/by.json"));
  const auto q = nlohmann::json::parse(testing::read_file(dir + "/kept.json"));
  EXPECT_EQ(p["memory"]["level_buffers"], "by-direction");
  EXPECT_EQ(q["memory"]["level_buffers"], "kept");
  for (size_t k = 0; k < 8; ++k) {
    EXPECT_EQ(p["roots"][k]["level_sizes"], q["roots"][k]["level_sizes"]);
    EXPECT_EQ(p["roots"][k]["depth_hash"], q["roots"][k]["depth_hash"]);
    EXPECT_TRUE(p["roots"][k]["validated"]);
  }
}

// The memory estimate g500 bfs checks a run against (graph/memory_plan.hpp, bfs/benchmark.hpp)
// is within 10 % of the run's measured peak, packed rows or plain, on 1, 2 and 4 ranks. Below
// SCALE 18 the MPI and program runtime outweighs the graph and the estimate is on the high side.
TEST(BfsCli, MemoryEstimateIsWithinTenPerCentOfThePeak) {
  const std::string dir = testing::make_temp_dir();
  for (const auto& [ranks, scale] : std::vector<std::pair<int, int>>{{1, 20}, {2, 18}, {4, 20}})
    for (const std::string extra : {" --packed-rows on", " --packed-rows off"}) {
      const std::string args = "bfs --scale " + std::to_string(scale) + " --roots 2 --threads 1" + extra;
      auto r = run_g500(ranks, args + " --json " + dir + "/run.json");
      ASSERT_EQ(r.status, 0) << r.err;
      const auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
      const double peak = j["memory"]["peak_rss_bytes_max_rank"].get<double>();
      const double estimate = j["memory"]["estimated_bytes_max_rank"].get<double>();
      EXPECT_NEAR(estimate / peak, 1.0, 0.10) << ranks << " ranks: " << args << "\n" << r.out;
      EXPECT_NE(r.out.find("(estimated "), std::string::npos) << r.out;
      // Kernel 1's own peak, where Linux can restart the peak after it (/proc/self/clear_refs).
      const double kernel1 = j["memory"]["kernel1_peak_rss_bytes_max_rank"].get<double>();
      if (kernel1 > 0) {
        EXPECT_NEAR(j["memory"]["estimated_kernel1_bytes_max_rank"].get<double>() / kernel1, 1.0, 0.10) << r.out;
        EXPECT_EQ(std::max(kernel1, j["memory"]["search_peak_rss_bytes_max_rank"].get<double>()), peak);
        EXPECT_NE(r.out.find("  kernel 1 "), std::string::npos) << r.out;
      }
    }
}

// `--kernel1-passes N` makes kernel 1 read the input N times, a slab of rows each, and gives the
// same validated BFS as one pass on 1 and 2 ranks.
TEST(BfsCli, Kernel1PassesAreChosenAndGiveTheSameGraph) {
  const std::string dir = testing::make_temp_dir();
  for (int ranks : {1, 2}) {
    nlohmann::json runs[2];
    const int passes[2] = {1, 3};
    for (int k = 0; k < 2; ++k) {
      auto r = run_g500(ranks, "bfs --scale 14 --roots 4 --kernel1-passes " + std::to_string(passes[k]) + " --json " +
                                   dir + "/run.json");
      ASSERT_EQ(r.status, 0) << r.err;
      const std::string line =
          "kernel 1 read the input edges " + std::to_string(passes[k]) + (passes[k] == 1 ? " time " : " times ");
      EXPECT_NE(r.out.find(line), std::string::npos) << r.out;
      runs[k] = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
      EXPECT_EQ(runs[k]["memory"]["kernel1_passes"], passes[k]);
      EXPECT_TRUE(runs[k]["summary"]["validation_passed"]);
      // Kernel 1's time per step: every step named, generation equal to graph_generation, and on
      // one rank the steps add up to no more than the construction time.
      EXPECT_NE(r.out.find("kernel 1 time per step (slowest rank): generate "), std::string::npos) << r.out;
      const auto& steps = runs[k]["memory"]["kernel1_seconds_max_rank"];
      double sum = 0;
      for (const char* step : {"generate", "route", "bucket", "plan", "mirror", "fill"}) {
        ASSERT_TRUE(steps.contains(step)) << steps;
        EXPECT_GE(steps[step].get<double>(), 0) << step;
        sum += steps[step].get<double>();
      }
      EXPECT_EQ(steps.size(), 6u) << steps;
      EXPECT_GT(steps["generate"].get<double>(), 0);
      EXPECT_GT(steps["fill"].get<double>(), 0);
      EXPECT_GT(steps["mirror"].get<double>(), 0);  // the edges inside a slab are kept once
      EXPECT_EQ(steps["generate"].get<double>(), runs[k]["summary"]["graph_generation"].get<double>());
      if (ranks == 1) {
        EXPECT_LE(sum, runs[k]["summary"]["construction_time"].get<double>());
      }
    }
    const auto vec = testing::load_graph_vector(14);
    for (const auto& run : runs)
      for (size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(run["roots"][k]["root"], vec.roots[k].root);
        EXPECT_EQ(run["roots"][k]["level_sizes"].get<std::vector<int64_t>>(), vec.roots[k].level_sizes);
      }
  }
}

TEST(BfsCli, BadInput) {
  for (int ranks : {1, 4}) {
    expect_usage_error(ranks, "--bogus", "--bogus");
    expect_usage_error(ranks, "--scale 0", "--scale");
    expect_usage_error(ranks, "--scale 43", "--scale");
    expect_usage_error(ranks, "--edgefactor 0", "--edgefactor");
    expect_usage_error(ranks, "--roots 0", "--roots");
    expect_usage_error(ranks, "--packed-rows yes", "--packed-rows must be auto, on or off (got 'yes')");
    expect_usage_error(ranks, "--level-buffers freed",
                       "--level-buffers must be auto, kept or by-direction (got 'freed')");
    expect_usage_error(ranks, "--packed-rows on --disable packed-rows",
                       "--packed-rows on contradicts --disable packed-rows");
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

// Each bad number, empty value or conflicting pair is one line naming the option, its rule and
// the value given, before any work (nothing on stdout).
TEST(BfsCli, BadValuesAreNamedWithTheirRule) {
  const std::pair<const char*, const char*> cases[] = {
      {"--roots 0", "--roots must be at least 1 (got '0')"},
      {"--roots abc", "--roots must be a whole number from 1 to 2147483647 (got 'abc')"},
      {"--roots 99999999999", "--roots must be at most 2147483647 (got '99999999999')"},
      {"--threads 0", "--threads must be a whole number from 1 to 4096 (got '0')"},
      {"--threads 100000000", "--threads must be a whole number from 1 to 4096 (got '100000000')"},
      {"--edgefactor 0", "--edgefactor must be at least 1 (got '0')"},
      {"--edgefactor 1.5", "--edgefactor must be a whole number from 1 to 2147483647 (got '1.5')"},
      {"--scale 42 --edgefactor 2000000000",
       "--edgefactor 2000000000 is too large for SCALE 42 (more than 2^63 - 1 edges)"},
      {"--alpha -1", "--alpha must be a positive number (got '-1')"},
      {"--alpha inf", "--alpha must be a positive number (got 'inf')"},
      {"--beta 0", "--beta must be a positive number (got '0')"},
      {"--scale abc", "--scale must be a whole number from 1 to 42 (got 'abc')"},
      {"--scale 43", "--scale must be a whole number from 1 to 42 (got '43')"},
      {"--substeps 65", "--substeps must be a whole number from 1 to 64 (got '65')"},
      {"--kernel1-passes 0", "--kernel1-passes must be a whole number from 1 to 256 (got '0')"},
      {"--root-seed -1", "--root-seed must be a whole number from 0 to 18446744073709551615 (got '-1')"},
      {"--grid ''", "--grid must not be empty"},
      {"--json ''", "--json must not be empty"},
      {"--quiet --progress", "--quiet excludes --progress"},
      {"--root 5 --roots 3", "--roots excludes --root"},
      {"--root 5 --root-seed 2", "--root excludes --root-seed"},
  };
  for (int ranks : {1, 4})
    for (const auto& [args, message] : cases) testing::expect_exact_usage_error("bfs", ranks, args, message);
}

// Whole numbers are read in decimal: CLI11 alone reads a leading 0 as octal (010 = SCALE 8).
TEST(BfsCli, LeadingZeroIsDecimal) {
  auto r = run_g500(1, "bfs --scale 010 --roots 1 --no-validate");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("SCALE:                          10\n"), std::string::npos) << r.out;
}

// SCALE 6 has 61 vertices with an edge, but the reference root rule draws only 64 candidates
// and finds 39 distinct usable ones: the run says so once, and the JSON records both counts.
TEST(BfsCli, FewerRootsThanAskedAreStated) {
  const std::string note =
      "g500 bfs: note: running 39 roots instead of 100000: the root rule found 39 of the 61 vertices of SCALE 6 "
      "that have an edge";
  for (int ranks : {1, 4}) {
    const std::string dir = testing::make_temp_dir();
    auto r = run_g500(ranks, "bfs --scale 6 --roots 100000 --json " + dir + "/run.json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(testing::lines_starting(r.err, "g500 bfs: note:"), std::vector<std::string>{note}) << r.err;
    EXPECT_NE(r.out.find("NBFS:                           39\n"), std::string::npos) << r.out;
    auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
    EXPECT_EQ(j["config"]["nroots"], 100000);
    EXPECT_EQ(j["config"]["nroots_run"], 39);
    EXPECT_EQ(j["roots"].size(), 39u);
    // Exactly as many as found: nothing to say.
    r = run_g500(ranks, "bfs --scale 6 --roots 39");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("note:"), std::string::npos) << r.err;
  }
  // File input: sampled roots, every vertex with an edge found.
  const std::string dir = testing::make_temp_dir();
  const std::string tsv = testing::write_file(dir, "g.tsv", "5 6\n6 7\n7 5\n100 101\n9 9\n");
  for (int ranks : {1, 4}) {
    auto r = run_g500(ranks, "bfs --input " + tsv + " --json " + dir + "/file.json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(testing::lines_starting(r.err, "g500 bfs: note:"),
              std::vector<std::string>{"g500 bfs: note: running 5 roots instead of 64: only 5 vertices of '" + tsv +
                                       "' have an edge"})
        << r.err;
    auto j = nlohmann::json::parse(testing::read_file(dir + "/file.json"));
    EXPECT_EQ(j["config"]["nroots"], 64);
    EXPECT_EQ(j["config"]["nroots_run"], 5);
  }
}

}  // namespace
}  // namespace g500::bfs
