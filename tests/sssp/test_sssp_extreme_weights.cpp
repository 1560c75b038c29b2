// g500 sssp on file weights far above the bucket width, under a memory limit (ulimit -v) so that
// a search whose storage grew with the range of the distances would fail here instead of
// exhausting the machine: heavy weights (1e6, 1e9) give their exact float distances at 1 and 4
// ranks, a delta too small to number the buckets is raised with one line, and a graph whose
// weights span twelve decades is validated and agrees with the serial Dijkstra.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>

#include "run_command.hpp"

namespace g500::sssp {
namespace {

using testing::read_file;

constexpr int kMemoryLimitKib = 4 * 1024 * 1024;  // per process: far above what these runs need
constexpr int kTimeoutSeconds = 120;

testing::CommandResult run_limited(int ranks, const std::string& args) {
  return testing::run_command("ulimit -v " + std::to_string(kMemoryLimitKib) + "; timeout --kill-after=5 " +
                              std::to_string(kTimeoutSeconds) + " " + G500_MPIEXEC + " -n " + std::to_string(ranks) +
                              " " + G500_MPIEXEC_FLAGS + " " + G500_BINARY + " " + args);
}

// "id value" lines of a result file, after its comment line.
std::map<std::string, std::string> read_values(const std::string& path) {
  std::istringstream in(read_file(path));
  std::map<std::string, std::string> values;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, value;
    fields >> id >> value;
    values[id] = value;
  }
  return values;
}

TEST(SsspExtremeWeights, HeavyWeightsGiveTheirFloatDistances) {
  const std::string dir = testing::make_temp_dir();
  // The float sums: 1 + 1e6 and 1e6 + 2 are exact; 1 + 1e9 rounds to 1e9 (floats are 64 apart there).
  struct Case {
    std::string weight;
    std::map<std::string, std::string> distances;
  };
  const Case cases[] = {{"1e6", {{"0", "0"}, {"1", "1"}, {"2", "1000001"}, {"3", "1000002"}}},
                        {"1e9", {{"0", "0"}, {"1", "1"}, {"2", "1e+09"}, {"3", "1e+09"}}}};
  for (const Case& c : cases) {
    const std::string tsv = testing::write_file(dir, "w" + c.weight + ".tsv", "0 1 1\n1 2 " + c.weight + "\n2 3 1\n");
    for (int ranks : {1, 4}) {
      const std::string out = dir + "/d" + c.weight + "_" + std::to_string(ranks) + ".txt";
      auto r = run_limited(ranks, "sssp --input " + tsv + " --root 0 --compare-dijkstra 1 --output-distances " + out);
      ASSERT_EQ(r.status, 0) << c.weight << " at " << ranks << " ranks\n" << r.err;
      EXPECT_NE(r.out.find("distances agree with Dijkstra: yes"), std::string::npos) << r.out;
      EXPECT_EQ(read_values(out), c.distances) << c.weight << " at " << ranks << " ranks";
    }
  }
}

TEST(SsspExtremeWeights, ADeltaTooSmallToNumberTheBucketsIsRaisedWithOneLine) {
  const std::string dir = testing::make_temp_dir();
  const std::string tsv = testing::write_file(dir, "w.tsv", "0 1 1\n1 2 1e6\n2 3 1\n");
  for (int ranks : {1, 4}) {
    auto r = run_limited(ranks, "sssp --input " + tsv + " --root 0 --delta 1e-9 --json " + dir + "/r.json");
    ASSERT_EQ(r.status, 0) << r.err;
    // 3 edges of at most 1e6: distances up to 3e6, times 16 sub-buckets, twice, over 2^53.
    EXPECT_NE(r.out.find("# delta raised from 1e-09 to 1.06581e-08: with weights up to 1e+06 on 4 vertices"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("delta 1.06581e-08,"), std::string::npos) << r.out;
    const std::string json = read_file(dir + "/r.json");
    EXPECT_NE(json.find("\"delta_asked\": 1e-09"), std::string::npos) << json;
    // The default delta numbers these distances: no line.
    r = run_limited(ranks, "sssp --input " + tsv + " --root 0");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("delta raised"), std::string::npos) << r.out;
  }
}

TEST(SsspExtremeWeights, WeightsOverTwelveDecadesAreValidatedAtEveryDelta) {
  // 600 vertices, 2400 edges, weights 10^u for u uniform in [-3, 9): most candidates land far
  // beyond the ring of sub-buckets, and float sums swallow the light weights of distant vertices.
  std::ostringstream edges;
  uint64_t x = 2026;
  auto next = [&] {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x >> 11;
  };
  for (int e = 0; e < 2400; ++e) {
    const uint64_t u = next() % 600, v = next() % 600;
    const double exponent = -3.0 + 12.0 * static_cast<double>(next() % 1000000) / 1e6;
    char weight[32];
    std::snprintf(weight, sizeof weight, "%.6g", std::pow(10.0, exponent));
    edges << u << ' ' << v << ' ' << weight << '\n';
  }
  const std::string dir = testing::make_temp_dir();
  const std::string tsv = testing::write_file(dir, "wide.tsv", edges.str());
  for (int ranks : {1, 4}) {
    for (const char* delta : {"0.05", "1e-6", "1e6"}) {
      auto r =
          run_limited(ranks, std::string("sssp --input ") + tsv + " --roots 4 --compare-dijkstra 4 --delta " + delta);
      ASSERT_EQ(r.status, 0) << "delta " << delta << " at " << ranks << " ranks\n" << r.err;
      EXPECT_NE(r.out.find("distances agree with Dijkstra: yes"), std::string::npos) << r.out;
    }
  }
}

}  // namespace
}  // namespace g500::sssp
