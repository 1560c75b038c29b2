// `g500 sssp` without its option parsing: one validated SSSP benchmark run (kernels 1 and 3) on a
// generated weighted graph or an edge-list file, its printed report, JSON and per-vertex files.
#pragma once
#include <mpi.h>

#include <string>

#include "run/file_input.hpp"
#include "sssp/benchmark.hpp"

namespace g500::sssp {

struct SsspJob {
  SsspConfig config;
  run::FileInputRequest input;  // no path: the Kronecker graph of config.spec
  std::string json_path;        // --json
  std::string distances_path;   // --output-distances (first root)
  std::string parents_path;     // --output-parents (first root)
};

// Collective over `comm`, the run's ranks (cli/ passes the world's). Prints the report on rank
// 0's stdout and writes the named files; returns the process exit status: 0, or 1 when a result
// failed validation or disagreed with Dijkstra.
int run_sssp_job(SsspJob& job, MPI_Comm comm);

}  // namespace g500::sssp
