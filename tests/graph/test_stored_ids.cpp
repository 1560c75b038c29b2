// Stored ids (graph/stored_ids.hpp): every id a grid row or column may have comes back as written,
// beside neighbours written before and after it, up to the array's last.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/stored_ids.hpp"
#include "util/splitmix64.hpp"

namespace g500::graph {
namespace {

TEST(StoredIds, EveryIdComesBackBesideItsNeighbours) {
  constexpr int64_t kIds = 1000;
  const LocalId most = kMostStoredId;
  ASSERT_GE(most, kWideIds ? (LocalId{1} << Distribution::kMostIdBits) - 1 : ~LocalId{0});
  std::vector<LocalId> want(kIds);
  for (int64_t i = 0; i < kIds; ++i)
    want[i] = i % 3 == 0 ? most - static_cast<LocalId>(i) : static_cast<LocalId>(util::splitmix64(i) & most);
  StoredIdArray ids;
  ids.zeroed(kIds);
  for (int64_t i = 0; i < kIds; i += 2) ids.set(i, want[i]);  // the even ones, then the odd between them
  for (int64_t i = 1; i < kIds; i += 2) ids.out(i).set(0, want[i]);
  for (int64_t i = 0; i < kIds; ++i) {
    ASSERT_EQ(ids[i], want[i]) << i;
    ASSERT_EQ(ids.view(i)[0], want[i]) << i;
  }
  EXPECT_EQ(ids.size(), kIds);
  EXPECT_EQ(ids.memory_bytes(), kIds * kStoredIdBytes + (kWideIds ? sizeof(uint64_t) - kStoredIdBytes : 0));
  StoredIdArray copy = ids;
  EXPECT_EQ(copy, ids);
  copy.set(kIds - 1, 1);
  EXPECT_FALSE(copy == ids);
  EXPECT_FALSE(StoredIds());
  EXPECT_TRUE(ids.view());
}

TEST(StoredIds, SixBytesEachWithWideIds) { EXPECT_EQ(kStoredIdBytes, kWideIds ? 6u : 4u); }

}  // namespace
}  // namespace g500::graph
