// Link-load simulator (issue #5 item 5; 001 section 5.6, 003 section 5.4): route every message of
// a pattern with dimension-order routing over the topology, accumulate bytes per directed link,
// and estimate the time as  max_hops * latency + max_link_bytes / link_bandwidth  (all messages
// of the pattern in flight together; the most loaded link decides). When the pattern has more
// messages than the budget, a fixed-seed random sample of source ranks is routed exactly and the
// loads are scaled by (ranks / sampled sources).
#pragma once
#include <cstdint>
#include <vector>

#include "topo/comm_patterns.hpp"
#include "topo/grid_mapping.hpp"
#include "topo/topology.hpp"

namespace g500::topo {

struct LinkParameters {
  static constexpr double kFugakuLinkBandwidth = 6.8e9;  // bytes/s per link and direction (TofuD)
  static constexpr double kFugakuLatency = 0.5e-6;       // s per hop-path (001: 0.49-0.54 us)
  double bandwidth = kFugakuLinkBandwidth;
  double latency = kFugakuLatency;
  double message_bytes = 1 << 16;
};

struct SimulationBudget {
  static constexpr int64_t kDefaultMaxRoutes = 20'000'000;
  int64_t max_routes = kDefaultMaxRoutes;
  uint64_t seed = 20201117;  // fixed: reruns give the same sample
};

struct LoadReport {
  int64_t messages = 0;         // in the whole pattern
  int64_t routed_messages = 0;  // actually routed (less when sampled)
  int sampled_sources = 0;      // 0 when every source was routed
  double max_link_bytes = 0;
  double mean_link_bytes = 0;   // over the links that exist
  double mean_hops = 0;
  int max_hops = 0;
  int64_t links = 0;
  double estimated_seconds = 0;
  std::vector<double> link_bytes;  // per link slot (Topology::link_index); empty links stay 0
};

bool link_exists(const Topology& topo, int64_t link_slot);

LoadReport simulate(const Topology& topo, const Placement& placement, Pattern pattern,
                    const LinkParameters& link, const SimulationBudget& budget, bool keep_link_bytes);

}  // namespace g500::topo
