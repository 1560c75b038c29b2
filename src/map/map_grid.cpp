// `g500 map --method grid|cuboid`: the Nakao et al. 2021, section 5.6 grid mapping and Kuroda et al. 2013, Method A,
// printing R, C, R/C and the row-ring adjacency, and writing the rank map (CSV or Fugaku map-file form).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "io/rankmap_file.hpp"
#include "map/map_job.hpp"
#include "topo/allocation.hpp"
#include "topo/cuboid_mapping.hpp"
#include "topo/layout_comparison.hpp"
#include "topo/logical3d.hpp"
#include "util/error.hpp"

namespace g500::map {

using namespace g500::topo;
using namespace g500::io;

std::optional<util::GridShape> parse_grid(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return util::parse_grid_text(text);
}

namespace {

std::string ratio_text(int r, int c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(r) / c);
  return buf;
}

void print_ring(const Topology& box, const GridMapping& m) {
  const int cols = m.placement.cols;
  std::printf("row ring: C = %d members along %s: %s\n", cols, axes_label(box, m.col_axes).c_str(),
              m.ring_adjacent ? "fully physically adjacent (last -> first included)" : "NOT fully physically adjacent");
  if (m.col_axes.size() == 1 && cols > 2) {
    const Axis& a = box.axes()[m.col_axes.front()];
    std::printf("  single axis %s: the wrap closes only on a torus (%s)\n", a.name.c_str(), a.torus ? "torus" : "mesh");
  } else if (m.col_axes.size() > 1 && cols > 2) {
    auto rc = ring_conditions(box, m.col_axes);
    std::vector<int> vertical(m.col_axes.begin() + 1, m.col_axes.end());
    std::printf("  Nakao et al. 2020 conditions: vertical part %s even: %s; last axis %s torus or 2-node: %s%s\n",
                axes_label(box, vertical).c_str(), rc.vertical_even ? "yes" : "no",
                box.axes()[m.col_axes.back()].name.c_str(), rc.last_axis_closes ? "yes" : "no",
                m.col_axes_reordered ? " (C axes reordered so the snake closes)" : "");
  }
  if (!m.ring_adjacent)
    std::printf("  %lld of %lld ring neighbour pairs are more than one hop apart\n",
                static_cast<long long>(count_ring_breaks(box, m.placement)),
                static_cast<long long>(m.placement.rows) * (cols == 2 ? 1 : cols));
}

std::vector<std::string> axis_names(const std::vector<Axis>& axes) {
  std::vector<std::string> names;
  for (const auto& a : axes) names.push_back(a.name);
  return names;
}

void write_outputs(const MapOptions& o, const SystemSpec& system, const Placement& p,
                   const std::vector<std::array<int, 6>>* coords6, const std::vector<std::array<int, 3>>* logical,
                   const Topology& box) {
  if (o.output.empty()) return;
  const int64_t n = static_cast<int64_t>(p.rows) * p.cols;
  // --shuffle-ranks: rank r takes entry entry_of[r] (grid cell and node) - a synthetic permuted map.
  std::vector<int64_t> entry_of(n);
  std::iota(entry_of.begin(), entry_of.end(), 0);
  if (o.shuffle_seed) {
    std::mt19937_64 rng(*o.shuffle_seed);
    std::shuffle(entry_of.begin(), entry_of.end(), rng);
  }
  if (o.format == "csv") {
    std::vector<RankmapRow> rows(n);
    for (int64_t r = 0; r < n; ++r) {
      const int64_t e = entry_of[r];
      rows[r].row = static_cast<int>(e / p.cols);
      rows[r].col = static_cast<int>(e % p.cols);
      if (coords6)
        rows[r].coord.assign((*coords6)[e].begin(), (*coords6)[e].end());
      else
        rows[r].coord = box.coord(p.node_of_rank[e]);
    }
    write_rankmap_csv(o.output, axis_names(system.axes), rows);
  } else {
    std::vector<std::vector<int>> tuples(n);
    for (int64_t r = 0; r < n; ++r) {
      const int64_t e = entry_of[r];
      if (logical)
        tuples[r].assign((*logical)[e].begin(), (*logical)[e].end());
      else if (system.has_tofu_axes()) {
        auto c = box.coord(p.node_of_rank[e]);
        std::array<int, 6> c6{}, e6{};
        for (int d = 0; d < 6; ++d) {
          c6[d] = c[d];
          e6[d] = box.axes()[d].size;
        }
        auto l = logical_job_coord(c6, e6);
        tuples[r].assign(l.begin(), l.end());
      } else {
        tuples[r] = box.coord(p.node_of_rank[e]);
      }
    }
    write_coordinate_map(o.output, tuples);
  }
  std::printf("wrote %s (%lld ranks, %s)\n", o.output.c_str(), static_cast<long long>(n), o.format.c_str());
}

}  // namespace

void run_grid(const MapOptions& o, const SystemSpec& system, long long nodes) {
  GridMapping m;
  if (o.axes.empty()) {
    m = choose_grid_mapping(system, GridRequest{nodes, parse_grid(o.grid)});
  } else {
    m = map_named_axes(system, o.axes);
    nodes = static_cast<long long>(m.placement.rows) * m.placement.cols;
    if (o.nodes_given && o.nodes != nodes)
      throw util::UsageError("--axes " + o.axes + " spans " + std::to_string(nodes) + " nodes but --nodes is " +
                             std::to_string(o.nodes));
    if (auto g = parse_grid(o.grid); g && (g->rows != m.placement.rows || g->cols != m.placement.cols))
      throw util::UsageError("--grid " + o.grid + " does not match --axes " + o.axes + " (" +
                             std::to_string(m.placement.rows) + "x" + std::to_string(m.placement.cols) + ")");
  }
  Topology box = box_topology(system, m.extents);
  const int r = m.placement.rows, c = m.placement.cols;
  std::printf("system %s %s, nodes %lld, box %s\n", system.name.c_str(), describe_axes(system.axes).c_str(), nodes,
              describe_axes(box.axes()).c_str());
  std::printf("method grid (Nakao et al. 2021, section 5.6): R = %d (%s), C = %d (%s), R/C = %s\n", r,
              axes_label(box, m.row_axes).c_str(), c, axes_label(box, m.col_axes).c_str(), ratio_text(r, c).c_str());
  print_ring(box, m);
  if (system.has_tofu_axes() && o.grid.empty()) {
    GridMapping s = scheduler_2d_mapping(system, m.extents);
    std::printf("scheduler 2D job shape for comparison: %s x %s = %d x %d, R/C = %s\n",
                axes_label(box, s.row_axes).c_str(), axes_label(box, s.col_axes).c_str(), s.placement.rows,
                s.placement.cols, ratio_text(s.placement.rows, s.placement.cols).c_str());
  }
  write_outputs(o, system, m.placement, nullptr, nullptr, box);
  if (!o.simulate.empty()) run_simulation(o, system, m);
}

void run_cuboid(const MapOptions& o, const SystemSpec& system, long long nodes) {
  if (!o.simulate.empty()) throw util::UsageError("--simulate compares grid layouts; use it with --method grid");
  if (!system.has_tofu_axes())
    throw util::UsageError("--method cuboid needs a system with axes X,Y,Z,a,b,c (fugaku or k)");
  CuboidSpec spec;
  util::GridShape grid;
  if (!o.cuboid.empty()) {
    spec = parse_cuboid_spec(o.cuboid);
    validate_cuboid_spec(spec, system);
    if (spec.comms.size() != 2) throw util::UsageError("--cuboid for a 2D grid needs two communicators (row/column)");
    int sizes[2] = {1, 1};
    for (int k = 0; k < 2; ++k)
      for (const auto& f : spec.comms[k]) sizes[k] *= f.size;
    grid = {sizes[1], sizes[0]};
    if (nodes && grid.size() != nodes)
      throw util::UsageError("--cuboid " + o.cuboid + " has " + std::to_string(grid.size()) + " ranks but --nodes is " +
                             std::to_string(nodes));
    if (auto g = parse_grid(o.grid); g && *g != grid)
      throw util::UsageError("--grid " + o.grid + " does not match --cuboid " + o.cuboid);
  } else {
    long long capacity = 1;
    for (const auto& a : system.axes) capacity *= a.size;
    if (nodes > capacity)
      throw util::UsageError("--nodes " + std::to_string(nodes) + " exceeds the system (" + std::to_string(capacity) +
                             " nodes)");
    auto g = parse_grid(o.grid);
    if (g && g->size() != nodes)
      throw util::UsageError("--grid " + o.grid + " does not match --nodes " + std::to_string(nodes));
    grid = g ? *g : util::closest_factor_shape(nodes);
    spec = auto_cuboid_spec({grid.cols, grid.rows}, system);  // row group (C members) fastest
  }
  CuboidLayout layout = enumerate_cuboid(spec, system);
  const int r = grid.rows, c = grid.cols;
  Placement p{r, c, {}};
  std::vector<Axis> box_axes;
  for (int d = 0; d < 6; ++d) {
    const Axis& full = system.axes[d];
    box_axes.push_back(Axis{full.name, layout.extents[d], full.torus && layout.extents[d] == full.size});
  }
  Topology box(box_axes);
  for (const auto& c6 : layout.coord_of_rank) p.node_of_rank.push_back(box.node_id(Coord(c6.begin(), c6.end())));
  std::printf("system %s %s, nodes %lld\n", system.name.c_str(), describe_axes(system.axes).c_str(),
              static_cast<long long>(r) * c);
  std::printf(
      "method cuboid (Kuroda et al. 2013, Method A): R = %d, C = %d, R/C = %s, row communicator (C) x column "
      "communicator (R)"
      " = %s, job shape %dx%dx%d\n",
      r, c, ratio_text(r, c).c_str(), format_cuboid_spec(spec).c_str(), layout.job_shape[0], layout.job_shape[1],
      layout.job_shape[2]);
  const auto breaks = count_ring_breaks(box, p);
  std::printf("row ring: %s", breaks == 0
                                  ? "fully physically adjacent (last -> first included)\n"
                                  : "NOT fully physically adjacent (Method A enumerates in plain cuboid order)\n");
  if (breaks) std::printf("  %lld ring neighbour pairs are more than one hop apart\n", static_cast<long long>(breaks));
  write_outputs(o, system, p, &layout.coord_of_rank, &layout.logical_of_rank, box);
}

void run_map_job(MapOptions o, bool nodes_given) {
  if (o.method != "grid" && o.method != "cuboid")
    throw util::UsageError("unknown --method '" + o.method + "' (grid or cuboid)");
  if (o.format != "csv" && o.format != "fugaku-rankmap")
    throw util::UsageError("unknown --format '" + o.format + "' (csv or fugaku-rankmap)");
  if (!o.link_csv.empty() && o.simulate.empty()) throw util::UsageError("--link-csv needs --simulate");
  const SystemSpec system = o.shape.empty() ? system_preset(o.system) : parse_shape(o.shape);
  long long capacity = 1;
  for (const auto& a : system.axes) capacity *= a.size;
  const bool cuboid = o.method == "cuboid" || !o.cuboid.empty();
  o.nodes_given = nodes_given;
  if (!o.axes.empty() && cuboid) throw util::UsageError("--axes belongs to --method grid");
  long long nodes = o.nodes;
  if (!nodes_given && !(cuboid && !o.cuboid.empty())) {
    const auto g = parse_grid(o.grid);
    nodes = g ? g->size() : capacity;
  }
  if (cuboid)
    run_cuboid(o, system, nodes);
  else
    run_grid(o, system, nodes);
  std::fflush(stdout);
}

}  // namespace g500::map
