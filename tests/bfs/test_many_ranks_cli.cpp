// A run on a grid of 64 processes (16 x 4: non-square, many grid rows, few vertices per process)
// validates every root and gives the test vectors' trees: the ids, tables and exchanges that only
// large grids exercise (the columns in use kept apart from the column set, the rows by slot, the
// validation's owner queries over many ranks) give the same search as on one process.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_command.hpp"
#include "testvectors.hpp"

namespace g500::bfs {
namespace {

TEST(ManyRanksCli, SixtyFourRanksMatchTheVectors) {
  const auto vec = testing::load_graph_vector(10);
  const std::string dir = testing::make_temp_dir();
  auto r = testing::run_g500(64, "bfs --scale 10 --grid 16x4 --threads 1 --json " + dir + "/run.json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
  EXPECT_TRUE(j["summary"]["validation_passed"]);
  ASSERT_EQ(j["roots"].size(), 64u);
  for (size_t k = 0; k < 64; ++k) {
    const auto& want = vec.roots[k];
    const auto& got = j["roots"][k];
    EXPECT_EQ(got["root"], want.root);
    EXPECT_TRUE(got["validated"]) << "root " << want.root;
    EXPECT_EQ(got["reached"], want.reached);
    EXPECT_EQ(got["nedge"], want.nedge_for_teps);
    EXPECT_EQ(got["level_sizes"].get<std::vector<int64_t>>(), want.level_sizes);
    EXPECT_EQ(std::stoull(got["depth_hash"].get<std::string>(), nullptr, 16), want.depth_hash) << "root " << want.root;
  }
}

}  // namespace
}  // namespace g500::bfs
