// RAPL energy counters through /sys/class/powercap: discovery, wrap-around, per-node sums.
#include "util/energy.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace g500::util {
namespace {

constexpr const char* kZonePrefix = "intel-rapl:";

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool read_u64_file(const std::string& path, uint64_t& value) {
  std::ifstream in(path);
  unsigned long long v = 0;
  if (!(in >> v)) return false;
  value = v;
  return true;
}

std::string read_word_file(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  in >> word;
  return word;
}

}  // namespace

bool read_energy_uj(const std::string& zone_path, uint64_t& value) {
  return read_u64_file(zone_path + "/energy_uj", value);
}

uint64_t energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_range_uj) {
  if (after >= before) return after - before;
  // The counter passed max_range_uj and restarted from 0 (at most once: the intervals are short
  // compared with a full range, which is minutes to hours of a package's power).
  if (max_range_uj >= before) return (max_range_uj - before) + after;
  return after;  // no usable range: count what was seen since the restart
}

std::vector<RaplDomain> find_rapl_domains(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<RaplDomain> domains;
  std::error_code ec;
  fs::directory_iterator it(root, ec), end;
  if (ec) return domains;
  for (; it != end; it.increment(ec)) {
    if (ec) break;
    const std::string entry = it->path().filename().string();
    if (entry.rfind(kZonePrefix, 0) != 0) continue;
    const std::string id = entry.substr(std::char_traits<char>::length(kZonePrefix));
    const bool top_level = id.find(':') == std::string::npos;
    RaplDomain d;
    d.path = it->path().string();
    d.name = read_word_file(d.path + "/name");
    // Packages hold core and uncore; dram is outside them; psys (the platform) would count the
    // packages twice.
    if (top_level ? d.name == "psys" : d.name != "dram") continue;
    uint64_t probe = 0;
    if (!read_energy_uj(d.path, probe)) continue;
    if (!read_u64_file(d.path + "/max_energy_range_uj", d.max_range_uj)) d.max_range_uj = 0;
    domains.push_back(std::move(d));
  }
  std::sort(domains.begin(), domains.end(), [](const RaplDomain& a, const RaplDomain& b) { return a.path < b.path; });
  return domains;
}

EnergyMeter::EnergyMeter(const std::string& root, bool measure) : measure_(measure) {
  if (measure_) domains_ = find_rapl_domains(root);
  start_uj_.assign(domains_.size(), 0);
}

EnergyMeter EnergyMeter::for_node(MPI_Comm comm, const std::string& root) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  return EnergyMeter(root, node_rank == 0);
}

void EnergyMeter::begin() {
  if (!available()) return;
  for (size_t k = 0; k < domains_.size(); ++k)
    if (!read_energy_uj(domains_[k].path, start_uj_[k])) failed_ = true;
  start_time_ = now_seconds();
}

void EnergyMeter::end() {
  if (!available()) return;
  const double now = now_seconds();
  for (size_t k = 0; k < domains_.size(); ++k) {
    uint64_t value = 0;
    if (!read_energy_uj(domains_[k].path, value)) {
      failed_ = true;
      return;
    }
    total_uj_ += energy_delta_uj(start_uj_[k], value, domains_[k].max_range_uj);
  }
  seconds_ += now - start_time_;
}

EnergyReport gather_energy(const EnergyMeter& meter, MPI_Comm comm) {
  // Per rank: {joules, nodes measured, nodes that could not measure}; seconds separately (max).
  double sums[3] = {meter.available() ? meter.joules() : 0.0, meter.available() ? 1.0 : 0.0,
                    meter.measuring() && !meter.available() ? 1.0 : 0.0};
  double seconds = meter.available() ? meter.seconds() : 0.0;
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  EnergyReport report;
  report.available = sums[1] > 0 && sums[2] == 0;
  if (!report.available) return report;
  report.joules = sums[0];
  report.nodes = static_cast<int>(sums[1]);
  report.seconds = seconds;
  return report;
}

std::string energy_line(const EnergyReport& energy, double harmonic_mean_teps) {
  if (!energy.available)
    return "energy: not available (no readable RAPL counters; --energy-loop with --power-command measures a system's "
           "power)";
  char text[320];
  std::snprintf(
      text, sizeof text,
      "energy of the timed BFS searches only (%.3f s in all, too short for an average power: see "
      "--energy-loop): %.3f J, %.1f W, %.4g TEPS/W (RAPL: package and DRAM of %d node%s, not the whole system)",
      energy.seconds, energy.joules, energy.watts(), energy.teps_per_watt(harmonic_mean_teps), energy.nodes,
      energy.nodes == 1 ? "" : "s");
  return text;
}

nlohmann::json energy_json(const EnergyReport& energy, double harmonic_mean_teps) {
  if (!energy.available) return {{"available", false}};
  return {{"available", true},
          {"source", "rapl"},
          {"nodes", energy.nodes},
          {"joules", energy.joules},
          {"seconds", energy.seconds},
          {"watts", energy.watts()},
          {"teps_per_watt", energy.teps_per_watt(harmonic_mean_teps)}};
}

}  // namespace g500::util
