// 2D process-grid mapping onto a mesh/torus (Nakao et al. 2021, section 5.6, Fig. 11; Nakao et al. 2020, section 5.6).
// Any set of axes forms R (the process columns' length) and the rest forms C (the length of a
// process row, the ring the bottom-up sendrecv runs around). Each side is walked in snake order;
// the C ring closes (last -> first are neighbours) when, per Nakao et al. 2020, (1) the vertical part of the
// unfolding (all C axes but the first) has even size and (2) the last axis is a torus or a
// 2-node axis; for the Gray-code snake over several vertical axes the last axis must itself be
// of even size, which is what ring_closes() checks exactly.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topo/systems.hpp"
#include "topo/topology.hpp"
#include "util/grid_shape.hpp"

namespace g500::topo {

// Rank r sits at grid position (row = r / cols, col = r % cols) on node node_of_rank[r].
struct Placement {
  int rows = 1;
  int cols = 1;
  std::vector<int64_t> node_of_rank;
  int rank_of(int row, int col) const { return row * cols + col; }
};

struct RingConditions {
  bool vertical_even = false;     // Nakao et al. 2020, condition (1)
  bool last_axis_closes = false;  // Nakao et al. 2020, condition (2): torus, or 2 nodes
  bool closes = false;            // the exact wrap check on the snake
};

RingConditions ring_conditions(const Topology& box, const std::vector<int>& axes_in_order);
// The given order if its snake closes, else the first permutation that closes; nullopt if none.
std::optional<std::vector<int>> closing_order(const Topology& box, const std::vector<int>& axes);

struct GridMapping {
  std::vector<int> extents;   // the box within the system
  std::vector<int> row_axes;  // snake order, first fastest
  std::vector<int> col_axes;
  Placement placement;
  bool ring_adjacent = false;  // every row ring is fully physically adjacent, wrap included
  bool col_axes_reordered = false;
};

// Builds the placement for a fixed split; col_axes are reordered to close the ring when possible.
GridMapping map_grid(const Topology& box, const std::vector<int>& extents, std::vector<int> row_axes,
                     std::vector<int> col_axes);

struct GridRequest {
  long long nodes = 0;
  std::optional<util::GridShape> grid;  // --grid R x C; otherwise R >= C, R/C closest to 1
};
// Chooses box and split: R/C closest to 1 first (Nakao et al. 2021, section 5.2), then a ring that closes, then (Tofu
// systems) a full abc unit, then the smallest hop diameter. Throws UsageError when nothing fits.
GridMapping choose_grid_mapping(const SystemSpec& system, const GridRequest& request);

// An explicit split "ROW/COL" of whole system axes, e.g. "XY/Zabc" (one letter per axis) or
// "d0,d1/d2" (comma lists); the box spans the named axes fully. Throws UsageError.
GridMapping map_named_axes(const SystemSpec& system, const std::string& split);

// The Fugaku scheduler's 2D job shape YZc x Xab (Nakao et al. 2021, section 5.6) on a Tofu box.
GridMapping scheduler_2d_mapping(const SystemSpec& system, const std::vector<int>& extents);
// Plain rank order: rank r on node id r of the box (first axis fastest), same R x C.
Placement plain_rank_order(const Topology& box, int rows, int cols);

// Number of (row, col) -> (row, col+1 mod C) pairs that are not physical neighbours.
int64_t count_ring_breaks(const Topology& box, const Placement& placement);
std::string axes_label(const Topology& box, const std::vector<int>& axes);  // e.g. "Zabc"

}  // namespace g500::topo
