// Networks and collective times of the model (network.hpp).
#include "model/network.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <mutex>

#include "coll/coll_model.hpp"
#include "coll/torus_model.hpp"
#include "model/host_sharing.hpp"
#include "model/pattern_loads.hpp"
#include "topo/allocation.hpp"
#include "topo/grid_mapping.hpp"
#include "topo/segment_loads.hpp"
#include "util/error.hpp"

namespace g500::model {

using topo::GridMapping;

namespace {
constexpr double kGiga = 1e9;
// Nakao et al. 2021, section 2 and Table 1: TofuD drives 6 links (TNIs) of 6.8 GB/s at once
// (40.8 GB/s injection), Tofu 4 links of 5.0 GB/s (20 GB/s); latency 0.49-0.54 us and 0.91-1.15 us.
constexpr int kTofudLinks = 6, kTofuLinks = 4;
constexpr double kTofudLinkSpec = 6.8 * kGiga, kTofuLinkSpec = 5.0 * kGiga;
constexpr double kTofudInjection = kTofudLinks * kTofudLinkSpec, kTofuInjection = 20.0 * kGiga;
constexpr double kTofudLatencySpec = (0.49e-6 + 0.54e-6) / 2, kTofuLatencySpec = (0.91e-6 + 1.15e-6) / 2;
// Nakao et al. 2021, section 5.4: the Eager limit of the runs from section 5.4 on.
constexpr double kFugakuEagerLimit = 512000;
// Rendezvous: request-to-send and clear-to-send before the data, two more latencies.
constexpr double kRendezvousLatencies = 3;
constexpr int kBothDirections = 2;

// The latency of one message step and the copy or link bandwidth a process sees.
double latency_of(const NetworkSpec& net, const GridView& view) {
  return net.kind == TopologyKind::kSharedMemory
             ? shared_step_latency(net, static_cast<int>(view.grid.size()), view.ranks_per_core)
             : net.latency;
}

// Bytes that cross the node boundary of `bytes` exchanged with the g - 1 others of a group whose
// members sit `per_node` to a node.
double inter_node(double bytes, int members, int per_node) {
  return members > 1 ? bytes * (members - per_node) / (members - 1) : 0.0;
}

GroupView torus_group(const std::vector<topo::Axis>& axes, int members, int per_node, int simultaneous,
                      const GroupLoads& loads) {
  GroupView g;
  g.members = members;
  g.members_per_node = per_node;
  g.nodes = members / per_node;
  g.axes = axes;
  g.lanes = std::min<double>(simultaneous, links_per_node(axes));
  g.alltoall_load = loads.alltoall;
  g.ring_load = loads.ring;
  g.exchange_load = loads.exchange;
  return g;
}

std::vector<topo::Axis> axes_of(const topo::Topology& box, const std::vector<int>& which) {
  std::vector<topo::Axis> axes;
  for (int d : which) axes.push_back(box.axes()[d]);
  return axes;
}

// Routing the patterns is the slow part of a prediction, and the calibration predicts the same
// placement a hundred times: the loads are kept per placement.
const PatternLoads& loads_of(const std::string& key, const topo::Topology& box, const topo::Placement& nodes) {
  static std::mutex lock;
  static std::map<std::string, PatternLoads> cache;
  const std::lock_guard<std::mutex> guard(lock);
  auto found = cache.find(key);
  if (found == cache.end()) found = cache.emplace(key, route_patterns(box, nodes)).first;
  return found->second;
}

std::string placement_key(const std::string& kind, const topo::Topology& box, const GridMapping& m) {
  std::string key = kind + ":" + topo::describe_axes(box.axes()) + ":";
  for (int d : m.row_axes) key += std::to_string(d) + ",";
  key += "/";
  for (int d : m.col_axes) key += std::to_string(d) + ",";
  return key;
}

void set_groups(const NetworkSpec& net, const topo::Topology& box, const GridMapping& m, const std::string& kind,
                GridView& v) {
  const int pr = v.grid.rows / v.node_grid.rows, pc = v.grid.cols / v.node_grid.cols;
  const PatternLoads& loads = loads_of(placement_key(kind, box, m), box, m.placement);
  v.column = torus_group(axes_of(box, m.row_axes), v.grid.rows, pr, net.simultaneous_links, loads.column);
  v.row = torus_group(axes_of(box, m.col_axes), v.grid.cols, pc, net.simultaneous_links, loads.row);
  v.routed_messages = loads.routes;
  v.routed_all_groups = loads.all_groups;
}

void place_on_torus(const NetworkSpec& net, Mapping mapping, GridView& v) {
  long long capacity = 1;
  for (const auto& a : net.system.axes) capacity *= a.size;
  if (v.node_grid.size() > capacity)
    throw util::UsageError("a " + std::to_string(v.node_grid.rows) + "x" + std::to_string(v.node_grid.cols) +
                           " grid of nodes exceeds " + net.name + " (" + std::to_string(capacity) + " nodes)");
  if (mapping == Mapping::kJobShape) {
    // The job-shape torus: the folded R axes, then the folded C axes, each side in snake order.
    topo::SystemSpec shape{"jobshape", fold_logical_axis("R", v.node_grid.rows, net.system)};
    const size_t row_axes = shape.axes.size();
    for (const auto& a : fold_logical_axis("C", v.node_grid.cols, net.system)) shape.axes.push_back(a);
    std::vector<int> extents, rows, cols;
    for (size_t d = 0; d < shape.axes.size(); ++d) {
      extents.push_back(shape.axes[d].size);
      (d < row_axes ? rows : cols).push_back(static_cast<int>(d));
    }
    const topo::Topology box = topo::box_topology(shape, extents);
    set_groups(net, box, topo::map_grid(box, extents, rows, cols), "jobshape", v);
    v.placement = std::to_string(v.node_grid.rows) + " x " + std::to_string(v.node_grid.cols) + " job-shape torus";
    return;
  }
  const GridMapping m = topo::choose_grid_mapping(net.system, topo::GridRequest{v.node_grid.size(), v.node_grid});
  const topo::Topology box = topo::box_topology(net.system, m.extents);
  set_groups(net, box, m, net.system.name, v);
  v.placement = topo::axes_label(box, m.row_axes) + " x " + topo::axes_label(box, m.col_axes) +
                (net.system.has_tofu_axes() ? " 6D mapping" : " grid mapping");
}

GroupView switched_group(int members, int per_node, double global_share) {
  GroupView g;
  g.members = members;
  g.members_per_node = per_node;
  g.nodes = members / per_node;
  g.lanes = 1;
  g.alltoall_load = 1 / global_share;
  return g;
}
}  // namespace

NetworkSpec tofud_network() {
  const coll::NetworkParams fitted;  // Hosono et al. 2021's Trinaryx6 fit: L = 1.73 us, B = 6.34 GB/s
  NetworkSpec n;
  n.name = "tofud";
  n.source =
      "Fugaku TofuD: L, B fitted by Hosono et al. 2021 (Trinaryx6); 6 links at once, 40.8 GB/s injection "
      "(Nakao et al. 2021, section 2); Eager limit 512,000 bytes (section 5.4)";
  n.system = topo::fugaku_system();
  n.latency = fitted.latency;
  n.link_bandwidth = fitted.bandwidth;
  n.simultaneous_links = kTofudLinks;
  n.injection_bandwidth = kTofudInjection;
  n.eager_limit = kFugakuEagerLimit;
  return n;
}

NetworkSpec tofu_network() {
  const coll::NetworkParams fitted;
  NetworkSpec n;
  n.name = "tofu";
  n.source =
      "K computer Tofu: TofuD's fitted L, B scaled by the Table 1 ratios of Nakao et al. 2021 (latency "
      "0.91-1.15 us vs 0.49-0.54 us, link 5.0 vs 6.8 GB/s); 4 links at once, 20 GB/s injection (section 2)";
  n.system = topo::k_system();
  n.latency = fitted.latency * kTofuLatencySpec / kTofudLatencySpec;
  n.link_bandwidth = fitted.bandwidth * kTofuLinkSpec / kTofudLinkSpec;
  n.simultaneous_links = kTofuLinks;
  n.injection_bandwidth = kTofuInjection;
  n.eager_limit = 0;
  return n;
}

NetworkSpec fat_tree_network(double injection_bandwidth, double latency) {
  NetworkSpec n;
  n.name = "fattree";
  n.source = "full fat tree, one port per node";
  n.kind = TopologyKind::kFatTree;
  n.latency = latency;
  n.link_bandwidth = n.injection_bandwidth = injection_bandwidth;
  n.eager_limit = kFugakuEagerLimit;
  return n;
}

NetworkSpec dragonfly_network(double injection_bandwidth, double latency, double global_share) {
  NetworkSpec n = fat_tree_network(injection_bandwidth, latency);
  n.name = "dragonfly";
  n.source = "dragonfly, one port per node, uniform traffic at a share of the injection bandwidth";
  n.kind = TopologyKind::kDragonfly;
  n.global_bandwidth_share = global_share;
  return n;
}

NetworkSpec shared_memory_network(double latency, double copy_bandwidth, int cores, double switch_latency) {
  NetworkSpec n;
  n.name = "shm";
  n.source = "one machine: messages are memory copies";
  n.kind = TopologyKind::kSharedMemory;
  n.latency = latency;
  n.link_bandwidth = n.injection_bandwidth = copy_bandwidth;
  n.eager_limit = std::numeric_limits<double>::infinity();  // copies: no protocol switch
  n.cores = cores;
  n.switch_latency = switch_latency;
  return n;
}

NetworkSpec torus_network(const std::string& shape, double injection_bandwidth, double latency,
                          int simultaneous_links) {
  NetworkSpec n;
  n.name = "torus:" + shape;
  n.source = "mesh/torus " + shape + ", injection split evenly over the links driven at once";
  n.system = topo::parse_shape(shape);
  n.latency = latency;
  const int links = static_cast<int>(std::lround(links_per_node(n.system.axes)));
  n.simultaneous_links = simultaneous_links > 0 ? std::min(simultaneous_links, links) : links;
  n.link_bandwidth = injection_bandwidth / std::max(1, n.simultaneous_links);
  n.injection_bandwidth = injection_bandwidth;
  n.eager_limit = kFugakuEagerLimit;
  return n;
}

util::GridShape node_block(int ppn) {
  int pc = 1;
  while (pc * pc < ppn || ppn % pc != 0) ++pc;
  return util::GridShape{ppn / pc, pc};
}

std::vector<topo::Axis> fold_logical_axis(const std::string& name, int length, const topo::SystemSpec& system) {
  int longest = 1;
  for (const auto& a : system.axes) longest = std::max(longest, a.size);
  // Fewest factors no longer than the longest axis, the most even of those (smallest largest factor).
  std::vector<int> best;
  std::function<void(int, int, std::vector<int>&)> split = [&](int rest, int largest, std::vector<int>& factors) {
    if (rest == 1) {
      if (best.empty() || factors.size() < best.size() ||
          (factors.size() == best.size() && factors.front() < best.front()))
        best = factors;
      return;
    }
    if (!best.empty() && factors.size() >= best.size()) return;
    for (int f = std::min(largest, rest); f >= 2; --f)
      if (rest % f == 0) {
        factors.push_back(f);
        split(rest / f, f, factors);
        factors.pop_back();
      }
  };
  std::vector<int> factors;
  split(length, longest, factors);
  if (best.empty() && length > 1) best = {length};
  std::vector<topo::Axis> axes;
  for (size_t k = 0; k < best.size(); ++k) axes.push_back({name + std::to_string(k), best[k], true});
  return axes;
}

util::GridShape default_grid(const NetworkSpec& net, long long nodes, int ppn, Mapping mapping) {
  if (net.kind == TopologyKind::kTorus && mapping == Mapping::kSixD) {
    const topo::GridMapping m = topo::choose_grid_mapping(net.system, topo::GridRequest{nodes, std::nullopt});
    const util::GridShape block = node_block(ppn);
    return util::GridShape{m.placement.rows * block.rows, m.placement.cols * block.cols};
  }
  return util::closest_factor_shape(nodes * ppn);
}

double links_per_node(const std::vector<topo::Axis>& axes) {
  double links = 0;
  for (const auto& a : axes) {
    if (a.size == 2)
      links += 1;
    else if (a.size > 2)
      links += a.torus ? 2.0 : 2.0 * (a.size - 1) / a.size;
  }
  return links;
}

double alltoall_link_load(const std::vector<topo::Axis>& axes) {
  double nodes = 1;
  for (const auto& a : axes) nodes *= a.size;
  if (nodes <= 1) return 0;
  double busiest = 0;
  for (const auto& a : axes) {
    if (a.size < 2) continue;
    const topo::Topology line({a});
    topo::WeightedSegmentLoads loads(line);
    for (int from = 0; from < a.size; ++from)
      for (int to = 0; to < a.size; ++to)
        if (from != to) loads.add_route(from, to, 1.0);
    busiest = std::max(busiest, nodes / a.size * loads.max_count());
  }
  return busiest / (nodes - 1);
}

GridView grid_view(const NetworkSpec& net, const util::GridShape& grid, int ppn, Mapping mapping) {
  if (grid.rows < 1 || grid.cols < 1) throw util::UsageError("the grid needs at least one row and one column");
  GridView v;
  v.grid = grid;
  if (net.kind == TopologyKind::kSharedMemory) {
    v.processes_per_node = static_cast<int>(grid.size());
    v.node_grid = util::GridShape{1, 1};
    v.column = switched_group(grid.rows, grid.rows, 1);
    v.row = switched_group(grid.cols, grid.cols, 1);
    v.placement = "one machine";
    return v;
  }
  if (ppn < 1) throw util::UsageError("processes per node must be at least 1");
  const util::GridShape block = node_block(ppn);
  if (grid.rows % block.rows != 0 || grid.cols % block.cols != 0)
    throw util::UsageError("a " + std::to_string(grid.rows) + "x" + std::to_string(grid.cols) + " grid cannot hold " +
                           std::to_string(block.rows) + "x" + std::to_string(block.cols) + " blocks of " +
                           std::to_string(ppn) + " processes per node");
  v.processes_per_node = ppn;
  v.node_grid = util::GridShape{grid.rows / block.rows, grid.cols / block.cols};
  if (net.kind == TopologyKind::kTorus) {
    place_on_torus(net, mapping, v);
    return v;
  }
  v.column = switched_group(grid.rows, block.rows, net.global_bandwidth_share);
  v.row = switched_group(grid.cols, block.cols, net.global_bandwidth_share);
  v.placement = net.name;
  return v;
}

double CollectiveTimes::allgatherv(const GroupView& group, double bytes) const {
  const int g = group.members;
  if (g <= 1) return 0;
  const coll::Shape3 line{{g, 1, 1}};
  const double block = bytes / (g - 1);
  const coll::CostTerms ring = coll::cost_terms(coll::CollOp::allgatherv, "ring", g, line, block, 0);
  const coll::CostTerms doubling = coll::cost_terms(coll::CollOp::allgatherv, "recdbl", g, line, block, 0);
  if (net.kind == TopologyKind::kSharedMemory) {
    const double latency = step_latency(),
                 bandwidth = shared_bandwidth(net, static_cast<int>(view.grid.size()), view.ranks_per_core);
    return std::min(ring.time(latency, bandwidth), doubling.time(latency, bandwidth));
  }
  // Every process of a node receives at once through the node's links.
  const double node_bytes = inter_node(bytes, g, group.members_per_node) * view.processes_per_node;
  const double lanes = net.max_lanes > 0 ? std::min(group.lanes, net.max_lanes) : group.lanes;
  // One ring per lane; a ring whose closing message shares links runs at the busiest link's share.
  const double ring_bandwidth =
      std::min(lanes * net.link_bandwidth / std::max(1.0, group.ring_load), net.injection_bandwidth);
  const double one_link = std::min(net.link_bandwidth, net.injection_bandwidth);
  return std::min(ring.steps * net.latency + node_bytes / ring_bandwidth,
                  doubling.steps * net.latency + node_bytes / one_link);
}

double CollectiveTimes::alltoallv(const GroupView& group, double bytes) const {
  const int g = group.members;
  if (g <= 1) return 0;
  const coll::CostTerms pairwise =
      coll::cost_terms(coll::CollOp::alltoallv, "pairwise", g, coll::Shape3{{g, 1, 1}}, bytes / (g - 1), 0);
  if (net.kind == TopologyKind::kSharedMemory)
    return pairwise.time(step_latency(),
                         shared_bandwidth(net, static_cast<int>(view.grid.size()), view.ranks_per_core));
  const double node_bytes = inter_node(bytes, g, group.members_per_node) * view.processes_per_node;
  const double busiest_link = node_bytes * group.alltoall_load / net.link_bandwidth;
  double seconds = std::max(busiest_link, node_bytes / net.injection_bandwidth);
  if (net.alltoallv_node_cap > 0) seconds = std::max(seconds, node_bytes / net.alltoallv_node_cap);
  return pairwise.steps * net.latency + seconds;
}

double CollectiveTimes::sendrecv_step(double bytes) const {
  if (view.row.members <= 1) return 0;
  const double latency = step_latency() * (bytes > net.eager_limit ? kRendezvousLatencies : 1);
  if (net.kind == TopologyKind::kSharedMemory)
    return latency + bytes / shared_bandwidth(net, static_cast<int>(view.grid.size()), view.ranks_per_core);
  // The row groups of a node (one per grid row it holds) each send one message each way.
  const double senders = static_cast<double>(view.grid.rows) / view.node_grid.rows;
  // The busiest link carries exchange_load messages (1 on a ring of physical neighbours).
  const double bandwidth =
      std::min(net.link_bandwidth / std::max(1.0, view.row.exchange_load), net.injection_bandwidth / kBothDirections);
  return latency + bytes * senders / bandwidth;
}

double CollectiveTimes::step_latency() const { return latency_of(net, view); }

double CollectiveTimes::counts_exchange(const GroupView& group) const {
  if (group.members <= 1) return 0;
  return std::ceil(std::log2(group.members)) * step_latency();
}

}  // namespace g500::model
