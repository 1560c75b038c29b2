// Output of a benchmark run: the result block with the reference 3.0 field names and formulas,
// the per-phase profile table, and the JSON report (--json).
#pragma once
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "bfs/benchmark.hpp"
#include "run/result_block.hpp"

namespace g500::bfs {

// The result block's input of a BFS run (the BFS's series; a combined run adds the SSSP's).
run::ResultBlockInput bfs_result_block_input(const BenchmarkConfig& config, const BenchmarkResult& result);
void print_phase_profile(FILE* out, const BenchmarkResult& result);
// Graph memory per array on the largest rank, with what plain CSR would need (Nakao et al. 2021, Table 2).
void print_graph_memory(FILE* out, const BenchmarkResult& result);
nlohmann::json result_json(const BenchmarkConfig& config, const BenchmarkResult& result);

}  // namespace g500::bfs
