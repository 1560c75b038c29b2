// Waiting for the slowest process (imbalance.hpp).
#include "model/imbalance.hpp"

#include <algorithm>
#include <cmath>

namespace g500::model {

namespace {
// Blom (1958): the expected i-th of n order statistics of a normal sample is close to
// Phi^-1((i - alpha) / (n - 2 alpha + 1)) with alpha = 0.375; the maximum is i = n.
constexpr double kBlomAlpha = 0.375;
// Graph500 Kronecker initiator (as kronecker_reached_fraction, levels.cpp).
constexpr double kAB = 0.57 + 0.19, kCD = 0.19 + 0.05;
constexpr double kEndsPerEdge = 2;
constexpr int kBisectionSteps = 200;
constexpr double kQuantileBracket = 40;  // standard deviations: far beyond any n here

// Phi^-1(p) by bisection on the normal distribution function.
double normal_quantile(double p) {
  double low = -kQuantileBracket, high = kQuantileBracket;
  for (int i = 0; i < kBisectionSteps; ++i) {
    const double mid = (low + high) / 2;
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? low : high) = mid;
  }
  return (low + high) / 2;
}
}  // namespace

double expected_max_normal(double n) {
  if (n <= 1) return 0;
  return normal_quantile((n - kBlomAlpha) / (n - 2 * kBlomAlpha + 1));
}

double kronecker_class_degree(int scale, int edgefactor, int ones) {
  return kEndsPerEdge * edgefactor * std::ldexp(1.0, scale) * std::pow(kAB, scale - ones) * std::pow(kCD, ones);
}

double largest_hub_within(int scale, int edgefactor, double edges) {
  for (int k = 0; k <= scale; ++k) {
    const double d = kronecker_class_degree(scale, edgefactor, k);
    if (d <= edges) return d;
  }
  return 0;
}

double hub_excess(int scale, int edgefactor, double examined, double sets) {
  if (sets <= 1 || examined <= 0) return 0;
  const double hub = largest_hub_within(scale, edgefactor, examined);
  return std::min(sets - 1, sets * hub * (1 - 1 / sets) / examined);
}

LevelWaits level_waits(double seconds, double accesses, double spread, double hub, double group, double processes) {
  LevelWaits w;
  if (processes <= 1 || seconds <= 0) return w;
  const double count = accesses > 0 ? 1 / accesses : 0;  // relative variance of a sum of accesses
  const double sigma = std::sqrt(spread * spread + count);
  if (group > 1) {
    w.group = seconds * (hub + sigma * expected_max_normal(group));
    w.barrier = seconds * sigma * (expected_max_normal(processes) - expected_max_normal(group));
  } else {
    w.barrier = seconds * (hub + sigma * expected_max_normal(processes));
  }
  return w;
}

}  // namespace g500::model
