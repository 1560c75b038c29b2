// g500 --version and g500 version print the build's description; the JSON of g500 bfs, sssp and
// model carries the run's provenance with the exact command, and the text report a line of it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "graph/local_id.hpp"
#include "run_command.hpp"
#include "util/build_info.hpp"

namespace g500::testing {
namespace {

void expect_version_text(const CommandResult& r) {
  EXPECT_EQ(r.status, 0) << r.err;
  const util::BuildInfo build = util::build_info();
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "g500 " + build.version);
  EXPECT_NE(r.out.find("\nbuild: " + build.build + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ncompiler: " + build.compiler + ", instruction-set flags: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nMPI library: " + build.mpi_library + "\n"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nOpenMP: \\d\\.\\d \\(\\d{6}\\)\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nKronecker generator: (AVX2|portable) path on this processor\n")))
      << r.out;
  EXPECT_NE(r.out.find("\nlocal vertex ids: " + std::to_string(graph::kLocalIdBits) + "-bit"), std::string::npos)
      << r.out;
}

TEST(VersionCli, DashDashVersionAndSubcommandPrintTheBuild) {
  expect_version_text(run_g500_alone("--version"));
  const CommandResult two = run_g500(2, "version");
  expect_version_text(two);
  EXPECT_EQ(two.out, run_g500_alone("version").out);  // printed once, by rank 0
  const CommandResult extra = run_g500_alone("version --scale 3");
  EXPECT_EQ(extra.status, 2);
  EXPECT_NE(extra.err.find("g500 version: error: "), std::string::npos) << extra.err;
}

void expect_provenance(const nlohmann::json& p, int ranks, const std::string& command_tail) {
  const util::BuildInfo build = util::build_info();
  EXPECT_EQ(p.at("version"), build.version);
  EXPECT_EQ(p.at("build"), build.build);
  EXPECT_EQ(p.at("compiler"), build.compiler);
  EXPECT_EQ(p.at("mpi_library"), build.mpi_library);
  EXPECT_EQ(p.at("hosts").size(), 1u);
  EXPECT_EQ(p.at("ranks"), ranks);
  EXPECT_EQ(p.at("threads_per_rank"), 1);
  EXPECT_TRUE(std::regex_match(p.at("date").get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  EXPECT_EQ(p.at("command"), std::string(G500_BINARY) + " " + command_tail);
}

TEST(VersionCli, EveryJsonCarriesTheRunsProvenance) {
  const std::string dir = make_temp_dir();
  const std::string bfs_args = "bfs --scale 8 --roots 2 --threads 1 --json " + dir + "/'b f.json'";
  const CommandResult bfs = run_g500(2, bfs_args);
  ASSERT_EQ(bfs.status, 0) << bfs.err;
  expect_provenance(nlohmann::json::parse(read_file(dir + "/b f.json")).at("provenance"), 2,
                    "bfs --scale 8 --roots 2 --threads 1 --json '" + dir + "/b f.json'");
  EXPECT_TRUE(
      std::regex_search(bfs.out, std::regex("^# g500 \\S+ \\(build .*\\), .*, 2 ranks x 1 thread on 1 host \\(")))
      << bfs.out;

  const CommandResult sssp = run_g500(1, "sssp --scale 8 --roots 2 --threads 1 --json " + dir + "/s.json");
  ASSERT_EQ(sssp.status, 0) << sssp.err;
  expect_provenance(nlohmann::json::parse(read_file(dir + "/s.json")).at("provenance"), 1,
                    "sssp --scale 8 --roots 2 --threads 1 --json " + dir + "/s.json");
  EXPECT_TRUE(
      std::regex_search(sssp.out, std::regex("^# g500 \\S+ \\(build .*\\), .*, 1 rank x 1 thread on 1 host \\(")))
      << sssp.out;

  const CommandResult model = run_g500_alone("model --nodes 4 --scale 20 --json " + dir + "/m.json");
  ASSERT_EQ(model.status, 0) << model.err;
  const nlohmann::json m = nlohmann::json::parse(read_file(dir + "/m.json")).at("provenance");
  EXPECT_EQ(m.at("command"), std::string(G500_BINARY) + " model --nodes 4 --scale 20 --json " + dir + "/m.json");
  EXPECT_EQ(m.at("ranks"), 1);
}

}  // namespace
}  // namespace g500::testing
