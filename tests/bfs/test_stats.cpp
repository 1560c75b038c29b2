// The result-block statistics follow the reference 3.0 formulas (known answers worked by hand).
#include <gtest/gtest.h>

#include <cmath>

#include "graph/grid.hpp"
#include "util/stats.hpp"

namespace g500 {
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
}  // namespace g500

#include <random>

#include "util/fast_divisor.hpp"

namespace g500 {
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
}  // namespace g500

#include <omp.h>

#include "graph/row_index.hpp"

namespace g500 {
namespace {

// Nakao et al. 2021, Fig. 4: edges {(0,4),(0,5),(6,3),(7,1)} over 8 rows. Plain CSR row-starts
// 0 2 2 2 2 2 2 3 and the end 4; BCSR keeps the bitmap 1 0 0 0 0 0 1 1 (rows 0, 6, 7), the
// starts of the non-empty rows 0 2 3 and the end 4, and per 64-bit word the set bits before it
// (one word here: 0, then 3 in total; the paper's 4-bit words give 0 1 3).
TEST(Bcsr, PaperFigure4) {
  const LargeArray<int64_t> plain{0, 2, 2, 2, 2, 2, 2, 3, 4};
  RowIndex csr(plain, false), bcsr(plain, true);
  EXPECT_EQ(bcsr.nonempty().bits(0), 0b11000001u);
  EXPECT_EQ(std::vector<int64_t>(bcsr.starts(), bcsr.starts() + 4), (std::vector<int64_t>{0, 2, 3, 4}));
  EXPECT_EQ(bcsr.nonempty().count(0), 0u);
  EXPECT_EQ(bcsr.nonempty_rows(), 3);
  for (int64_t v = 0; v < 8; ++v) {
    EXPECT_EQ(bcsr.begin(v), csr.begin(v)) << v;
    EXPECT_EQ(bcsr.end(v), csr.end(v)) << v;
  }
  EXPECT_EQ(bcsr.end(0) - bcsr.begin(0), 2);
  EXPECT_EQ(bcsr.end(6) - bcsr.begin(6), 1);
  EXPECT_EQ(bcsr.end(3) - bcsr.begin(3), 0);
  EXPECT_EQ(bcsr.memory().row_starts, 4 * sizeof(int64_t));
  EXPECT_EQ(bcsr.memory().plain_csr_row_starts, 9 * sizeof(int64_t));
}

TEST(Bcsr, ManyWordsAgreeWithPlainCsr) {
  LargeArray<int64_t> plain{0};
  std::mt19937_64 rng(3);
  for (int v = 0; v < 1000; ++v) plain.push_back(plain.back() + (rng() % 3 == 0 ? static_cast<int64_t>(rng() % 5) : 0));
  RowIndex csr(plain, false), bcsr(plain, true);
  for (int64_t v = 0; v < 1000; ++v) {
    ASSERT_EQ(bcsr.begin(v), csr.begin(v)) << v;
    ASSERT_EQ(bcsr.end(v), csr.end(v)) << v;
  }
}

// Built in parallel from the row lengths, both kinds equal the ones built from plain starts, array
// by array, whatever the threads (row counts around the word and thread boundaries).
TEST(Bcsr, FromLengthsEqualsFromPlainStarts) {
  const int threads_before = omp_get_max_threads();
  std::mt19937_64 rng(5);
  for (const int64_t nrows : {0, 1, 63, 64, 65, 1000, 4099}) {
    LargeArray<int64_t> plain{0};
    for (int64_t v = 0; v < nrows; ++v)
      plain.push_back(plain.back() + (rng() % 3 == 0 ? static_cast<int64_t>(rng() % 5) : 0));
    auto length_of = [&](int64_t v) { return plain[v + 1] - plain[v]; };
    for (const int threads : {1, 2, 3, 7})
      for (const bool compressed : {false, true}) {
        omp_set_num_threads(threads);
        const RowIndex direct(plain, compressed), built = RowIndex::from_lengths(nrows, length_of, compressed);
        const std::string what =
            "rows " + std::to_string(nrows) + " threads " + std::to_string(threads) + (compressed ? " bcsr" : " plain");
        ASSERT_EQ(built.num_slots(), direct.num_slots()) << what;
        ASSERT_EQ(built.num_entries(), plain[nrows]) << what;
        EXPECT_EQ(std::vector<int64_t>(built.starts(), built.starts() + built.num_slots() + 1),
                  std::vector<int64_t>(direct.starts(), direct.starts() + direct.num_slots() + 1))
            << what;
        EXPECT_EQ(built.memory().bitmap, direct.memory().bitmap) << what;
        EXPECT_EQ(built.memory().offsets, direct.memory().offsets) << what;
        for (int64_t w = 0; w < direct.nonempty().words(); ++w) {
          ASSERT_EQ(built.nonempty().bits(w), direct.nonempty().bits(w)) << what << " word " << w;
          ASSERT_EQ(built.nonempty().count(w), direct.nonempty().count(w)) << what << " word " << w;
        }
      }
  }
  omp_set_num_threads(threads_before);
}

}  // namespace
}  // namespace g500
