// Link loads of the BFS's communication patterns on a mesh/torus, from routing the messages of the
// whole pattern with dimension-order routing (topo/segment_loads.hpp, the router of
// `g500 map --simulate`, Nakao et al. 2021, section 5.6; Kuroda et al. 2013, section 5.4) over the
// job's nodes as the mapping places the node grid:
//   alltoall  every node sends to every other node of its group (row or column of the node grid),
//             1 / (g - 1) units to each: the busiest link's load per unit a node sends (the
//             alltoallv's bandwidth term);
//   ring      every node sends one message to its successor in the group's ring (the ring
//             allgatherv, one step): the busiest link's messages (1 when every ring neighbour is a
//             physical neighbour, more when the ring's closing message shares links);
//   exchange  every node sends one message to each ring neighbour (the bottom-up sendrecv of
//             section 4.5, both directions at once): the busiest link's messages.
// All groups communicate at once. Every placement the model uses gives each side of the grid whole
// axes (the 6D mapping, section 5.6, and the job-shape torus, section 5.2), so a group's routes
// stay on its own sub-torus, groups use disjoint links and every group is a translate of the
// first: the loads of one group are those of the whole pattern. Patterns up to
// kMaxRoutesAllGroups messages are routed for every group anyway (the tests check that both agree).
#pragma once
#include <cstdint>

#include "topo/grid_mapping.hpp"
#include "topo/topology.hpp"

namespace g500::model {

// Busiest-link loads of one side's patterns (see above).
struct GroupLoads {
  double alltoall = 0;  // per unit a node sends to its group
  double ring = 0;      // messages per ring step, one direction
  double exchange = 0;  // messages per sendrecv step, both directions
};

struct PatternLoads {
  GroupLoads column;        // groups along a column of the node grid (R nodes)
  GroupLoads row;           // groups along a row (C nodes)
  int64_t routes = 0;       // messages routed
  bool all_groups = false;  // every group routed (else the first group of each side, by symmetry)
};

// Patterns with more messages than this (all groups) route one group per side.
inline constexpr int64_t kMaxRoutesAllGroups = 4'000'000;

// Which groups to route: every group up to kMaxRoutesAllGroups messages and the first group of
// each side beyond (kAuto), or always one or the other (the tests compare them).
enum class Groups { kAuto, kAll, kFirst };

// `nodes`: the node grid's placement on `box` (node_of_rank[row * cols + col]).
PatternLoads route_patterns(const topo::Topology& box, const topo::Placement& nodes, Groups groups = Groups::kAuto);

}  // namespace g500::model
