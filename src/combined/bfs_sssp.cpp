#include "combined/bfs_sssp.hpp"

#include <fmt/format.h>

#include "run/energy_loop.hpp"
#include "sssp/report.hpp"

namespace g500::combined {

SsspCompanion::SsspCompanion(const bfs::BenchmarkConfig& bfs_config) {
  static_cast<run::RunConfig&>(config_) = bfs_config;
  config_.graph.reorder = bfs_config.graph.reorder;  // --disable reorder: both graphs
}

SsspCompanion::~SsspCompanion() = default;

void SsspCompanion::check_declared(const io::DeclaredSize& size, const comm::Communicator& world) {
  sssp::check_declared_sssp_input(config_, size, world);
}

bfs::BenchmarkConfig::SecondKernel SsspCompanion::start(const bfs::BenchmarkConfig& config,
                                                        const comm::Communicator& world) {
  config_.input = config.input;
  part_ = std::make_unique<sssp::SsspPart>(config_, world, result_);
  return bfs::BenchmarkConfig::SecondKernel{
      [this](const graph::Distribution& probe) { return part_->bytes_per_rank(probe); },
      [this](const graph::ProcessGrid& grid) { part_->build(grid); },
      [this](const graph::ProcessGrid& grid, const run::RunRoots& roots) { part_->run_roots(grid, roots); }};
}

void SsspCompanion::finish(const run::RunSummary& run) {
  const bool failed = result_.validation_failed;
  const std::string error = result_.validation_error;
  const size_t sssp_graph_bytes = result_.graph_bytes_max_rank;
  const double sssp_generation = result_.generation_seconds;
  static_cast<run::RunSummary&>(result_) = run;  // one kernel 1, one grid, one memory peak
  result_.graph_bytes_max_rank = sssp_graph_bytes;
  result_.generation_seconds += sssp_generation;  // both graphs' edges were generated in kernel 1
  result_.validation_failed = failed;
  result_.validation_error = error;
}

std::string SsspCompanion::header() const {
  std::string line;
  if (result_.delta_raised_from > 0)
    line += fmt::format(
        "# delta raised from {:g} to {:g}: with weights up to {:g}, a smaller width would give distances "
        "more buckets than the search can number\n",
        result_.delta_raised_from, result_.delta, result_.delta_max_weight);
  return line +
         fmt::format(
             "# with SSSP (kernel 3) from the same roots: delta {:g}, weighted graph {:.1f} MiB on the largest rank",
             result_.delta, static_cast<double>(result_.graph_bytes_max_rank) / (1024.0 * 1024.0));
}

void SsspCompanion::add_series(run::ResultBlockInput& block) const {
  block.sssp = run::kernel_series(result_.roots);
  block.generation_seconds = result_.generation_seconds;
}

void SsspCompanion::print_report(FILE* out) const {
  sssp::print_sssp_phase_profile(out, result_);
  if (result_.energy_loop.ran) run::print_energy_loop(out, result_.energy_loop);
}

std::string SsspCompanion::validation_error() const {
  return result_.validation_failed ? result_.validation_error : "";
}

void SsspCompanion::add_json(nlohmann::json& j) const {
  nlohmann::json sssp = sssp::sssp_result_json(config_, result_);
  for (auto& [key, value] : sssp["summary"].items())
    if (key.rfind("sssp_", 0) == 0) j["summary"][key] = value;
  j["config"]["kernel"] = "bfs+sssp";
  j["summary"]["graph_generation"] = result_.generation_seconds;
  j["sssp"] = {{"options", sssp["config"]["options"]},
               {"roots", sssp["roots"]},
               {"profile", sssp["profile"]},
               {"graph_bytes_max_rank", result_.graph_bytes_max_rank}};
  if (sssp.contains("energy")) j["sssp"]["energy"] = sssp["energy"];
}

}  // namespace g500::combined
