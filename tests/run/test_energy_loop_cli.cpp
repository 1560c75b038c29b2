// g500 bfs and g500 sssp with --energy-loop and --power-command through mpiexec: a short loop at
// 1, 2, 4 and 6 ranks with a stand-in meter printing a fixed power (the report's mean power is
// that number, TEPS/W the loop's harmonic-mean TEPS over it, the loop's edges those of the
// validated roots), bad durations and failing meters refused with one line before any work, a
// meter failing during the loop reported as failed in a run that completes, and the RAPL line of
// a run without a loop.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.hpp"
#include "usage_error.hpp"

namespace g500::run {
namespace {

using testing::run_g500;

constexpr const char* kSmallRun = " --scale 8 --roots 2";

std::string format_g(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// The stand-in meter: a script in `dir` printing 250 (watts).
std::string fixed_meter(const std::string& dir) { return "sh " + testing::write_file(dir, "watts.sh", "echo 250\n"); }

TEST(EnergyLoopCli, AShortLoopReportsTheMetersPowerAndTepsPerWatt) {
  for (const std::string kernel : {"bfs", "sssp"}) {
    const std::string upper = kernel == "bfs" ? "BFS" : "SSSP";
    const std::string prefix = kernel == "bfs" ? "" : "sssp_";
    for (int ranks : {1, 2, 4, 6}) {
      SCOPED_TRACE(kernel + " at " + std::to_string(ranks) + " ranks");
      const std::string dir = testing::make_temp_dir();
      const std::string meter = fixed_meter(dir);
      const auto r = run_g500(
          ranks, kernel + kSmallRun + " --energy-loop 0.5s --power-command '" + meter + "' --json " + dir + "/run.json",
          120);
      ASSERT_EQ(r.status, 0) << r.err;
      const auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
      const auto& energy = j["energy"];
      EXPECT_EQ(energy["available"], true);
      EXPECT_EQ(energy["loop"], true);
      EXPECT_EQ(energy["kernel"], kernel);
      EXPECT_EQ(energy["meter"], "command");
      EXPECT_EQ(energy["duration"], "0.5s");
      EXPECT_GE(energy["seconds"].get<double>(), 0.5);
      EXPECT_EQ(energy["roots"], 2);
      const int64_t searches = energy["searches"].get<int64_t>();
      EXPECT_GE(searches, 1);
      // The loop's edges: each search's root's, as the validated timed search from it counted them.
      ASSERT_EQ(j["roots"].size(), 2u);
      int64_t edges = 0;
      for (int64_t k = 0; k < searches; ++k) edges += j["roots"][k % 2]["nedge"].get<int64_t>();
      EXPECT_EQ(energy["nedge"], edges);
      EXPECT_TRUE(j["summary"]["validation_passed"]);
      // The meter's number is the mean power; TEPS/W is the loop's harmonic mean over it.
      EXPECT_EQ(energy["power_command"]["command"], meter);
      EXPECT_EQ(energy["power_command"]["ok"], true);
      const int64_t samples = energy["power_command"]["samples"].get<int64_t>();
      EXPECT_GE(samples, 2);  // at the start and at the end
      EXPECT_EQ(energy["power_command"]["mean_watts"], 250.0);
      EXPECT_EQ(energy["watts"], 250.0);
      const double teps = energy["harmonic_mean_TEPS"].get<double>();
      EXPECT_GT(teps, 0);
      EXPECT_DOUBLE_EQ(energy["teps_per_watt"].get<double>(), teps / 250);
      EXPECT_DOUBLE_EQ(energy["joules"].get<double>(), 250 * energy["seconds"].get<double>());
      EXPECT_GT(j["summary"][prefix + "harmonic_mean_TEPS"].get<double>(), 0);  // the timed roots still ran
      // The text says the same.
      const auto loop_lines = testing::lines_starting(r.out, upper + " energy loop (--energy-loop 0.5s): ");
      ASSERT_EQ(loop_lines.size(), 1u) << r.out;
      EXPECT_NE(loop_lines[0].find(": " + std::to_string(searches) + " searches from 2 roots in "), std::string::npos)
          << loop_lines[0];
      EXPECT_NE(loop_lines[0].find(", harmonic_mean_TEPS " + format_g("%g", teps)), std::string::npos) << loop_lines[0];
      EXPECT_EQ(testing::lines_starting(r.out, "  power: "),
                std::vector<std::string>{"  power: 250 W, the mean of " + std::to_string(samples) +
                                         " samples of --power-command '" + meter + "' (min 250 W, max 250 W)"});
      EXPECT_EQ(
          testing::lines_starting(r.out, "  TEPS/W: "),
          std::vector<std::string>{"  TEPS/W: " + format_g("%.6g", teps / 250) + " (harmonic_mean_TEPS / 250 W)"});
      EXPECT_EQ(testing::lines_starting(r.out, "  RAPL (package and DRAM of the nodes, not the whole system): ").size(),
                1u);
      EXPECT_EQ(r.out.find("energy of the timed"), std::string::npos);  // the loop's report replaces that line
    }
  }
}

TEST(EnergyLoopCli, BadDurationsAreRefused) {
  // Every form of a duration: test_duration; here the option's message and range.
  const std::string rule =
      "--energy-loop must be a duration of more than 0 and at most 24h: a number and its unit "
      "(ms, s, m or h), e.g. 60s, 2m or 0.5s (got '";
  for (const std::string value : {"60", "0s", "25h"})
    testing::expect_exact_usage_error_alone("bfs", "--energy-loop '" + value + "'", rule + value + "')");
  testing::expect_exact_usage_error_alone("sssp", "--energy-loop 1x", rule + "1x')");
  testing::expect_exact_usage_error_alone(
      "sssp", "--power-command 'echo 100'",
      "--power-command measures the power during --energy-loop; give --energy-loop too");
  testing::expect_exact_usage_error_alone("bfs", "--energy-loop 1m --power-command ''",
                                          "--power-command must not be empty");
}

TEST(EnergyLoopCli, AFailingMeterIsRefusedBeforeAnyWork) {
  const std::string dir = testing::make_temp_dir();
  const std::string json = dir + "/run.json";
  const std::string trial = "' failed its trial run: ";
  // On rank 0 only, agreed by every rank.
  testing::expect_exact_usage_error(
      "bfs", 2, "--energy-loop 1s --power-command 'echo n/a' --json " + json,
      "--power-command 'echo n/a" + trial + "printed 'n/a' on its first line, not a positive number of watts");
  testing::expect_exact_usage_error_alone(
      "sssp", "--energy-loop 1s --power-command 'echo busy >&2; exit 3' --json " + json,
      "--power-command 'echo busy >&2; exit 3" + trial + "exited with status 3 (busy)");
  const auto missing =
      testing::run_g500_alone("bfs --energy-loop 1s --power-command g500-no-such-meter --json " + json);
  EXPECT_EQ(missing.status, 2);
  const auto errors = testing::lines_starting(missing.err, "g500 bfs: error: ");
  ASSERT_EQ(errors.size(), 1u) << missing.err;
  EXPECT_EQ(
      errors[0].rfind("g500 bfs: error: --power-command 'g500-no-such-meter" + trial + "exited with status 127 (", 0),
      0u)
      << errors[0];
  EXPECT_NE(errors[0].find("g500-no-such-meter: "), std::string::npos) << errors[0];  // the shell's words
  EXPECT_EQ(missing.out, "");
  EXPECT_FALSE(std::filesystem::exists(json));
}

TEST(EnergyLoopCli, AMeterFailingDuringTheLoopIsReportedAndTheRunCompletes) {
  const std::string dir = testing::make_temp_dir();
  // Answers its trial run, fails from then on.
  const std::string meter = "sh " + testing::write_file(dir, "meter.sh",
                                                        "if [ -e " + dir +
                                                            "/tried ]; then echo 'no reply' >&2; exit 4; fi\n"
                                                            "touch " +
                                                            dir + "/tried\necho 250\n");
  const auto r = run_g500(2,
                          std::string("bfs") + kSmallRun + " --energy-loop 0.5s --power-command '" + meter +
                              "' --json " + dir + "/run.json",
                          120);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string failure =
      "--power-command '" + meter + "' failed during the BFS energy loop: sample 1 exited with status 4 (no reply)";
  EXPECT_EQ(testing::lines_starting(r.err, "g500 bfs: "),
            std::vector<std::string>{"g500 bfs: warning: " + failure + "; no TEPS/W from it"});
  EXPECT_EQ(testing::lines_starting(r.out, "  power: "),
            std::vector<std::string>{"  power: --power-command '" + meter +
                                     "' FAILED: sample 1 exited with status 4 (no reply)"});
  EXPECT_EQ(testing::lines_starting(r.out, "  TEPS/W: "),
            std::vector<std::string>{"  TEPS/W: not available (no power measured)"});
  EXPECT_NE(r.out.find("bfs  harmonic_mean_TEPS:"), std::string::npos);  // the timed roots ran
  const auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
  EXPECT_EQ(j["energy"]["available"], false);
  EXPECT_EQ(j["energy"]["meter"], "command");
  EXPECT_EQ(j["energy"]["power_command"]["ok"], false);
  EXPECT_EQ(j["energy"]["power_command"]["error"], "sample 1 exited with status 4 (no reply)");
  EXPECT_FALSE(j["energy"].contains("teps_per_watt"));
  EXPECT_TRUE(j["summary"]["validation_passed"]);
}

TEST(EnergyLoopCli, WithoutALoopTheRaplLineCoversTheTimedSearchesOnly) {
  const std::string dir = testing::make_temp_dir();
  const auto r = run_g500(1, std::string("bfs") + kSmallRun + " --json " + dir + "/run.json", 120);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(testing::read_file(dir + "/run.json"));
  EXPECT_EQ(j["energy"]["loop"], false);
  const auto lines = testing::lines_starting(r.out, "energy");
  ASSERT_EQ(lines.size(), 1u) << r.out;
  if (j["energy"]["available"])  // readable RAPL counters
    EXPECT_EQ(lines[0].rfind("energy of the timed BFS searches only (", 0), 0u) << lines[0];
  else
    EXPECT_EQ(lines[0],
              "energy: not available (no readable RAPL counters; --energy-loop with --power-command measures a "
              "system's power)");
  EXPECT_EQ(r.out.find("energy loop"), std::string::npos);
}

}  // namespace
}  // namespace g500::run
