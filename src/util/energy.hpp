// Energy of the BFS runs from the RAPL counters of Linux's powercap interface
// (/sys/class/powercap/intel-rapl:*/energy_uj), for a Green Graph500 style TEPS/W figure.
// One rank per node reads its node's counters; the joules are summed over the nodes. Machines
// without readable counters (most VMs, or energy_uj readable by root only) report "not available".
#pragma once
#include <mpi.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace g500::util {

// A counter that is counted: a top-level package zone (intel-rapl:N) or a "dram" sub-zone
// (intel-rapl:N:M). Other sub-zones (core, uncore) are parts of their package and are skipped.
struct RaplDomain {
  std::string path;           // the zone's directory
  std::string name;           // its "name" file, e.g. package-0, dram
  uint64_t max_range_uj = 0;  // the counter wraps to 0 after this value
};

// The counted domains under root (normally /sys/class/powercap) whose energy_uj can be read,
// sorted by path. Empty when there are none.
std::vector<RaplDomain> find_rapl_domains(const std::string& root);
// Reads one microjoule counter; false when the file is missing or unreadable.
bool read_energy_uj(const std::string& zone_path, uint64_t& value);
// Energy between two readings of one counter, allowing for one wrap-around past max_range_uj.
uint64_t energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_range_uj);

// Accumulates the energy of the intervals between begin() and end() (and their wall time).
class EnergyMeter {
 public:
  // Measures the counters under root; a meter made with measure = false reads nothing (the
  // ranks of a node other than the first).
  explicit EnergyMeter(const std::string& root = "/sys/class/powercap", bool measure = true);
  // A meter for the first rank of each node of comm, an idle one on the others. Collective.
  static EnergyMeter for_node(MPI_Comm comm, const std::string& root = "/sys/class/powercap");

  bool measuring() const { return measure_; }
  bool available() const { return measure_ && !domains_.empty() && !failed_; }
  void begin();
  void end();
  double joules() const { return static_cast<double>(total_uj_) * 1e-6; }
  double seconds() const { return seconds_; }
  const std::vector<RaplDomain>& domains() const { return domains_; }

 private:
  bool measure_ = true;
  bool failed_ = false;  // a counter stopped being readable
  std::vector<RaplDomain> domains_;
  std::vector<uint64_t> start_uj_;
  uint64_t total_uj_ = 0;
  double start_time_ = 0, seconds_ = 0;
};

struct EnergyReport {
  bool available = false;
  int nodes = 0;       // nodes that measured
  double joules = 0;   // summed over the nodes
  double seconds = 0;  // measured wall time (largest over the nodes)
  double watts() const { return seconds > 0 ? joules / seconds : 0; }
  // Green Graph500: the harmonic-mean TEPS over the average power.
  double teps_per_watt(double harmonic_mean_teps) const { return watts() > 0 ? harmonic_mean_teps / watts() : 0; }
};

// Collective: sums the node meters; available only when every node could measure.
EnergyReport gather_energy(const EnergyMeter& meter, MPI_Comm comm);
// The line of the RAPL reading around the timed BFS searches: "energy of the timed BFS searches
// only (0.456 s in all, ...): 12.3 J, 27.0 W, 1.23e+07 TEPS/W (RAPL: ...)" or the not-available line.
std::string energy_line(const EnergyReport& energy, double harmonic_mean_teps);
// {"available": false} or {"available", "joules", "seconds", "watts", "teps_per_watt", "nodes", "source"}.
nlohmann::json energy_json(const EnergyReport& energy, double harmonic_mean_teps);

}  // namespace g500::util
