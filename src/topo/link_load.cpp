// Link-load simulator with dimension-order routing (issue #5 item 5).
#include "topo/link_load.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace g500::topo {

bool link_exists(const Topology& topo, int64_t slot) {
  const int n = topo.ndims();
  const int64_t node = slot / (2 * n);
  const int axis = static_cast<int>((slot / 2) % n);
  const bool positive = slot % 2 == 0;
  const Axis& a = topo.axes()[axis];
  if (a.size < 2) return false;
  const int x = static_cast<int>((node / topo.stride(axis)) % a.size);
  if (a.torus && a.size > 2) return true;
  return positive ? x < a.size - 1 : x > 0;
}

LoadReport simulate(const Topology& topo, const Placement& placement, Pattern pattern,
                    const LinkParameters& link, const SimulationBudget& budget, bool keep_link_bytes) {
  LoadReport rep;
  const int rows = placement.rows, cols = placement.cols;
  const int nranks = rows * cols;
  rep.messages = message_count(pattern, rows, cols);
  std::vector<int> sources(nranks);
  std::iota(sources.begin(), sources.end(), 0);
  double scale = 1.0;
  if (rep.messages > budget.max_routes && pattern != Pattern::Bcast) {
    const double per_source = static_cast<double>(rep.messages) / nranks;
    int keep = static_cast<int>(std::max(1.0, static_cast<double>(budget.max_routes) / per_source));
    keep = std::min(keep, nranks);
    std::mt19937_64 rng(budget.seed);
    std::shuffle(sources.begin(), sources.end(), rng);
    sources.resize(keep);
    std::sort(sources.begin(), sources.end());
    rep.sampled_sources = keep;
    scale = static_cast<double>(nranks) / keep;
  }
  std::vector<double> load(topo.link_slot_count(), 0.0);
  int64_t total_hops = 0;
  const double bytes = link.message_bytes * scale;
  for (int src : sources) {
    const int64_t from = placement.node_of_rank[src];
    for_each_destination(pattern, rows, cols, src, [&](int dst) {
      const int hops = topo.route(from, placement.node_of_rank[dst], [&](int64_t l) { load[l] += bytes; });
      total_hops += hops;
      rep.max_hops = std::max(rep.max_hops, hops);
      ++rep.routed_messages;
    });
  }
  double sum = 0;
  for (int64_t l = 0; l < topo.link_slot_count(); ++l) {
    if (!link_exists(topo, l)) continue;
    ++rep.links;
    sum += load[l];
    rep.max_link_bytes = std::max(rep.max_link_bytes, load[l]);
  }
  rep.mean_link_bytes = rep.links ? sum / rep.links : 0;
  rep.mean_hops = rep.routed_messages ? static_cast<double>(total_hops) / rep.routed_messages : 0;
  rep.estimated_seconds = rep.max_hops * link.latency + rep.max_link_bytes / link.bandwidth;
  if (keep_link_bytes) rep.link_bytes = std::move(load);
  return rep;
}

}  // namespace g500::topo
