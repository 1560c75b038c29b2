// The message-size paths end to end through mpiexec (docs/messages.md): with --max-message-bytes 64
// every MPI call with counts goes in rounds of one or two elements per peer, and g500 gen, bfs and
// sssp give the same output as without (the test vectors, byte-identical files); ranks that hold
// no edge or no vertex at all (a 3-edge file at 6 ranks on every grid shape, SCALE 1 at 6 ranks)
// send zero-byte messages and still validate and match the known answer.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "run_command.hpp"
#include "testvectors.hpp"

namespace g500::comm {
namespace {

using testing::read_file;
using testing::run_g500;

const std::string kTiny = " --max-message-bytes 64";
constexpr int kTimeoutSeconds = 300;

struct RanksAndGrid {
  int ranks;
  std::string grid;
};
// Every rank count of the suite with both shapes of the non-square grids.
const std::vector<RanksAndGrid> kGrids = {{1, "1x1"}, {2, "2x1"}, {2, "1x2"}, {4, "2x2"}, {6, "3x2"}, {6, "2x3"}};

std::string where(const RanksAndGrid& g) { return std::to_string(g.ranks) + " ranks, grid " + g.grid; }

TEST(MessagesCli, GenOutputIsByteIdenticalUnderTinyMessages) {
  const std::string dir = testing::make_temp_dir();
  for (const std::string format : {"tsv", "bin"}) {
    const std::string file = dir + "/whole." + format;
    const std::string args = "gen --scale 10 --weights --format " + format;
    ASSERT_EQ(run_g500(1, args + " --output " + file).status, 0);
    const std::string whole = read_file(file);
    ASSERT_GT(whole.size(), 0u);
    for (int ranks : {1, 2, 4, 6}) {
      // Streamed: every rank's part reaches rank 0 in 64-byte messages.
      auto streamed = run_g500(ranks, args + " --output -" + kTiny, kTimeoutSeconds);
      ASSERT_EQ(streamed.status, 0) << streamed.err;
      EXPECT_TRUE(streamed.out == whole) << format << ", " << ranks << " ranks, streamed";
      auto written = run_g500(ranks, args + " --output " + dir + "/tiny." + format + kTiny, kTimeoutSeconds);
      ASSERT_EQ(written.status, 0) << written.err;
      EXPECT_TRUE(read_file(dir + "/tiny." + format) == whole) << format << ", " << ranks << " ranks, file";
    }
  }
}

TEST(MessagesCli, BfsUnderTinyMessagesMatchesTheVectorsOnEveryGrid) {
  const auto vec = testing::load_graph_vector(12);
  const std::string dir = testing::make_temp_dir();
  ASSERT_EQ(run_g500(1, "bfs --scale 12 --roots 1 --output-depths " + dir + "/depths.txt").status, 0);
  for (const RanksAndGrid& g : kGrids) {
    // The first root's depths streamed to rank 0 in 64-byte messages as well.
    auto r =
        run_g500(g.ranks, "bfs --scale 12 --grid " + g.grid + " --json " + dir + "/run.json --output-depths -" + kTiny,
                 kTimeoutSeconds);
    ASSERT_EQ(r.status, 0) << where(g) << "\n" << r.err;
    const auto j = nlohmann::json::parse(read_file(dir + "/run.json"));
    ASSERT_EQ(j["roots"].size(), vec.roots.size()) << where(g);
    for (size_t k = 0; k < vec.roots.size(); ++k) {
      const auto& root = j["roots"][k];
      ASSERT_EQ(root["root"], vec.roots[k].root) << where(g);
      EXPECT_EQ(root["reached"], vec.roots[k].reached) << where(g);
      EXPECT_EQ(root["nedge"], vec.roots[k].nedge_for_teps) << where(g);
      EXPECT_EQ(root["level_sizes"].get<std::vector<int64_t>>(), vec.roots[k].level_sizes) << where(g);
      EXPECT_TRUE(root["validated"]) << where(g);
    }
    EXPECT_TRUE(r.out.find(read_file(dir + "/depths.txt")) != std::string::npos) << where(g) << ": depths differ";
  }
}

TEST(MessagesCli, SsspUnderTinyMessagesMatchesTheVectors) {
  const auto vec = testing::load_graph_vector(12);
  constexpr size_t kRoots = 16;
  const std::string dir = testing::make_temp_dir();
  for (const RanksAndGrid& g : {RanksAndGrid{2, "1x2"}, RanksAndGrid{6, "3x2"}, RanksAndGrid{6, "2x3"}}) {
    auto r = run_g500(g.ranks,
                      "sssp --scale 12 --roots " + std::to_string(kRoots) + " --grid " + g.grid + " --json " + dir +
                          "/run.json" + kTiny,
                      kTimeoutSeconds);
    ASSERT_EQ(r.status, 0) << where(g) << "\n" << r.err;
    const auto j = nlohmann::json::parse(read_file(dir + "/run.json"));
    ASSERT_EQ(j["roots"].size(), kRoots) << where(g);
    for (size_t k = 0; k < kRoots; ++k) {
      const auto& root = j["roots"][k];
      ASSERT_EQ(root["root"], vec.roots[k].root) << where(g);
      EXPECT_EQ(root["reached"], vec.roots[k].reached) << where(g);
      EXPECT_LE(std::fabs(root["sum_dist"].get<double>() - vec.roots[k].sssp_sum_dist),
                1e-6 * vec.roots[k].sssp_sum_dist)
          << where(g);
      EXPECT_TRUE(root["validated"]) << where(g);
    }
  }
}

// A path 1 - 2 - 3 - 4 as a 3-edge file: at 6 ranks most ranks read no line, own no vertex and
// store no edge; every exchange then has empty blocks (zero-byte messages), with and without tiny
// rounds, on every 6-rank grid. The depths and distances are known.
TEST(MessagesCli, ThreeEdgesOnSixRanksOnEveryGrid) {
  const std::string dir = testing::make_temp_dir();
  const std::string path = testing::write_file(dir, "path.tsv", "1 2 0.5\n2 3 0.25\n3 4 1\n");
  const std::string depths = "1 0\n2 1\n3 2\n4 3\n", distances = "1 0\n2 0.5\n3 0.75\n4 1.75\n";
  for (const std::string grid : {"3x2", "2x3", "6x1", "1x6"})
    for (const std::string& limit : {std::string(), kTiny}) {
      const std::string what = "grid " + grid + (limit.empty() ? "" : ", tiny messages");
      auto bfs = run_g500(6, "bfs --input " + path + " --root 1 --grid " + grid + " --output-depths -" + limit,
                          kTimeoutSeconds);
      ASSERT_EQ(bfs.status, 0) << what << "\n" << bfs.err;
      EXPECT_NE(bfs.out.find("# g500 bfs depths from root 1: vertex depth (-1: unreached)\n" + depths),
                std::string::npos)
          << what << "\n"
          << bfs.out;
      EXPECT_NE(bfs.out.find("bfs  max_validate:"), std::string::npos) << what;
      // SSSP, with the whole edge list gathered to rank 0 for Dijkstra (a gatherv of 3 edges).
      auto sssp = run_g500(
          6, "sssp --input " + path + " --root 1 --grid " + grid + " --compare-dijkstra 1 --output-distances -" + limit,
          kTimeoutSeconds);
      ASSERT_EQ(sssp.status, 0) << what << "\n" << sssp.err;
      EXPECT_NE(sssp.out.find("# g500 sssp distances from root 1: vertex distance (inf: unreached)\n" + distances),
                std::string::npos)
          << what << "\n"
          << sssp.out;
      EXPECT_NE(sssp.out.find("distances agree with Dijkstra: yes"), std::string::npos) << what;
    }
}

// SCALE 1 (2 vertices, one 64-vertex block) at 6 ranks: five ranks own no vertex. The run equals
// the one-rank run root for root.
TEST(MessagesCli, GridLargerThanTheGraph) {
  const std::string dir = testing::make_temp_dir();
  auto alone = run_g500(1, "bfs --scale 1 --json " + dir + "/one.json");
  ASSERT_EQ(alone.status, 0) << alone.err;
  const auto one = nlohmann::json::parse(read_file(dir + "/one.json"));
  ASSERT_EQ(one["roots"].size(), 1u);
  EXPECT_EQ(one["roots"][0]["reached"], 2);
  EXPECT_EQ(one["roots"][0]["level_sizes"].get<std::vector<int64_t>>(), (std::vector<int64_t>{1, 1}));
  for (const std::string grid : {"3x2", "2x3"})
    for (const std::string& limit : {std::string(), kTiny}) {
      auto r = run_g500(6, "bfs --scale 1 --grid " + grid + " --json " + dir + "/six.json" + limit, kTimeoutSeconds);
      ASSERT_EQ(r.status, 0) << grid << limit << "\n" << r.err;
      const auto six = nlohmann::json::parse(read_file(dir + "/six.json"));
      ASSERT_EQ(six["roots"].size(), 1u);
      for (const char* field : {"root", "reached", "nedge", "level_sizes", "validated"})
        EXPECT_EQ(six["roots"][0][field], one["roots"][0][field]) << grid << limit << ": " << field;
      auto sssp =
          run_g500(6, "sssp --scale 1 --grid " + grid + " --json " + dir + "/sssp.json" + limit, kTimeoutSeconds);
      ASSERT_EQ(sssp.status, 0) << grid << limit << "\n" << sssp.err;
      const auto s = nlohmann::json::parse(read_file(dir + "/sssp.json"));
      EXPECT_TRUE(s["summary"]["validation_passed"]) << grid << limit;
      EXPECT_EQ(s["roots"][0]["reached"], 2) << grid << limit;
    }
}

}  // namespace
}  // namespace g500::comm
