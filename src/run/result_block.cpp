#include "run/result_block.hpp"

#include <fmt/printf.h>

#include <string>

#include "util/stats.hpp"

namespace g500::run {
namespace {

// The reference's layout: keys left-aligned in 32 columns.
void line(FILE* out, const std::string& key, const std::string& value) {
  std::fprintf(out, "%-32s%s\n", key.c_str(), value.c_str());
}
std::string g(double v) { return fmt::sprintf("%g", v); }
std::string g11(double v) { return fmt::sprintf("%.11g", v); }

void statistics_lines(FILE* out, const std::string& prefix, const char* what, const util::Statistics& s,
                      std::string (*format)(double)) {
  const std::string suffix = std::string("_") + what + ":";
  line(out, prefix + "min" + suffix, format(s.min));
  line(out, prefix + "firstquartile" + suffix, format(s.firstquartile));
  line(out, prefix + "median" + suffix, format(s.median));
  line(out, prefix + "thirdquartile" + suffix, format(s.thirdquartile));
  line(out, prefix + "max" + suffix, format(s.max));
  line(out, prefix + "mean" + suffix, format(s.mean));
  line(out, prefix + "stddev" + suffix, format(s.stddev));
}

void teps_lines(FILE* out, const std::string& k, const util::TepsStatistics& teps) {
  line(out, k + "min_TEPS:", g(teps.min));
  line(out, k + "firstquartile_TEPS:", g(teps.firstquartile));
  line(out, k + "median_TEPS:", g(teps.median));
  line(out, k + "thirdquartile_TEPS:", g(teps.thirdquartile));
  line(out, k + "max_TEPS:", g(teps.max));
  std::fprintf(out, "%-29s!  %s\n", (k + "harmonic_mean_TEPS:").c_str(), g(teps.harmonic_mean).c_str());
  line(out, k + "harmonic_stddev_TEPS:", g(teps.harmonic_stddev));
}

}  // namespace

void print_reference_result_block(FILE* out, const ResultBlockInput& in) {
  // A kernel that did not run prints zeros (default statistics).
  const KernelSeries& ran = in.bfs ? *in.bfs : *in.sssp;
  auto times = [](const std::optional<KernelSeries>& k) {
    return k ? util::compute_statistics(k->times) : util::Statistics{};
  };
  auto teps = [](const std::optional<KernelSeries>& k) {
    return k ? util::compute_teps_statistics(k->times, k->nedges) : util::TepsStatistics{};
  };
  auto validate = [](const std::optional<KernelSeries>& k) {
    return k ? util::compute_statistics(k->validate_times) : util::Statistics{};
  };
  line(out, "SCALE:", std::to_string(in.scale));
  line(out, "edgefactor:", std::to_string(in.edgefactor));
  line(out, "NBFS:", std::to_string(ran.times.size()));
  line(out, "graph_generation:", g(in.generation_seconds));
  line(out, "num_mpi_processes:", std::to_string(in.ranks));
  line(out, "construction_time:", g(in.construction_seconds));
  statistics_lines(out, "bfs  ", "time", times(in.bfs), g);
  statistics_lines(out, "sssp ", "time", times(in.sssp), g);
  // One set of edge counts, as the reference prints (the same roots give both kernels the same).
  statistics_lines(out, "", "nedge", util::compute_statistics(ran.nedges), g11);
  teps_lines(out, "bfs  ", teps(in.bfs));
  teps_lines(out, "sssp ", teps(in.sssp));
  statistics_lines(out, "bfs  ", "validate", validate(in.bfs), g);
  statistics_lines(out, "sssp ", "validate", validate(in.sssp), g);
}

void print_phase_table(FILE* out, const char* kernel_name, const util::PhaseProfile& total, size_t runs,
                       const std::string& extra_title, const std::vector<std::string>& extra) {
  const double sum = total.total();
  std::fprintf(out, "\n%s time per phase (mean over ranks, summed over %zu %s runs)%s:\n", kernel_name, runs,
               kernel_name, extra_title.c_str());
  for (size_t p = 0; p < total.seconds.size(); ++p) {
    const double share = sum > 0 ? 100.0 * total.seconds[p] / sum : 0.0;
    const std::string tail = p < extra.size() && !extra[p].empty() ? "  " + extra[p] : "";
    std::fprintf(out, "  %-12s %10.4f s  %5.1f %%%s\n", util::phase_name(static_cast<util::Phase>(p)), total.seconds[p],
                 share, tail.c_str());
  }
}

}  // namespace g500::run
