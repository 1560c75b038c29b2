// The result-block statistics follow the reference 3.0 formulas (known answers worked by hand); the
// default grid shape (util/grid_shape.hpp) and FastDivisor (util/fast_divisor.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "util/grid_shape.hpp"
#include "util/stats.hpp"

namespace g500::util {
namespace {

TEST(Stats, QuartilesAndSampleStddev) {
  Statistics s = compute_statistics({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.firstquartile, 1.5);  // (x[0] + x[1]) / 2
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.thirdquartile, 3.5);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(5.0 / 3.0));
  Statistics odd = compute_statistics({5, 1, 3});
  EXPECT_DOUBLE_EQ(odd.median, 3);
  EXPECT_DOUBLE_EQ(odd.firstquartile, 1);
  EXPECT_DOUBLE_EQ(odd.thirdquartile, 5);
}

TEST(Stats, HarmonicMeanTeps) {
  // 100 edges in 1 s and 100 edges in 3 s: TEPS 100 and 33.3; harmonic mean 50.
  TepsStatistics t = compute_teps_statistics({1, 3}, {100, 100});
  EXPECT_DOUBLE_EQ(t.harmonic_mean, 50);
  EXPECT_DOUBLE_EQ(t.max, 100);
  EXPECT_NEAR(t.min, 100.0 / 3, 1e-12);
  // Norris: stddev(s/edge) / (mean^2 sqrt(n-1)) = sqrt(2)*0.01 / (0.02^2 * 1)
  EXPECT_NEAR(t.harmonic_stddev, std::sqrt(2.0) * 0.01 / (0.02 * 0.02), 1e-9);
}

TEST(Grid, DefaultShapeIsClosestFactorsWithRowsAtLeastCols) {
  EXPECT_EQ(closest_factor_shape(1).rows, 1);
  EXPECT_EQ(closest_factor_shape(2).rows, 2);
  EXPECT_EQ(closest_factor_shape(2).cols, 1);
  EXPECT_EQ(closest_factor_shape(4).rows, 2);
  EXPECT_EQ(closest_factor_shape(6).rows, 3);
  EXPECT_EQ(closest_factor_shape(6).cols, 2);
  EXPECT_EQ(closest_factor_shape(8).rows, 4);
  EXPECT_EQ(closest_factor_shape(8).cols, 2);
  EXPECT_EQ(closest_factor_shape(7).rows, 7);
  EXPECT_EQ(closest_factor_shape(7).cols, 1);
  EXPECT_EQ(closest_factor_shape(16).rows, 4);
}

}  // namespace
}  // namespace g500::util

#include <random>

#include "util/fast_divisor.hpp"

namespace g500::util {
namespace {

TEST(FastDivisor, MatchesHardwareDivision) {
  std::mt19937_64 rng(7);
  for (uint64_t d : {1ULL, 2ULL, 3ULL, 6ULL, 7ULL, 64ULL, 174784ULL, 1ULL << 20, (1ULL << 20) + 64, 1000003ULL,
                     (1ULL << 40) + 12345, ~0ULL}) {
    FastDivisor f(d);
    for (int k = 0; k < 20000; ++k) {
      uint64_t x = k < 1000 ? static_cast<uint64_t>(k) : (k % 2 ? rng() : rng() >> (k % 63));
      ASSERT_EQ(f.divide(x), x / d) << x << " / " << d;
      ASSERT_EQ(f.remainder(x), x % d) << x << " % " << d;
    }
    ASSERT_EQ(f.divide(~0ULL), ~0ULL / d);
  }
}

}  // namespace
}  // namespace g500::util
