// The row index of graph/row_index.hpp: plain CSR row starts and the bitmap-based BCSR give the same
// rows, on the paper's example and on random rows, built from plain starts or from row lengths.
#include <gtest/gtest.h>
#include <omp.h>

#include <random>
#include <string>
#include <vector>

#include "graph/row_index.hpp"

namespace g500::graph {
namespace {

// Nakao et al. 2021, Fig. 4: edges {(0,4),(0,5),(6,3),(7,1)} over 8 rows. Plain CSR row-starts
// 0 2 2 2 2 2 2 3 and the end 4; BCSR keeps the bitmap 1 0 0 0 0 0 1 1 (rows 0, 6, 7), the
// starts of the non-empty rows 0 2 3 and the end 4, and per 64-bit word the set bits before it
// (one word here: 0, then 3 in total; the paper's 4-bit words give 0 1 3).
TEST(Bcsr, PaperFigure4) {
  const util::LargeArray<int64_t> plain{0, 2, 2, 2, 2, 2, 2, 3, 4};
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
  util::LargeArray<int64_t> plain{0};
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
    util::LargeArray<int64_t> plain{0};
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
}  // namespace g500::graph
