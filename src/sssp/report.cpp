#include "sssp/report.hpp"

#include <fmt/printf.h>

#include "util/result_block.hpp"
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
  j["config"] = {{"kernel", "sssp"},
                 {"scale", config.spec.scale},
                 {"edgefactor", config.spec.edgefactor},
                 {"ranks", result.ranks},
                 {"grid", {{"rows", result.grid_rows}, {"cols", result.grid_cols}}},
                 {"threads", result.threads},
                 {"seeds", {config.spec.seed1, config.spec.seed2}},
                 {"nroots", config.nroots},
                 {"options", {{"validate", config.validate}, {"delta", config.sssp.delta}, {"pull_factor", config.sssp.pull_factor}, {"compare_dijkstra", config.compare_dijkstra}}}};
  json roots = json::array();
  for (const auto& r : result.roots) {
    json one = {{"root", r.root},
                {"time_s", r.seconds},
                {"nedge", r.nedge},
                {"teps", r.teps},
                {"reached", r.reached},
                {"sum_dist", r.sum_dist},
                {"max_dist", r.max_dist},
                {"buckets", r.buckets},
                {"phases", r.phases},
                {"pull_phases", r.pull_phases},
                {"relaxations", r.relaxations},
                {"validated", r.validated},
                {"validate_time_s", r.validate_seconds}};
    json profile;
    for (size_t p = 0; p < r.profile.seconds.size(); ++p)
      profile[comm::phase_name(static_cast<comm::Phase>(p))] = r.profile.seconds[p];
    one["profile"] = profile;
    if (r.dijkstra_seconds >= 0) {
      one["dijkstra_time_s"] = r.dijkstra_seconds;
      one["dijkstra_agrees"] = r.dijkstra_agrees;
    }
    roots.push_back(one);
  }
  j["roots"] = roots;
  const RootSeries s = collect_root_series(result.roots);
  const Statistics t = compute_statistics(s.times), n = compute_statistics(s.nedges), v = compute_statistics(s.validate_times);
  const TepsStatistics teps = compute_teps_statistics(s.times, s.nedges);
  j["summary"] = {{"SCALE", config.spec.scale},
                  {"edgefactor", config.spec.edgefactor},
                  {"NBFS", result.roots.size()},
                  {"graph_generation", result.generation_seconds},
                  {"num_mpi_processes", result.ranks},
                  {"construction_time", result.construction_seconds},
                  {"sssp_min_time", t.min},
                  {"sssp_firstquartile_time", t.firstquartile},
                  {"sssp_median_time", t.median},
                  {"sssp_thirdquartile_time", t.thirdquartile},
                  {"sssp_max_time", t.max},
                  {"sssp_mean_time", t.mean},
                  {"sssp_stddev_time", t.stddev},
                  {"min_nedge", n.min},
                  {"firstquartile_nedge", n.firstquartile},
                  {"median_nedge", n.median},
                  {"thirdquartile_nedge", n.thirdquartile},
                  {"max_nedge", n.max},
                  {"mean_nedge", n.mean},
                  {"stddev_nedge", n.stddev},
                  {"sssp_min_TEPS", teps.min},
                  {"sssp_firstquartile_TEPS", teps.firstquartile},
                  {"sssp_median_TEPS", teps.median},
                  {"sssp_thirdquartile_TEPS", teps.thirdquartile},
                  {"sssp_max_TEPS", teps.max},
                  {"sssp_harmonic_mean_TEPS", teps.harmonic_mean},
                  {"sssp_harmonic_stddev_TEPS", teps.harmonic_stddev},
                  {"sssp_min_validate", v.min},
                  {"sssp_firstquartile_validate", v.firstquartile},
                  {"sssp_median_validate", v.median},
                  {"sssp_thirdquartile_validate", v.thirdquartile},
                  {"sssp_max_validate", v.max},
                  {"sssp_mean_validate", v.mean},
                  {"sssp_stddev_validate", v.stddev},
                  {"validation_passed", !result.validation_failed}};
  if (result.dijkstra_roots > 0)
    j["dijkstra"] = {{"roots", result.dijkstra_roots},
                     {"dijkstra_harmonic_mean_TEPS", result.dijkstra_harmonic_teps},
                     {"sssp_harmonic_mean_TEPS", result.sssp_harmonic_teps_same_roots},
                     {"speedup", result.dijkstra_speedup},
                     {"agrees", result.dijkstra_agrees}};
  const comm::PhaseProfile total = collect_root_series(result.roots).total;
  json profile;
  for (size_t p = 0; p < total.seconds.size(); ++p) {
    const double share = total.total() > 0 ? total.seconds[p] / total.total() : 0.0;
    profile[comm::phase_name(static_cast<comm::Phase>(p))] = {{"seconds", total.seconds[p]}, {"share", share}};
  }
  j["profile"] = profile;
  j["memory"] = {{"graph_bytes_max_rank", result.graph_bytes_max_rank},
                 {"peak_rss_bytes_max_rank", result.peak_rss_bytes_max_rank}};
  return j;
}

}  // namespace g500
