// Options and actions of `g500 map`: the grid mapping of Nakao et al. 2021, section 5.6, Kuroda et al. 2013, Method A
// (section 4.2) and the link-load simulation. cmd_map.cpp parses the options and calls these.
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "topo/grid_mapping.hpp"
#include "topo/link_load.hpp"
#include "topo/systems.hpp"

namespace g500::cli::map {

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
};

std::optional<std::pair<int, int>> parse_grid(const std::string& text);  // "RxC"; throws UsageError
void run_grid(const MapOptions& o, const topo::SystemSpec& system, long long nodes);
void run_cuboid(const MapOptions& o, const topo::SystemSpec& system, long long nodes);
void run_simulation(const MapOptions& o, const topo::SystemSpec& system, const topo::GridMapping& m);

}  // namespace g500::cli::map
