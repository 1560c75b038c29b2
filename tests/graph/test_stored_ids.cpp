// Stored ids (graph/stored_ids.hpp): every id of every width comes back as written, beside
// neighbours written before and after it and by other threads at once, up to the array's last;
// the width is the fewest bits that hold a column set's ids with 64-bit ids.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/stored_ids.hpp"
#include "util/splitmix64.hpp"

namespace g500::graph {
namespace {

void expect_round_trip(StoredIdWidth width) {
  constexpr int64_t kIds = 1000;
  const LocalId most = width.most();
  std::vector<LocalId> want(kIds);
  for (int64_t i = 0; i < kIds; ++i)
    want[i] = i % 3 == 0 ? (most - static_cast<LocalId>(i)) & most : static_cast<LocalId>(util::splitmix64(i) & most);
  StoredIdArray ids(width);
  ids.zeroed(kIds);
  for (int64_t i = 0; i < kIds; i += 2) ids.set(i, want[i]);  // the even ones, then the odd between them
  for (int64_t i = 1; i < kIds; i += 2) ids.out(i).set(0, want[i]);
  for (int64_t i = 0; i < kIds; ++i) {
    ASSERT_EQ(ids[i], want[i]) << i;
    ASSERT_EQ(ids.view(i)[0], want[i]) << i;
  }
  EXPECT_EQ(ids.size(), kIds);
  const auto bits = static_cast<size_t>(width.bits());
  EXPECT_EQ(ids.memory_bytes(), kWideIds ? ((kIds * bits + 7) / 8 + 8 + 7) / 8 * 8 : kIds * bits / 8);
  // Threads writing neighbouring ids at once, through views that start inside a byte.
  StoredIdArray by_threads(width);
  by_threads.resize(kIds);
  constexpr int64_t kRun = 3;
#pragma omp parallel for schedule(static, 1) num_threads(3)
  for (int64_t from = 0; from < kIds; from += kRun) {
    const StoredIdsOut out = by_threads.out(from);
    for (int64_t i = from; i < std::min(kIds, from + kRun); ++i) out.set(i - from, want[i]);
  }
  EXPECT_EQ(by_threads, ids);
  StoredIdArray copy = ids;
  EXPECT_EQ(copy, ids);
  copy.set(kIds - 1, 1);
  EXPECT_FALSE(copy == ids);
  EXPECT_TRUE(ids.view());
}

TEST(StoredIds, EveryIdOfEveryWidthComesBackBesideItsNeighbours) {
  for (int bits = 1; bits <= kWidestStoredIdBits; ++bits) {
    SCOPED_TRACE(bits);
    expect_round_trip(StoredIdWidth(bits));
  }
  EXPECT_FALSE(StoredIds());
  EXPECT_EQ(StoredIdArray().memory_bytes(), 0u);
}

TEST(StoredIds, TheWidestHoldsEveryIdAGridRowOrColumnHas) {
  EXPECT_GE(StoredIdWidth().most(), kWideIds ? (LocalId{1} << Distribution::kMostIdBits) - 1 : ~LocalId{0});
}

TEST(StoredIds, TheFewestBitsThatHoldTheColumnSet) {
  constexpr int64_t k32 = int64_t{1} << 32, k40 = int64_t{1} << 40;
  EXPECT_EQ(stored_id_bits(1), kWideIds ? 1 : 32);
  EXPECT_EQ(stored_id_bits(2), kWideIds ? 1 : 32);
  EXPECT_EQ(stored_id_bits(3), kWideIds ? 2 : 32);
  EXPECT_EQ(stored_id_bits(int64_t{1} << 26), kWideIds ? 26 : 32);  // SCALE 26 on one process
  EXPECT_EQ(stored_id_bits(k32), 32);                               // ids up to 2^32 - 1
  EXPECT_EQ(stored_id_bits(k32 + 1), kWideIds ? 33 : 32);
  EXPECT_EQ(stored_id_bits(k40), kWideIds ? 40 : 32);
  EXPECT_EQ(stored_id_bits(int64_t{1} << Distribution::kMostIdBits), kWideIds ? 48 : 32);
  // SCALE 42 on 256x256: 2^34 columns per process; SCALE 41 on 552x288: 7.6e9.
  EXPECT_EQ(stored_id_bits(int64_t{1} << 34), kWideIds ? 34 : 32);
  EXPECT_EQ(stored_id_bits(7'636'607'488), kWideIds ? 33 : 32);
  EXPECT_DOUBLE_EQ(stored_id_bytes(int64_t{1} << 34), kWideIds ? 4.25 : 4.0);
}

}  // namespace
}  // namespace g500::graph
