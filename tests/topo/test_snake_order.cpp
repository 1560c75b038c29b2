// Tests for the snake (reflected Gray code) order of Nakao et al. 2021, section 5.6.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "topo/snake_order.hpp"

using namespace g500::topo;

TEST(SnakeOrder, BijectiveAndOneStepApart) {
  for (const auto& sizes : std::vector<std::vector<int>>{{2, 3, 2}, {24, 2, 3, 2}, {3, 3}, {5}, {2, 1, 4}}) {
    int64_t n = 1;
    for (int s : sizes) n *= s;
    std::set<std::vector<int>> seen;
    std::vector<int> prev;
    for (int64_t i = 0; i < n; ++i) {
      auto d = snake_digits(i, sizes);
      for (size_t k = 0; k < sizes.size(); ++k) ASSERT_LT(d[k], sizes[k]);
      ASSERT_EQ(snake_index(d, sizes), i);
      ASSERT_TRUE(seen.insert(d).second);
      if (i > 0) {
        int diff = 0;
        for (size_t k = 0; k < sizes.size(); ++k) diff += std::abs(d[k] - prev[k]);
        ASSERT_EQ(diff, 1) << "positions " << i - 1 << " and " << i;
      }
      prev = d;
    }
  }
}

TEST(SnakeOrder, Fig11Order) {
  // abc = 2 x 3 x 2, a horizontal: the 12-member ring of Nakao et al. 2021, Fig. 11.
  const std::vector<std::vector<int>> expected{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 2, 0}, {1, 2, 0},
                                               {1, 2, 1}, {0, 2, 1}, {0, 1, 1}, {1, 1, 1}, {1, 0, 1}, {0, 0, 1}};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(snake_digits(i, {2, 3, 2}), expected[i]) << i;
}
