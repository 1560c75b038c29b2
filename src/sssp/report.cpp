#include "sssp/report.hpp"

#include <fmt/printf.h>

#include "util/result_block.hpp"
#include "util/result_json.hpp"
#include "util/stats.hpp"

namespace g500 {

void print_sssp_result_block(FILE* out, const SsspConfig& config, const SsspBenchmarkResult& result) {
  print_reference_result_block(out, "sssp ", result_block_input(config, result));
}

void print_sssp_phase_profile(FILE* out, const SsspBenchmarkResult& result) {
  print_phase_table(out, "SSSP", collect_root_series(result.roots).total, result.roots.size());
}

void print_dijkstra_comparison(FILE* out, const SsspBenchmarkResult& result) {
  if (result.dijkstra_roots == 0) return;
  std::fprintf(out, "\nSerial Dijkstra on rank 0 over the first %d roots (same graph, same run):\n", result.dijkstra_roots);
  std::fprintf(out, "  dijkstra harmonic_mean_TEPS:   %g\n", result.dijkstra_harmonic_teps);
  std::fprintf(out, "  sssp harmonic_mean_TEPS:       %g (same roots)\n", result.sssp_harmonic_teps_same_roots);
  std::fprintf(out, "  speed-up over Dijkstra:        %.2f\n", result.dijkstra_speedup);
  std::fprintf(out, "  distances agree with Dijkstra: %s\n", result.dijkstra_agrees ? "yes" : "NO");
}

nlohmann::json sssp_result_json(const SsspConfig& config, const SsspBenchmarkResult& result) {
  using nlohmann::json;
  json j;
  j["config"] = run_config_json(config, result);
  j["config"]["kernel"] = "sssp";
  j["config"]["options"] = {{"validate", config.validate},
                            {"delta", config.sssp.delta},
                            {"sub_buckets", config.sssp.sub_buckets},
                            {"pull_factor", config.sssp.pull_factor},
                            {"compare_dijkstra", config.compare_dijkstra},
                            {"rankmap", config.rankmap_path}};
  json roots = json::array();
  for (const auto& r : result.roots) {
    json one = root_json(r);
    one["sum_dist"] = r.sum_dist;
    one["max_dist"] = r.max_dist;
    one["buckets"] = r.buckets;
    one["phases"] = r.phases;
    one["pull_phases"] = r.pull_phases;
    one["relaxations"] = r.relaxations;
    one["relaxations_light"] = r.light_relaxations;
    one["relaxations_pull"] = r.pull_scans;
    one["improvements"] = r.improvements;
    one["steps_s"] = {{"light", r.light_seconds},
                      {"push", r.push_seconds},
                      {"pull", r.pull_seconds},
                      {"parents", r.parents_seconds}};
    if (r.dijkstra_seconds >= 0) {
      one["dijkstra_time_s"] = r.dijkstra_seconds;
      one["dijkstra_agrees"] = r.dijkstra_agrees;
    }
    roots.push_back(one);
  }
  j["roots"] = roots;
  const RootSeries series = collect_root_series(result.roots);
  j["summary"] = summary_json(config, result, series, "sssp_");
  if (result.dijkstra_roots > 0)
    j["dijkstra"] = {{"roots", result.dijkstra_roots},
                     {"dijkstra_harmonic_mean_TEPS", result.dijkstra_harmonic_teps},
                     {"sssp_harmonic_mean_TEPS", result.sssp_harmonic_teps_same_roots},
                     {"speedup", result.dijkstra_speedup},
                     {"agrees", result.dijkstra_agrees}};
  j["profile"] = profile_json(series.total);
  j["memory"] = {{"graph_bytes_max_rank", result.graph_bytes_max_rank},
                 {"peak_rss_bytes_max_rank", result.peak_rss_bytes_max_rank}};
  return j;
}

}  // namespace g500
