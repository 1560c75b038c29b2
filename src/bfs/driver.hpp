// `g500 bfs` without its option parsing: one validated BFS benchmark run (kernels 1 and 2) on a
// generated graph or an edge-list file, its printed report, JSON and per-vertex result files.
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>

#include "bfs/benchmark.hpp"
#include "run/file_input.hpp"
#include "run/result_block.hpp"

namespace g500::bfs {

struct BfsJob {
  BenchmarkConfig config;
  run::FileInputRequest input;  // no path: the Kronecker graph of config.spec
  std::string json_path;        // --json
  std::string parents_path;     // --output-parents (first root)
  std::string depths_path;      // --output-depths (first root)
};

// What a second kernel adds to a `g500 bfs` job: the combined BFS + SSSP run (combined/) gives
// its memory check, its kernel (run_bfs_benchmark's SecondKernel), its series in the result
// block, its report and its JSON.
class BfsJobCompanion {
 public:
  virtual ~BfsJobCompanion() = default;
  // Collective, before a file's edges are read: refuses sizes this kernel could not run.
  virtual void check_declared(const io::DeclaredSize& size, const comm::Communicator& world) = 0;
  // Collective, once the input is there (config.input set): the kernel run_bfs_benchmark runs.
  virtual BenchmarkConfig::SecondKernel start(const BenchmarkConfig& config, const comm::Communicator& world) = 0;
  // Collective, after the run: the run's shared figures (grid, kernel 1's times, memory).
  virtual void finish(const run::RunSummary& run) = 0;
  // Rank 0, after the run: the header line, the result block's series, the report after the
  // BFS's; "" or why its results are invalid.
  virtual std::string header() const = 0;
  virtual void add_series(run::ResultBlockInput& block) const = 0;
  virtual void print_report(FILE* out) const = 0;
  virtual std::string validation_error() const = 0;
  // Its part of the JSON report.
  virtual void add_json(nlohmann::json& j) const = 0;
};

// Collective over `comm`, the run's ranks (cli/ passes the world's). Prints the report on rank
// 0's stdout and writes the named files; returns the process exit status: 0, or 1 when a result
// failed validation (message on stderr). With a companion, its kernel runs beside the BFS on the
// same graph input and roots.
int run_bfs_job(BfsJob& job, MPI_Comm comm, BfsJobCompanion* companion = nullptr);

}  // namespace g500::bfs
