#include "coll/torus_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "coll/coll_bench.hpp"
#include "coll/coll_model.hpp"
#include "comm/bcast_trees.hpp"
#include "topo/segment_loads.hpp"
#include "topo/topology.hpp"
#include "util/error.hpp"

namespace g500::coll {

namespace {

// Rounds (or shifts) simulated exactly per algorithm; the rest are represented by these samples.
constexpr int kMaxSampledShifts = 48;
constexpr int kDirections = 6;  // +-X, +-Y, +-Z links per node

// The model's torus as a topo::Topology (X fastest, as Shape3 numbers the ranks): routes, hop
// counts and link loads come from topo's one dimension-order routing model.
topo::Topology topology_of(const Shape3& torus) {
  return topo::Topology({{"X", torus.n[0], true}, {"Y", torus.n[1], true}, {"Z", torus.n[2], true}});
}

// Per-link loads of one pattern on the torus.
class LinkLoads {
 public:
  explicit LinkLoads(const Shape3& torus) : topology_(topology_of(torus)), loads_(topology_) {}
  // Adds a message following dimension-order routing; returns its hop count.
  int add_route(int from, int to, double weight) { return loads_.add_route(from, to, weight); }
  double max_load() const { return loads_.max_count(); }

 private:
  topo::Topology topology_;
  topo::WeightedSegmentLoads loads_;
};

// Evenly spaced sample of 1..count (all of them when count is small).
std::vector<int> sample_of(int count) {
  std::vector<int> picked;
  if (count <= kMaxSampledShifts) {
    for (int i = 1; i <= count; ++i) picked.push_back(i);
    return picked;
  }
  for (int i = 0; i < kMaxSampledShifts; ++i)
    picked.push_back(1 + static_cast<int>(static_cast<long long>(i) * (count - 1) / (kMaxSampledShifts - 1)));
  return picked;
}

double round_time(const RoundLoad& load, double bytes_per_unit, const NetworkParams& net) {
  return load.messages_per_rank * net.latency + load.max_hops * net.hop_latency +
         load.max_link_units * bytes_per_unit / net.bandwidth;
}

// Pattern where every rank sends one message per listed coordinate shift along dimension d.
RoundLoad dimension_shift_load(const Shape3& torus, int d, int shift, double weight) {
  LinkLoads links(torus);
  RoundLoad load{1, 0, 0};
  for (int r = 0; r < torus.size(); ++r) {
    auto c = torus.coords_of(r);
    c[d] = (c[d] + shift) % torus.n[d];
    load.max_hops = std::max<double>(load.max_hops, links.add_route(r, torus.rank_of(c), weight));
  }
  load.max_link_units = links.max_load();
  return load;
}

// ---- bcast ----

struct Edge {
  int parent, child, tree;
};

std::vector<TreeLinks> trees_for(const std::string& algorithm, int tree, const Shape3& torus) {
  const int p = torus.size();
  std::vector<TreeLinks> links(p);
  for (int r = 0; r < p; ++r) {
    if (algorithm == "linear")
      links[r] = linear_tree(r, 0, p);
    else if (algorithm == "chain" || algorithm == "pipeline")
      links[r] = chain_tree(r, 0, p);
    else if (algorithm == "bintree")
      links[r] = binary_tree(r, 0, p);
    else if (algorithm == "binomial")
      links[r] = binomial_tree(r, 0, p);
    else if (algorithm == "splitbintree")
      links[r] = split_half_tree(r, 0, p);
    else if (algorithm == "bintree3d")
      links[r] = bintree3d_tree(r, 0, torus);
    else if (algorithm.rfind("ktree", 0) == 0)
      links[r] = dimension_chain_tree(r, 0, torus, tree);
    else
      throw util::UsageError("no simulation for bcast algorithm '" + algorithm + "'");
  }
  return links;
}

// The direction (2 * axis + 0 for +, 1 for -) of the first link on the route from -> to.
int first_hop_direction(const topo::Topology& topology, int from, int to) {
  int direction = -1;
  topology.route(from, to, [&](int64_t link) {
    if (direction < 0) direction = static_cast<int>(link % kDirections);
  });
  return std::max(direction, 0);
}

int hops_between(const topo::Topology& topology, int from, int to) {
  int hops = 0;
  for (int d = 0; d < topology.ndims(); ++d) {
    const int size = topology.axes()[d].size;
    const int64_t stride = topology.stride(d);
    hops +=
        std::abs(topology.step_delta(d, static_cast<int>(from / stride % size), static_cast<int>(to / stride % size)));
  }
  return hops;
}

// Time for one tree to deliver `pieces` segments of `piece` bytes everywhere, each edge's
// bandwidth divided by its share.
double tree_delivery_time(const topo::Topology& topology, const std::vector<TreeLinks>& tree,
                          const std::map<long long, double>& share, int pieces, double piece,
                          const NetworkParams& net) {
  const int p = static_cast<int>(topology.node_count());
  std::vector<std::vector<double>> arrival(p);
  arrival[0].assign(pieces, 0.0);
  std::vector<int> order{0};
  double finish = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int node = order[i];
    std::vector<double> port_free(kDirections, 0.0);
    // Per child: the port its route leaves by, its send time per piece and its path latency.
    struct Send {
      int child, direction;
      double send_seconds, path_seconds;
    };
    std::vector<Send> sends;
    for (int child : tree[node].children) {
      arrival[child].assign(pieces, 0.0);
      const double factor = share.at(static_cast<long long>(node) * p + child);
      sends.push_back({child, first_hop_direction(topology, node, child), net.latency + piece * factor / net.bandwidth,
                       hops_between(topology, node, child) * net.hop_latency});
    }
    for (int s = 0; s < pieces; ++s)
      for (const Send& send : sends) {
        const double start = std::max(port_free[send.direction], arrival[node][s]);
        port_free[send.direction] = start + send.send_seconds;
        arrival[send.child][s] = port_free[send.direction] + send.path_seconds;
      }
    for (int child : tree[node].children) {
      order.push_back(child);
      finish = std::max(finish, arrival[child][pieces - 1]);
    }
    arrival[node].clear();
    arrival[node].shrink_to_fit();
  }
  return finish;
}

}  // namespace

int torus_hops(const Shape3& torus, int from, int to) { return hops_between(topology_of(torus), from, to); }

RoundLoad rank_shift_load(const Shape3& torus, int rank_shift, double weight) {
  LinkLoads links(torus);
  RoundLoad load{1, 0, 0};
  const int p = torus.size();
  for (int r = 0; r < p; ++r)
    load.max_hops = std::max<double>(load.max_hops, links.add_route(r, (r + rank_shift) % p, weight));
  load.max_link_units = links.max_load();
  return load;
}

double simulate_alltoall(const std::string& algorithm, const Shape3& torus, double bytes_per_pair,
                         const NetworkParams& net) {
  const int p = torus.size();
  if (p <= 1) return 0;
  if (algorithm == "pairwise") {  // P-1 rounds, one shift each; sampled rounds stand for the rest
    const auto shifts = sample_of(p - 1);
    double total = 0;
    for (int shift : shifts) total += round_time(rank_shift_load(torus, shift, 1), bytes_per_pair, net);
    return total * (p - 1) / shifts.size();
  }
  if (algorithm == "linear") {  // one round holding every shift at once
    const auto shifts = sample_of(p - 1);
    LinkLoads links(torus);
    double hops = 0;
    const double weight = static_cast<double>(p - 1) / shifts.size();
    for (int shift : shifts)
      for (int r = 0; r < p; ++r) hops = std::max<double>(hops, links.add_route(r, (r + shift) % p, weight));
    return round_time(RoundLoad{static_cast<double>(p - 1), hops, links.max_load()}, bytes_per_pair, net);
  }
  if (algorithm == "bruck") {
    double total = 0;
    for (int distance = 1; distance < p; distance <<= 1) {
      int blocks = 0;
      for (int i = 0; i < p; ++i) blocks += (i & distance) ? 1 : 0;
      total += round_time(rank_shift_load(torus, distance, blocks), bytes_per_pair, net);
    }
    return total;
  }
  if (algorithm == "dimwise") {
    double total = 0;
    for (int d = 0; d < 3; ++d) {
      const int n = torus.n[d];
      if (n == 1) continue;
      const auto shifts = sample_of(n - 1);
      double part = 0;
      for (int shift : shifts)
        part += round_time(dimension_shift_load(torus, d, shift, static_cast<double>(p) / n), bytes_per_pair, net);
      total += part * (n - 1) / shifts.size();
    }
    return total;
  }
  throw util::UsageError("no simulation for alltoall algorithm '" + algorithm + "'");
}

namespace {

using Forest = std::vector<std::vector<TreeLinks>>;  // forest[tree][rank]

int trees_of(const std::string& algorithm) {
  return algorithm == "ktree6" ? 6 : algorithm == "ktree3" ? 3 : algorithm == "splitbintree" ? 2 : 1;
}

// The segments one tree of a bcast carries (a double: absurd sizes must not overflow an int).
double bcast_pieces(const std::string& algorithm, double message, double segment) {
  const double part = message / trees_of(algorithm);
  const bool segmented = segment > 0 && algorithm != "linear" && algorithm != "chain";
  const double piece = segmented ? std::min(segment, part) : part;
  return std::max(1.0, std::ceil(part / piece));
}

Forest forest_for(const std::string& algorithm, const Shape3& torus) {
  Forest forest;
  for (int t = 0; t < trees_of(algorithm); ++t) forest.push_back(trees_for(algorithm, t, torus));
  if (algorithm == "splitbintree") {  // tree 0 carries the left half, tree 1 the right half
    forest[0][0].children.resize(std::min<std::size_t>(1, forest[0][0].children.size()));
    if (forest[1][0].children.size() == 2)
      forest[1][0].children = {forest[1][0].children[1]};
    else
      forest[1][0].children.clear();
  }
  return forest;
}

// How many trees of the forest use each directed link.
std::map<long long, int> trees_per_link(const topo::Topology& topology, const Forest& forest) {
  std::map<long long, int> users;
  for (const auto& tree : forest) {
    std::map<long long, bool> used;
    for (int r = 0; r < static_cast<int>(topology.node_count()); ++r)
      for (int child : tree[r].children) topology.route(r, child, [&](int64_t link) { used[link] = true; });
    for (const auto& [key, flag] : used) ++users[key];
  }
  return users;
}

}  // namespace

int max_trees_per_link(const std::string& algorithm, const Shape3& torus) {
  int most = 0;
  for (const auto& [key, users] : trees_per_link(topology_of(torus), forest_for(algorithm, torus)))
    most = std::max(most, users);
  return most;
}

double simulate_bcast(const std::string& algorithm, const Shape3& torus, double message, double segment,
                      const NetworkParams& net) {
  const int p = torus.size();
  if (p <= 1 || message <= 0) return 0;
  const Forest forest = forest_for(algorithm, torus);
  const topo::Topology topology = topology_of(torus);
  const int trees = static_cast<int>(forest.size());
  const auto users = trees > 1 ? trees_per_link(topology, forest) : std::map<long long, int>{};
  double slowest = 0;
  const double part = message / trees;
  const bool segmented = segment > 0 && algorithm != "linear" && algorithm != "chain";
  const double piece = segmented ? std::min(segment, part) : part;
  // Within an int: simulate_table1 refuses more than kMaxSimulatedArrivalsPerTree.
  const int pieces = static_cast<int>(bcast_pieces(algorithm, message, segment));
  for (int t = 0; t < trees; ++t) {
    std::map<long long, double> share;  // edge (parent * P + child) -> trees on its busiest link
    for (int r = 0; r < p; ++r)
      for (int child : forest[t][r].children) {
        int most = 1;
        if (trees > 1) topology.route(r, child, [&](int64_t link) { most = std::max(most, users.at(link)); });
        share[static_cast<long long>(r) * p + child] = most;
      }
    slowest = std::max(slowest, tree_delivery_time(topology, forest[t], share, pieces, piece, net));
  }
  if (algorithm == "splitbintree") slowest += net.latency + (message / 2) / net.bandwidth;  // final swap
  return slowest;
}

namespace {
// The segment a bcast algorithm runs with: none for linear and chain, the optimum on this torus
// for bintree3d and the k-trees, else --segment; in whole bytes, at least one.
double bcast_segment(const std::string& algorithm, double message, const Shape3& torus, const NetworkParams& net,
                     double generic_segment) {
  double segment = generic_segment;
  if (algorithm == "linear" || algorithm == "chain") segment = 0;
  if (algorithm == "bintree3d") segment = bintree3d_optimal_segment(net.latency, net.bandwidth, message, torus);
  if (algorithm.rfind("ktree", 0) == 0)
    segment = ktree_optimal_segment(net.latency, net.bandwidth, message, torus, algorithm == "ktree6" ? 6 : 3);
  return std::max(1.0, std::round(segment));
}

// The segment arrivals one tree of a bcast simulates; more than kMaxSimulatedArrivalsPerTree are refused.
double arrivals_per_tree(const std::string& algorithm, const Shape3& torus, double message, double segment) {
  const double per_tree = bcast_pieces(algorithm, message, segment) * torus.size();
  if (per_tree > kMaxSimulatedArrivalsPerTree)
    throw util::UsageError(fmt::format(
        "--simulate: bcast {} on {} would move a {:.0f}-byte message in {:.0f}-byte segments, {:.3g} segment "
        "arrivals per tree; the limit is {:.0f} (a larger --segment, --latency or --bandwidth, or smaller "
        "--sizes)",
        algorithm, torus.text(), message, segment, per_tree, kMaxSimulatedArrivalsPerTree));
  return per_tree;
}

// Simulates each row on its torus (time and throughput), telling row_done after each.
void simulate_rows(std::vector<SimulationRow>& rows, const std::vector<Shape3>& tori, const NetworkParams& net,
                   const std::function<void(int64_t done, int64_t total)>& row_done) {
  for (size_t k = 0; k < rows.size(); ++k) {
    SimulationRow& row = rows[k];
    if (row.op == "alltoall") {
      row.seconds = simulate_alltoall(row.algorithm, tori[k], row.message, net);
      row.throughput =
          throughput_of(CollOp::alltoall, tori[k].size(), 1, static_cast<std::int64_t>(row.message), row.seconds);
    } else {
      row.seconds = simulate_bcast(row.algorithm, tori[k], row.message, row.segment, net);
      row.throughput = row.message / row.seconds;
    }
    if (row_done) row_done(static_cast<int64_t>(k + 1), static_cast<int64_t>(rows.size()));
  }
}
}  // namespace

std::vector<SimulationRow> simulate_table1(const std::vector<double>& messages, const NetworkParams& net,
                                           double generic_segment,
                                           const std::function<void(int64_t done, int64_t total)>& row_done) {
  struct Table1Entry {
    const char* size_name;
    Shape3 shapes[3];
  };
  const Table1Entry table[] = {
      {"small", {Shape3{{384, 1, 1}}, Shape3{{64, 6, 1}}, Shape3{{8, 6, 8}}}},
      {"middle", {Shape3{{3072, 1, 1}}, Shape3{{48, 64, 1}}, Shape3{{16, 12, 16}}}},
      {"large", {Shape3{{27648, 1, 1}}, Shape3{{144, 192, 1}}, Shape3{{48, 12, 48}}}},
  };
  const std::vector<std::string> alltoall_algorithms{"linear", "pairwise", "bruck", "dimwise"};
  const std::vector<std::string> bcast_algorithms{"linear",   "chain",     "pipeline", "bintree", "splitbintree",
                                                  "binomial", "bintree3d", "ktree3",   "ktree6"};
  // The rows first, with their segments, so that the work is known (and refused) before any of it.
  std::vector<SimulationRow> rows;
  std::vector<Shape3> tori;  // per row
  double arrivals = 0;       // segment arrivals the bcast rows simulate
  for (const auto& entry : table) {
    for (int dims = 1; dims <= 3; ++dims) {
      const Shape3& torus = entry.shapes[dims - 1];
      for (double m : messages) {
        for (const auto& algorithm : alltoall_algorithms) {
          rows.push_back({entry.size_name, torus.text(), "alltoall", algorithm, dims, m, 0, 0, 0});
          tori.push_back(torus);
        }
        if (std::string(entry.size_name) == "large") continue;  // Hosono et al. 2021 measured bcast on small and middle
        for (const auto& algorithm : bcast_algorithms) {
          const double segment = bcast_segment(algorithm, m, torus, net, generic_segment);
          const double per_tree = arrivals_per_tree(algorithm, torus, m, segment);
          arrivals += per_tree * trees_of(algorithm);
          rows.push_back({entry.size_name, torus.text(), "bcast", algorithm, dims, m, segment, 0, 0});
          tori.push_back(torus);
        }
      }
    }
  }
  if (arrivals > kMaxSimulatedArrivals)
    throw util::UsageError(
        fmt::format("--simulate: these --sizes take {:.3g} segment arrivals in all; the limit is {:.0f} "
                    "(fewer or smaller --sizes, or a larger --segment)",
                    arrivals, kMaxSimulatedArrivals));
  simulate_rows(rows, tori, net, row_done);
  return rows;
}

}  // namespace g500::coll
