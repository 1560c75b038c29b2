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
      {"--nodes 0 --scale 30", "--nodes takes counts of at least 1 separated by commas (got '0')"},
      {"--nodes 16", "give --scale (strong scaling) or --scale-per-node (weak scaling)"},
      {"--nodes 16,32 --scale 30 --grid 4x4", "--grid needs a single node count"},
      {"--nodes 16 --scale 30 --network nosuch", "unknown --network 'nosuch' (expected tofud, tofu, fattree, dragonfly, "
                                                 "torus:SHAPE or shm)"},
      {"--nodes 16 --scale 30 --mapping 3d", "unknown --mapping '3d' (expected 6d or jobshape)"},
      {"--nodes 16 --scale 30 --grid 5x3", "--grid 5x3 does not match --nodes 16"},
      {"--nodes 16 --scale 30 --latency 0", "--latency must be a positive number (got '0')"},
      {"--nodes 16 --scale 30 --threads 100000000", "--threads must be a whole number from 1 to 4096 (got '100000000')"},
      {"--profile /nonexistent.json --ranks 2 --scale 20 --network shm --latency 1 --link-bandwidth 1",
       "cannot read trace file '/nonexistent.json'"},
      {"--network shm --nodes 2 --scale 20", "--network shm needs --latency and --link-bandwidth (measure them with "
                                             "g500 coll --fit)"},
      {"", "nothing to do: give --nodes, --published, --compare, --future-work, --show-levels or --write-level-table"},
      {"--show-levels 50", "--show-levels: SCALE 50 is above 42"},
  };
  for (int ranks : {1, 2})
    for (const auto& [args, message] : cases) testing::expect_exact_usage_error("model", ranks, args, message);
}

TEST(ModelCli, PrintsAPredictionTable) {
  const auto r = testing::run_g500(1, "model --nodes 9936 --grid 138x72 --scale 37 --clock 2.2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("XY x Zabc 6D mapping"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GTEPS"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace g500
