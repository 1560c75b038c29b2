#include "sssp/report.hpp"

#include <fmt/printf.h>

#include <algorithm>

#include "run/result_block.hpp"
#include "run/result_json.hpp"
#include "util/stats.hpp"

namespace g500::sssp {

void print_sssp_result_block(FILE* out, const SsspConfig& config, const SsspBenchmarkResult& result) {
  run::ResultBlockInput in = run::result_block_input(config, result);
  in.sssp = run::kernel_series(result.roots);
  run::print_reference_result_block(out, in);
}

void print_sssp_phase_profile(FILE* out, const SsspBenchmarkResult& result) {
  run::print_phase_table(out, "SSSP", run::collect_root_series(result.roots).total, result.roots.size());
  // The search's own steps (rank 0's clock), which say where the calculation above goes.
  double light = 0, push = 0, pull = 0, parents = 0, total = 0;
  int64_t light_relaxations = 0, pulled = 0, relaxations = 0;
  for (const SsspRootResult& r : result.roots) {
    light += r.light_seconds;
    push += r.push_seconds;
    pull += r.pull_seconds;
    parents += r.parents_seconds;
    total += r.seconds;
    light_relaxations += r.light_relaxations;
    pulled += r.pull_scans;
    relaxations += r.relaxations;
  }
  if (total <= 0) return;
  std::fprintf(out, "SSSP steps (rank 0, summed over %zu SSSP runs; relaxed or scanned edges in millions):\n",
               result.roots.size());
  auto row = [&](const char* name, double seconds, double edges) {
    std::fprintf(out, "  %-16s %8.4f s %6.1f %%", name, seconds, 100.0 * seconds / total);
    if (edges >= 0) std::fprintf(out, " %10.2f M", edges / 1e6);
    std::fprintf(out, "\n");
  };
  row("light phases", light, static_cast<double>(light_relaxations));
  row("push heavy", push, static_cast<double>(relaxations - light_relaxations - pulled));
  row("pull heavy", pull, static_cast<double>(pulled));
  row("parents, output", parents, -1);
  row("other (buckets)", std::max(0.0, total - light - push - pull - parents), -1);
}

void print_dijkstra_comparison(FILE* out, const SsspBenchmarkResult& result) {
  if (result.dijkstra_roots == 0) return;
  std::fprintf(out, "\nSerial Dijkstra on rank 0 over the first %d roots (same graph, same run):\n",
               result.dijkstra_roots);
  std::fprintf(out, "  dijkstra harmonic_mean_TEPS:   %g\n", result.dijkstra_harmonic_teps);
  std::fprintf(out, "  sssp harmonic_mean_TEPS:       %g (same roots)\n", result.sssp_harmonic_teps_same_roots);
  std::fprintf(out, "  speed-up over Dijkstra:        %.2f\n", result.dijkstra_speedup);
  std::fprintf(out, "  distances agree with Dijkstra: %s\n", result.dijkstra_agrees ? "yes" : "NO");
}

nlohmann::json sssp_result_json(const SsspConfig& config, const SsspBenchmarkResult& result) {
  using nlohmann::json;
  json j;
  j["config"] = run::run_config_json(config, result);
  j["config"]["kernel"] = "sssp";
  j["config"]["options"] = {{"validate", config.validate},
                            {"delta", result.delta},
                            {"sub_buckets", config.sssp.sub_buckets},
                            {"reorder", config.graph.reorder},
                            {"parent_notes", config.sssp.parent_notes},
                            {"pull_factor", config.sssp.pull_factor},
                            {"compare_dijkstra", config.compare_dijkstra},
                            {"rankmap", config.rankmap_path}};
  if (result.delta_raised_from > 0) j["config"]["options"]["delta_asked"] = result.delta_raised_from;
  // Kernel 1 built the column index, and the pulls scan the column set (grids with more columns).
  j["config"]["options"]["column_pull"] =
      config.graph.column_index && j["config"]["grid"]["cols"].get<int>() > j["config"]["grid"]["rows"].get<int>();
  json roots = json::array();
  for (const auto& r : result.roots) {
    json one = run::root_json(r);
    one["sum_dist"] = r.sum_dist;
    one["max_dist"] = r.max_dist;
    one["buckets"] = r.buckets;
    one["phases"] = r.phases;
    one["pull_phases"] = r.pull_phases;
    one["relaxations"] = r.relaxations;
    one["relaxations_light"] = r.light_relaxations;
    one["relaxations_pull"] = r.pull_scans;
    one["improvements"] = r.improvements;
    one["steps_s"] = {
        {"light", r.light_seconds}, {"push", r.push_seconds}, {"pull", r.pull_seconds}, {"parents", r.parents_seconds}};
    if (r.dijkstra_seconds >= 0) {
      one["dijkstra_time_s"] = r.dijkstra_seconds;
      one["dijkstra_agrees"] = r.dijkstra_agrees;
    }
    roots.push_back(one);
  }
  j["roots"] = roots;
  const run::RootSeries series = run::collect_root_series(result.roots);
  j["summary"] = run::summary_json(config, result, series, "sssp_");
  if (result.dijkstra_roots > 0)
    j["dijkstra"] = {{"roots", result.dijkstra_roots},
                     {"dijkstra_harmonic_mean_TEPS", result.dijkstra_harmonic_teps},
                     {"sssp_harmonic_mean_TEPS", result.sssp_harmonic_teps_same_roots},
                     {"speedup", result.dijkstra_speedup},
                     {"agrees", result.dijkstra_agrees}};
  j["profile"] = run::profile_json(series.total);
  if (result.energy_loop.ran) j["energy"] = run::energy_loop_json(result.energy_loop);
  j["memory"] = {{"graph_bytes_max_rank", result.graph_bytes_max_rank},
                 {"peak_rss_bytes_max_rank", result.peak_rss_bytes_max_rank},
                 {"estimated_bytes_max_rank", result.estimated_bytes_max_rank}};
  return j;
}

}  // namespace g500::sssp
