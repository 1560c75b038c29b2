// Compares three placements of the same nodes under the link-load simulator (// Nakao et al. 2021, section 5.6): plain
// rank order, the Fugaku scheduler's 2D job shape YZc x Xab, and the 6D mapping of grid_mapping.hpp.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "topo/grid_mapping.hpp"
#include "topo/link_load.hpp"
#include "topo/systems.hpp"

namespace g500::topo {

struct Layout {
  std::string name;  // "plain", "scheduler-2d", "6d-mapping"
  std::string axes;  // e.g. "XY x Zabc"
  Placement placement;
  bool ring_adjacent = false;
};

// The layouts that apply to the system (the scheduler shape needs Tofu axes).
std::vector<Layout> comparison_layouts(const SystemSpec& system, const GridMapping& mapping);

struct ComparisonRow {
  std::string layout;
  std::string grid;
  Pattern pattern;
  LoadReport report;
};

// Called after each (layout, pattern) simulated, with the count done and the total, for a
// progress line.
using ComparisonStepDone = std::function<void(int64_t done, int64_t total)>;

std::vector<ComparisonRow> compare_layouts(const Topology& box, const std::vector<Layout>& layouts,
                                           const std::vector<Pattern>& patterns, const LinkParameters& link,
                                           const SimulationBudget& budget, bool keep_link_bytes,
                                           const ComparisonStepDone& step_done = {});

}  // namespace g500::topo
