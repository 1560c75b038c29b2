#include "sssp/report.hpp"

#include <fmt/printf.h>

#include "util/stats.hpp"

namespace g500 {
namespace {

struct Series {
  std::vector<double> times, nedges, validate_times;
};

Series collect(const SsspBenchmarkResult& result) {
  Series s;
  for (const auto& r : result.roots) {
    s.times.push_back(r.seconds);
    s.nedges.push_back(static_cast<double>(r.nedge));
    s.validate_times.push_back(r.validate_seconds);
  }
  return s;
}

comm::PhaseProfile total_profile(const SsspBenchmarkResult& result) {
  comm::PhaseProfile total;
  for (const auto& r : result.roots) total += r.profile;
  return total;
}

// The reference's layout: "%-32s" keys ("sssp " prefixed, as its kernel 3 lines are).
void line(FILE* out, const char* key, const std::string& value) { std::fprintf(out, "%-32s%s\n", key, value.c_str()); }
std::string g(double v) { return fmt::sprintf("%g", v); }
std::string g11(double v) { return fmt::sprintf("%.11g", v); }

}  // namespace

void print_sssp_result_block(FILE* out, const SsspConfig& config, const SsspBenchmarkResult& result) {
  const Series s = collect(result);
  line(out, "SCALE:", std::to_string(config.spec.scale));
  line(out, "edgefactor:", std::to_string(config.spec.edgefactor));
  line(out, "NBFS:", std::to_string(result.roots.size()));
  line(out, "graph_generation:", g(result.generation_seconds));
  line(out, "num_mpi_processes:", std::to_string(result.ranks));
  line(out, "construction_time:", g(result.construction_seconds));
  const Statistics t = compute_statistics(s.times);
  line(out, "sssp min_time:", g(t.min));
  line(out, "sssp firstquartile_time:", g(t.firstquartile));
  line(out, "sssp median_time:", g(t.median));
  line(out, "sssp thirdquartile_time:", g(t.thirdquartile));
  line(out, "sssp max_time:", g(t.max));
  line(out, "sssp mean_time:", g(t.mean));
  line(out, "sssp stddev_time:", g(t.stddev));
  const Statistics n = compute_statistics(s.nedges);
  line(out, "min_nedge:", g11(n.min));
  line(out, "firstquartile_nedge:", g11(n.firstquartile));
  line(out, "median_nedge:", g11(n.median));
  line(out, "thirdquartile_nedge:", g11(n.thirdquartile));
  line(out, "max_nedge:", g11(n.max));
  line(out, "mean_nedge:", g11(n.mean));
  line(out, "stddev_nedge:", g11(n.stddev));
  const TepsStatistics teps = compute_teps_statistics(s.times, s.nedges);
  line(out, "sssp min_TEPS:", g(teps.min));
  line(out, "sssp firstquartile_TEPS:", g(teps.firstquartile));
  line(out, "sssp median_TEPS:", g(teps.median));
  line(out, "sssp thirdquartile_TEPS:", g(teps.thirdquartile));
  line(out, "sssp max_TEPS:", g(teps.max));
  std::fprintf(out, "%-29s!  %s\n", "sssp harmonic_mean_TEPS:", g(teps.harmonic_mean).c_str());
  line(out, "sssp harmonic_stddev_TEPS:", g(teps.harmonic_stddev));
  const Statistics v = compute_statistics(s.validate_times);
  line(out, "sssp min_validate:", g(v.min));
  line(out, "sssp firstquartile_validate:", g(v.firstquartile));
  line(out, "sssp median_validate:", g(v.median));
  line(out, "sssp thirdquartile_validate:", g(v.thirdquartile));
  line(out, "sssp max_validate:", g(v.max));
  line(out, "sssp mean_validate:", g(v.mean));
  line(out, "sssp stddev_validate:", g(v.stddev));
}

void print_sssp_phase_profile(FILE* out, const SsspBenchmarkResult& result) {
  const comm::PhaseProfile total = total_profile(result);
  const double sum = total.total();
  std::fprintf(out, "\nSSSP time per phase (mean over ranks, summed over %zu SSSP runs):\n", result.roots.size());
  for (size_t p = 0; p < total.seconds.size(); ++p) {
    const double share = sum > 0 ? 100.0 * total.seconds[p] / sum : 0.0;
    std::fprintf(out, "  %-12s %10.4f s  %5.1f %%\n", comm::phase_name(static_cast<comm::Phase>(p)), total.seconds[p], share);
  }
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
  const Series s = collect(result);
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
  const comm::PhaseProfile total = total_profile(result);
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
