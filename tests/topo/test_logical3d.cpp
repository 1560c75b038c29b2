// Tests for the 6D -> logical 3D conversion of Kuroda et al. 2013, section 4.2 (Fig. 4 bottom).
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "topo/logical3d.hpp"

using namespace g500::topo;

TEST(Logical3d, FoldIsABijectionAndARing) {
  const int lx = 8;
  std::set<int> seen;
  for (int a = 0; a < 2; ++a)
    for (int x = 0; x < lx; ++x) seen.insert(fold_pair(x, a, lx, 2));
  EXPECT_EQ(seen.size(), 16u);
  EXPECT_EQ(fold_pair(0, 1, lx, 2), 15);
  EXPECT_EQ(fold_pair(7, 1, lx, 2), 8);
  EXPECT_EQ(fold_pair(5, 0, lx, 1), 5);
}

TEST(Logical3d, YbRingIsAHamiltonianCycle) {
  for (int ly : {1, 2, 3, 4, 5, 6, 18}) {
    std::set<int> seen;
    for (int y = 0; y < ly; ++y)
      for (int b = 0; b < 3; ++b) {
        int p = yb_ring_position(y, b, ly);
        ASSERT_TRUE(seen.insert(p).second);
        ASSERT_EQ(yb_ring_coord(p, ly), std::make_pair(y, b));
      }
    // Consecutive logical positions (and the wrap) are one hop apart: Y a mesh segment, b a 3-ring.
    const int n = 3 * ly;
    for (int p = 0; p < n; ++p) {
      auto [y1, b1] = yb_ring_coord(p, ly);
      auto [y2, b2] = yb_ring_coord((p + 1) % n, ly);
      const int hops = std::abs(y1 - y2) + (b1 == b2 ? 0 : 1);
      ASSERT_EQ(hops, 1) << "ly " << ly << " position " << p;
    }
  }
}

TEST(Logical3d, Fig4Conversion) {
  const std::array<int, 6> ext{8, 4, 8, 2, 3, 2};
  EXPECT_EQ(logical_job_shape(ext), (std::array<int, 3>{16, 12, 16}));
  EXPECT_EQ(logical_job_coord({0, 0, 0, 1, 0, 0}, ext), (std::array<int, 3>{15, 0, 0}));
  EXPECT_EQ(logical_job_coord({7, 3, 7, 1, 2, 1}, ext), (std::array<int, 3>{8, 4, 8}));
}
