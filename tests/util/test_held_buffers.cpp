// util/held_buffers.hpp: buffers freed (no memory held) and made again as they were, in order:
// the same sizes and capacities, their elements written (value-initialised), restorable again.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "util/held_buffers.hpp"

namespace g500::util {
namespace {

TEST(HeldBuffers, FreedAndMadeAgainWithTheirSizesAndCapacities) {
  std::vector<uint64_t> a(100, 7), b;
  a.reserve(1000);
  b.reserve(50);
  std::vector<std::vector<int>> nested(3, std::vector<int>(9, 1));
  HeldBuffers held;
  EXPECT_FALSE(held.released());
  for (int round = 0; round < 2; ++round) {
    held.release(a);
    held.release(b);
    for (auto& v : nested) held.release(v);
    EXPECT_TRUE(held.released());
    EXPECT_EQ(a.capacity(), 0u);
    EXPECT_EQ(b.capacity(), 0u);
    EXPECT_EQ(nested[1].capacity(), 0u);
    held.restore(a);
    held.restore(b);
    for (auto& v : nested) held.restore(v);
    held.restored();
    EXPECT_FALSE(held.released());
    EXPECT_EQ(a.size(), 100u);
    EXPECT_EQ(a.capacity(), 1000u);
    EXPECT_EQ(a[99], 0u);  // written anew, not kept
    EXPECT_EQ(b.size(), 0u);
    EXPECT_EQ(b.capacity(), 50u);
    for (const auto& v : nested) EXPECT_EQ(v.size(), 9u);
  }
}

}  // namespace
}  // namespace g500::util
