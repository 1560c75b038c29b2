// g500 map: topology-aware process mapping for 6D mesh/torus networks (issue #5; 001 section 5.6,
// 000 section 5.6, 003 section 4.2). Rank 0 does the work; errors reach every rank via agree.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <optional>
#include <random>
#include <string>

#include "cli/subcommand.hpp"
#include "topo/allocation.hpp"
#include "topo/cuboid_mapping.hpp"
#include "topo/grid_mapping.hpp"
#include "topo/layout_comparison.hpp"
#include "topo/logical3d.hpp"
#include "topo/rankmap_file.hpp"
#include "topo/systems.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"

namespace g500::cli {
namespace {

using namespace g500::topo;

constexpr double kGiga = 1e9, kMicro = 1e-6, kMega = 1e6, kMilli = 1e-3;
// Simulation memory grows with the links (12 per Tofu node, per thread); 2^21 nodes is 13x Fugaku.
constexpr long long kMaxSimulatedNodes = 1LL << 21;
// --link-csv writes one line per link and pattern: keep it to picture-sized shapes.
constexpr long long kMaxLinkCsvNodes = 50'000;

struct MapOptions {
  std::string system = "fugaku";
  std::string shape;
  long long nodes = 0;
  std::string grid;
  std::string axes;
  bool nodes_given = false;
  std::string method = "grid";
  std::string cuboid;
  std::string output;
  std::string format = "csv";
  std::string simulate;
  std::string link_csv;
  double message_bytes = LinkParameters{}.message_bytes;
  double bandwidth_gbs = LinkParameters::kFugakuLinkBandwidth / kGiga;
  double latency_us = LinkParameters::kFugakuLatency / kMicro;
  long long max_routes = SimulationBudget::kDefaultMaxRoutes;
  long long max_routes_alltoall = SimulationBudget::kDefaultMaxRoutesAlltoall;
  std::optional<unsigned long long> shuffle_seed;
};

std::optional<std::pair<int, int>> parse_grid(const std::string& text) {
  if (text.empty()) return std::nullopt;
  auto x = text.find('x');
  auto digits_only = [](const std::string& s) {
    return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (x == std::string::npos || !digits_only(text.substr(0, x)) || !digits_only(text.substr(x + 1)))
    throw UsageError("bad --grid '" + text + "' (expected RxC, e.g. 552x288)");
  int r = std::stoi(text.substr(0, x)), c = std::stoi(text.substr(x + 1));
  if (r < 1 || c < 1) throw UsageError("--grid sides must be at least 1");
  return std::make_pair(r, c);
}

std::pair<int, int> closest_factor_pair(long long n) {  // R >= C, R/C closest to 1 (001 5.2)
  int c = static_cast<int>(std::sqrt(static_cast<double>(n)));
  while (c > 1 && n % c != 0) --c;
  return {static_cast<int>(n / c), c};
}

std::string ratio_text(int r, int c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(r) / c);
  return buf;
}

void print_ring(const Topology& box, const GridMapping& m) {
  const int cols = m.placement.cols;
  std::printf("row ring: C = %d members along %s: %s\n", cols, axes_label(box, m.col_axes).c_str(),
              m.ring_adjacent ? "fully physically adjacent (last -> first included)"
                              : "NOT fully physically adjacent");
  if (m.col_axes.size() == 1 && cols > 2) {
    const Axis& a = box.axes()[m.col_axes.front()];
    std::printf("  single axis %s: the wrap closes only on a torus (%s)\n", a.name.c_str(), a.torus ? "torus" : "mesh");
  } else if (m.col_axes.size() > 1 && cols > 2) {
    auto rc = ring_conditions(box, m.col_axes);
    std::vector<int> vertical(m.col_axes.begin() + 1, m.col_axes.end());
    std::printf("  000 conditions: vertical part %s even: %s; last axis %s torus or 2-node: %s%s\n",
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
      if (coords6) rows[r].coord.assign((*coords6)[e].begin(), (*coords6)[e].end());
      else rows[r].coord = box.coord(p.node_of_rank[e]);
    }
    write_rankmap_csv(o.output, axis_names(system.axes), rows);
  } else {
    std::vector<std::vector<int>> tuples(n);
    for (int64_t r = 0; r < n; ++r) {
      const int64_t e = entry_of[r];
      if (logical) tuples[r].assign((*logical)[e].begin(), (*logical)[e].end());
      else if (system.has_tofu_axes()) {
        auto c = box.coord(p.node_of_rank[e]);
        std::array<int, 6> c6{}, e6{};
        for (int d = 0; d < 6; ++d) { c6[d] = c[d]; e6[d] = box.axes()[d].size; }
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

void write_link_csv(const std::string& path, const Topology& box, const std::vector<ComparisonRow>& rows) {
  std::string text = "layout,pattern,node,axis,direction";
  for (const auto& a : box.axes()) text += "," + a.name;
  text += ",bytes\n";
  for (const auto& row : rows)
    for (int64_t l = 0; l < static_cast<int64_t>(row.report.link_bytes.size()); ++l) {
      if (!link_exists(box, l)) continue;
      const int64_t node = l / (2 * box.ndims());
      const int axis = static_cast<int>((l / 2) % box.ndims());
      text += row.layout + "," + pattern_name(row.pattern) + "," + std::to_string(node) + "," +
              box.axes()[axis].name + "," + (l % 2 == 0 ? "+" : "-");
      for (int v : box.coord(node)) {
        text += ',';
        text += std::to_string(v);
      }
      char buf[40];
      std::snprintf(buf, sizeof buf, ",%.6g\n", row.report.link_bytes[l]);
      text += buf;
    }
  write_file_atomically(path, text);
}

void run_simulation(const MapOptions& o, const SystemSpec& system, const GridMapping& m) {
  std::vector<Pattern> patterns;
  if (o.simulate == "all") patterns = all_patterns();
  else if (o.simulate == "bfs") patterns = {Pattern::ColAllgatherv, Pattern::RowAlltoallv, Pattern::RowRing};
  else {
    size_t start = 0;
    while (start <= o.simulate.size()) {
      size_t end = o.simulate.find(',', start);
      if (end == std::string::npos) end = o.simulate.size();
      patterns.push_back(parse_pattern(o.simulate.substr(start, end - start)));
      start = end + 1;
    }
  }
  LinkParameters link{o.bandwidth_gbs * kGiga, o.latency_us * kMicro, o.message_bytes};
  SimulationBudget budget;
  budget.max_routes = o.max_routes;
  budget.max_routes_alltoall = o.max_routes_alltoall;
  Topology box = box_topology(system, m.extents);
  if (box.node_count() > kMaxSimulatedNodes)
    throw UsageError("--simulate supports at most " + std::to_string(kMaxSimulatedNodes) + " nodes");
  if (!o.link_csv.empty() && box.node_count() > kMaxLinkCsvNodes)
    throw UsageError("--link-csv supports at most " + std::to_string(kMaxLinkCsvNodes) +
                     " nodes (choose a smaller --nodes or --shape for the picture)");
  auto layouts = comparison_layouts(system, m);
  auto t0 = std::chrono::steady_clock::now();
  auto rows = compare_layouts(box, layouts, patterns, link, budget, !o.link_csv.empty());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\nlink-load simulation: %lld nodes, %.0f-byte messages, %.2f GB/s per link, %.2f us latency,"
              " dimension-order routing (axis order %s)\n",
              static_cast<long long>(box.node_count()), link.message_bytes, link.bandwidth / kGiga,
              link.latency / kMicro, describe_axes(box.axes()).c_str());
  for (const auto& l : layouts)
    std::printf("  %-12s %-14s %dx%d, row ring %s\n", l.name.c_str(), l.axes.c_str(), l.placement.rows,
                l.placement.cols, l.ring_adjacent ? "adjacent" : "not adjacent");
  std::printf("%-12s %-9s %-15s %14s %9s %12s %12s %9s %8s %11s\n", "layout", "grid", "pattern", "messages",
              "sampled", "max_link_MB", "mean_link_MB", "mean_hops", "max_hops", "est_ms/step");
  bool sampled = false;
  for (const auto& r : rows) {
    std::string s = r.report.sampled_sources ? std::to_string(r.report.sampled_sources) : "-";
    sampled = sampled || r.report.sampled_sources;
    std::printf("%-12s %-9s %-15s %14lld %9s %12.3f %12.3f %9.2f %8d %11.3f\n", r.layout.c_str(), r.grid.c_str(),
                pattern_name(r.pattern).c_str(), static_cast<long long>(r.report.messages), s.c_str(),
                r.report.max_link_bytes / kMega, r.report.mean_link_bytes / kMega, r.report.mean_hops,
                r.report.max_hops, r.report.estimated_seconds / kMilli);
  }
  // One bottom-up BFS step communicates with all three BFS patterns (001 Table 3, Algorithm 6).
  for (const auto& l : layouts) {
    double step = 0;
    int found = 0;
    for (const auto& r : rows)
      if (r.layout == l.name && (r.pattern == Pattern::ColAllgatherv || r.pattern == Pattern::RowAlltoallv ||
                                 r.pattern == Pattern::RowRing)) {
        step += r.report.estimated_seconds;
        ++found;
      }
    if (found == 3)
      std::printf("bfs step (col-allgatherv + row-alltoallv + C row-ring sub-steps) %-12s %10.3f ms\n",
                  l.name.c_str(), step / kMilli);
  }
  std::printf("block %.0f bytes per rank; per message: col-allgatherv block, row-alltoallv block/(C-1),"
              " row-ring block/2 per direction with C sub-steps per step, alltoall and bcast block\n",
              link.message_bytes);
  if (sampled)
    std::printf("sampled: a pattern over its route budget (%lld, alltoall %lld) routes a fixed-seed random sample"
                " of source ranks exactly and scales the loads ('sampled' = number of sources; max is then"
                " an over-estimate)\n",
                o.max_routes, o.max_routes_alltoall);
  std::printf("simulation time %.1f s\n", seconds);
  if (!o.link_csv.empty()) {
    write_link_csv(o.link_csv, box, rows);
    std::printf("wrote per-link loads to %s\n", o.link_csv.c_str());
  }
}

void run_grid(const MapOptions& o, const SystemSpec& system, long long nodes) {
  GridMapping m;
  if (o.axes.empty()) {
    m = choose_grid_mapping(system, GridRequest{nodes, parse_grid(o.grid)});
  } else {
    m = map_named_axes(system, o.axes);
    nodes = static_cast<long long>(m.placement.rows) * m.placement.cols;
    if (o.nodes_given && o.nodes != nodes)
      throw UsageError("--axes " + o.axes + " spans " + std::to_string(nodes) + " nodes but --nodes is " +
                       std::to_string(o.nodes));
    if (auto g = parse_grid(o.grid); g && (g->first != m.placement.rows || g->second != m.placement.cols))
      throw UsageError("--grid " + o.grid + " does not match --axes " + o.axes + " (" +
                       std::to_string(m.placement.rows) + "x" + std::to_string(m.placement.cols) + ")");
  }
  Topology box = box_topology(system, m.extents);
  const int r = m.placement.rows, c = m.placement.cols;
  std::printf("system %s %s, nodes %lld, box %s\n", system.name.c_str(), describe_axes(system.axes).c_str(),
              nodes, describe_axes(box.axes()).c_str());
  std::printf("method grid (001 5.6): R = %d (%s), C = %d (%s), R/C = %s\n", r, axes_label(box, m.row_axes).c_str(),
              c, axes_label(box, m.col_axes).c_str(), ratio_text(r, c).c_str());
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
  if (!o.simulate.empty()) throw UsageError("--simulate compares grid layouts; use it with --method grid");
  if (!system.has_tofu_axes())
    throw UsageError("--method cuboid needs a system with axes X,Y,Z,a,b,c (fugaku or k)");
  CuboidSpec spec;
  std::pair<int, int> grid;
  if (!o.cuboid.empty()) {
    spec = parse_cuboid_spec(o.cuboid);
    validate_cuboid_spec(spec, system);
    if (spec.comms.size() != 2) throw UsageError("--cuboid for a 2D grid needs two communicators (row/column)");
    int sizes[2] = {1, 1};
    for (int k = 0; k < 2; ++k)
      for (const auto& f : spec.comms[k]) sizes[k] *= f.size;
    grid = {sizes[1], sizes[0]};
    if (nodes && static_cast<long long>(grid.first) * grid.second != nodes)
      throw UsageError("--cuboid " + o.cuboid + " has " + std::to_string(1LL * grid.first * grid.second) +
                       " ranks but --nodes is " + std::to_string(nodes));
    if (auto g = parse_grid(o.grid); g && *g != grid)
      throw UsageError("--grid " + o.grid + " does not match --cuboid " + o.cuboid);
  } else {
    long long capacity = 1;
    for (const auto& a : system.axes) capacity *= a.size;
    if (nodes > capacity)
      throw UsageError("--nodes " + std::to_string(nodes) + " exceeds the system (" + std::to_string(capacity) + " nodes)");
    auto g = parse_grid(o.grid);
    if (g && static_cast<long long>(g->first) * g->second != nodes)
      throw UsageError("--grid " + o.grid + " does not match --nodes " + std::to_string(nodes));
    grid = g ? *g : closest_factor_pair(nodes);
    spec = auto_cuboid_spec({grid.second, grid.first}, system);  // row group (C members) fastest
  }
  CuboidLayout layout = enumerate_cuboid(spec, system);
  const int r = grid.first, c = grid.second;
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
  std::printf("method cuboid (003 Method A): R = %d, C = %d, R/C = %s, row communicator (C) x column communicator (R)"
              " = %s, job shape %dx%dx%d\n",
              r, c, ratio_text(r, c).c_str(), format_cuboid_spec(spec).c_str(), layout.job_shape[0],
              layout.job_shape[1], layout.job_shape[2]);
  const auto breaks = count_ring_breaks(box, p);
  std::printf("row ring: %s", breaks == 0 ? "fully physically adjacent (last -> first included)\n"
                                          : "NOT fully physically adjacent (Method A enumerates in plain cuboid order)\n");
  if (breaks) std::printf("  %lld ring neighbour pairs are more than one hop apart\n", static_cast<long long>(breaks));
  write_outputs(o, system, p, &layout.coord_of_rank, &layout.logical_of_rank, box);
}

int run_map(int argc, char** argv) {
  CLI::App app{"Topology-aware process mapping onto a 6D mesh/torus (001 5.6, 003 Method A)", "g500 map"};
  MapOptions o;
  auto* system_opt = app.add_option("--system", o.system, "preset: fugaku (24,23,24,2,3,2) or k (24,18,16,2,3,2)");
  auto* shape_opt = app.add_option("--shape", o.shape, "custom shape, e.g. 2m,3t,2m or a=2m,b=3t,c=2m");
  system_opt->excludes(shape_opt);
  app.add_option("--nodes", o.nodes, "number of nodes (default: the whole system)");
  app.add_option("--grid", o.grid, "process grid RxC (default: R >= C, R/C closest to 1)");
  app.add_option("--axes", o.axes, "explicit axis split ROW/COL, e.g. XY/Zabc (grid method; snake in this order)");
  app.add_option("--method", o.method, "grid (001 5.6 axis split + snake) or cuboid (003 Method A)");
  app.add_option("--cuboid", o.cuboid, "explicit Method A factors, e.g. a2,Y4,c2/X8,Z8,b3 (implies --method cuboid)");
  app.add_option("--output", o.output, "write the rank map here");
  app.add_option("--format", o.format, "csv (rank,row,col,coordinates) or fugaku-rankmap (tuple per line)");
  app.add_option("--simulate", o.simulate, "link-load simulation: bfs, all, or a comma list of "
                 "col-allgatherv,row-alltoallv,row-ring,alltoall,bcast");
  app.add_option("--message-bytes", o.message_bytes, "bytes per message in the simulation");
  app.add_option("--bandwidth", o.bandwidth_gbs, "link bandwidth in GB/s (default 6.8, TofuD)");
  app.add_option("--latency", o.latency_us, "latency in microseconds (default 0.5)");
  app.add_option("--max-routes", o.max_routes, "route budget per pattern before source sampling");
  app.add_option("--max-routes-alltoall", o.max_routes_alltoall, "route budget for the global alltoall");
  app.add_option("--shuffle-ranks", o.shuffle_seed,
                 "permute which rank gets which grid cell/node (seed), for testing --rankmap consumers");
  app.add_option("--link-csv", o.link_csv, "write per-link loads of the simulation (for tools/plot_link_loads.py)");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) std::printf("%s", app.help().c_str());
    return 0;
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  std::string error;
  if (rank == 0) {
    try {
      if (o.method != "grid" && o.method != "cuboid")
        throw UsageError("unknown --method '" + o.method + "' (grid or cuboid)");
      if (o.format != "csv" && o.format != "fugaku-rankmap")
        throw UsageError("unknown --format '" + o.format + "' (csv or fugaku-rankmap)");
      if (!(o.message_bytes > 0) || !(o.bandwidth_gbs > 0) || !(o.latency_us >= 0) || o.max_routes < 1 ||
          o.max_routes_alltoall < 1)
        throw UsageError("--message-bytes, --bandwidth and --max-routes must be positive, --latency >= 0");
      if (!o.link_csv.empty() && o.simulate.empty()) throw UsageError("--link-csv needs --simulate");
      SystemSpec system = o.shape.empty() ? system_preset(o.system) : parse_shape(o.shape);
      long long capacity = 1;
      for (const auto& a : system.axes) capacity *= a.size;
      const bool cuboid = o.method == "cuboid" || !o.cuboid.empty();
      o.nodes_given = app.count("--nodes") > 0;
      if (!o.axes.empty() && cuboid) throw UsageError("--axes belongs to --method grid");
      long long nodes = o.nodes;
      if (app.count("--nodes") && nodes < 1) throw UsageError("--nodes must be at least 1");
      if (!app.count("--nodes") && !(cuboid && !o.cuboid.empty())) {
        auto g = parse_grid(o.grid);
        nodes = g ? static_cast<long long>(g->first) * g->second : capacity;
      }
      if (cuboid) run_cuboid(o, system, nodes);
      else run_grid(o, system, nodes);
      std::fflush(stdout);
    } catch (const UsageError& e) {
      error = e.what();
      if (error.empty()) error = "bad input";
    }
  }
  agree_or_throw(error);
  return 0;
}

const SubcommandRegistrar kRegisterMap("map", "topology-aware process mapping (6D mesh/torus) and link-load simulation",
                                       run_map);

}  // namespace
}  // namespace g500::cli
