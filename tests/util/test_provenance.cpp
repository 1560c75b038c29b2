// The provenance of a run (util/provenance.hpp) at several rank counts: the date format, the
// command's quoting, the hosts and ranks gathered from every rank, the JSON keys and the text line.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <vector>

#include "util/build_info.hpp"
#include "util/provenance.hpp"

namespace g500::util {
namespace {

constexpr long long kLeapDay2024Noon = 1709208000;  // 2024-02-29T12:00:00Z

TEST(Provenance, DateIsIso8601Utc) {
  EXPECT_EQ(iso8601_utc(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(iso8601_utc(kLeapDay2024Noon), "2024-02-29T12:00:00Z");
  EXPECT_EQ(iso8601_utc(kLeapDay2024Noon + 86399), "2024-03-01T11:59:59Z");
}

TEST(Provenance, InvocationNamesCommandHostsAndRanks) {
  std::vector<std::string> words = {"build/g500", "bfs", "--json", "my run.json", "--scale", "10", "it's"};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  const Invocation inv = invocation_of(static_cast<int>(argv.size()), argv.data(), MPI_COMM_WORLD);
  EXPECT_EQ(inv.command, "build/g500 bfs --json 'my run.json' --scale 10 'it'\\''s'");
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  EXPECT_EQ(inv.ranks, ranks);
  // One machine runs every rank of this test: one host, this one.
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(host, &length);
  EXPECT_EQ(inv.hosts, std::vector<std::string>{host});
  EXPECT_TRUE(std::regex_match(inv.date, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << inv.date;
  // Every rank has rank 0's date.
  std::string date0 = inv.date;
  MPI_Bcast(date0.data(), static_cast<int>(date0.size()), MPI_CHAR, 0, MPI_COMM_WORLD);
  EXPECT_EQ(inv.date, date0);
}

TEST(Provenance, JsonHasTheKeysReportsRead) {
  const Invocation inv{"g500 bfs --scale 10", "2024-02-29T12:00:00Z", {"a", "b"}, 4};
  const nlohmann::json j = provenance_json(inv, 3);
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"build", "command", "compiler", "date", "hosts", "mpi_library", "ranks",
                                            "threads_per_rank", "version"}));
  const BuildInfo build = build_info();
  EXPECT_EQ(j["version"], build.version);
  EXPECT_TRUE(std::regex_match(build.version, std::regex(R"(\d+\.\d+\.\d+)"))) << build.version;
  EXPECT_EQ(j["build"], build.build);
  EXPECT_EQ(j["compiler"], build.compiler);
  EXPECT_EQ(j["mpi_library"], mpi_library_version());
  EXPECT_EQ(j["hosts"], nlohmann::json::array({"a", "b"}));
  EXPECT_EQ(j["ranks"], 4);
  EXPECT_EQ(j["threads_per_rank"], 3);
  EXPECT_EQ(j["date"], "2024-02-29T12:00:00Z");
  EXPECT_EQ(j["command"], "g500 bfs --scale 10");
}

TEST(Provenance, TextLineNamesFewHostsAndCountsTheRest) {
  const BuildInfo build = build_info();
  const std::string head = "# g500 " + build.version + " (build " + build.build + "), " +
                           build.mpi_library.substr(0, build.mpi_library.find(',')) + ", ";
  EXPECT_EQ(provenance_line({"g500 bfs", "2024-02-29T12:00:00Z", {"n1"}, 1}, 1),
            head + "1 rank x 1 thread on 1 host (n1), 2024-02-29T12:00:00Z");
  EXPECT_EQ(provenance_line({"g500 bfs", "2024-02-29T12:00:00Z", {"n1", "n2", "n3", "n4", "n5"}, 10}, 2),
            head + "10 ranks x 2 threads on 5 hosts (n1, n2, n3 and 2 more), 2024-02-29T12:00:00Z");
}

}  // namespace
}  // namespace g500::util
