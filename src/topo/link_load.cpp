// Link-load simulator with dimension-order routing.
#include "topo/link_load.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "topo/segment_loads.hpp"

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

namespace {
// Routes the messages of every source, or above the route budget (but for a broadcast) of a random
// sample of them, recorded in rep.sampled_sources; `scale` becomes the factor from the sample's
// loads to all ranks'. Returns the sources to route, sorted.
std::vector<int> sources_to_route(Pattern pattern, int nranks, const SimulationBudget& budget, LoadReport& rep,
                                  double& scale) {
  std::vector<int> sources(nranks);
  std::iota(sources.begin(), sources.end(), 0);
  const int64_t route_budget =
      pattern == Pattern::Alltoall ? std::min(budget.max_routes, budget.max_routes_alltoall) : budget.max_routes;
  if (rep.messages > route_budget && pattern != Pattern::Bcast) {
    const double per_source = static_cast<double>(rep.messages) / nranks;
    int keep = static_cast<int>(std::max(1.0, static_cast<double>(route_budget) / per_source));
    keep = std::min(keep, nranks);
    std::mt19937_64 rng(budget.seed);
    std::shuffle(sources.begin(), sources.end(), rng);
    sources.resize(keep);
    std::sort(sources.begin(), sources.end());
    rep.sampled_sources = keep;
    scale = static_cast<double>(nranks) / keep;
  }
  return sources;
}

// Where a rank's coordinates are stored: the members of one communicator contiguous (column-major
// for the column pattern), so that sources visited in that order keep their destinations in cache.
struct CoordSlot {
  bool column_major;
  int rows, cols;
  size_t operator()(int r) const {
    return column_major ? static_cast<size_t>(r % cols) * rows + r / cols : static_cast<size_t>(r);
  }
};

struct RouteStats {
  int64_t total_hops = 0, routed = 0;
  int max_hops = 0;
};

// Routes every message of `sources` (visited in coordinate-slot order) into `total`, each thread
// into its own SegmentLoads merged at the end.
RouteStats route_messages(const Topology& topo, const Placement& placement, Pattern pattern, std::vector<int>& sources,
                          SegmentLoads& total) {
  const int rows = placement.rows, cols = placement.cols;
  const int nranks = rows * cols;
  const int nd = topo.ndims();
  const CoordSlot slot{pattern == Pattern::ColAllgatherv, rows, cols};
  std::vector<int16_t> rank_coord(static_cast<size_t>(nranks) * nd);
  for (int r = 0; r < nranks; ++r) {
    const Coord c = topo.coord(placement.node_of_rank[r]);
    for (int d = 0; d < nd; ++d) rank_coord[slot(r) * nd + d] = static_cast<int16_t>(c[d]);
  }
  std::sort(sources.begin(), sources.end(), [&](int a, int b) { return slot(a) < slot(b); });
  int64_t total_hops = 0, routed = 0;
  int max_hops = 0;
  const int64_t nsources = static_cast<int64_t>(sources.size());
#pragma omp parallel reduction(+ : total_hops, routed) reduction(max : max_hops)
  {
    SegmentLoads local(topo);
#pragma omp for schedule(dynamic, 64)
    for (int64_t i = 0; i < nsources; ++i) {
      const int src = sources[i];
      const int64_t from = placement.node_of_rank[src];
      for_each_destination(pattern, rows, cols, src, [&](int dst) {
        const int hops = local.add_route(from, &rank_coord[slot(src) * nd], &rank_coord[slot(dst) * nd]);
        total_hops += hops;
        max_hops = std::max(max_hops, hops);
        ++routed;
      });
    }
#pragma omp critical
    total.merge(local);
  }
  return RouteStats{total_hops, routed, max_hops};
}

// Counts the links that exist, and their largest and mean load, into rep.
void summarise_links(const Topology& topo, const std::vector<double>& load, LoadReport& rep) {
  double sum = 0;
  for (int64_t l = 0; l < topo.link_slot_count(); ++l) {
    if (!link_exists(topo, l)) continue;
    ++rep.links;
    sum += load[l];
    rep.max_link_bytes = std::max(rep.max_link_bytes, load[l]);
  }
  rep.mean_link_bytes = rep.links ? sum / rep.links : 0;
}
}  // namespace

LoadReport simulate(const Topology& topo, const Placement& placement, Pattern pattern, const LinkParameters& link,
                    const SimulationBudget& budget, bool keep_link_bytes) {
  LoadReport rep;
  const int rows = placement.rows, cols = placement.cols;
  rep.messages = message_count(pattern, rows, cols);
  double scale = 1.0;
  std::vector<int> sources = sources_to_route(pattern, rows * cols, budget, rep, scale);
  // Every message of a pattern has the same size, so links count messages;
  // bytes = count * message size * sampling scale.
  SegmentLoads total(topo);
  const RouteStats stats = route_messages(topo, placement, pattern, sources, total);
  const double bytes = message_bytes(pattern, rows, cols, link.message_bytes) * scale;
  const std::vector<int64_t> count = total.counts();
  std::vector<double> load(count.size());
  for (size_t l = 0; l < count.size(); ++l) load[l] = static_cast<double>(count[l]) * bytes;
  rep.routed_messages = stats.routed;
  rep.max_hops = stats.max_hops;
  summarise_links(topo, load, rep);
  rep.mean_hops = rep.routed_messages ? static_cast<double>(stats.total_hops) / rep.routed_messages : 0;
  rep.estimated_seconds =
      (rep.max_hops * link.latency + rep.max_link_bytes / link.bandwidth) * rounds_per_step(pattern, rows, cols);
  if (keep_link_bytes) rep.link_bytes = std::move(load);
  return rep;
}

}  // namespace g500::topo
