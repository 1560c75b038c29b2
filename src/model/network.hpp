// The network of the model: link latency and bandwidth, injection bandwidth, eager limit and
// topology (the 6D mesh/torus of `g500 map` with its grid mapping, a 2D job-shape torus, a fat
// tree, a dragonfly, or the shared memory of one machine), and the time of the BFS's three
// collectives on it, written in the latency-bandwidth form of Hosono et al. 2021 (coll/coll_model.hpp):
//   t = steps * L + bytes / B_eff
// with the steps and bytes of the algorithm from coll::cost_terms and the effective bandwidth from
// the topology:
//  * allgatherv (ring, or recursive doubling when shorter): a ring per link the group's nodes have
//    inside the group ("lanes", at most the links a node drives at once), capped by the injection
//    bandwidth (Nakao et al. 2021, section 6.2: injection bandwidth decides the collectives);
//    and slowed by the busiest link of one ring step when the ring's closing message shares links;
//  * alltoallv (pairwise): the busiest link of an all-to-all among the group's nodes under
//    dimension-order routing, capped by the injection bandwidth;
//  * sendrecv: one message each way to the ring neighbours per sub-step (Nakao et al. 2021,
//    section 4.5), at the busiest link's share, with two more latencies for the rendezvous
//    hand-shake above the eager limit (section 5.4).
// On a torus the busiest links come from routing the whole pattern of every group at once over the
// mapping's placement (pattern_loads.hpp).
// Processes of one node share its links; messages between them do not use the network.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "topo/systems.hpp"
#include "topo/topology.hpp"
#include "util/grid_shape.hpp"

namespace g500::model {

enum class TopologyKind { kTorus, kFatTree, kDragonfly, kSharedMemory };

// How the R x C grid of nodes is placed on a torus.
enum class Mapping {
  kSixD,     // g500 map's grid mapping: whole axes to R and C, snake order (Nakao et al. 2021, section 5.6)
  kJobShape  // the scheduler's 2D job shape: an R x C logical torus of neighbours (section 5.2)
};

struct NetworkSpec {
  std::string name;
  std::string source;  // where the numbers come from
  TopologyKind kind = TopologyKind::kTorus;
  topo::SystemSpec system;            // torus: the system whose sub-boxes jobs get
  double latency = 0;                 // L per message [s]
  double link_bandwidth = 0;          // B per link and direction [bytes/s]
  int simultaneous_links = 1;         // links a node drives at once (TofuD: 6 TNIs)
  double injection_bandwidth = 0;     // per node [bytes/s]
  double eager_limit = 0;             // bytes; longer point-to-point messages use rendezvous
  double global_bandwidth_share = 1;  // fat tree / dragonfly: uniform-traffic bandwidth per node over injection
  int cores = 1;                      // shared memory: cores that run the processes
  double switch_latency = 0;          // shared memory: added per message step for each further rank on a core [s]
  // Shared memory: latency and bandwidth measured at given rank counts (g500 coll with that many
  // ranks, time-sharing included); a prediction at one of these counts uses them as they are.
  struct MeasuredAtRanks {
    int ranks = 0;
    double latency = 0, bandwidth = 0;
  };
  std::vector<MeasuredAtRanks> measured_at_ranks;
  // Alternative assumptions (0: none): at most this many links per allgatherv (1: a single ring,
  // as Hosono et al. 2021's unsegmented model); at most this alltoallv throughput per node
  // [bytes/s] (Hosono et al. 2021, section 4.1 measured about 1 GB/s for Doublespread).
  double max_lanes = 0;
  double alltoallv_node_cap = 0;
};

NetworkSpec tofud_network();  // Fugaku (Nakao et al. 2021, section 2; Hosono et al. 2021)
NetworkSpec tofu_network();   // the K computer (Nakao et al. 2021, section 2, Table 1)
// A full fat tree (global_bandwidth_share 1) with one port of the given injection bandwidth.
NetworkSpec fat_tree_network(double injection_bandwidth, double latency);
// A dragonfly with one port per node; uniform traffic gets global_share of the injection.
NetworkSpec dragonfly_network(double injection_bandwidth, double latency, double global_share);
// One machine: messages are memory copies at `copy_bandwidth` per process; `cores` run them; a
// message step costs `switch_latency` more for each further rank sharing a core (host_sharing.hpp).
NetworkSpec shared_memory_network(double latency, double copy_bandwidth, int cores, double switch_latency = 0);
// A mesh/torus of any shape ("24t,23t,..." as g500 map --shape) whose node drives
// `simultaneous_links` links at once (0: all of them), the injection bandwidth split evenly over
// those.
NetworkSpec torus_network(const std::string& shape, double injection_bandwidth, double latency,
                          int simultaneous_links = 0);

// One communication group of the grid (a process column of R, or a process row of C).
struct GroupView {
  int members = 1;               // processes
  int members_per_node = 1;      // of them on one node
  int nodes = 1;                 // nodes it spans
  std::vector<topo::Axis> axes;  // torus: the sub-topology its nodes form
  double lanes = 1;              // links per node inside the group an allgatherv can drive at once
  double alltoall_load = 1;      // busiest link's bytes per byte a node sends in an all-to-all of the group
  double ring_load = 1;          // busiest link's messages in one step of the group's ring (one direction)
  double exchange_load = 1;      // busiest link's messages in one sendrecv step (each node to both ring neighbours)
};

struct GridView {
  util::GridShape grid;       // processes
  util::GridShape node_grid;  // nodes
  int processes_per_node = 1;
  double ranks_per_core = 1;       // shared memory: ranks x threads per core (host_sharing.hpp)
  GroupView column;                // R processes: the allgatherv
  GroupView row;                   // C processes: alltoallv and sendrecv
  std::string placement;           // e.g. "XY x Zabc (6D mapping)"
  int64_t routed_messages = 0;     // torus: messages routed for the link loads
  bool routed_all_groups = false;  // torus: every group routed (else one per side, by symmetry)
};

// Places an R x C grid at `ppn` processes per node (a node holds a pr x pc block of the grid,
// Nakao et al. 2020, section 5.3: 2 ppn as 1 x 2, 4 ppn as 2 x 2) on the network. Throws
// UsageError when the grid does not fit (shape, node count, or no 6D mapping).
GridView grid_view(const NetworkSpec& net, const util::GridShape& grid, int ppn, Mapping mapping);

// The grid the BFS would use at `nodes` nodes and `ppn` processes per node: on a torus with the
// 6D mapping, g500 map's choice (R >= C, R / C closest to 1, from whole axes) times the node
// block; otherwise the closest factors of the processes (util/grid_shape.hpp).
util::GridShape default_grid(const NetworkSpec& net, long long nodes, int ppn, Mapping mapping);

// A logical job-shape axis of `length` nodes folded into the system: the scheduler lays a
// logical torus axis longer than a physical one over several physical axes with neighbours
// adjacent (Nakao et al. 2021, section 5.2), so its nodes form a sub-torus of the fewest axes no
// longer than the system's longest, as even as possible (128 on Fugaku: 16 x 8). A prime longer
// than every axis stays one axis.
std::vector<topo::Axis> fold_logical_axis(const std::string& name, int length, const topo::SystemSpec& system);

// The pr x pc block of one node (pr * pc = ppn, pc the smallest divisor >= sqrt(ppn)).
util::GridShape node_block(int ppn);

// Largest link load of an all-to-all (one unit from every node to every other) among the nodes
// of a mesh/torus, per unit a node sends: max over axes of (N / k) * load_1D(k) / (N - 1).
double alltoall_link_load(const std::vector<topo::Axis>& axes);
// Links per node inside a mesh/torus (a torus axis of 3 or more: 2, a 2-node axis: 1, a mesh
// axis of k >= 3: 2 (k - 1) / k on average).
double links_per_node(const std::vector<topo::Axis>& axes);

// Collective times per process, in seconds, in one group of the grid (view.column or view.row).
struct CollectiveTimes {
  const NetworkSpec& net;
  const GridView& view;
  // Allgatherv: `bytes` received per process.
  double allgatherv(const GroupView& group, double bytes) const;
  // Alltoallv: `bytes` sent per process.
  double alltoallv(const GroupView& group, double bytes) const;
  // One sub-step of the row rotation: `bytes` sent each way.
  double sendrecv_step(double bytes) const;
  // The latency part of exchanging counts before a v-collective in a group (one word per member
  // by recursive doubling: MPI_Allgather and MPI_Alltoall of g500 bfs, comm/large_count.cpp).
  double counts_exchange(const GroupView& group) const;
  // One message step's latency (on one machine with its ranks per core).
  double step_latency() const;
};

}  // namespace g500::model
