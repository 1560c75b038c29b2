// The bytes sent per phase in the `g500 bfs` report and its JSON, beside Nakao et al. 2021,
// Table 3 (docs/volumes.md).
#pragma once
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bfs/benchmark.hpp"

namespace g500::bfs {

// The mean over the roots of their volumes.
BfsVolumes mean_volumes(const std::vector<RootResult>& roots);

// For the phase table: per phase, "TOTAL = TOP-DOWN top-down + BOTTOM-UP bottom-up" (empty for
// the phases that send nothing), and the title's addition.
std::vector<std::string> phase_bytes_column(const BfsVolumes& mean);
std::string phase_bytes_title();

// The measured bytes per direction and pattern beside Table 3's, and Table 3 as printed.
void print_table3_comparison(FILE* out, const comm::table3::Model& model, const BfsVolumes& mean, size_t runs);

// JSON: a root's "bytes_sent" and "table3_bytes" (per direction and pattern) and s_b; a level's
// (--trace); and the run's "volumes" (the model's inputs, means over the roots, Table 3 as printed).
void add_root_volumes(nlohmann::json& root, const BfsVolumes& volumes);
void add_level_volumes(nlohmann::json& level, const RootResult& root, size_t index, const comm::table3::Model& model);
nlohmann::json volumes_json(const comm::table3::Model& model, const BfsVolumes& mean);

}  // namespace g500::bfs
