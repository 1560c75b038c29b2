// Sub-box allocations of a mesh/torus system (Nakao et al. 2021, sections 5.2 and 5.6).
#include "topo/allocation.hpp"

namespace g500::topo {

Topology box_topology(const SystemSpec& system, const std::vector<int>& extents) {
  std::vector<Axis> axes;
  for (size_t d = 0; d < system.axes.size(); ++d) {
    const Axis& full = system.axes[d];
    axes.push_back(Axis{full.name, extents[d], full.torus && extents[d] == full.size});
  }
  return Topology(axes);
}

static void enumerate_boxes(const SystemSpec& system, size_t axis, long long remaining, std::vector<int>& current,
                            std::vector<std::vector<int>>& out) {
  if (axis == system.axes.size()) {
    if (remaining == 1) out.push_back(current);
    return;
  }
  long long rest_capacity = 1;
  for (size_t d = axis + 1; d < system.axes.size(); ++d) rest_capacity *= system.axes[d].size;
  for (int e = 1; e <= system.axes[axis].size; ++e) {
    if (remaining % e != 0 || remaining / e > rest_capacity) continue;
    current[axis] = e;
    enumerate_boxes(system, axis + 1, remaining / e, current, out);
  }
}

std::vector<std::vector<int>> boxes_with_nodes(const SystemSpec& system, long long nodes) {
  std::vector<std::vector<int>> out;
  if (nodes < 1) return out;
  std::vector<int> current(system.axes.size(), 1);
  enumerate_boxes(system, 0, nodes, current, out);
  return out;
}

}  // namespace g500::topo
