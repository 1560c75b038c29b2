// `g500 model` through mpiexec: bad input is one "g500 model: error:" line with exit status 2;
// a run prints its table with units and names its node; a calibration run whose rates are not
// those of cores at work is refused or warned about.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "graph/local_id.hpp"
#include "run_command.hpp"
#include "usage_error.hpp"

namespace g500::model {
namespace {

TEST(ModelCli, BadInputIsOneLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"--nodes 16 --scale 99", "--scale must be a whole number from 1 to 42 (got '99')"},
      {"--nodes 0 --scale 30",
       "--nodes must be whole numbers from 1 to 16777216, separated by commas: '0' is less than 1"},
      {"--nodes 16", "give --scale (strong scaling) or --scale-per-node (weak scaling)"},
      {"--nodes 16,32 --scale 30 --grid 4x4", "--grid needs a single node count"},
      {"--nodes 16 --scale 30 --network nosuch",
       "unknown --network 'nosuch' (expected tofud, tofu, fattree, dragonfly, "
       "torus:SHAPE or shm)"},
      {"--nodes 16 --scale 30 --mapping 3d", "unknown --mapping '3d' (expected 6d or jobshape)"},
      {"--nodes 16 --scale 30 --grid 5x3", "--grid 5x3 does not match --nodes 16"},
      {"--nodes 16 --scale 30 --latency 0", "--latency must be a number from 0.001 to 1e+06 microseconds (got '0')"},
      {"--nodes 16 --scale 30 --threads 100000000",
       "--threads must be a whole number from 1 to 4096 (got '100000000')"},
      {"--profile /nonexistent.json --ranks 2 --scale 20 --network shm --latency 1 --link-bandwidth 1",
       "cannot read trace file '/nonexistent.json'"},
      {"--network shm --nodes 2 --scale 20",
       "--network shm needs --latency and --link-bandwidth (measure them with "
       "g500 coll --fit)"},
      {"", "nothing to do: give --nodes, --published, --compare, --future-work, --show-levels or --write-level-table"},
      {"--show-levels 50",
       "--show-levels must be whole numbers from 1 to 42, separated by commas: '50' is more than 42"},
      {"--nodes 16 --scale 30 --node nosuch",
       "unknown --node 'nosuch' (expected a64fx, k, epyc-7763, xeon-8380, xeon-8480, grace, graviton3)"},
      {"--nodes 16 --scale 30 --profile k --node grace",
       "--profile k and --node grace name two nodes: give one (--profile FILE calibrates a --node from a run on it)"},
  };
  // Every case alone; through 2 ranks, a refusal while parsing, one after it and a file's (the
  // same on every rank, said once).
  for (const auto& [args, message] : cases) testing::expect_exact_usage_error_alone("model", args, message);
  for (const size_t k : {size_t{0}, size_t{6}, size_t{9}})
    testing::expect_exact_usage_error("model", 2, cases[k].first, cases[k].second);
}

// Counts that are not whole numbers or out of range, and machine numbers outside the bounds that
// keep the tables readable: one line naming the item and the range. The checks are made while
// parsing, alike on every rank, so g500 runs alone.
TEST(ModelCli, CountsAndMachineNumbersNameTheirRange) {
  const std::pair<const char*, const char*> cases[] = {
      {"--nodes -5 --scale 30",
       "--nodes must be whole numbers from 1 to 16777216, separated by commas: '-5' is less than 1"},
      {"--nodes 1e9 --scale 30",
       "--nodes must be whole numbers from 1 to 16777216, separated by commas: '1e9' is not a whole number"},
      {"--nodes 16,2.5 --scale 30",
       "--nodes must be whole numbers from 1 to 16777216, separated by commas: '2.5' is not a whole number"},
      {"--nodes 99999999999999999999 --scale 30",
       "--nodes must be whole numbers from 1 to 16777216, separated by commas: '99999999999999999999' is more than "
       "16777216"},
      {"--nodes 16,,32 --scale 30",
       "--nodes must be whole numbers from 1 to 16777216, separated by commas: an item is empty (got '16,,32')"},
      {"--ranks 1e3 --scale 20 --network shm --latency 1 --link-bandwidth 1",
       "--ranks must be whole numbers from 1 to 16777216, separated by commas: '1e3' is not a whole number"},
      {"--nodes 16 --scale 30 --clock 1e-300", "--clock must be a number from 0.01 to 100 GHz (got '1e-300')"},
      {"--nodes 16 --scale 30 --clock 1e300", "--clock must be a number from 0.01 to 100 GHz (got '1e300')"},
      {"--nodes 16 --scale 30 --link-bandwidth 1e300",
       "--link-bandwidth must be a number from 0.001 to 1e+06 GB/s (got '1e300')"},
      {"--nodes 16 --scale 30 --injection 0", "--injection must be a number from 0.001 to 1e+06 GB/s (got '0')"},
      {"--nodes 16 --scale 30 --eager-limit -1", "--eager-limit must be a number from 0 to 1e+12 bytes (got '-1')"},
      {"--nodes 16 --scale 30 --network dragonfly --global-share 2",
       "--global-share must be a number from 0.001 to 1 (got '2')"},
      {"--nodes 16 --scale 30 --locality-speedup 1e9",
       "--locality-speedup must be a number from 0.01 to 100 (got '1e9')"},
      {"--show-levels 20,x",
       "--show-levels must be whole numbers from 1 to 42, separated by commas: 'x' is not a whole number"},
  };
  for (const auto& [args, message] : cases) testing::expect_exact_usage_error_alone("model", args, message);
}

TEST(ModelCli, PrintsAPredictionTable) {
  const auto r = testing::run_g500(1, "model --nodes 9936 --grid 138x72 --scale 37 --clock 2.2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("XY x Zabc 6D mapping"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GTEPS"), std::string::npos) << r.out;
}

// Beside each prediction of a series, the memory per node of g500 bfs's plan; the points that do
// not fit a node (A64FX: 32 GiB unless --node-memory) are marked, in the table and the JSON.
// 64-bit local ids fit SCALE 38 on 4096 nodes in 32 GiB, so that build is given 14.
TEST(ModelCli, MarksPointsThatDoNotFitANode) {
  auto r = testing::run_g500(
      1, std::string("model --nodes 256,4096 --scale-per-node 26") + (graph::kWideIds ? " --node-memory 14" : ""));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("shares % (calc agv atv sr imb) | GiB/node\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(graph::kWideIds ? "|     11.7\n" : "|     14.2\n"), std::string::npos)
      << r.out;  // 256 nodes, SCALE 34
  EXPECT_NE(r.out.find(graph::kWideIds ? "|     14.1 *\n" : "|     39.6 *\n"), std::string::npos)
      << r.out;  // 4096 nodes, SCALE 38
  EXPECT_NE(r.out.find(graph::kWideIds ? "\n* does not fit a node's 14.0 GiB" : "\n* does not fit a node's 32.0 GiB"),
            std::string::npos)
      << r.out;
  const std::string dir = testing::make_temp_dir();
  r = testing::run_g500(1, "model --nodes 158976 --scale 41 --node-memory 64 --json " + dir + "/model.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("* does not fit"), std::string::npos) << r.out;
  const std::string json = testing::read_file(dir + "/model.json");
  EXPECT_NE(json.find("\"fits\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"node_memory_bytes\": 68719476736.0"), std::string::npos) << json;
}

// The node is named even when it is the default; every column of the table has its unit. A preset
// without a run computes at memory-bound rates: the A64FX's calibrated share of its peak bandwidth
// (4.23e7 accesses/s per core x 48 cores x 256-byte lines / 1,024 GB/s) on 409.6 GB/s over 64-byte
// lines and 128 cores is 2.54e7 accesses/s per core bottom-up, 0.35 of it top-down; bitmap words
// at 409.6 GB/s / 24 bytes / 128 cores.
TEST(ModelCli, NamesItsNodeAndTheUnitsOfItsColumns) {
  auto r = testing::run_g500(1, "model --nodes 64 --scale 30 --network fattree");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("node a64fx: Fujitsu A64FX (Fugaku), 48 cores at 2.00 GHz, memory 1024.0 GB/s, 32.0 GiB (the "
                        "default; --node chooses one of a64fx, k, epyc-7763, xeon-8380, xeon-8480, grace, graviton3)\n",
                        0),
            0u)
      << r.out;
  EXPECT_NE(
      r.out.find("|  calc ms   agv ms   atv ms    sr ms   imb ms | total ms     GTEPS | shares % (calc agv atv sr "
                 "imb) | GiB/node\n"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nms: milliseconds per BFS (calc calculation, agv allgatherv, atv alltoallv, sr sendrecv, imb "
                       "imbalance); GTEPS: 10^9 input edges per second; grid: R x C processes; GiB/node: g500 bfs's "
                       "memory plan per node\n"),
            std::string::npos)
      << r.out;
  const std::string dir = testing::make_temp_dir();
  r = testing::run_g500(1, "model --node epyc-7763 --nodes 64 --scale 30 --json " + dir + "/epyc.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind(
                "node epyc-7763: 2 x AMD EPYC 7763 (Milan), 128 cores at 2.45 GHz, memory 409.6 GB/s, 512.0 GiB\n", 0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("\nprofile epyc-7763: 128 cores; per core: top-down 8.89e+06 accesses/s, bottom-up 2.54e+07 "
                       "accesses/s, bitmap words 1.33e+08/s (top-down), 1.33e+08/s (bottom-up); 2.45 GHz;"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nnetwork fattree: "), std::string::npos) << r.out;  // the default beside a cluster node
  const std::string json = testing::read_file(dir + "/epyc.json");
  EXPECT_NE(json.find("\"cores\": 128"), std::string::npos) << json;
  EXPECT_NE(json.find("\"memory_bandwidth_bytes_per_s\": 409600000000.0"), std::string::npos) << json;
  EXPECT_NE(json.find("\"node_memory_bytes\": 549755813888.0"), std::string::npos) << json;  // 512 GiB
}

// A 1-rank g500 bfs --trace --json result with two top-down and two bottom-up levels that take
// 0.1 ms plus their accesses at `rate` per second on one thread (bottom-up accesses: the edges
// examined and the unvisited vertices), on a node of `node_cores` cores running `threads` threads.
std::string calibration_run(double rate, int threads, int node_cores) {
  constexpr double kFixed = 1e-4;
  struct Level {
    const char* direction;
    double examined, unvisited, unvisited_after;
  };
  const Level levels[] = {{"top-down", 1e6, 1000, 900},
                          {"top-down", 2e6, 900, 500},
                          {"bottom-up", 1e6, 500, 100},
                          {"bottom-up", 2e6, 100, 0}};
  std::string text;
  for (const Level& l : levels) {
    const double accesses = l.examined + (std::string(l.direction) == "bottom-up" ? l.unvisited : 0);
    text += fmt::format(
        "{}{{\"direction\": \"{}\", \"frontier\": 10, \"edges_examined\": {}, \"time_s\": {:.17g}, "
        "\"unvisited_after\": {}}}",
        text.empty() ? "" : ", ", l.direction, l.examined, kFixed + accesses / rate / threads, l.unvisited_after);
  }
  return fmt::format(
      "{{\"config\": {{\"kernel\": \"bfs\", \"scale\": 16, \"edgefactor\": 16, \"ranks\": 1, \"grid\": {{\"rows\": 1, "
      "\"cols\": 1}}, \"threads\": {}, \"options\": {{\"substeps\": 4}}, \"node\": {{\"ranks\": 1, \"cores\": {}}}}}, "
      "\"summary\": {{\"harmonic_mean_TEPS\": 1e6}}, \"profile\": {{\"calculation\": {{\"seconds\": 1}}, "
      "\"allgatherv\": {{\"seconds\": 0}}, \"alltoallv\": {{\"seconds\": 0}}, \"sendrecv\": {{\"seconds\": 0}}, "
      "\"imbalance\": {{\"seconds\": 0}}}}, \"roots\": [{{\"time_s\": 1, \"nedge\": 1048576, \"reached\": 1001, "
      "\"levels\": [{}]}}]}}\n",
      threads, node_cores, text);
}

// --profile calibrates from the user's own run on a --node; a run whose cores were not at work
// is refused: accesses below a tenth of the node's memory-bound rate (8.89e6/s per core top-down
// on epyc-7763, the slowest of the presets, which a run without --node is held to), or more
// threads than its node has cores. Far above the memory-bound rate, the graph lived in the caches:
// a warning. The check is rank 0's, before any work: one refusal through mpiexec at 2 ranks, the
// rest with g500 alone.
TEST(ModelCli, RefusesACalibrationRunWhoseCoresWereNotAtWork) {
  const std::string dir = testing::make_temp_dir();
  const std::string slow = testing::write_file(dir, "slow.json", calibration_run(1e5, 1, 2));
  const std::string shared = testing::write_file(dir, "shared.json", calibration_run(2e7, 4, 2));
  const std::string good = testing::write_file(dir, "good.json", calibration_run(2e7, 2, 2));
  const std::string cached = testing::write_file(dir, "cached.json", calibration_run(1e9, 1, 2));
  testing::expect_exact_usage_error(
      "model", 2, "--profile " + slow + " --node epyc-7763 --nodes 64 --scale 30",
      slow +
          ": its top-down rate, 1e+05 accesses/s per core, is below 1/10 of the 8.89e+06/s per core of epyc-7763 "
          "from memory (was the machine busy, or are SCALE 16's levels too short to time?); calibrate from a run on "
          "an idle node at SCALE 18 or more");
  testing::expect_exact_usage_error_alone(
      "model", "--profile " + slow + " --ranks 2 --scale 20 --network shm --latency 1 --link-bandwidth 1",
      slow +
          ": its top-down rate, 1e+05 accesses/s per core, is below 1/10 of the 8.89e+06/s per core of epyc-7763 "
          "(the slowest of the --node presets) from memory (was the machine busy, or are SCALE 16's levels too "
          "short to time?); calibrate from a run on an idle node at SCALE 18 or more");
  testing::expect_exact_usage_error_alone(
      "model", "--profile " + shared + " --node grace --nodes 64 --scale 30",
      shared +
          ": the run was oversubscribed (1 rank x 4 threads on 2 cores of its node): its rates are those of shared "
          "cores; calibrate from a run with no more ranks x threads than cores");
  auto r = testing::run_g500_alone("model --profile " + good + " --node grace --nodes 64 --scale 30");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_EQ(
      r.out.rfind("node grace: NVIDIA Grace CPU Superchip, 144 cores at 3.10 GHz, memory 1000.0 GB/s, 223.5 GiB\n", 0),
      0u)
      << r.out;
  EXPECT_NE(
      r.out.find("\nprofile calibrated: 144 cores; per core: top-down 2e+07 accesses/s, bottom-up 2e+07 accesses/s,"),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("3.1 GHz;"), std::string::npos) << r.out;
  r = testing::run_g500_alone("model --profile " + cached + " --node graviton3 --nodes 64 --scale 30");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("g500 model: warning: " + cached +
                       ": its top-down rate, 1e+09 accesses/s per core, is more "
                       "than 10 times the "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("per core of graviton3 from memory: its graph (SCALE 16) fits in the caches, so predictions at "
                       "larger SCALEs are optimistic\n"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace g500::model
