// The parts of the JSON report that the BFS (kernel 2) and SSSP (kernel 3) share, with the keys of
// the reference result block; each kernel adds its own options and per-root fields.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "run/result_block.hpp"
#include "run/run_setup.hpp"
#include "util/phase_profile.hpp"

namespace g500::run {

// "config": SCALE, edge factor, ranks, grid, threads, seeds, roots.
nlohmann::json run_config_json(const RunConfig& config, const RunSummary& result);

// Seconds per phase name.
nlohmann::json phase_seconds_json(const util::PhaseProfile& profile);

// A root's fields common to both kernels (root, time, nedge, TEPS, reached, validation, profile).
template <class Root>
nlohmann::json root_json(const Root& r) {
  return {{"root", r.root},
          {"time_s", r.seconds},
          {"nedge", r.nedge},
          {"teps", r.teps},
          {"reached", r.reached},
          {"validated", r.validated},
          {"validate_time_s", r.validate_seconds},
          {"profile", phase_seconds_json(r.profile)}};
}

// "summary": the reference statistics over the roots, and N as kernel 1 computed it
// (nvertices_computed); the time, TEPS and validation keys carry
// `prefix` ("" for the BFS, "sssp_" for SSSP), as the text block's lines carry theirs.
nlohmann::json summary_json(const RunConfig& config, const RunSummary& result, const RootSeries& series,
                            const std::string& prefix);

// "profile": seconds and share of the total per phase, summed over the roots.
nlohmann::json profile_json(const util::PhaseProfile& total);

}  // namespace g500::run
