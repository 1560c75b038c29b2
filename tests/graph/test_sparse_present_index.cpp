// graph/sparse_present_index.hpp against a plain count: every vertex's membership and slot, the
// present total and each bucket's first slot, for sets around the bucket (256) and super-bucket
// (65,536) boundaries, dense (the largest relative counts) and sparse, at 1 to 7 threads; the
// bytes it holds against bytes_for and against rank9 on a sparse set.
#include <gtest/gtest.h>
#include <omp.h>

#include "graph/present_index.hpp"
#include "graph/sparse_present_index.hpp"
#include "random_bitmap.hpp"

namespace g500::graph {
namespace {

void expect_counts_of(const SparsePresentIndex& index, const util::Bitmap& set, const std::string& what) {
  int64_t before = 0;
  for (int64_t u = 0; u < set.size(); ++u) {
    if (u % SparsePresentIndex::kBucket == 0) {
      ASSERT_EQ(index.begin(u / SparsePresentIndex::kBucket), before) << what << " bucket " << u / 256;
    }
    ASSERT_EQ(index.contains(u), set.test(u)) << what << " vertex " << u;
    ASSERT_EQ(index.slot(u), before) << what << " vertex " << u;
    if (set.test(u)) {
      ASSERT_EQ(index.vertex(u / SparsePresentIndex::kBucket, before), u) << what << " vertex " << u;
      ++before;
    }
  }
  ASSERT_EQ(index.begin(index.buckets()), before) << what;
  EXPECT_EQ(index.present(), before) << what;
  EXPECT_EQ(index.present(), set.count()) << what;
}

TEST(SparsePresentIndex, SlotsAreThePlainCountAtEverySizeAndDensity) {
  const int threads_before = omp_get_max_threads();
  for (const int64_t size : {0, 1, 255, 256, 257, 65535, 65536, 65537, 3 * 65536 + 700})
    for (const int one_in : {1, 2, 7, 300}) {
      const util::Bitmap set = testing::random_bitmap(size, one_in, static_cast<uint64_t>(size * 31 + one_in));
      for (const int threads : {1, 2, 3, 7}) {
        omp_set_num_threads(threads);
        const SparsePresentIndex index(set);
        expect_counts_of(index, set,
                         "size " + std::to_string(size) + " one in " + std::to_string(one_in) + " threads " +
                             std::to_string(threads));
      }
    }
  omp_set_num_threads(threads_before);
}

// A set of 2 % of its vertices (a process's columns in use on Fugaku-sized grids) takes a quarter
// of rank9's bytes; its bytes are bytes_for's.
TEST(SparsePresentIndex, SmallerThanRank9WhereFewArePresent) {
  const int64_t size = 1 << 22;
  const util::Bitmap set = testing::random_bitmap(size, 50, 7);
  const SparsePresentIndex index(set);
  const double planned = SparsePresentIndex::bytes_for(static_cast<double>(size), static_cast<double>(set.count()));
  EXPECT_NEAR(static_cast<double>(index.memory_bytes()), planned, 16);
  EXPECT_LT(static_cast<double>(index.memory_bytes()), 0.25 * PresentIndex::bytes_for(static_cast<double>(size)));
}

}  // namespace
}  // namespace g500::graph
