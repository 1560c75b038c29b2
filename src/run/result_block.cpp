#include "run/result_block.hpp"

#include <fmt/printf.h>

#include <string>

#include "util/stats.hpp"

namespace g500 {
namespace {

// The reference's layout: keys left-aligned in 32 columns.
void line(FILE* out, const std::string& key, const std::string& value) {
  std::fprintf(out, "%-32s%s\n", key.c_str(), value.c_str());
}
std::string g(double v) { return fmt::sprintf("%g", v); }
std::string g11(double v) { return fmt::sprintf("%.11g", v); }

void statistics_lines(FILE* out, const std::string& prefix, const char* what, const Statistics& s,
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

}  // namespace

void print_reference_result_block(FILE* out, const char* kernel_prefix, const ResultBlockInput& in) {
  const std::string k = kernel_prefix;
  line(out, "SCALE:", std::to_string(in.scale));
  line(out, "edgefactor:", std::to_string(in.edgefactor));
  line(out, "NBFS:", std::to_string(in.times.size()));
  line(out, "graph_generation:", g(in.generation_seconds));
  line(out, "num_mpi_processes:", std::to_string(in.ranks));
  line(out, "construction_time:", g(in.construction_seconds));
  statistics_lines(out, k, "time", compute_statistics(in.times), g);
  statistics_lines(out, "", "nedge", compute_statistics(in.nedges), g11);
  const TepsStatistics teps = compute_teps_statistics(in.times, in.nedges);
  line(out, k + "min_TEPS:", g(teps.min));
  line(out, k + "firstquartile_TEPS:", g(teps.firstquartile));
  line(out, k + "median_TEPS:", g(teps.median));
  line(out, k + "thirdquartile_TEPS:", g(teps.thirdquartile));
  line(out, k + "max_TEPS:", g(teps.max));
  std::fprintf(out, "%-29s!  %s\n", (k + "harmonic_mean_TEPS:").c_str(), g(teps.harmonic_mean).c_str());
  line(out, k + "harmonic_stddev_TEPS:", g(teps.harmonic_stddev));
  statistics_lines(out, k, "validate", compute_statistics(in.validate_times), g);
}

void print_phase_table(FILE* out, const char* kernel_name, const comm::PhaseProfile& total, size_t runs,
                       const std::string& extra_title, const std::vector<std::string>& extra) {
  const double sum = total.total();
  std::fprintf(out, "\n%s time per phase (mean over ranks, summed over %zu %s runs)%s:\n", kernel_name, runs, kernel_name,
               extra_title.c_str());
  for (size_t p = 0; p < total.seconds.size(); ++p) {
    const double share = sum > 0 ? 100.0 * total.seconds[p] / sum : 0.0;
    const std::string tail = p < extra.size() && !extra[p].empty() ? "  " + extra[p] : "";
    std::fprintf(out, "  %-12s %10.4f s  %5.1f %%%s\n", comm::phase_name(static_cast<comm::Phase>(p)), total.seconds[p],
                 share, tail.c_str());
  }
}

}  // namespace g500
