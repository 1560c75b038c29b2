// The energy loop (src/run/energy_loop) with a stand-in search of known times and edge counts:
// the roots searched round-robin until the duration has passed and the meter's last sample is
// in, the same count on every rank, each root's edges counted once, the harmonic-mean TEPS and TEPS/W from the power
// command's watts, a command failing during the loop, and the report's lines and JSON.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "run/energy_loop.hpp"
#include "util/error.hpp"

namespace g500::run {
namespace {

// The stand-in search from root r takes (r + 1) ms and reaches 1000 (r + 1)^2 edges: TEPS 1e6 (r + 1).
constexpr double kMillisecond = 1e-3;
double search_seconds(int64_t root) { return kMillisecond * static_cast<double>(root + 1); }
int64_t search_edges(int64_t root) { return 1000 * (root + 1) * (root + 1); }

struct Recorded {
  std::vector<int64_t> roots;
  std::vector<bool> counted;
};

LoopSearchFn stand_in_search(Recorded& recorded) {
  return [&recorded](int64_t root, bool count_edges) {
    recorded.roots.push_back(root);
    recorded.counted.push_back(count_edges);
    std::this_thread::sleep_for(std::chrono::duration<double>(search_seconds(root)));
    MPI_Barrier(MPI_COMM_WORLD);  // a collective, as every search is
    LoopSearch search;
    search.seconds = search_seconds(root);
    if (count_edges) search.nedge = search_edges(root);
    return search;
  };
}

EnergyLoopOptions loop_options(const std::string& command) {
  EnergyLoopOptions options;
  options.duration_text = "200ms";
  options.seconds = 0.2;
  options.power_command = command;
  return options;
}

int64_t min_over_ranks(int64_t value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  return value;
}
int64_t max_over_ranks(int64_t value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  return value;
}

const std::vector<int64_t> kRoots{4, 0, 9};

TEST(EnergyLoop, RepeatsTheRootsRoundRobinUntilTheDurationHasPassed) {
  Recorded recorded;
  const EnergyLoopReport report =
      run_energy_loop("BFS", kRoots, loop_options("echo 250"), stand_in_search(recorded), false, MPI_COMM_WORLD);
  ASSERT_TRUE(report.ran);
  EXPECT_GE(report.seconds, 0.2);
  // Every search of rank 0's loop ran on every rank.
  EXPECT_EQ(report.searches, static_cast<int64_t>(recorded.roots.size()));
  EXPECT_EQ(min_over_ranks(report.searches), max_over_ranks(report.searches));
  double seconds_range[2] = {-report.seconds, report.seconds};  // rank 0's clock on every rank
  MPI_Allreduce(MPI_IN_PLACE, seconds_range, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(-seconds_range[0], seconds_range[1]);
  EXPECT_GT(report.searches, static_cast<int64_t>(kRoots.size()));  // 200 ms of searches of 1-10 ms
  double search_sum = 0, seconds_per_edge = 0;
  int64_t edges = 0;
  for (size_t k = 0; k < recorded.roots.size(); ++k) {
    const int64_t root = kRoots[k % kRoots.size()];
    EXPECT_EQ(recorded.roots[k], root) << k;
    EXPECT_EQ(recorded.counted[k], k < kRoots.size()) << k;  // each root's edges counted once
    search_sum += search_seconds(root);
    seconds_per_edge += search_seconds(root) / static_cast<double>(search_edges(root));
    edges += search_edges(root);
  }
  EXPECT_EQ(report.roots, 3);
  EXPECT_EQ(report.nedges, edges);
  EXPECT_DOUBLE_EQ(report.search_seconds, search_sum);
  const double harmonic_mean = static_cast<double>(report.searches) / seconds_per_edge;
  EXPECT_DOUBLE_EQ(report.harmonic_mean_teps, harmonic_mean);
  // The command's watts on every rank: TEPS/W = harmonic mean / 250.
  ASSERT_TRUE(report.command.has_value());
  EXPECT_TRUE(report.command->ok) << report.command->error;
  EXPECT_GE(report.command->samples, 2);  // at the start and at the end
  EXPECT_DOUBLE_EQ(report.command->mean_watts, 250);
  EXPECT_DOUBLE_EQ(report.command->min_watts, 250);
  EXPECT_DOUBLE_EQ(report.command->max_watts, 250);
  EXPECT_EQ(report.meter(), EnergyLoopReport::Meter::kCommand);
  EXPECT_TRUE(report.measured());
  EXPECT_DOUBLE_EQ(report.watts(), 250);
  EXPECT_DOUBLE_EQ(report.teps_per_watt(), harmonic_mean / 250);

  const nlohmann::json j = energy_loop_json(report);
  EXPECT_EQ(j["available"], true);
  EXPECT_EQ(j["loop"], true);
  EXPECT_EQ(j["kernel"], "bfs");
  EXPECT_EQ(j["meter"], "command");
  EXPECT_EQ(j["duration"], "200ms");
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 0.2);
  EXPECT_EQ(j["searches"], report.searches);
  EXPECT_EQ(j["roots"], 3);
  EXPECT_EQ(j["nedge"], edges);
  EXPECT_DOUBLE_EQ(j["watts"].get<double>(), 250);
  EXPECT_DOUBLE_EQ(j["joules"].get<double>(), 250 * report.seconds);
  EXPECT_DOUBLE_EQ(j["harmonic_mean_TEPS"].get<double>(), harmonic_mean);
  EXPECT_DOUBLE_EQ(j["teps_per_watt"].get<double>(), harmonic_mean / 250);
  EXPECT_EQ(j["power_command"]["command"], "echo 250");
  EXPECT_EQ(j["power_command"]["ok"], true);
  EXPECT_EQ(j["power_command"]["samples"], report.command->samples);
  EXPECT_EQ(j["rapl"]["available"], report.rapl.available);

  const std::vector<std::string> lines = energy_loop_lines(report);
  ASSERT_EQ(lines.size(), 4u);
  char teps[64], teps_per_watt[64];
  std::snprintf(teps, sizeof teps, "%g", harmonic_mean);
  std::snprintf(teps_per_watt, sizeof teps_per_watt, "%.6g", harmonic_mean / 250);
  EXPECT_EQ(lines[0].rfind("BFS energy loop (--energy-loop 200ms): " + std::to_string(report.searches) +
                               " searches from 3 roots in ",
                           0),
            0u)
      << lines[0];
  EXPECT_NE(lines[0].find(std::string(", harmonic_mean_TEPS ") + teps), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1], "  power: 250 W, the mean of " + std::to_string(report.command->samples) +
                          " samples of --power-command 'echo 250' (min 250 W, max 250 W)");
  EXPECT_EQ(lines[2], std::string("  TEPS/W: ") + teps_per_watt + " (harmonic_mean_TEPS / 250 W)");
  EXPECT_EQ(lines[3].rfind("  RAPL (package and DRAM of the nodes, not the whole system): ", 0), 0u) << lines[3];
}

TEST(EnergyLoop, TheSearchesGoOnUntilTheLastSampleIsIn) {
  // A slow meter (0.15 s a sample) and a loop of 0.05 s: its first sample ends after the time is
  // up, and the last one, asked for then, is taken while the searches still run.
  EnergyLoopOptions options = loop_options("sleep 0.15; echo 300");
  options.seconds = 0.05;
  Recorded recorded;
  const EnergyLoopReport report =
      run_energy_loop("BFS", kRoots, options, stand_in_search(recorded), false, MPI_COMM_WORLD);
  ASSERT_TRUE(report.command.has_value());
  EXPECT_TRUE(report.command->ok) << report.command->error;
  EXPECT_EQ(report.command->samples, 2);
  EXPECT_DOUBLE_EQ(report.watts(), 300);
  EXPECT_GE(report.seconds, 0.3);
  EXPECT_EQ(report.searches, static_cast<int64_t>(recorded.roots.size()));
  EXPECT_EQ(min_over_ranks(report.searches), max_over_ranks(report.searches));
}

TEST(EnergyLoop, ACommandFailingDuringTheLoopLeavesTheMeterFailed) {
  Recorded recorded;
  const EnergyLoopReport report = run_energy_loop("SSSP", kRoots, loop_options("echo 'meter gone' >&2; exit 5"),
                                                  stand_in_search(recorded), false, MPI_COMM_WORLD);
  ASSERT_TRUE(report.ran);
  EXPECT_GE(report.seconds, 0.2);  // the loop goes on
  ASSERT_TRUE(report.command.has_value());
  EXPECT_FALSE(report.command->ok);
  EXPECT_EQ(report.command->samples, 0);
  EXPECT_EQ(report.command->error, "sample 1 exited with status 5 (meter gone)");  // on every rank
  EXPECT_EQ(report.meter(), EnergyLoopReport::Meter::kCommand);                    // RAPL does not stand in for it
  EXPECT_FALSE(report.measured());
  EXPECT_EQ(report.teps_per_watt(), 0);
  EXPECT_GT(report.harmonic_mean_teps, 0);
  const nlohmann::json j = energy_loop_json(report);
  EXPECT_EQ(j["available"], false);
  EXPECT_EQ(j["kernel"], "sssp");
  EXPECT_EQ(j["meter"], "command");
  EXPECT_FALSE(j.contains("watts"));
  EXPECT_FALSE(j.contains("teps_per_watt"));
  EXPECT_EQ(j["power_command"]["ok"], false);
  EXPECT_EQ(j["power_command"]["error"], "sample 1 exited with status 5 (meter gone)");
  const std::vector<std::string> lines = energy_loop_lines(report);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(
      lines[1],
      "  power: --power-command 'echo 'meter gone' >&2; exit 5' FAILED: sample 1 exited with status 5 (meter gone)");
  EXPECT_EQ(lines[2], "  TEPS/W: not available (no power measured)");
}

TEST(EnergyLoop, WithoutACommandTheMeterIsRapl) {
  Recorded recorded;
  const EnergyLoopReport report =
      run_energy_loop("BFS", kRoots, loop_options(""), stand_in_search(recorded), false, MPI_COMM_WORLD);
  ASSERT_TRUE(report.ran);
  EXPECT_FALSE(report.command.has_value());
  EXPECT_EQ(report.meter(), EnergyLoopReport::Meter::kRapl);
  // Whether this machine's counters can be read is its own affair; the report follows them.
  EXPECT_EQ(report.measured(), report.rapl.available);
  const nlohmann::json j = energy_loop_json(report);
  EXPECT_EQ(j["meter"], "rapl");
  EXPECT_EQ(j["available"], report.rapl.available);
  EXPECT_FALSE(j.contains("power_command"));
  const std::vector<std::string> lines = energy_loop_lines(report);
  ASSERT_EQ(lines.size(), 3u);
  if (!report.rapl.available) {
    EXPECT_EQ(lines[1],
              "  power: not measured (no readable RAPL counters; --power-command takes a meter of the whole system)");
    EXPECT_EQ(lines[2], "  TEPS/W: not available (no power measured)");
  } else {
    EXPECT_NE(lines[1].find(" from RAPL, the package and DRAM of the nodes, not the whole system"), std::string::npos);
  }
}

TEST(EnergyLoop, NothingRunsWithoutADuration) {
  Recorded recorded;
  const EnergyLoopReport report =
      run_energy_loop("BFS", kRoots, EnergyLoopOptions{}, stand_in_search(recorded), false, MPI_COMM_WORLD);
  EXPECT_FALSE(report.ran);
  EXPECT_EQ(report.searches, 0);
  EXPECT_TRUE(recorded.roots.empty());
  EXPECT_TRUE(energy_loop_lines(report).empty());
}

TEST(EnergyLoop, TheTrialRunRefusesAFailingCommandOnEveryRank) {
  EXPECT_NO_THROW(check_power_command("", MPI_COMM_WORLD));
  EXPECT_NO_THROW(check_power_command("echo 300", MPI_COMM_WORLD));
  try {
    check_power_command("echo none", MPI_COMM_WORLD);
    ADD_FAILURE() << "no UsageError";
  } catch (const util::UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "--power-command 'echo none' failed its trial run: printed 'none' on its first line, not a positive "
                 "number of watts");
  }
}

}  // namespace
}  // namespace g500::run
