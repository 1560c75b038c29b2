// `g500 bfs` without its option parsing: one validated BFS benchmark run (kernels 1 and 2) on a
// generated graph or an edge-list file, its printed report, JSON and per-vertex result files.
#pragma once
#include <string>

#include "bfs/benchmark.hpp"
#include "run/file_input.hpp"

namespace g500 {

struct BfsJob {
  BenchmarkConfig config;
  FileInputRequest input;        // no path: the Kronecker graph of config.spec
  std::string json_path;         // --json
  std::string parents_path;      // --output-parents (first root)
  std::string depths_path;       // --output-depths (first root)
  bool force = false;            // run even when the memory estimate exceeds the node's memory
};

// Collective. Prints the report on rank 0's stdout and writes the named files; returns the
// process exit status: 0, or 1 when a BFS result failed validation (message on stderr).
int run_bfs_job(BfsJob& job);

}  // namespace g500
