// `g500 model` through mpiexec: bad input is one "g500 model: error:" line with exit status 2;
// a run prints its table; a 1-rank trace calibrates a profile that predicts other runs.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "run_command.hpp"
#include "usage_error.hpp"

namespace g500 {
namespace {

TEST(ModelCli, BadInputIsOneLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"--nodes 16 --scale 99", "--scale must be a whole number from 1 to 42 (got '99')"},
      {"--nodes 0 --scale 30", "--nodes must be whole numbers from 1 to 16777216, separated by commas: '0' is less than 1"},
      {"--nodes 16", "give --scale (strong scaling) or --scale-per-node (weak scaling)"},
      {"--nodes 16,32 --scale 30 --grid 4x4", "--grid needs a single node count"},
      {"--nodes 16 --scale 30 --network nosuch", "unknown --network 'nosuch' (expected tofud, tofu, fattree, dragonfly, "
                                                 "torus:SHAPE or shm)"},
      {"--nodes 16 --scale 30 --mapping 3d", "unknown --mapping '3d' (expected 6d or jobshape)"},
      {"--nodes 16 --scale 30 --grid 5x3", "--grid 5x3 does not match --nodes 16"},
      {"--nodes 16 --scale 30 --latency 0", "--latency must be a number from 0.001 to 1e+06 microseconds (got '0')"},
      {"--nodes 16 --scale 30 --threads 100000000", "--threads must be a whole number from 1 to 4096 (got '100000000')"},
      {"--profile /nonexistent.json --ranks 2 --scale 20 --network shm --latency 1 --link-bandwidth 1",
       "cannot read trace file '/nonexistent.json'"},
      {"--network shm --nodes 2 --scale 20", "--network shm needs --latency and --link-bandwidth (measure them with "
                                             "g500 coll --fit)"},
      {"", "nothing to do: give --nodes, --published, --compare, --future-work, --show-levels or --write-level-table"},
      {"--show-levels 50", "--show-levels must be whole numbers from 1 to 42, separated by commas: '50' is more than 42"},
  };
  for (int ranks : {1, 2})
    for (const auto& [args, message] : cases) testing::expect_exact_usage_error("model", ranks, args, message);
}

// Counts that are not whole numbers or out of range, and machine numbers outside the bounds that
// keep the tables readable: one line naming the item and the range. The checks are made while
// parsing, alike on every rank, so g500 runs alone.
TEST(ModelCli, CountsAndMachineNumbersNameTheirRange) {
  const std::pair<const char*, const char*> cases[] = {
      {"--nodes -5 --scale 30", "--nodes must be whole numbers from 1 to 16777216, separated by commas: '-5' is less than 1"},
      {"--nodes 1e9 --scale 30",
       "--nodes must be whole numbers from 1 to 16777216, separated by commas: '1e9' is not a whole number"},
      {"--nodes 16,2.5 --scale 30",
       "--nodes must be whole numbers from 1 to 16777216, separated by commas: '2.5' is not a whole number"},
      {"--nodes 99999999999999999999 --scale 30",
       "--nodes must be whole numbers from 1 to 16777216, separated by commas: '99999999999999999999' is more than 16777216"},
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
      {"--nodes 16 --scale 30 --locality-speedup 1e9", "--locality-speedup must be a number from 0.01 to 100 (got '1e9')"},
      {"--show-levels 20,x", "--show-levels must be whole numbers from 1 to 42, separated by commas: 'x' is not a whole number"},
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
TEST(ModelCli, MarksPointsThatDoNotFitANode) {
  auto r = testing::run_g500(1, "model --nodes 256,158976 --scale-per-node 24");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("shares % (calc agv atv sr imb) | GiB/node\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("|      6.1\n"), std::string::npos) << r.out;    // 256 nodes, SCALE 32
  EXPECT_NE(r.out.find("|     34.6 *\n"), std::string::npos) << r.out;  // 158976 nodes, SCALE 41
  EXPECT_NE(r.out.find("\n* does not fit a node's 32.0 GiB"), std::string::npos) << r.out;
  const std::string dir = testing::make_temp_dir();
  r = testing::run_g500(1, "model --nodes 158976 --scale 41 --node-memory 64 --json " + dir + "/model.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("* does not fit"), std::string::npos) << r.out;
  const std::string json = testing::read_file(dir + "/model.json");
  EXPECT_NE(json.find("\"fits\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"node_memory_bytes\": 68719476736.0"), std::string::npos) << json;
}

}  // namespace
}  // namespace g500
