// The node set a job gets: a sub-box of the system with one extent per axis (Nakao et al. 2021, section 5.2/5.6:
// jobs are boxes of the 6D network). An axis keeps its torus wrap only when the box spans it fully;
// a partial extent of a torus axis is a mesh segment.
#pragma once
#include <vector>

#include "topo/systems.hpp"
#include "topo/topology.hpp"

namespace g500::topo {

Topology box_topology(const SystemSpec& system, const std::vector<int>& extents);

// Every extents vector (each 1..system size) whose product is `nodes`.
std::vector<std::vector<int>> boxes_with_nodes(const SystemSpec& system, long long nodes);

}  // namespace g500::topo
