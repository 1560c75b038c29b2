// Link-load simulator (Nakao et al. 2021, section 5.6, Kuroda et al. 2013, section 5.4): route every message of
// a pattern with dimension-order routing over the topology, accumulate bytes per directed link,
// and estimate the time of one round as  max_hops * latency + max_link_bytes / link_bandwidth
// (all messages of the round in flight together; the most loaded link decides), times the rounds
// per BFS step (comm_patterns.hpp: C sub-steps for the row ring). When a pattern has more messages
// than the budget, a fixed-seed random sample of source ranks is routed exactly and the loads are
// scaled by (ranks / sampled sources); the max link load of a sampled run is an over-estimate.
#pragma once
#include <cstdint>
#include <vector>

#include "topo/comm_patterns.hpp"
#include "topo/grid_mapping.hpp"
#include "topo/topology.hpp"

namespace g500::topo {

struct LinkParameters {
  static constexpr double kFugakuLinkBandwidth = 6.8e9;  // bytes/s per link and direction (TofuD)
  static constexpr double kFugakuLatency = 0.5e-6;       // s per hop-path (Nakao et al. 2021: 0.49-0.54 us)
  double bandwidth = kFugakuLinkBandwidth;
  double latency = kFugakuLatency;
  // One rank's block: its share of the frontier bitmap at 2^24 vertices per node (Nakao et al. 2021, section 5.2 weak
  // scaling, SCALE 24 per node): 2^24 bits = 2 MiB. See comm_patterns.hpp for per-pattern sizes.
  static constexpr double kDefaultBlockBytes = (1 << 24) / 8;
  double message_bytes = kDefaultBlockBytes;
};

struct SimulationBudget {
  // Routes every whole-Fugaku BFS pattern exactly (the largest is the scheduler shape's column
  // allgatherv, 158,976 x 1,103 = 175 M messages); only alltoall (2.5e10) is sampled.
  static constexpr int64_t kDefaultMaxRoutes = 200'000'000;
  static constexpr int64_t kDefaultMaxRoutesAlltoall = 10'000'000;
  int64_t max_routes = kDefaultMaxRoutes;
  int64_t max_routes_alltoall = kDefaultMaxRoutesAlltoall;
  uint64_t seed = 20201117;  // fixed: reruns give the same sample
};

struct LoadReport {
  int64_t messages = 0;         // in the whole pattern
  int64_t routed_messages = 0;  // actually routed (less when sampled)
  int sampled_sources = 0;      // 0 when every source was routed
  double max_link_bytes = 0;
  double mean_link_bytes = 0;  // over the links that exist
  double mean_hops = 0;
  int max_hops = 0;
  int64_t links = 0;
  double estimated_seconds = 0;
  std::vector<double> link_bytes;  // per link slot (Topology::link_index); empty links stay 0
};

bool link_exists(const Topology& topo, int64_t link_slot);

LoadReport simulate(const Topology& topo, const Placement& placement, Pattern pattern, const LinkParameters& link,
                    const SimulationBudget& budget, bool keep_link_bytes);

}  // namespace g500::topo
