// `g500 map --simulate`: link loads of plain rank order, the scheduler's 2D shape and the 6D
// mapping (Nakao et al. 2021, section 5.6), printed as a table; --link-csv writes per-link loads.
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
#include "util/output_file.hpp"
#include "util/progress.hpp"

namespace g500::map {

using namespace g500::topo;
using namespace g500::io;

namespace {

void write_link_csv(const std::string& path, const Topology& box, const std::vector<ComparisonRow>& rows) {
  std::string text = "layout,pattern,node,axis,direction";
  for (const auto& a : box.axes()) text += "," + a.name;
  text += ",bytes\n";
  for (const auto& row : rows)
    for (int64_t l = 0; l < static_cast<int64_t>(row.report.link_bytes.size()); ++l) {
      if (!link_exists(box, l)) continue;
      const int64_t node = l / (2 * box.ndims());
      const int axis = static_cast<int>((l / 2) % box.ndims());
      text += row.layout + "," + pattern_name(row.pattern) + "," + std::to_string(node) + "," + box.axes()[axis].name +
              "," + (l % 2 == 0 ? "+" : "-");
      for (int v : box.coord(node)) {
        text += ',';
        text += std::to_string(v);
      }
      char buf[40];
      std::snprintf(buf, sizeof buf, ",%.6g\n", row.report.link_bytes[l]);
      text += buf;
    }
  util::write_whole_file(path, text);
}

// The patterns --simulate names: all, bfs (the three of a BFS step) or a comma list.
std::vector<Pattern> patterns_of(const std::string& simulate) {
  std::vector<Pattern> patterns;
  if (simulate == "all")
    patterns = all_patterns();
  else if (simulate == "bfs")
    patterns = {Pattern::ColAllgatherv, Pattern::RowAlltoallv, Pattern::RowRing};
  else {
    size_t start = 0;
    while (start <= simulate.size()) {
      size_t end = simulate.find(',', start);
      if (end == std::string::npos) end = simulate.size();
      patterns.push_back(parse_pattern(simulate.substr(start, end - start)));
      start = end + 1;
    }
  }
  return patterns;
}

// Refuses boxes too large to simulate, or to draw with --link-csv.
void check_box_size(const MapOptions& o, const Topology& box) {
  if (box.node_count() > kMaxSimulatedNodes)
    throw util::UsageError("--simulate supports at most " + std::to_string(kMaxSimulatedNodes) + " nodes");
  if (!o.link_csv.empty() && box.node_count() > kMaxLinkCsvNodes)
    throw util::UsageError("--link-csv supports at most " + std::to_string(kMaxLinkCsvNodes) +
                           " nodes (choose a smaller --nodes or --shape for the picture)");
}

// The table of loads, one line per layout and pattern; returns whether any pattern was sampled.
bool print_load_table(const std::vector<ComparisonRow>& rows) {
  std::printf("%-12s %-9s %-15s %14s %9s %12s %12s %9s %8s %11s\n", "layout", "grid", "pattern", "messages", "sampled",
              "max_link_MB", "mean_link_MB", "mean_hops", "max_hops", "est_ms/step");
  bool sampled = false;
  for (const auto& r : rows) {
    std::string s = r.report.sampled_sources ? std::to_string(r.report.sampled_sources) : "-";
    sampled = sampled || r.report.sampled_sources;
    std::printf("%-12s %-9s %-15s %14lld %9s %12.3f %12.3f %9.2f %8d %11.3f\n", r.layout.c_str(), r.grid.c_str(),
                pattern_name(r.pattern).c_str(), static_cast<long long>(r.report.messages), s.c_str(),
                r.report.max_link_bytes / kMega, r.report.mean_link_bytes / kMega, r.report.mean_hops,
                r.report.max_hops, r.report.estimated_seconds / kMilli);
  }
  return sampled;
}

// One bottom-up BFS step communicates with all three BFS patterns (Nakao et al. 2021, Table 3,
// Algorithm 6): its estimate per layout that was simulated with all three.
void print_bfs_steps(const std::vector<Layout>& layouts, const std::vector<ComparisonRow>& rows) {
  constexpr int kBfsStepPatterns = 3;
  for (const auto& l : layouts) {
    double step = 0;
    int found = 0;
    for (const auto& r : rows)
      if (r.layout == l.name && (r.pattern == Pattern::ColAllgatherv || r.pattern == Pattern::RowAlltoallv ||
                                 r.pattern == Pattern::RowRing)) {
        step += r.report.estimated_seconds;
        ++found;
      }
    if (found == kBfsStepPatterns)
      std::printf("bfs step (col-allgatherv + row-alltoallv + C row-ring sub-steps) %-12s %10.3f ms\n", l.name.c_str(),
                  step / kMilli);
  }
}

}  // namespace

void run_simulation(const MapOptions& o, const SystemSpec& system, const GridMapping& m) {
  std::vector<Pattern> patterns = patterns_of(o.simulate);
  LinkParameters link{o.bandwidth_gbs * kGiga, o.latency_us * kMicro, o.message_bytes};
  SimulationBudget budget;
  budget.max_routes = o.max_routes;
  budget.max_routes_alltoall = o.max_routes_alltoall;
  Topology box = box_topology(system, m.extents);
  check_box_size(o, box);
  auto layouts = comparison_layouts(system, m);
  auto t0 = std::chrono::steady_clock::now();
  util::Progress progress(o.show_progress, "link-load simulation",
                          static_cast<int64_t>(layouts.size() * patterns.size()));
  auto rows = compare_layouts(box, layouts, patterns, link, budget, !o.link_csv.empty(),
                              [&progress](int64_t done, int64_t) { progress.update(done); });
  progress.finish();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "\nlink-load simulation: %lld nodes, %.0f-byte messages, %.2f GB/s per link, %.2f us latency,"
      " dimension-order routing (axis order %s)\n",
      static_cast<long long>(box.node_count()), link.message_bytes, link.bandwidth / kGiga, link.latency / kMicro,
      describe_axes(box.axes()).c_str());
  for (const auto& l : layouts)
    std::printf("  %-12s %-14s %dx%d, row ring %s\n", l.name.c_str(), l.axes.c_str(), l.placement.rows,
                l.placement.cols, l.ring_adjacent ? "adjacent" : "not adjacent");
  const bool sampled = print_load_table(rows);
  print_bfs_steps(layouts, rows);
  std::printf(
      "block %.0f bytes per rank; per message: col-allgatherv block, row-alltoallv block/(C-1),"
      " row-ring block/2 per direction with C sub-steps per step, alltoall and bcast block\n",
      link.message_bytes);
  if (sampled)
    std::printf(
        "sampled: a pattern over its route budget (%lld, alltoall %lld) routes a fixed-seed random sample"
        " of source ranks exactly and scales the loads ('sampled' = number of sources; max is then"
        " an over-estimate)\n",
        o.max_routes, o.max_routes_alltoall);
  std::printf("simulation time %.1f s\n", seconds);
  if (!o.link_csv.empty()) {
    write_link_csv(o.link_csv, box, rows);
    std::printf("wrote per-link loads to %s\n", o.link_csv.c_str());
  }
}

}  // namespace g500::map
