#include "run/result_json.hpp"

#include "util/stats.hpp"

namespace g500::run {

using nlohmann::json;

json run_config_json(const RunConfig& config, const RunSummary& result) {
  return {{"scale", config.spec.scale},
          {"edgefactor", config.spec.edgefactor},
          {"ranks", result.ranks},
          {"grid", {{"rows", result.grid_rows}, {"cols", result.grid_cols}}},
          {"threads", result.threads},
          {"node", {{"ranks", result.node_ranks}, {"cores", result.node_cores}}},
          {"seeds", {config.spec.seed1, config.spec.seed2}},
          {"nroots", config.nroots},
          {"nroots_run", result.nroots_run}};
}

json phase_seconds_json(const util::PhaseProfile& profile) {
  json j;
  for (size_t p = 0; p < profile.seconds.size(); ++p)
    j[util::phase_name(static_cast<util::Phase>(p))] = profile.seconds[p];
  return j;
}

namespace {
void add_statistics(json& j, const std::string& prefix, const std::string& what, const util::Statistics& s) {
  j[prefix + "min_" + what] = s.min;
  j[prefix + "firstquartile_" + what] = s.firstquartile;
  j[prefix + "median_" + what] = s.median;
  j[prefix + "thirdquartile_" + what] = s.thirdquartile;
  j[prefix + "max_" + what] = s.max;
  j[prefix + "mean_" + what] = s.mean;
  j[prefix + "stddev_" + what] = s.stddev;
}
}  // namespace

json summary_json(const RunConfig& config, const RunSummary& result, const RootSeries& series,
                  const std::string& prefix) {
  json j = {{"SCALE", config.spec.scale},
            {"edgefactor", config.spec.edgefactor},
            {"NBFS", series.times.size()},
            {"graph_generation", result.generation_seconds},
            {"num_mpi_processes", result.ranks},
            {"construction_time", result.construction_seconds},
            {"nvertices_computed", result.nvertices_computed},
            {"input_edges", result.input_edges},  // m, the edges kernel 1 read (bytes per input edge)
            {"validation_passed", !result.validation_failed}};
  add_statistics(j, prefix, "time", util::compute_statistics(series.times));
  add_statistics(j, "", "nedge", util::compute_statistics(series.nedges));
  add_statistics(j, prefix, "validate", util::compute_statistics(series.validate_times));
  const util::TepsStatistics teps = util::compute_teps_statistics(series.times, series.nedges);
  j[prefix + "min_TEPS"] = teps.min;
  j[prefix + "firstquartile_TEPS"] = teps.firstquartile;
  j[prefix + "median_TEPS"] = teps.median;
  j[prefix + "thirdquartile_TEPS"] = teps.thirdquartile;
  j[prefix + "max_TEPS"] = teps.max;
  j[prefix + "harmonic_mean_TEPS"] = teps.harmonic_mean;
  j[prefix + "harmonic_stddev_TEPS"] = teps.harmonic_stddev;
  return j;
}

json profile_json(const util::PhaseProfile& total) {
  json j;
  for (size_t p = 0; p < total.seconds.size(); ++p) {
    const double share = total.total() > 0 ? total.seconds[p] / total.total() : 0.0;
    j[util::phase_name(static_cast<util::Phase>(p))] = {{"seconds", total.seconds[p]}, {"share", share}};
  }
  return j;
}

}  // namespace g500::run
