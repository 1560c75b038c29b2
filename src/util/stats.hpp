// Order statistics exactly as the Graph500 reference 3.0 computes them for its result block
// (quartiles as the mean of the two middle candidates, sample standard deviation with n-1).
#pragma once
#include <vector>

namespace g500::util {

struct Statistics {
  double min = 0, firstquartile = 0, median = 0, thirdquartile = 0, max = 0, mean = 0, stddev = 0;
};

Statistics compute_statistics(const std::vector<double>& values);

// TEPS statistics the reference way: statistics of seconds-per-edge, inverted; the harmonic mean
// of TEPS is 1 / mean(seconds per edge), its standard error by Norris (1940).
struct TepsStatistics {
  double min = 0, firstquartile = 0, median = 0, thirdquartile = 0, max = 0;
  double harmonic_mean = 0, harmonic_stddev = 0;
};

TepsStatistics compute_teps_statistics(const std::vector<double>& times, const std::vector<double>& nedges);

}  // namespace g500::util
