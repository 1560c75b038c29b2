// graph/present_index.hpp against a plain count: every slot, every word's count and the present
// total for sets around the 64- and 512-vertex boundaries, dense and sparse, counted all at once
// (1 to 7 threads) or a range at a time in order (as the renumbered row lengths are), and the
// memory of 1.25 bits per vertex.
#include <gtest/gtest.h>
#include <omp.h>

#include "graph/present_index.hpp"
#include "random_bitmap.hpp"

namespace g500::graph {
namespace {

// Every slot and count of `index` equals the count of `set`'s bits before it.
void expect_counts_of(const PresentIndex& index, const util::Bitmap& set, const std::string& what) {
  int64_t before = 0;
  for (int64_t u = 0; u < set.size(); ++u) {
    if (u % util::kBitsPerWord == 0) {
      ASSERT_EQ(index.count(u / util::kBitsPerWord), static_cast<uint64_t>(before)) << what << " word " << u / 64;
    }
    ASSERT_EQ(index.contains(u), set.test(u)) << what << " vertex " << u;
    if (set.test(u)) {
      ASSERT_EQ(index.slot(u), before++) << what << " vertex " << u;
    }
  }
  EXPECT_EQ(index.present(), before) << what;
  EXPECT_EQ(index.present(), set.count()) << what;
}

TEST(PresentIndex, SlotsAreThePlainCountAtEverySizeAndDensity) {
  const int threads_before = omp_get_max_threads();
  for (const int64_t size : {0, 1, 63, 64, 65, 511, 512, 513, 1000, 4096, 4097, 100000})
    for (const int one_in : {1, 2, 7, 300}) {
      const util::Bitmap set = testing::random_bitmap(size, one_in, static_cast<uint64_t>(size * 31 + one_in));
      for (const int threads : {1, 2, 3, 7}) {
        omp_set_num_threads(threads);
        const PresentIndex index(set);
        const std::string what = "size " + std::to_string(size) + " one in " + std::to_string(one_in) + " threads " +
                                 std::to_string(threads);
        expect_counts_of(index, set, what);
        const util::Bitmap back = index.bitmap();
        for (int64_t w = 0; w < set.num_words(); ++w) ASSERT_EQ(back.data()[w], set.data()[w]) << what;
      }
    }
  omp_set_num_threads(threads_before);
}

// Marked and counted a range of 192 vertices (3 words, so ranges start inside 512-vertex blocks)
// at a time, in order: the same counts as counting the whole set.
TEST(PresentIndex, CountedARangeAtATimeInOrder) {
  const int64_t size = 5000, range = 192;
  const util::Bitmap set = testing::random_bitmap(size, 3, 11);
  PresentIndex index = PresentIndex::none_of(size);
  for (int64_t first = 0; first < size; first += range) {
    for (int64_t u = first; u < std::min(size, first + range); ++u)
      if (set.test(u)) index.mark_atomic(u);
    index.count_from(first / util::kBitsPerWord, std::min(index.words(), (first + range) / util::kBitsPerWord));
  }
  expect_counts_of(index, set, "ranges of 192");
}

// A full 512-vertex block (the largest relative count, 448, in its last word) and a set of all ones.
TEST(PresentIndex, FullBlocks) {
  util::Bitmap all(3 * 512 + 5);
  for (int64_t u = 0; u < all.size(); ++u) all.set(u);
  const PresentIndex index(all);
  expect_counts_of(index, all, "all present");
  EXPECT_EQ(index.count(7), 448u);
  EXPECT_EQ(index.slot(511), 511);
  EXPECT_EQ(index.slot(512 + 448 + 3), 512 + 448 + 3);
}

// Ten words per 512 vertices: 1.25 bits per vertex, of which 1 bit is the set itself.
TEST(PresentIndex, OnePointTwoFiveBitsPerVertex) {
  const PresentIndex index = PresentIndex::none_of(512 * 1000);
  EXPECT_EQ(index.memory_bytes(), 1000u * 80);
  EXPECT_EQ(index.bits_bytes(), 1000u * 64);
  EXPECT_EQ(index.counts_bytes(), 1000u * 16);
  EXPECT_DOUBLE_EQ(PresentIndex::bytes_for(512 * 1000), 80000.0);
}

}  // namespace
}  // namespace g500::graph
