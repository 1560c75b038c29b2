// Output of an SSSP benchmark run: the reference 3.0 result block with its `sssp` fields and
// statistics, the per-phase profile, the Dijkstra comparison, and the JSON report (--json).
#pragma once
#include <cstdio>
#include <nlohmann/json.hpp>

#include "sssp/benchmark.hpp"

namespace g500::sssp {

void print_sssp_result_block(FILE* out, const SsspConfig& config, const SsspBenchmarkResult& result);
void print_sssp_phase_profile(FILE* out, const SsspBenchmarkResult& result);
void print_dijkstra_comparison(FILE* out, const SsspBenchmarkResult& result);
nlohmann::json sssp_result_json(const SsspConfig& config, const SsspBenchmarkResult& result);

}  // namespace g500::sssp
