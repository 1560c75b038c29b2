// The `g500 map` job: the grid mapping of Nakao et al. 2021, section 5.6, Kuroda et al. 2013,
// Method A (section 4.2) and the link-load simulation, printed as a report, with the rank map
// written as CSV or in Fugaku's map-file form. cli/cmd_map.cpp parses the options into a
// MapOptions and calls run_map_job.
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "topo/grid_mapping.hpp"
#include "topo/link_load.hpp"
#include "topo/systems.hpp"

namespace g500::map {

inline constexpr double kGiga = 1e9, kMicro = 1e-6, kMega = 1e6, kMilli = 1e-3;
// Simulation memory grows with the links (12 per Tofu node, per thread); 2^21 nodes is 13x Fugaku.
inline constexpr long long kMaxSimulatedNodes = 1LL << 21;
// --link-csv writes one line per link and pattern: keep it to picture-sized shapes.
inline constexpr long long kMaxLinkCsvNodes = 50'000;

struct MapOptions {
  std::string system = "fugaku";
  std::string shape;
  long long nodes = 0;
  std::string grid;
  std::string axes;
  bool nodes_given = false;
  std::string method = "grid";
  std::string cuboid;
  std::string output;
  std::string format = "csv";
  std::string simulate;
  std::string link_csv;
  double message_bytes = topo::LinkParameters{}.message_bytes;
  double bandwidth_gbs = topo::LinkParameters::kFugakuLinkBandwidth / kGiga;
  double latency_us = topo::LinkParameters::kFugakuLatency / kMicro;
  long long max_routes = topo::SimulationBudget::kDefaultMaxRoutes;
  long long max_routes_alltoall = topo::SimulationBudget::kDefaultMaxRoutesAlltoall;
  std::optional<unsigned long long> shuffle_seed;
  bool show_progress = false;  // the simulation's progress line (util/progress.hpp)
};

// Checks the options that fit no single action (method, format, --axes with cuboid), chooses the
// system and the node count (--nodes, else the --grid's, else the whole system) and runs the
// grid or cuboid mapping. One process's work; throws UsageError. `nodes_given`: --nodes was set.
void run_map_job(MapOptions o, bool nodes_given);

std::optional<util::GridShape> parse_grid(const std::string& text);  // "RxC" (util/grid_shape.hpp), none for ""
void run_grid(const MapOptions& o, const topo::SystemSpec& system, long long nodes);
void run_cuboid(const MapOptions& o, const topo::SystemSpec& system, long long nodes);
void run_simulation(const MapOptions& o, const topo::SystemSpec& system, const topo::GridMapping& m);

}  // namespace g500::map
