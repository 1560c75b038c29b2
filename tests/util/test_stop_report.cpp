// util/stop_report: the line a stopped run prints for nested phases and counts, and end to end: a
// BFS under mpiexec stopped with SIGTERM in its roots (as mpirun stops the survivors of a failed
// job) prints that line once, from rank 0, dies of SIGTERM, and leaves no result or temporary.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include "run_command.hpp"
#include "util/progress.hpp"
#include "util/stop_report.hpp"

namespace g500::util {
namespace {

std::string line_now() {
  char buffer[512];
  const int size = stop_report::format_stop_line(buffer, sizeof buffer, "SIGTERM");
  return std::string(buffer, static_cast<size_t>(size));
}

TEST(StopReport, NamesTheInnermostPhaseAndRestoresTheOuterOne) {
  stop_report::install("g500 test", false);
  EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM");
  {
    stop_report::StopPhase outer("kernel 1: building the graph");
    EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM during kernel 1: building the graph");
    {
      stop_report::StopPhase roots("BFS roots", 64);
      EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM during BFS roots (0 of 64 done)");
      roots.update(12, "validating");
      EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM during BFS roots (12 of 64 done, validating)");
      roots.update(13);
      EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM during BFS roots (13 of 64 done)");
    }
    EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM during kernel 1: building the graph");
  }
  EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM");
}

TEST(StopReport, ProgressPhasesAreReportedShownOrNot) {
  stop_report::install("g500 test", false);
  {
    Progress hidden(false, "SSSP roots", 4);
    hidden.update(3, "validating");
    EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM during SSSP roots (3 of 4 done, validating)");
    hidden.finish();  // a finished phase is no longer where the run is
    EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM");
  }
  EXPECT_EQ(line_now(), "g500 test: stopped by SIGTERM");
}

TEST(StopReport, TheLineIsCutToTheBuffer) {
  stop_report::install("g500 test", false);
  stop_report::StopPhase phase("BFS roots", 1000000);
  phase.update(123456);
  char buffer[20];
  EXPECT_EQ(std::string(buffer, static_cast<size_t>(stop_report::format_stop_line(buffer, sizeof buffer, "SIGTERM"))),
            "g500 test: stopped b");
}

// The processes whose command line starts with `command` (the ranks, not mpiexec or timeout).
std::vector<int> pids_of(const std::string& command) {
  const auto r = testing::run_command("pgrep -f -- '^" + command + "'");
  std::vector<int> pids;
  for (size_t at = 0; at < r.out.size();) {
    const size_t end = r.out.find('\n', at);
    pids.push_back(std::stoi(r.out.substr(at, end - at)));
    at = end == std::string::npos ? r.out.size() : end + 1;
  }
  return pids;
}

TEST(StopReportCli, AStoppedBfsSaysWhereItWasAndLeavesNothing) {
  const std::string dir = testing::make_temp_dir();
  const std::string json = dir + "/run.json";
  // 20000 roots at SCALE 16 would take minutes: the run is stopped well before.
  const std::string args = "bfs --scale 16 --roots 20000 --progress --json " + json;
  const std::string command = std::string("(timeout --kill-after=5 120 ") + G500_MPIEXEC + " -n 2 " +
                              G500_MPIEXEC_FLAGS + " " + G500_BINARY + " " + args + " >" + dir + "/out 2>" + dir +
                              "/err)";
  std::thread run([&] { testing::run_command(command); });
  // Wait for the roots to start, then stop rank 0 as mpirun would.
  bool started = false;
  for (int tries = 0; tries < 600 && !started; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    started = testing::read_file(dir + "/err").find("BFS roots") != std::string::npos;
  }
  ASSERT_TRUE(started) << testing::read_file(dir + "/err");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  bool temporary_seen = false;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    temporary_seen |= entry.path().filename().string().starts_with("run.json.g500-tmp.");
  EXPECT_TRUE(temporary_seen) << "the result's temporary should exist while the run goes on";
  const std::vector<int> ranks = pids_of(std::string(G500_BINARY) + " " + args);
  EXPECT_EQ(ranks.size(), 2u);
  for (int pid : ranks) ::kill(pid, SIGTERM);
  run.join();
  const std::string err = testing::read_file(dir + "/err");
  const std::regex line(
      "(^|\\n|\\r)g500 bfs: stopped by SIGTERM during BFS roots \\(\\d+ of 20000 done(, validating)?\\)\\n");
  EXPECT_EQ(std::distance(std::sregex_iterator(err.begin(), err.end(), line), std::sregex_iterator()), 1) << err;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "out" || name == "err") << name << " was left behind";
  }
}

}  // namespace
}  // namespace g500::util
