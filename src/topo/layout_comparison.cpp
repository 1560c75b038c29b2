// Plain rank order vs scheduler 2D shape vs 6D mapping under the link-load simulator (Nakao et al. 2021, section 5.6).
#include "topo/layout_comparison.hpp"

#include <optional>

#include "topo/allocation.hpp"

namespace g500::topo {

std::vector<Layout> comparison_layouts(const SystemSpec& system, const GridMapping& mapping) {
  Topology box = box_topology(system, mapping.extents);
  std::vector<Layout> out;
  Placement plain = plain_rank_order(box, mapping.placement.rows, mapping.placement.cols);
  out.push_back(Layout{"plain", "rank order", plain, count_ring_breaks(box, plain) == 0});
  if (system.has_tofu_axes()) {
    GridMapping sched = scheduler_2d_mapping(system, mapping.extents);
    out.push_back(Layout{"scheduler-2d", axes_label(box, sched.row_axes) + " x " + axes_label(box, sched.col_axes),
                         sched.placement, sched.ring_adjacent});
  }
  out.push_back(Layout{"6d-mapping", axes_label(box, mapping.row_axes) + " x " + axes_label(box, mapping.col_axes),
                       mapping.placement, mapping.ring_adjacent});
  return out;
}

std::vector<ComparisonRow> compare_layouts(const Topology& box, const std::vector<Layout>& layouts,
                                           const std::vector<Pattern>& patterns, const LinkParameters& link,
                                           const SimulationBudget& budget, bool keep_link_bytes,
                                           const ComparisonStepDone& step_done) {
  std::vector<ComparisonRow> rows;
  const int64_t steps = static_cast<int64_t>(layouts.size() * patterns.size());
  // A global alltoall sends between every pair of nodes whatever the placement: route it once.
  std::optional<LoadReport> alltoall;
  for (const auto& layout : layouts)
    for (Pattern p : patterns) {
      std::string grid = std::to_string(layout.placement.rows) + "x" + std::to_string(layout.placement.cols);
      if (p == Pattern::Alltoall && alltoall) {
        rows.push_back(ComparisonRow{layout.name, grid, p, *alltoall});
      } else {
        rows.push_back(
            ComparisonRow{layout.name, grid, p, simulate(box, layout.placement, p, link, budget, keep_link_bytes)});
        if (p == Pattern::Alltoall) alltoall = rows.back().report;
      }
      if (step_done) step_done(static_cast<int64_t>(rows.size()), steps);
    }
  return rows;
}

}  // namespace g500::topo
