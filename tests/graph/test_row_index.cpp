// The row index of graph/row_index.hpp: plain CSR row starts and the bitmap-based BCSR give the same
// rows, on the paper's example and on random rows, built from plain starts or from row lengths,
// with the non-empty rows as a bitmap or in buckets.
#include <gtest/gtest.h>
#include <omp.h>

#include <random>
#include <string>
#include <vector>

#include "graph/row_index.hpp"

namespace g500::graph {
namespace {

// Every slot's start and the end.
std::vector<int64_t> starts_of(const RowIndex& index) {
  std::vector<int64_t> starts;
  for (int64_t s = 0; s <= index.num_slots(); ++s) starts.push_back(index.slot_start(s));
  return starts;
}

// Nakao et al. 2021, Fig. 4: edges {(0,4),(0,5),(6,3),(7,1)} over 8 rows. Plain CSR row-starts
// 0 2 2 2 2 2 2 3 and the end 4; BCSR keeps the bitmap 1 0 0 0 0 0 1 1 (rows 0, 6, 7), the
// starts of the non-empty rows 0 2 3 and the end 4, and per 64-bit word the set bits before it
// (one word here: 0, then 3 in total; the paper's 4-bit words give 0 1 3).
TEST(Bcsr, PaperFigure4) {
  const util::LargeArray<int64_t> plain{0, 2, 2, 2, 2, 2, 2, 3, 4};
  RowIndex csr(plain, false), bcsr(plain, true);
  EXPECT_EQ(bcsr.nonempty().bits(0), 0b11000001u);
  EXPECT_EQ(starts_of(bcsr), (std::vector<int64_t>{0, 2, 3, 4}));
  EXPECT_EQ(bcsr.nonempty().count(0), 0u);
  EXPECT_EQ(bcsr.nonempty_rows(), 3);
  for (int64_t v = 0; v < 8; ++v) {
    EXPECT_EQ(bcsr.begin(v), csr.begin(v)) << v;
    EXPECT_EQ(bcsr.end(v), csr.end(v)) << v;
  }
  EXPECT_EQ(bcsr.end(0) - bcsr.begin(0), 2);
  EXPECT_EQ(bcsr.end(6) - bcsr.begin(6), 1);
  EXPECT_EQ(bcsr.end(3) - bcsr.begin(3), 0);
  EXPECT_EQ(bcsr.memory().row_starts, 4 * sizeof(uint32_t) + sizeof(int64_t));  // 32 bits each, a word per 64
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
        EXPECT_EQ(starts_of(built), starts_of(direct)) << what;
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

// The non-empty rows in buckets: the same extents and ranks as the bitmap, and every word of the
// bitmap with its count made back from the buckets, on dense and sparse rows, whatever the threads.
TEST(Bcsr, RowsInBucketsAgreeWithTheBitmap) {
  const int threads_before = omp_get_max_threads();
  std::mt19937_64 rng(9);
  for (const int64_t nrows : {0, 1, 255, 256, 257, 5000, 70000})
    for (const int one_in : {1, 3, 60}) {
      util::LargeArray<int64_t> plain{0};
      for (int64_t v = 0; v < nrows; ++v)
        plain.push_back(plain.back() + (rng() % one_in == 0 ? static_cast<int64_t>(1 + rng() % 4) : 0));
      auto length_of = [&](int64_t v) { return plain[v + 1] - plain[v]; };
      const RowIndex bitmap(plain, true);
      for (const int threads : {1, 3}) {
        omp_set_num_threads(threads);
        const RowIndex buckets = RowIndex::from_lengths(nrows, length_of, true, BcsrRows::kBuckets);
        const std::string what = "rows " + std::to_string(nrows) + " one in " + std::to_string(one_in) + " threads " +
                                 std::to_string(threads);
        ASSERT_TRUE(buckets.bucketed()) << what;
        ASSERT_EQ(buckets.nonempty_rows(), bitmap.nonempty_rows()) << what;
        ASSERT_EQ(buckets.num_entries(), plain[nrows]) << what;
        EXPECT_EQ(starts_of(buckets), starts_of(bitmap)) << what;
        for (int64_t v = 0; v < nrows; ++v) {
          const RowIndex::Extent a = buckets.extent(v), b = bitmap.extent(v);
          ASSERT_EQ(a.begin, b.begin) << what << " row " << v;
          ASSERT_EQ(a.end, b.end) << what << " row " << v;
          if (a.end > a.begin) {
            ASSERT_EQ(a.slot, b.slot) << what << " row " << v;
          }
          ASSERT_EQ(buckets.contains(v), plain[v + 1] > plain[v]) << what << " row " << v;
        }
        for (int64_t w = 0; w < bitmap.nonempty().words(); ++w) {
          const SparsePresentIndex::Word word = buckets.nonempty_buckets().word(w);
          ASSERT_EQ(word.bits, bitmap.nonempty().bits(w)) << what << " word " << w;
          ASSERT_EQ(word.before, static_cast<int64_t>(bitmap.nonempty().count(w))) << what << " word " << w;
        }
        // From plain starts the same.
        const RowIndex direct(plain, true, BcsrRows::kBuckets);
        EXPECT_EQ(direct.memory().offsets, buckets.memory().offsets) << what;
        EXPECT_EQ(buckets.memory().offsets, static_cast<size_t>(bitmap.nonempty_rows())) << what;
        EXPECT_TRUE(buckets.memory().bucketed);
      }
    }
  omp_set_num_threads(threads_before);
}

// Left to choose, BCSR keeps its rows in buckets where a few of them have edges and as the bitmap
// where many do: the smaller, by the rule the plan uses.
TEST(Bcsr, TheSmallerFormIsChosen) {
  constexpr int64_t kRows = 1 << 16;
  for (const int one_in : {2, 8, 40, 200}) {
    util::LargeArray<int64_t> plain{0};
    for (int64_t v = 0; v < kRows; ++v) plain.push_back(plain.back() + (v % one_in == 0 ? 1 : 0));
    const RowIndex chosen = RowIndex::from_lengths(
        kRows, [&](int64_t v) { return plain[v + 1] - plain[v]; }, true);
    const RowIndex bitmap(plain, true), buckets(plain, true, BcsrRows::kBuckets);
    const size_t bitmap_bytes = bitmap.memory().bitmap + bitmap.memory().offsets;
    const size_t bucket_bytes = buckets.memory().bitmap + buckets.memory().offsets;
    EXPECT_EQ(chosen.bucketed(), bucket_bytes < bitmap_bytes) << "one row in " << one_in;
    EXPECT_EQ(chosen.bucketed(), one_in >= 8) << "one row in " << one_in;
  }
}

// Sets every start from `want` (ascending, the last the end) in parallel, then checks them all.
void expect_exact(const std::vector<int64_t>& want, int64_t wide_groups) {
  const int64_t count = static_cast<int64_t>(want.size());
  SlotStarts starts;
  starts.resize(count);
#pragma omp parallel for schedule(dynamic, 5)
  for (int64_t s = 0; s < count; ++s) starts.set(s, want[s], s + 1 < count ? want[s + 1] - want[s] : 0);
  starts.finish();
  for (int64_t s = 0; s < count; ++s) ASSERT_EQ(starts[s], want[s]) << s;
  EXPECT_EQ(starts.back(), want.back());
  EXPECT_EQ(starts.wide_groups(), wide_groups);
}

// The starts as 16 bits relative to the start of their group of 64 slots: exact whatever the
// threads, for short rows, for rows of 2^16 entries and more (whose groups keep 32 bits), and
// across starts past 2^32 (so long as a group's own entries stay below it); a group of more is
// refused.
TEST(SlotStarts, ExactForShortAndLongRows) {
  const int threads_before = omp_get_max_threads();
  for (const int threads : {1, 3}) {
    omp_set_num_threads(threads);
    constexpr int64_t kCount = 1000;
    std::vector<int64_t> want(kCount);
    for (int64_t s = 0; s < kCount; ++s) want[s] = s * (int64_t{1} << 25) + s % 7;  // past 2^32 every 128 slots
    expect_exact(want, (kCount + SlotStarts::kGroup - 1) / SlotStarts::kGroup);
    // Rows of 1 to 12 entries, with one of exactly 2^16 (row 69) and one of 2^20 (row 699),
    // whose groups take 32 bits, and a group (rows 256 to 319) of 2^16 - 1 entries in all, whose
    // first row has all but 63 of them: it keeps 16 bits.
    constexpr int64_t kSixteenBits = int64_t{1} << 16;
    std::vector<int64_t> mixed{0};
    for (int64_t row = 0; row + 1 < kCount; ++row) {
      int64_t length = row % 12 + 1;
      if (row == 69) length = kSixteenBits;
      if (row == 699) length = int64_t{1} << 20;
      if (row >= 256 && row < 320) length = row == 256 ? kSixteenBits - 1 - 63 : 1;
      mixed.push_back(mixed.back() + length);
    }
    expect_exact(mixed, 2);
  }
  omp_set_num_threads(threads_before);
  SlotStarts wide;
  wide.resize(3);
  wide.set(0, 0, 5);
  wide.set(1, 5, (int64_t{1} << 32) - 5);
  wide.set(2, int64_t{1} << 32, 0);
  EXPECT_THROW(wide.finish(), std::length_error);
}

}  // namespace
}  // namespace g500::graph
