// 2D process-grid mapping onto a mesh/torus (Nakao et al. 2021, section 5.6, Fig. 11; Nakao et al. 2020, section 5.6).
#include "topo/grid_mapping.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "topo/allocation.hpp"
#include "topo/snake_order.hpp"
#include "util/error.hpp"

namespace g500::topo {

namespace {
constexpr int kTwoNodeAxis = 2;
constexpr size_t kMaxPermutedAxes = 6;  // 720 orders; longer axis lists only try rotations

std::vector<int> sizes_of(const Topology& box, const std::vector<int>& axes) {
  std::vector<int> s;
  for (int d : axes) s.push_back(box.axes()[d].size);
  return s;
}

int64_t product(const std::vector<int>& v) {
  int64_t p = 1;
  for (int x : v) p *= x;
  return p;
}

// Node coordinate for snake position `index` along `axes` written into `c`.
void place_along(const Topology& box, const std::vector<int>& axes, int64_t index, Coord& c) {
  auto digits = snake_digits(index, sizes_of(box, axes));
  for (size_t k = 0; k < axes.size(); ++k) c[axes[k]] = digits[k];
}

int hop_diameter(const Topology& box) {
  int diameter = 0;
  for (const auto& a : box.axes()) diameter += a.torus ? a.size / 2 : a.size - 1;
  return diameter;
}
}  // namespace

RingConditions ring_conditions(const Topology& box, const std::vector<int>& axes) {
  RingConditions rc;
  auto sizes = sizes_of(box, axes);
  const int64_t members = product(sizes);
  if (members <= 2) return RingConditions{true, true, true};
  int64_t vertical = members / sizes.front();
  rc.vertical_even = vertical % 2 == 0;
  const Axis& last = box.axes()[axes.back()];
  rc.last_axis_closes = last.torus || last.size == kTwoNodeAxis;
  Coord first(box.ndims(), 0), final_c(box.ndims(), 0);
  place_along(box, axes, 0, first);
  place_along(box, axes, members - 1, final_c);
  rc.closes = box.adjacent(first, final_c);
  return rc;
}

std::optional<std::vector<int>> closing_order(const Topology& box, const std::vector<int>& axes) {
  if (axes.empty() || ring_conditions(box, axes).closes) return axes;
  std::vector<int> order = axes;
  if (order.size() > kMaxPermutedAxes) {
    for (size_t k = 1; k < order.size(); ++k) {
      std::rotate(order.begin(), order.begin() + 1, order.end());
      if (ring_conditions(box, order).closes) return order;
    }
    return std::nullopt;
  }
  std::sort(order.begin(), order.end());
  do {
    if (ring_conditions(box, order).closes) return order;
  } while (std::next_permutation(order.begin(), order.end()));
  return std::nullopt;
}

int64_t count_ring_breaks(const Topology& box, const Placement& p) {
  int64_t breaks = 0;
  if (p.cols < 2) return 0;
  for (int row = 0; row < p.rows; ++row)
    for (int col = 0; col < p.cols; ++col) {
      if (p.cols == 2 && col == 1) continue;  // a 2-member ring has a single pair
      auto a = box.coord(p.node_of_rank[p.rank_of(row, col)]);
      auto b = box.coord(p.node_of_rank[p.rank_of(row, (col + 1) % p.cols)]);
      if (!box.adjacent(a, b)) ++breaks;
    }
  return breaks;
}

std::string axes_label(const Topology& box, const std::vector<int>& axes) {
  std::string s;
  for (int d : axes) s += box.axes()[d].name;
  return s.empty() ? "no axis" : s;
}

GridMapping map_grid(const Topology& box, const std::vector<int>& extents, std::vector<int> row_axes,
                     std::vector<int> col_axes) {
  GridMapping m;
  m.extents = extents;
  if (auto order = closing_order(box, col_axes)) {
    m.col_axes_reordered = *order != col_axes;
    col_axes = *order;
  }
  m.row_axes = row_axes;
  m.col_axes = col_axes;
  const int64_t rows = product(sizes_of(box, row_axes)), cols = product(sizes_of(box, col_axes));
  m.placement.rows = static_cast<int>(rows);
  m.placement.cols = static_cast<int>(cols);
  m.placement.node_of_rank.resize(rows * cols);
  Coord c(box.ndims(), 0);
  for (int64_t row = 0; row < rows; ++row) {
    place_along(box, row_axes, row, c);
    for (int64_t col = 0; col < cols; ++col) {
      place_along(box, col_axes, col, c);
      m.placement.node_of_rank[row * cols + col] = box.node_id(c);
    }
  }
  m.ring_adjacent = count_ring_breaks(box, m.placement) == 0;
  return m;
}

namespace {
// The order in which candidate mappings compare (lower is better): grid aspect, whether the
// column rings close, whether the box fills a Tofu unit, hop diameter, box extents, and the
// inverted column-axis mask.
using MappingKey = std::tuple<double, int, int, int, std::vector<int>, unsigned>;

// Checks --nodes and --grid against the system before any box is tried.
void check_grid_request(const SystemSpec& system, const GridRequest& request) {
  long long capacity = 1;
  for (const auto& a : system.axes) capacity *= a.size;
  if (request.nodes < 1) throw util::UsageError("--nodes must be at least 1");
  if (request.nodes > capacity)
    throw util::UsageError("--nodes " + std::to_string(request.nodes) + " exceeds the system (" +
                           describe_axes(system.axes) + " has " + std::to_string(capacity) + " nodes)");
  if (request.grid && static_cast<long long>(request.grid->rows) * request.grid->cols != request.nodes)
    throw util::UsageError("--grid " + std::to_string(request.grid->rows) + "x" + std::to_string(request.grid->cols) +
                           " does not match --nodes " + std::to_string(request.nodes));
}

// The axes a box spans more than one node of: only these are dealt to rows and columns.
std::vector<int> used_axes(const Topology& box, const std::vector<int>& ext) {
  std::vector<int> used;
  for (int d = 0; d < box.ndims(); ++d)
    if (ext[d] > 1) used.push_back(d);
  return used;
}

// Whether a Tofu box uses its a, b, c axes fully (one whole Tofu unit per XYZ position).
bool fills_tofu_unit(bool tofu, const std::vector<int>& ext) {
  const std::vector<int> full_unit{0, 0, 0, 2, 3, 2};  // a, b, c fully used (Tofu unit)
  constexpr size_t kFirstUnitAxis = 3;                 // X, Y, Z come first
  bool unit = tofu;
  for (size_t d = kFirstUnitAxis; tofu && d < full_unit.size(); ++d) unit = unit && ext[d] == full_unit[d];
  return unit;
}

// Scores every split of one box's used axes into row and column axes that gives the requested
// grid (or, without one, at least as many rows as columns); keeps the best so far in `best`.
void score_box_splits(const SystemSpec& system, const GridRequest& request, const std::vector<int>& ext,
                      std::optional<MappingKey>& best, std::vector<int>& best_box) {
  Topology box = box_topology(system, ext);
  const std::vector<int> used = used_axes(box, ext);
  const bool unit = fills_tofu_unit(system.has_tofu_axes(), ext);
  for (unsigned mask = 0; mask < (1u << used.size()); ++mask) {
    std::vector<int> rows, cols;
    int64_t r = 1, c = 1;
    for (size_t k = 0; k < used.size(); ++k) {
      if (mask & (1u << k)) {
        cols.push_back(used[k]);
        c *= ext[used[k]];
      } else {
        rows.push_back(used[k]);
        r *= ext[used[k]];
      }
    }
    if (request.grid) {
      if (r != request.grid->rows || c != request.grid->cols) continue;
    } else if (r < c) {
      continue;
    }
    const bool closes = closing_order(box, cols).has_value();
    MappingKey key{std::fabs(std::log(static_cast<double>(r) / c)),
                   closes ? 0 : 1,
                   unit ? 0 : 1,
                   hop_diameter(box),
                   ext,
                   ~mask};  // ties: C takes the later axes (XY x Zabc)
    if (!best || key < *best) {
      best = key;
      best_box = ext;
    }
  }
}
}  // namespace

GridMapping choose_grid_mapping(const SystemSpec& system, const GridRequest& request) {
  check_grid_request(system, request);
  auto boxes = boxes_with_nodes(system, request.nodes);
  if (boxes.empty())
    throw util::UsageError("no box of " + describe_axes(system.axes) + " holds exactly " +
                           std::to_string(request.nodes) + " nodes (every axis extent must divide it)");
  std::optional<MappingKey> best;
  std::vector<int> best_box;
  for (const auto& ext : boxes) score_box_splits(system, request, ext, best, best_box);
  if (!best)
    throw util::UsageError("--grid " + std::to_string(request.grid->rows) + "x" + std::to_string(request.grid->cols) +
                           " cannot be formed from whole axes of any " + std::to_string(request.nodes) +
                           "-node box of " + describe_axes(system.axes) + " (try --method cuboid or another --grid)");
  Topology box = box_topology(system, best_box);
  std::vector<int> rows, cols;
  const std::vector<int> used = used_axes(box, best_box);
  const unsigned mask = ~std::get<5>(*best);
  for (size_t k = 0; k < used.size(); ++k) (mask & (1u << k) ? cols : rows).push_back(used[k]);
  return map_grid(box, best_box, rows, cols);
}

GridMapping map_named_axes(const SystemSpec& system, const std::string& split) {
  const std::string help = " (expected ROW/COL axis names, e.g. XY/Zabc or d0,d1/d2)";
  const auto slash = split.find('/');
  if (slash == std::string::npos || split.find('/', slash + 1) != std::string::npos)
    throw util::UsageError("bad --axes '" + split + "'" + help);
  std::vector<int> extents(system.axes.size(), 1);
  auto parse_side = [&](const std::string& side) {
    std::vector<std::string> names;
    if (side.find(',') != std::string::npos) {
      size_t start = 0;
      while (start <= side.size()) {
        size_t end = side.find(',', start);
        if (end == std::string::npos) end = side.size();
        names.push_back(side.substr(start, end - start));
        start = end + 1;
      }
    } else if (std::any_of(system.axes.begin(), system.axes.end(), [&](const Axis& a) { return a.name == side; })) {
      names.push_back(side);
    } else {
      for (char ch : side) names.emplace_back(1, ch);
    }
    std::vector<int> axes;
    for (const auto& name : names) {
      int found = -1;
      for (size_t d = 0; d < system.axes.size(); ++d)
        if (system.axes[d].name == name) found = static_cast<int>(d);
      if (found < 0) throw util::UsageError("unknown axis '" + name + "' in --axes '" + split + "'" + help);
      if (extents[found] != 1 || system.axes[found].size == 1)
        throw util::UsageError("axis '" + name + "' used twice or of size 1 in --axes '" + split + "'");
      extents[found] = system.axes[found].size;
      axes.push_back(found);
    }
    return axes;
  };
  auto rows = parse_side(split.substr(0, slash));
  auto cols = parse_side(split.substr(slash + 1));
  return map_grid(box_topology(system, extents), extents, rows, cols);
}

GridMapping scheduler_2d_mapping(const SystemSpec& system, const std::vector<int>& extents) {
  if (!system.has_tofu_axes())
    throw util::UsageError("the scheduler's 2D job shape YZc x Xab needs a system with axes X,Y,Z,a,b,c");
  Topology box = box_topology(system, extents);
  enum { X, Y, Z, A, B, C };
  std::vector<int> rows, cols;
  for (int d : {Y, Z, C})
    if (extents[d] > 1) rows.push_back(d);
  for (int d : {X, A, B})
    if (extents[d] > 1) cols.push_back(d);
  return map_grid(box, extents, rows, cols);
}

Placement plain_rank_order(const Topology& box, int rows, int cols) {
  Placement p;
  p.rows = rows;
  p.cols = cols;
  p.node_of_rank.resize(static_cast<size_t>(std::min<int64_t>(box.node_count(), int64_t{rows} * cols)));
  for (size_t r = 0; r < p.node_of_rank.size(); ++r) p.node_of_rank[r] = static_cast<int64_t>(r);
  return p;
}

}  // namespace g500::topo
