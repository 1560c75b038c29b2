// Stored ids (graph/stored_ids.hpp): every id of every width comes back as written, beside
// neighbours written before and after it, up to the array's last; the width is the fewest bytes
// that hold a column set's ids.
#include <gtest/gtest.h>

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
    want[i] = i % 3 == 0 ? most - static_cast<LocalId>(i) : static_cast<LocalId>(util::splitmix64(i) & most);
  StoredIdArray ids(width);
  ids.zeroed(kIds);
  for (int64_t i = 0; i < kIds; i += 2) ids.set(i, want[i]);  // the even ones, then the odd between them
  for (int64_t i = 1; i < kIds; i += 2) ids.out(i).set(0, want[i]);
  for (int64_t i = 0; i < kIds; ++i) {
    ASSERT_EQ(ids[i], want[i]) << i;
    ASSERT_EQ(ids.view(i)[0], want[i]) << i;
  }
  EXPECT_EQ(ids.size(), kIds);
  const size_t bytes = width.bytes();
  EXPECT_EQ(ids.memory_bytes(), kIds * bytes + (kWideIds ? sizeof(uint64_t) - bytes : 0));
  StoredIdArray copy = ids;
  EXPECT_EQ(copy, ids);
  copy.set(kIds - 1, 1);
  EXPECT_FALSE(copy == ids);
  EXPECT_TRUE(ids.view());
}

TEST(StoredIds, EveryIdOfEveryWidthComesBackBesideItsNeighbours) {
  for (size_t bytes = kNarrowestStoredId; bytes <= kWidestStoredId; ++bytes) {
    SCOPED_TRACE(bytes);
    expect_round_trip(StoredIdWidth(bytes));
  }
  EXPECT_FALSE(StoredIds());
  EXPECT_EQ(StoredIdArray().memory_bytes(), 0u);
}

TEST(StoredIds, TheWidestHoldsEveryIdAGridRowOrColumnHas) {
  EXPECT_GE(StoredIdWidth().most(), kWideIds ? (LocalId{1} << Distribution::kMostIdBits) - 1 : ~LocalId{0});
}

TEST(StoredIds, TheFewestBytesThatHoldTheColumnSet) {
  constexpr int64_t k32 = int64_t{1} << 32, k40 = int64_t{1} << 40;
  EXPECT_EQ(stored_id_bytes(1), 4u);
  EXPECT_EQ(stored_id_bytes(k32), 4u);  // ids up to 2^32 - 1
  EXPECT_EQ(stored_id_bytes(k32 + 1), kWideIds ? 5u : 4u);
  EXPECT_EQ(stored_id_bytes(k40), kWideIds ? 5u : 4u);
  EXPECT_EQ(stored_id_bytes(k40 + 1), kWideIds ? 6u : 4u);
  EXPECT_EQ(stored_id_bytes(int64_t{1} << Distribution::kMostIdBits), kWideIds ? 6u : 4u);
  // SCALE 42 on 256x256: 2^34 columns per process, five bytes.
  EXPECT_EQ(stored_id_bytes(int64_t{1} << 34), kWideIds ? 5u : 4u);
}

}  // namespace
}  // namespace g500::graph
