// The energy loop: the round-robin searches, stopped collectively on rank 0's clock, the meters
// around them, and the report's text and JSON.
#include "run/energy_loop.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "comm/typed.hpp"
#include "util/agree.hpp"
#include "util/power_command.hpp"
#include "util/progress.hpp"

namespace g500::run {
namespace {

// The longest part of a command quoted in the output.
constexpr size_t kShownCommandChars = 120;

std::string shown_command(const std::string& command) {
  std::string shown(1, '\'');
  shown += util::printable(command, kShownCommandChars);
  return shown + '\'';
}

std::string lower_case(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// "27.1 W (13.600 J over 0.501 s, 1 node)"
std::string rapl_reading(const util::EnergyReport& rapl) {
  return format("%.4g W", rapl.watts()) + " (" + format("%.3f J", rapl.joules) + " over " +
         format("%.3f s", rapl.seconds) + ", " + std::to_string(rapl.nodes) + (rapl.nodes == 1 ? " node)" : " nodes)");
}

// Rank 0's power command report on every rank.
PowerCommandReport broadcast_command_report(const util::PowerSampler* sampler, const std::string& command,
                                            MPI_Comm world) {
  PowerCommandReport report;
  report.command = command;
  double numbers[5] = {0, 0, 0, 0, 0};  // ok, samples, mean, min, max
  std::string error;
  if (sampler) {
    const std::vector<double>& samples = sampler->samples();
    numbers[0] = sampler->failed() ? 0 : 1;
    numbers[1] = static_cast<double>(samples.size());
    numbers[2] = sampler->mean_watts();
    if (!samples.empty()) {
      numbers[3] = *std::min_element(samples.begin(), samples.end());
      numbers[4] = *std::max_element(samples.begin(), samples.end());
    }
    error = sampler->error();
  }
  comm::Communicator(world).broadcast(numbers, 0);
  report.ok = numbers[0] != 0;
  report.samples = static_cast<int64_t>(numbers[1]);
  report.mean_watts = numbers[2];
  report.min_watts = numbers[3];
  report.max_watts = numbers[4];
  report.error = util::first_error(report.ok ? std::string() : error, world);  // only rank 0 has it
  return report;
}

// Rank 0's line on stderr when the power command failed during the loop (the run goes on; the
// report says the meter failed).
void warn_of_failed_command(const EnergyLoopReport& r, int rank) {
  if (rank != 0 || !r.command || r.command->ok) return;
  std::fprintf(stderr, "g500 %s: warning: --power-command %s failed during the %s energy loop: %s; no TEPS/W from it\n",
               lower_case(r.kernel).c_str(), shown_command(r.command->command).c_str(), r.kernel.c_str(),
               r.command->error.c_str());
  std::fflush(stderr);
}

}  // namespace

bool EnergyLoopReport::measured() const {
  if (!ran) return false;
  if (meter() == Meter::kCommand) return command->ok && command->samples > 0;
  return rapl.available && rapl.seconds > 0;
}

double EnergyLoopReport::watts() const {
  if (!measured()) return 0;
  return meter() == Meter::kCommand ? command->mean_watts : rapl.watts();
}

EnergyLoopReport run_energy_loop(const std::string& kernel, const std::vector<int64_t>& roots,
                                 const EnergyLoopOptions& options, const LoopSearchFn& search, bool progress,
                                 MPI_Comm world) {
  EnergyLoopReport report;
  report.kernel = kernel;
  report.duration_text = options.duration_text;
  report.duration_asked = options.seconds;
  report.roots = static_cast<int64_t>(roots.size());
  if (!options.wanted() || roots.empty()) return report;
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  util::EnergyMeter rapl = util::EnergyMeter::for_node(world);
  std::optional<util::PowerSampler> sampler;
  if (rank == 0 && !options.power_command.empty()) sampler.emplace(options.power_command);
  std::vector<int64_t> nedge(roots.size(), -1);  // each root's count, from its first search
  double seconds_per_edge = 0;                   // summed: the harmonic mean's denominator
  bool every_search_has_edges = true;
  util::Progress line(progress, kernel + " energy loop");

  MPI_Barrier(world);
  const double start = MPI_Wtime();
  rapl.begin();
  if (sampler) sampler->start();
  for (int go_on = 1; go_on;) {
    const size_t index = static_cast<size_t>(report.searches % report.roots);
    const bool count = nedge[index] < 0;
    const LoopSearch done = search(roots[index], count);
    if (count) nedge[index] = done.nedge;
    ++report.searches;
    report.search_seconds += done.seconds;
    if (nedge[index] > 0) {
      report.nedges += nedge[index];
      seconds_per_edge += done.seconds / static_cast<double>(nedge[index]);
    } else {
      every_search_has_edges = false;
    }
    line.update(report.searches);
    if (rank == 0) {
      // When the time is up, the meter's last sample is still taken under the searches' load.
      const bool time_up = MPI_Wtime() - start >= options.seconds;
      if (time_up && sampler) sampler->finish();
      go_on = !time_up || (sampler && !sampler->finished());
    }
    go_on = comm::Communicator(world).broadcast(go_on, 0);
  }
  MPI_Barrier(world);
  report.seconds = MPI_Wtime() - start;
  rapl.end();
  if (sampler) sampler->stop();
  line.finish();
  report.seconds = comm::Communicator(world).broadcast(report.seconds, 0);
  report.ran = true;
  if (every_search_has_edges && seconds_per_edge > 0)
    report.harmonic_mean_teps = static_cast<double>(report.searches) / seconds_per_edge;
  report.rapl = util::gather_energy(rapl, world);
  if (!options.power_command.empty())
    report.command = broadcast_command_report(sampler ? &*sampler : nullptr, options.power_command, world);
  warn_of_failed_command(report, rank);
  return report;
}

void check_power_command(const std::string& command, MPI_Comm world) {
  if (command.empty()) return;
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  std::string error;
  if (rank == 0) {
    const util::PowerSample trial = util::sample_power_command(command);
    if (!trial.ok) error = "--power-command " + shown_command(command) + " failed its trial run: " + trial.error;
  }
  util::agree_or_throw(error, world);
}

void print_energy_loop(FILE* out, const EnergyLoopReport& report) {
  if (!report.ran) return;
  std::fputc('\n', out);
  for (const std::string& line : energy_loop_lines(report)) std::fprintf(out, "%s\n", line.c_str());
}

std::vector<std::string> energy_loop_lines(const EnergyLoopReport& r) {
  std::vector<std::string> lines;
  if (!r.ran) return lines;
  lines.push_back(r.kernel + " energy loop (--energy-loop " + r.duration_text + "): " + std::to_string(r.searches) +
                  " searches from " + std::to_string(r.roots) + " roots in " + format("%.3f s", r.seconds) +
                  ", harmonic_mean_TEPS " + format("%g", r.harmonic_mean_teps));
  const std::string rapl_scope = "package and DRAM of the nodes, not the whole system";
  if (r.meter() == EnergyLoopReport::Meter::kCommand) {
    const PowerCommandReport& c = *r.command;
    if (r.measured())
      lines.push_back("  power: " + format("%.6g W", c.mean_watts) + ", the mean of " + std::to_string(c.samples) +
                      " samples of --power-command " + shown_command(c.command) + " (min " +
                      format("%.6g W", c.min_watts) + ", max " + format("%.6g W", c.max_watts) + ")");
    else
      lines.push_back("  power: --power-command " + shown_command(c.command) + " FAILED: " + c.error);
  } else if (r.measured()) {
    lines.push_back("  power: " + rapl_reading(r.rapl) + " from RAPL, the " + rapl_scope);
  } else {
    lines.push_back(
        "  power: not measured (no readable RAPL counters; --power-command takes a meter of the whole system)");
  }
  if (r.measured())
    lines.push_back("  TEPS/W: " + format("%.6g", r.teps_per_watt()) + " (harmonic_mean_TEPS / " +
                    format("%.6g W", r.watts()) + ")");
  else
    lines.push_back("  TEPS/W: not available (no power measured)");
  if (r.meter() == EnergyLoopReport::Meter::kCommand)  // beside the command's, for comparison
    lines.push_back("  RAPL (" + rapl_scope +
                    "): " + (r.rapl.available ? rapl_reading(r.rapl) : "not available (no readable RAPL counters)"));
  return lines;
}

nlohmann::json energy_loop_json(const EnergyLoopReport& r) {
  using nlohmann::json;
  json j = {{"available", r.measured()},
            {"loop", true},
            {"kernel", lower_case(r.kernel)},
            {"meter", r.meter() == EnergyLoopReport::Meter::kCommand ? "command" : "rapl"},
            {"duration", r.duration_text},
            {"duration_s", r.duration_asked},
            {"seconds", r.seconds},
            {"searches", r.searches},
            {"roots", r.roots},
            {"search_seconds", r.search_seconds},
            {"nedge", r.nedges},
            {"harmonic_mean_TEPS", r.harmonic_mean_teps}};
  if (r.measured()) {
    j["watts"] = r.watts();
    j["joules"] = r.meter() == EnergyLoopReport::Meter::kRapl ? r.rapl.joules : r.watts() * r.seconds;
    j["teps_per_watt"] = r.teps_per_watt();
  }
  if (r.command)
    j["power_command"] = {{"command", r.command->command},     {"ok", r.command->ok},
                          {"samples", r.command->samples},     {"mean_watts", r.command->mean_watts},
                          {"min_watts", r.command->min_watts}, {"max_watts", r.command->max_watts},
                          {"error", r.command->error}};
  j["rapl"] = util::energy_json(r.rapl, r.harmonic_mean_teps);
  j["rapl"]["scope"] = "package and DRAM of the nodes";
  return j;
}

}  // namespace g500::run
