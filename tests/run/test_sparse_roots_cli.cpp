// Roots of a graph of mostly isolated vertices: an mtx file declaring 2^20 vertices with one edge
// between the first and the last. Nearly every sampled candidate is skipped, and the run still
// ends in seconds at 1 and 4 ranks (the candidates are checked in growing batches, run/roots.hpp)
// with the roots the sampling rule gives: the last vertex, and a note that the rule found 1 of the
// 2 vertices with an edge (2n + 4096 draws missed the first one for the default seed).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "run_command.hpp"

namespace g500::run {
namespace {

constexpr int kSecondsAllowed = 30;  // the run takes about a second; a per-batch call took minutes at 64 ranks

TEST(SparseRootsCli, AMillionIdsWithOneEdgeGetTheirRootsInSeconds) {
  const std::string dir = testing::make_temp_dir();
  const std::string mtx = testing::write_file(dir, "one.mtx",
                                              "%%MatrixMarket matrix coordinate pattern general\n"
                                              "1048576 1048576 1\n"
                                              "1 1048576\n");
  for (int ranks : {1, 4}) {
    const auto r =
        testing::run_g500(ranks, "bfs --input " + mtx + " --roots 2 --json " + dir + "/r.json", kSecondsAllowed);
    ASSERT_EQ(r.status, 0) << ranks << " ranks\n" << r.err;
    EXPECT_EQ(r.err, "g500 bfs: note: running 1 roots instead of 2: the root rule found 1 of the 2 vertices of '" +
                         mtx + "' that have an edge\n");
    const auto j = nlohmann::json::parse(testing::read_file(dir + "/r.json"));
    ASSERT_EQ(j["roots"].size(), 1u);
    EXPECT_EQ(j["roots"][0]["root"], 1048576);
    EXPECT_EQ(j["roots"][0]["reached"], 2);
    EXPECT_EQ(j["config"]["nroots_run"], 1);
  }
}

}  // namespace
}  // namespace g500::run
