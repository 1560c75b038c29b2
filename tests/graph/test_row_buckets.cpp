// The groups of buckets kernel 1 makes its mirrors in (graph/row_buckets.hpp, equal_share_ends):
// cuts at equal shares of the sizes given, and, cut by the most any rank keeps per bucket, no rank's
// group beyond an equal share of that and a bucket, whatever rows each rank keeps its entries in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "graph/row_buckets.hpp"

namespace g500::graph {
namespace {

TEST(EqualShareEnds, CutsWhereTheSizesReachEachShare) {
  EXPECT_EQ(equal_share_ends({1, 1, 1, 1}, 2), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(equal_share_ends({4, 0, 0, 1, 1, 2}, 2), (std::vector<int64_t>{1, 6}));
  EXPECT_EQ(equal_share_ends({1, 1, 1, 1, 1, 1}, 3), (std::vector<int64_t>{2, 4, 6}));
  EXPECT_EQ(equal_share_ends({5, 5, 5}, 1), (std::vector<int64_t>{3}));
}

TEST(EqualShareEnds, OneGroupForNoBucketsOrNoEntries) {
  EXPECT_EQ(equal_share_ends({}, 4), (std::vector<int64_t>{0}));
  EXPECT_EQ(equal_share_ends({0, 0, 0}, 4), (std::vector<int64_t>{3}));
}

// What each group of `ends` holds of `sizes`.
std::vector<int64_t> group_sums(const std::vector<int64_t>& sizes, const std::vector<int64_t>& ends) {
  std::vector<int64_t> sums;
  int64_t lo = 0;
  for (const int64_t hi : ends) {
    sums.push_back(std::accumulate(sizes.begin() + lo, sizes.begin() + hi, int64_t{0}));
    lo = hi;
  }
  return sums;
}

// The kept entries per bucket of the 8 grid columns of Yoo's layout, 16 buckets per block of
// rows: column c has the other ends of its entries in block c, so it keeps the entries of the rows
// below that block, half of the block's and none above; the last keeps nearly all, evenly, and the
// first only its low rows'.
constexpr int64_t kColumns = 8, kBucketsPerBlock = 16, kBuckets = kColumns * kBucketsPerBlock;
std::vector<std::vector<int64_t>> yoo_columns() {
  std::vector<std::vector<int64_t>> ranks(kColumns, std::vector<int64_t>(kBuckets, 0));
  for (int64_t c = 0; c < kColumns; ++c)
    for (int64_t b = 0; b < kBuckets; ++b) {
      const int64_t block = b / kBucketsPerBlock;
      ranks[c][b] = block < c ? 100 : block == c ? 50 : 0;
    }
  return ranks;
}

TEST(EqualShareEnds, CutByTheMostPerBucketNoRankHoldsMoreThanAShare) {
  constexpr int64_t kGroups = 10;
  const auto ranks = yoo_columns();
  std::vector<int64_t> most(kBuckets, 0), all(kBuckets, 0);
  for (const auto& rank : ranks)
    for (int64_t b = 0; b < kBuckets; ++b) {
      most[b] = std::max(most[b], rank[b]);
      all[b] += rank[b];
    }
  const std::vector<int64_t> ends = equal_share_ends(most, kGroups);
  EXPECT_EQ(static_cast<int64_t>(ends.size()), kGroups);
  const int64_t share = std::accumulate(most.begin(), most.end(), int64_t{0}) / kGroups;
  const int64_t largest_bucket = *std::max_element(most.begin(), most.end());
  for (const auto& rank : ranks)
    for (const int64_t sum : group_sums(rank, ends)) EXPECT_LE(sum, share + largest_bucket);
  // Cut by all ranks' entries together, the groups of the high rows are wide: the evenly spread
  // rank's last group holds well over a share of its entries.
  const std::vector<int64_t>& last = ranks.back();
  const std::vector<int64_t> summed = group_sums(last, equal_share_ends(all, kGroups));
  const int64_t evenly_spread_total = std::accumulate(last.begin(), last.end(), int64_t{0});
  EXPECT_GT(summed.back(), 2 * evenly_spread_total / kGroups);
}

}  // namespace
}  // namespace g500::graph
