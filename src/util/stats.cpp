#include "util/stats.hpp"

#include <algorithm>
#include <cmath>

namespace g500::util {

Statistics compute_statistics(const std::vector<double>& values) {
  Statistics s;
  const size_t n = values.size();
  if (n == 0) return s;
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(n);
  double squares = 0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.stddev = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0.0;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.firstquartile = (sorted[(n - 1) / 4] + sorted[n / 4]) * 0.5;
  s.median = (sorted[(n - 1) / 2] + sorted[n / 2]) * 0.5;
  s.thirdquartile = (sorted[n - 1 - (n - 1) / 4] + sorted[n - 1 - n / 4]) * 0.5;
  s.max = sorted.back();
  return s;
}

TepsStatistics compute_teps_statistics(const std::vector<double>& times, const std::vector<double>& nedges) {
  std::vector<double> secs_per_edge(times.size());
  for (size_t i = 0; i < times.size(); ++i) secs_per_edge[i] = times[i] / nedges[i];
  Statistics s = compute_statistics(secs_per_edge);
  TepsStatistics t;
  if (times.empty()) return t;
  t.min = 1.0 / s.max;
  t.firstquartile = 1.0 / s.thirdquartile;
  t.median = 1.0 / s.median;
  t.thirdquartile = 1.0 / s.firstquartile;
  t.max = 1.0 / s.min;
  t.harmonic_mean = 1.0 / s.mean;
  const double n = static_cast<double>(times.size());
  t.harmonic_stddev = n > 1 ? s.stddev / (s.mean * s.mean * std::sqrt(n - 1)) : 0.0;
  return t;
}

}  // namespace g500::util
