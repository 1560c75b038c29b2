// Tests for the 2D grid mapping of Nakao et al. 2021, section 5.6 (Fig. 11, whole Fugaku) and Nakao et al. 2020's ring
// conditions.
#include <gtest/gtest.h>

#include <algorithm>

#include "topo/allocation.hpp"
#include "topo/grid_mapping.hpp"
#include "util/error.hpp"

using namespace g500::topo;

namespace {
void expect_bijective(const Topology& box, const Placement& p) {
  ASSERT_EQ(static_cast<int64_t>(p.node_of_rank.size()), box.node_count());
  std::vector<int64_t> sorted = p.node_of_rank;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < box.node_count(); ++i) ASSERT_EQ(sorted[i], i);
}
}  // namespace

TEST(GridMapping, Fig11AbcRingOfTwelve) {
  auto system = fugaku_system();
  GridMapping m = choose_grid_mapping(system, {12, g500::util::GridShape{1, 12}});
  Topology box = box_topology(system, m.extents);
  EXPECT_EQ(m.extents, (std::vector<int>{1, 1, 1, 2, 3, 2}));
  EXPECT_EQ(axes_label(box, m.col_axes), "abc");
  EXPECT_TRUE(m.ring_adjacent);
  EXPECT_EQ(count_ring_breaks(box, m.placement), 0);
  expect_bijective(box, m.placement);
  // Processes 0 and 11 are physical neighbours (through the 2-node c axis).
  EXPECT_EQ(box.coord(m.placement.node_of_rank[0]), (Coord{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(box.coord(m.placement.node_of_rank[11]), (Coord{0, 0, 0, 0, 0, 1}));
}

TEST(GridMapping, WholeFugakuIsXYbyZabc) {
  auto system = fugaku_system();
  GridMapping m = choose_grid_mapping(system, {158976, std::nullopt});
  Topology box = box_topology(system, m.extents);
  EXPECT_EQ(m.placement.rows, 552);
  EXPECT_EQ(m.placement.cols, 288);
  EXPECT_EQ(axes_label(box, m.row_axes), "XY");
  EXPECT_EQ(axes_label(box, m.col_axes), "Zabc");
  EXPECT_TRUE(m.ring_adjacent);
  expect_bijective(box, m.placement);
  GridMapping s = scheduler_2d_mapping(system, m.extents);
  EXPECT_EQ(s.placement.rows, 1104);
  EXPECT_EQ(s.placement.cols, 144);
  EXPECT_TRUE(s.ring_adjacent);
  expect_bijective(box, s.placement);
  Placement plain = plain_rank_order(box, 552, 288);
  expect_bijective(box, plain);
  EXPECT_GT(count_ring_breaks(box, plain), 0);
}

TEST(GridMapping, ProductsAndRatioRule) {
  auto system = fugaku_system();
  for (long long n : {12LL, 24LL, 48LL, 96LL, 384LL, 1152LL, 9936LL, 39744LL}) {
    GridMapping m = choose_grid_mapping(system, {n, std::nullopt});
    Topology box = box_topology(system, m.extents);
    EXPECT_EQ(static_cast<long long>(m.placement.rows) * m.placement.cols, n);
    EXPECT_GE(m.placement.rows, m.placement.cols) << n;
    expect_bijective(box, m.placement);
    EXPECT_EQ(m.ring_adjacent, count_ring_breaks(box, m.placement) == 0);
  }
  // K computer whole system: 82,944 nodes.
  auto k = k_system();
  GridMapping mk = choose_grid_mapping(k, {82944, std::nullopt});
  EXPECT_EQ(static_cast<long long>(mk.placement.rows) * mk.placement.cols, 82944);
  EXPECT_TRUE(mk.ring_adjacent);
}

TEST(GridMapping, RingConditionsOf000) {
  Topology box({{"a", 2, false}, {"b", 3, true}, {"c", 2, false}});
  auto abc = ring_conditions(box, {0, 1, 2});
  EXPECT_TRUE(abc.vertical_even);
  EXPECT_TRUE(abc.last_axis_closes);
  EXPECT_TRUE(abc.closes);
  auto ab = ring_conditions(box, {0, 1});  // vertical b = 3 is odd: the snake cannot close
  EXPECT_FALSE(ab.vertical_even);
  EXPECT_FALSE(ab.closes);
  auto ba = ring_conditions(box, {1, 0});  // vertical a = 2, last axis a has 2 nodes
  EXPECT_TRUE(ba.vertical_even && ba.last_axis_closes && ba.closes);
  EXPECT_EQ(*closing_order(box, {0, 1}), (std::vector<int>{1, 0}));
  Topology mesh({{"p", 4, false}, {"q", 4, false}});
  auto pq = ring_conditions(mesh, {0, 1});  // last axis a 4-node mesh
  EXPECT_TRUE(pq.vertical_even);
  EXPECT_FALSE(pq.last_axis_closes);
  EXPECT_FALSE(pq.closes);
  EXPECT_FALSE(closing_order(mesh, {0, 1}).has_value());
  Topology odd({{"p", 3, false}, {"q", 3, false}});  // 9 nodes: no ring at all
  GridMapping m = map_grid(odd, {3, 3}, {}, {0, 1});
  EXPECT_FALSE(m.ring_adjacent);
  EXPECT_GT(count_ring_breaks(odd, m.placement), 0);
}

TEST(GridMapping, RequestedGrid) {
  auto system = parse_shape("2m,3t,2m");
  GridMapping ring = choose_grid_mapping(system, {12, g500::util::GridShape{1, 12}});
  EXPECT_EQ(ring.placement.cols, 12);
  EXPECT_TRUE(ring.ring_adjacent);
  GridMapping g = choose_grid_mapping(system, {12, g500::util::GridShape{4, 3}});
  EXPECT_EQ(g.placement.rows, 4);
  EXPECT_TRUE(g.ring_adjacent);
  EXPECT_THROW(choose_grid_mapping(system, {12, g500::util::GridShape{5, 3}}), g500::util::UsageError);  // 15 != 12
  EXPECT_THROW(choose_grid_mapping(system, {13, std::nullopt}), g500::util::UsageError);                 // > 12 nodes
  EXPECT_EQ(choose_grid_mapping(system, {12, g500::util::GridShape{12, 1}}).placement.cols, 1);
  auto f = fugaku_system();
  EXPECT_THROW(choose_grid_mapping(f, {158977, std::nullopt}), g500::util::UsageError);
  // 4m,3m has only whole-axis products 3, 4 and 12: a 2 x 6 grid cannot be formed.
  EXPECT_THROW(choose_grid_mapping(parse_shape("4m,3m"), {12, g500::util::GridShape{2, 6}}), g500::util::UsageError);
}

TEST(GridMapping, NamedAxes) {
  auto system = fugaku_system();
  GridMapping paper = map_named_axes(system, "XY/Zabc");
  EXPECT_EQ(paper.placement.rows, 552);
  EXPECT_EQ(paper.placement.cols, 288);
  EXPECT_TRUE(paper.ring_adjacent);
  EXPECT_FALSE(paper.col_axes_reordered);
  GridMapping sched = map_named_axes(system, "YZc/Xab");
  EXPECT_EQ(sched.placement.rows, 1104);
  EXPECT_EQ(sched.placement.cols, 144);
  EXPECT_TRUE(sched.ring_adjacent);
  EXPECT_TRUE(sched.col_axes_reordered);  // Xab ends on the 3-ring b: reordered to close
  GridMapping fig11 = map_named_axes(system, "/abc");
  EXPECT_EQ(fig11.placement.cols, 12);
  EXPECT_EQ(map_named_axes(parse_shape("4t,4t,2m"), "d0/d1,d2").placement.cols, 8);
  for (const char* bad : {"XY", "XY/Zabc/", "XQ/Z", "XX/Z", "X/X"})
    EXPECT_THROW(map_named_axes(system, bad), g500::util::UsageError) << bad;
}
