// The energy loop of Green Graph500 (--energy-loop, --power-command): after the warm-up and before
// the timed roots, a kernel's searches from the run's roots are repeated round-robin until a wall
// time has passed, and the system's average power over that loop gives TEPS per watt. The timed
// searches alone last milliseconds, too short for a power meter; the reference does the same with
// its ENERGYLOOP_BFS and ENERGYLOOP_SSSP builds. One home for every kernel: a run passes its
// roots and a callable that runs one search, so the BFS, the SSSP and a combined run share it.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "util/energy.hpp"

namespace g500::run {

// The longest loop accepted: longer is a typo (an extra digit, h for m).
inline constexpr double kMaxEnergyLoopSeconds = 24 * 3600.0;

struct EnergyLoopOptions {
  std::string duration_text;  // --energy-loop as given, e.g. "60s" (empty: no loop)
  double seconds = 0;         // its value; 0: no loop
  std::string power_command;  // --power-command (empty: the RAPL counters)
  bool wanted() const { return seconds > 0; }
};

// One search of the loop: its time (the slowest rank's, the same on every rank) and, when asked
// for, the TEPS edge count of its result (the same on every rank).
struct LoopSearch {
  double seconds = 0;
  int64_t nedge = -1;  // -1: not counted
};
// Runs one search from `root` (global id) including its preparation, collectively; counts the
// edges when `count_edges` (the loop asks once per root and reuses the count).
using LoopSearchFn = std::function<LoopSearch(int64_t root, bool count_edges)>;

// What the power command measured over the loop (rank 0's view, broadcast).
struct PowerCommandReport {
  std::string command;
  bool ok = false;
  int64_t samples = 0;
  double mean_watts = 0, min_watts = 0, max_watts = 0;
  std::string error;  // when not ok
};

struct EnergyLoopReport {
  bool ran = false;
  std::string kernel;         // "BFS", "SSSP"
  std::string duration_text;  // as asked
  double duration_asked = 0;
  double seconds = 0;  // the loop's wall time (rank 0's clock), over which the power is averaged
  int64_t searches = 0, roots = 0;
  double search_seconds = 0;  // the searches' own times, summed
  int64_t nedges = 0;         // their TEPS edges, summed
  double harmonic_mean_teps = 0;
  std::optional<PowerCommandReport> command;  // with --power-command
  util::EnergyReport rapl;                    // the nodes' RAPL counters over the loop

  // The meter of the TEPS/W: the command when one was given (failed or not: RAPL is not the
  // whole system's power and is not put in its place), else RAPL.
  enum class Meter { kCommand, kRapl };
  Meter meter() const { return command ? Meter::kCommand : Meter::kRapl; }
  bool measured() const;  // the meter gave a power
  double watts() const;   // 0 when not measured
  double teps_per_watt() const { return measured() && watts() > 0 ? harmonic_mean_teps / watts() : 0; }
};

// Collective. Runs `search` from roots[0], roots[1], ... round-robin until options.seconds have
// passed on rank 0's clock (at least one search; rank 0 broadcasts after each search whether to
// go on), with the RAPL counters of each node and the power command (rank 0, every
// kPowerSampleIntervalSeconds, at the start and once more when the time is up, the searches
// going on until that last sample is in) measuring the loop only. `kernel`
// names the searches in the report and the progress line. A power command that fails during the
// loop does not stop it: rank 0 says so in one line on stderr and the report has the meter failed.
EnergyLoopReport run_energy_loop(const std::string& kernel, const std::vector<int64_t>& roots,
                                 const EnergyLoopOptions& options, const LoopSearchFn& search, bool progress,
                                 MPI_Comm world);

// Collective: runs the power command once on rank 0 before any work and throws UsageError (the
// same on every rank) when it fails, e.g. "--power-command 'ipmi-power': exited with status 1
// (...)". Nothing when `command` is empty.
void check_power_command(const std::string& command, MPI_Comm world);

// The report's lines for the text output: the loop, the meter and the TEPS/W.
std::vector<std::string> energy_loop_lines(const EnergyLoopReport& report);
// Those lines after an empty one; nothing when the loop did not run.
void print_energy_loop(FILE* out, const EnergyLoopReport& report);
// The JSON "energy" object of a run with a loop: "available" (the meter gave a power), "loop":
// true, "meter" ("command" or "rapl"), "watts", "joules", "seconds", "searches", "roots",
// "harmonic_mean_TEPS", "teps_per_watt", the command's samples and the RAPL reading.
nlohmann::json energy_loop_json(const EnergyLoopReport& report);

}  // namespace g500::run
