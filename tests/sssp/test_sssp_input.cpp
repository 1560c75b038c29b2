// g500 sssp --input end to end through mpiexec at 1 and 4 ranks: a hand-written weighted graph
// with known distances and parents (sparse ids, comments, a second component), generated weights
// for a file without weights (the same at every rank count, equal to the serial Dijkstra), the
// test-vector tsv and the gen -> bin round trip against the vectors, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_command.hpp"
#include "testvectors.hpp"
#include "usage_error.hpp"

namespace g500::sssp {
namespace {

using testing::read_file;
using testing::run_g500;

std::string write(const std::string& dir, const std::string& name, const std::string& contents) {
  return testing::write_file(dir, name, contents);
}

// "id value" lines after one comment line starting with `header`.
std::map<std::string, std::string> read_values(const std::string& path, const std::string& header) {
  std::istringstream in(read_file(path));
  std::string line;
  std::map<std::string, std::string> values;
  std::getline(in, line);
  EXPECT_EQ(line.rfind(header, 0), 0u) << line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, value;
    fields >> id >> value;
    EXPECT_TRUE(values.emplace(id, value).second) << "repeated " << id;
  }
  return values;
}

constexpr const char* kWeightedGraph =
    "# a weighted graph with sparse ids\n"
    "10 20 0.5\n"
    "20\t30 0.25\n"
    "10 30 1.0\n"
    "% another comment\n"
    "30 40 2\n"
    "40 10 3\n"
    "50 60 1\n";

TEST(SsspInput, WeightedFileGivesTheKnownDistancesAndParents) {
  const std::string dir = testing::make_temp_dir();
  const std::string tsv = write(dir, "g.tsv", kWeightedGraph);
  for (int ranks : {1, 4}) {
    auto r = run_g500(ranks, "sssp --input " + tsv + " --root 10 --compare-dijkstra 1 --json " + dir +
                                 "/r.json --output-distances " + dir + "/d.txt --output-parents " + dir + "/p.txt");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("# g500 sssp: input " + tsv + " (tsv): 6 vertices, 6 edges"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("weights from the file"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("distances agree with Dijkstra: yes"), std::string::npos) << r.out;
    const auto distances = read_values(dir + "/d.txt", "# g500 sssp distances from root 10");
    ASSERT_EQ(distances.size(), 6u);
    EXPECT_EQ(std::stod(distances.at("10")), 0.0);
    EXPECT_EQ(std::stod(distances.at("20")), 0.5);
    EXPECT_EQ(std::stod(distances.at("30")), 0.75);
    EXPECT_EQ(std::stod(distances.at("40")), 2.75);
    EXPECT_EQ(distances.at("50"), "inf");
    EXPECT_EQ(distances.at("60"), "inf");
    const std::map<std::string, std::string> parents{{"10", "10"}, {"20", "10"}, {"30", "20"},
                                                     {"40", "30"}, {"50", "-1"}, {"60", "-1"}};
    EXPECT_EQ(read_values(dir + "/p.txt", "# g500 sssp parents from root 10"), parents);
    auto j = nlohmann::json::parse(read_file(dir + "/r.json"));
    ASSERT_EQ(j["roots"].size(), 1u);
    EXPECT_EQ(j["roots"][0]["root"], 10);
    EXPECT_EQ(j["roots"][0]["reached"], 4);
    EXPECT_DOUBLE_EQ(j["roots"][0]["sum_dist"].get<double>(), 4.0);
    EXPECT_DOUBLE_EQ(j["roots"][0]["max_dist"].get<double>(), 2.75);
    EXPECT_EQ(j["input"]["weights"], "file");
  }
}

// Distances are float sums, written in the shortest text that reads back as the same float:
// 0.1f + 0.2f is the float nearest 0.3, written "0.3" (not printf's "0.300000012"); a distance
// that needs more digits keeps as many as reading it back takes.
TEST(SsspInput, DistancesAreWrittenInTheShortestTextThatReadsBackExactly) {
  const std::string dir = testing::make_temp_dir();
  const std::string tsv = write(dir, "g.tsv", "1 2 0.1\n2 3 0.2\n3 4 0.123456789\n");
  auto r = run_g500(1, "sssp --input " + tsv + " --root 1 --output-distances " + dir + "/d.txt");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto distances = read_values(dir + "/d.txt", "# g500 sssp distances from root 1");
  EXPECT_EQ(distances.at("1"), "0");
  EXPECT_EQ(distances.at("2"), "0.1");
  EXPECT_EQ(distances.at("3"), "0.3");
  const float longest = 0.1f + 0.2f + 0.123456789f;
  EXPECT_EQ(std::stof(distances.at("4")), longest);
  EXPECT_EQ(distances.at("4"), "0.4234568");  // printf("%.9g") wrote 0.423456788
}

TEST(SsspInput, FileWithoutWeightsGetsTheSameGeneratedWeightsAtEveryRankCount) {
  const std::string dir = testing::make_temp_dir();
  // The SCALE 10 vector graph without its weight column.
  std::ostringstream text;
  for (const auto& e : testing::load_kron_tsv(10)) text << e.v0 << ' ' << e.v1 << '\n';
  const std::string tsv = write(dir, "k10.tsv", text.str());
  std::string first_distances;
  for (int ranks : {1, 4}) {
    auto r = run_g500(ranks, "sssp --input " + tsv + " --roots 4 --compare-dijkstra 4 --json " + dir + "/u.json" +
                                 " --output-distances " + dir + "/d.txt");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("weights generated (the file has none)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("distances agree with Dijkstra: yes"), std::string::npos) << r.out;
    auto j = nlohmann::json::parse(read_file(dir + "/u.json"));
    EXPECT_EQ(j["input"]["weights"], "generated");
    EXPECT_EQ(j["roots"].size(), 4u);
    for (const auto& root : j["roots"]) {
      EXPECT_TRUE(root["validated"]);
      EXPECT_GT(root["max_dist"].get<double>(), 0);
      EXPECT_LT(root["max_dist"].get<double>(), 10);  // weights in [0, 1), small diameter
    }
    const std::string distances = read_file(dir + "/d.txt");
    if (first_distances.empty()) first_distances = distances;
    EXPECT_EQ(distances, first_distances) << "generated weights depend on the rank count";
  }
  // Another weight seed gives other weights.
  auto other = run_g500(1, "sssp --input " + tsv + " --roots 4 --weight-seed 7 --output-distances " + dir + "/d7.txt");
  ASSERT_EQ(other.status, 0) << other.err;
  EXPECT_NE(read_file(dir + "/d7.txt"), first_distances);
}

TEST(SsspInput, TestVectorTsvAndGenBinGiveTheVectorDistances) {
  const auto vec = testing::load_graph_vector(10);
  const std::string dir = testing::make_temp_dir();
  auto g = run_g500(2, "gen --scale 10 --format bin --weights --output " + dir + "/k10.bin");
  ASSERT_EQ(g.status, 0) << g.err;
  std::string roots;
  for (int k = 0; k < 8; ++k) roots += " --root " + std::to_string(vec.roots[k].root);
  for (int ranks : {1, 4}) {
    for (const std::string& args : {"--input " + testing::testvector_path("kron_s10_ef16_weighted.tsv") + roots,
                                    "--input " + dir + "/k10.bin --roots 8"}) {
      auto r = run_g500(ranks, "sssp " + args + " --json " + dir + "/v.json");
      ASSERT_EQ(r.status, 0) << args << "\n" << r.err;
      auto j = nlohmann::json::parse(read_file(dir + "/v.json"));
      ASSERT_EQ(j["roots"].size(), 8u) << args;
      EXPECT_EQ(j["input"]["weights"], "file");
      for (size_t k = 0; k < 8; ++k) {
        const auto& root = j["roots"][k];
        EXPECT_EQ(root["root"], vec.roots[k].root) << args;
        EXPECT_EQ(root["reached"], vec.roots[k].reached) << args;
        EXPECT_EQ(root["nedge"], vec.roots[k].nedge_for_teps) << args;
        EXPECT_LE(std::fabs(root["sum_dist"].get<double>() - vec.roots[k].sssp_sum_dist),
                  1e-6 * vec.roots[k].sssp_sum_dist);
        EXPECT_LE(std::fabs(root["max_dist"].get<double>() - vec.roots[k].sssp_max_dist),
                  1e-6 * vec.roots[k].sssp_max_dist);
        EXPECT_TRUE(root["validated"]);
      }
    }
  }
}

TEST(SsspInput, BadInput) {
  const std::string dir = testing::make_temp_dir();
  const std::string good = write(dir, "g.tsv", kWeightedGraph);
  const std::string negative = write(dir, "neg.tsv", "1 2 0.5\n2 3 -0.25\n3 4 1\n");
  const std::string huge = write(dir, "huge.tsv", "1 2 0.5\n2 3 1e38\n3 4 1\n");
  for (int ranks : {1, 4}) {
    testing::expect_usage_error(
        "sssp", ranks, "--input " + negative + " --output-distances " + dir + "/x.txt",
        "'" + negative + "': edge 2 has the negative weight -0.250000; SSSP needs weights >= 0");
    EXPECT_FALSE(std::ifstream(dir + "/x.txt").good()) << "no result file after an error";
    // Float distances: a weight whose path sums could overflow to infinity (read as unreached).
    testing::expect_usage_error("sssp", ranks, "--input " + huge + " --output-distances " + dir + "/x.txt",
                                "'" + huge + "': edge 2 has the weight 1e+38; with ");
    EXPECT_FALSE(std::ifstream(dir + "/x.txt").good()) << "no result file after an error";
    testing::expect_usage_error("sssp", ranks, "--input " + dir + "/missing.tsv",
                                "cannot open '" + dir + "/missing.tsv'");
    testing::expect_usage_error("sssp", ranks, "--input " + good + " --root 9", "--root 9 is not a vertex");
    testing::expect_usage_error("sssp", ranks, "--input " + good + " --scale 10", "do not apply with --input");
    testing::expect_usage_error("sssp", ranks, "--scale 8 --weight-seed 3", "--weight-seed needs --input");
    testing::expect_usage_error("sssp", ranks, "--scale 8 --format tsv", "--format needs --input");
  }
}

// A g500 bin file of `weights.size()` edges i -> i+1 carrying these float32 weights.
std::string weighted_bin(const std::vector<float>& weights) {
  std::string bytes("G500EDGE\x01\0\0\0\x01\0\0\0", 16);
  const int64_t n = static_cast<int64_t>(weights.size()) + 1, m = static_cast<int64_t>(weights.size());
  bytes.append(reinterpret_cast<const char*>(&n), 8).append(reinterpret_cast<const char*>(&m), 8);
  for (int64_t k = 0; k < m; ++k) {
    const int64_t a = k, b = k + 1;
    bytes.append(reinterpret_cast<const char*>(&a), 8).append(reinterpret_cast<const char*>(&b), 8);
    bytes.append(reinterpret_cast<const char*>(&weights[k]), 4);
  }
  return bytes;
}

// A weight that is not a number, infinite or beyond the float range is named as such (never as a
// "negative weight nan"), with the edge numbered from 1 in bin files and the line in text files.
TEST(SsspInput, NonFiniteWeightsAreNamed) {
  const std::string dir = testing::make_temp_dir();
  const std::string nan_bin = write(dir, "nan.bin", weighted_bin({0.5f, 1, std::nanf(""), 2}));
  const std::string inf_bin = write(dir, "inf.bin", weighted_bin({-std::numeric_limits<float>::infinity(), 1}));
  const std::string nan_tsv = write(dir, "nan.tsv", "1 2 0.5\n2 3 nan\n");
  const std::string big_tsv = write(dir, "big.tsv", "1 2 0.5\n2 3 1e39\n");
  // The bin reader's error found on a rank other than 0 (edge 3 of 4 at 4 ranks) is the one line.
  for (int ranks : {1, 4})
    testing::expect_exact_usage_error("sssp", ranks, "--input " + nan_bin,
                                      "'" + nan_bin + "': edge 3: the weight is not a number (NaN)");
  testing::expect_exact_usage_error_alone("sssp", "--input " + inf_bin,
                                          "'" + inf_bin + "': edge 1: the weight is infinite (-inf)");
  testing::expect_exact_usage_error_alone("sssp", "--input " + nan_tsv,
                                          nan_tsv + ":2: weight 'nan' is not a number (NaN)");
  testing::expect_exact_usage_error_alone(
      "sssp", "--input " + big_tsv,
      big_tsv + ":2: weight '1e39' is beyond the float range (at most 3.40282e+38 in magnitude)");
}

}  // namespace
}  // namespace g500::sssp
