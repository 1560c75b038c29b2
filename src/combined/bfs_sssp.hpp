// The combined Graph500 run, as the reference's graph500_reference_bfs_sssp does it: one kernel 1
// that builds the BFS's graph and the SSSP's weighted graph from the same input (both inside its
// timed region), then the BFS (kernel 2) from every root and the SSSP (kernel 3) from the same
// roots, each search validated, and one result block with the `bfs` and `sssp` lines in the
// reference's order. `g500 bfs --sssp` runs it: the BFS job with the SSSP as its companion.
#pragma once
#include <memory>

#include "bfs/driver.hpp"
#include "sssp/benchmark.hpp"

namespace g500::combined {

// The SSSP half of a combined run; its configuration follows the BFS's (graph, seeds, roots,
// grid, threads, validation, progress), with the SSSP's default search options.
class SsspCompanion : public bfs::BfsJobCompanion {
 public:
  explicit SsspCompanion(const bfs::BenchmarkConfig& bfs_config);
  ~SsspCompanion() override;

  void check_declared(const io::DeclaredSize& size, const comm::Communicator& world) override;
  bfs::BenchmarkConfig::SecondKernel start(const bfs::BenchmarkConfig& config,
                                           const comm::Communicator& world) override;
  void finish(const run::RunSummary& run) override;
  std::string header() const override;
  void add_series(run::ResultBlockInput& block) const override;
  void print_report(FILE* out) const override;
  std::string validation_error() const override;
  void add_json(nlohmann::json& j) const override;

 private:
  sssp::SsspConfig config_;
  sssp::SsspBenchmarkResult result_;
  std::unique_ptr<sssp::SsspPart> part_;
};

}  // namespace g500::combined
