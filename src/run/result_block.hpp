// The Graph500 reference 3.0 result block, shared by the BFS (kernel 2) and SSSP (kernel 3)
// reports: same field names, formulas and layout; the kernel's lines carry its prefix
// ("bfs  " or "sssp ") as in the reference.
#pragma once
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "util/phase_profile.hpp"

namespace g500 {

struct ResultBlockInput {
  int scale = 0;
  int edgefactor = 0;
  int ranks = 0;
  double generation_seconds = 0;
  double construction_seconds = 0;
  std::vector<double> times, nedges, validate_times;  // one entry per root
};

// The per-root series and the summed phase profile of a kernel's results (the BFS's and the
// SSSP's per-root results both carry seconds, nedge, validate_seconds and profile).
struct RootSeries {
  std::vector<double> times, nedges, validate_times;
  comm::PhaseProfile total;
};

template <class Roots>
RootSeries collect_root_series(const Roots& roots) {
  RootSeries s;
  for (const auto& r : roots) {
    s.times.push_back(r.seconds);
    s.nedges.push_back(static_cast<double>(r.nedge));
    s.validate_times.push_back(r.validate_seconds);
    s.total += r.profile;
  }
  return s;
}

// The result block's input from a kernel's configuration and result.
template <class Config, class Result>
ResultBlockInput result_block_input(const Config& config, const Result& result) {
  RootSeries s = collect_root_series(result.roots);
  ResultBlockInput in;
  in.scale = config.spec.scale;
  in.edgefactor = config.spec.edgefactor;
  in.ranks = result.ranks;
  in.generation_seconds = result.generation_seconds;
  in.construction_seconds = result.construction_seconds;
  in.times = std::move(s.times);
  in.nedges = std::move(s.nedges);
  in.validate_times = std::move(s.validate_times);
  return in;
}

void print_reference_result_block(FILE* out, const char* kernel_prefix, const ResultBlockInput& input);
// Time per phase summed over the runs, with shares (Nakao et al. 2021, Figs. 8 and 12). When
// `extra` is given (one string per phase), each phase's line ends with its string and the title
// with `extra_title`.
void print_phase_table(FILE* out, const char* kernel_name, const comm::PhaseProfile& total, size_t runs,
                       const std::string& extra_title = "", const std::vector<std::string>& extra = {});

}  // namespace g500
