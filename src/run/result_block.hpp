// The Graph500 reference 3.0 result block, shared by the BFS (kernel 2), the SSSP (kernel 3) and
// the combined run: the reference's field names, formulas and layout, in the order its
// bfs_sssp build prints them; a kernel's lines carry its prefix ("bfs  " or "sssp "). A run of
// one kernel prints the other kernel's time, TEPS and validation lines as zeros, as the
// specification allows ("the TEPS fields ... can be set to zero if only one kernel was run").
#pragma once
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "util/phase_profile.hpp"

namespace g500::run {

// One kernel's per-root series.
struct KernelSeries {
  std::vector<double> times, nedges, validate_times;  // one entry per root
};

struct ResultBlockInput {
  int scale = 0;
  int edgefactor = 0;
  int ranks = 0;
  double generation_seconds = 0;
  double construction_seconds = 0;
  std::optional<KernelSeries> bfs, sssp;  // the kernels run (at least one)
};

// The per-root series and the summed phase profile of a kernel's results (the BFS's and the
// SSSP's per-root results both carry seconds, nedge, validate_seconds and profile).
struct RootSeries {
  std::vector<double> times, nedges, validate_times;
  util::PhaseProfile total;
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

// A kernel's series from its results.
template <class Roots>
KernelSeries kernel_series(const Roots& roots) {
  RootSeries s = collect_root_series(roots);
  return KernelSeries{std::move(s.times), std::move(s.nedges), std::move(s.validate_times)};
}

// The result block's input from a run's configuration and summary (no kernel yet).
template <class Config, class Summary>
ResultBlockInput result_block_input(const Config& config, const Summary& result) {
  ResultBlockInput in;
  in.scale = config.spec.scale;
  in.edgefactor = config.spec.edgefactor;
  in.ranks = result.ranks;
  in.generation_seconds = result.generation_seconds;
  in.construction_seconds = result.construction_seconds;
  return in;
}

void print_reference_result_block(FILE* out, const ResultBlockInput& input);
// Time per phase summed over the runs, with shares (Nakao et al. 2021, Figs. 8 and 12). When
// `extra` is given (one string per phase), each phase's line ends with its string and the title
// with `extra_title`.
void print_phase_table(FILE* out, const char* kernel_name, const util::PhaseProfile& total, size_t runs,
                       const std::string& extra_title = "", const std::vector<std::string>& extra = {});

}  // namespace g500::run
