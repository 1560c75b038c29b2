// SubBucketQueue (sssp/sub_bucket_queue.hpp): entries come out by sub-bucket in order whether they
// are in the ring or far beyond it, stale entries are passed over, and what it holds is the
// entries pushed, not the range of the sub-buckets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "sssp/sub_bucket_queue.hpp"

namespace g500::sssp {
namespace {

struct Entry {
  int64_t id;
  int64_t bucket;
};
using Queue = SubBucketQueue<Entry>;
constexpr int64_t kRing = Queue::kRing;

// Takes every sub-bucket in order as the search does (the next current one, then take it),
// returning the ids in the order taken; `stale` ids are skipped, as superseded entries.
std::vector<int64_t> drain(Queue& q, const std::set<int64_t>& stale = {}) {
  std::vector<int64_t> order;
  auto current = [&](const Entry& e) { return !stale.count(e.id); };
  for (int64_t j = 0;;) {
    const int64_t b = q.first_current(j, current);
    if (b == Queue::kNone) break;
    EXPECT_GE(b, j);
    for (const Entry& e : q.take(b)) {
      EXPECT_EQ(e.bucket, b) << "entry " << e.id;
      if (current(e)) order.push_back(e.id);
    }
    q.take_done(b);
    j = b + 1;
  }
  return order;
}

TEST(SubBucketQueue, EntriesComeOutInSubBucketOrderFromTheRingAndBeyond) {
  Queue q;
  const std::vector<int64_t> buckets{
      0, 5, kRing - 1, kRing, kRing + 1, 3 * kRing + 7, int64_t{1} << 40, (int64_t{1} << 52) + 3, 2 * kRing};
  for (size_t i = 0; i < buckets.size(); ++i) q.push(buckets[i], {static_cast<int64_t>(i), buckets[i]});
  EXPECT_EQ(q.size(), static_cast<int64_t>(buckets.size()));
  std::vector<int64_t> want(buckets.size());
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<int64_t>(i);
  std::sort(want.begin(), want.end(), [&](int64_t a, int64_t b) { return buckets[a] < buckets[b]; });
  EXPECT_EQ(drain(q), want);
  EXPECT_EQ(q.size(), 0);
}

TEST(SubBucketQueue, PushesWhileTakingLandInTheirSubBucket) {
  // As the light and heavy phases do: taking sub-bucket b pushes entries at b + step for steps
  // inside and far outside the ring; the ring's slots are reused as it moves.
  Queue q;
  q.push(0, {0, 0});
  std::vector<int64_t> taken;
  const int64_t steps[] = {1, kRing - 1, kRing, 5 * kRing + 3, 17};
  int64_t next_id = 1;
  for (int64_t j = 0;;) {
    const int64_t b = q.first_current(j, [](const Entry&) { return true; });
    if (b == Queue::kNone) break;
    std::vector<Entry> entries = q.take(b);
    q.take_done(b);
    for (const Entry& e : entries) {
      ASSERT_EQ(e.bucket, b);
      taken.push_back(b);
      if (next_id < 200)
        for (int64_t step : steps) q.push(b + step, {next_id++, b + step});
    }
    j = b + 1;
  }
  EXPECT_EQ(static_cast<int64_t>(taken.size()), next_id);
  EXPECT_TRUE(std::is_sorted(taken.begin(), taken.end()));
}

TEST(SubBucketQueue, StaleEntriesArePassedOverAndDropped) {
  Queue q;
  q.push(3, {1, 3});
  q.push(3 * kRing, {2, 3 * kRing});
  q.push(9 * kRing, {3, 9 * kRing});
  EXPECT_EQ(q.first_current(0, [](const Entry& e) { return e.id == 3; }), 9 * kRing);
  EXPECT_EQ(q.size(), 1);  // the stale ones before it are gone
  EXPECT_EQ(drain(q), std::vector<int64_t>{3});
}

TEST(SubBucketQueue, HoldsTheEntriesNotTheRangeOfDistances) {
  // 100,000 entries spread over 2^50 sub-buckets: the queue holds 100,000 entries (a list per
  // sub-bucket up to the largest would need 2^50 lists).
  Queue q;
  uint64_t x = 12345;
  std::vector<int64_t> buckets;
  for (int64_t i = 0; i < 100000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    buckets.push_back(static_cast<int64_t>(x >> 14));
    q.push(buckets.back(), {i, buckets.back()});
  }
  EXPECT_EQ(q.size(), 100000);
  const std::vector<int64_t> order = drain(q);
  ASSERT_EQ(order.size(), buckets.size());
  for (size_t i = 1; i < order.size(); ++i) EXPECT_LE(buckets[order[i - 1]], buckets[order[i]]);
}

}  // namespace
}  // namespace g500::sssp
