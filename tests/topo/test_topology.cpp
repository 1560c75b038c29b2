// Tests for the N-D mesh/torus model: ids, hop distances with wrap, routing.
#include <gtest/gtest.h>

#include <set>

#include "topo/systems.hpp"
#include "topo/topology.hpp"
#include "util/error.hpp"

using namespace g500::topo;

TEST(Topology, CoordinatesAndIdsAreABijection) {
  Topology t({{"X", 4, true}, {"Y", 3, false}, {"b", 3, true}});
  ASSERT_EQ(t.node_count(), 36);
  for (int64_t id = 0; id < t.node_count(); ++id) EXPECT_EQ(t.node_id(t.coord(id)), id);
  EXPECT_EQ(t.coord(1), (Coord{1, 0, 0}));  // first axis fastest
  EXPECT_EQ(t.coord(4), (Coord{0, 1, 0}));
}

TEST(Topology, HopDistanceWrapsOnToriOnly) {
  Topology t({{"X", 24, true}, {"M", 24, false}, {"a", 2, false}, {"b", 3, true}});
  EXPECT_EQ(t.hop_distance({0, 0, 0, 0}, {23, 0, 0, 0}), 1);
  EXPECT_EQ(t.hop_distance({0, 0, 0, 0}, {12, 0, 0, 0}), 12);
  EXPECT_EQ(t.hop_distance({0, 0, 0, 0}, {13, 0, 0, 0}), 11);
  EXPECT_EQ(t.hop_distance({0, 0, 0, 0}, {0, 23, 0, 0}), 23);
  EXPECT_EQ(t.hop_distance({0, 0, 0, 0}, {0, 0, 1, 0}), 1);
  EXPECT_EQ(t.hop_distance({0, 0, 0, 0}, {0, 0, 0, 2}), 1);  // 3-ring
  EXPECT_EQ(t.hop_distance({5, 3, 1, 1}, {20, 10, 0, 2}), 9 + 7 + 1 + 1);
}

TEST(Topology, FugakuPresetAndDistances) {
  auto f = fugaku_system();
  Topology t(f.axes);
  EXPECT_EQ(t.node_count(), 158976);
  // Y is a 23-torus: 0 -> 22 is one hop, 0 -> 11 and 0 -> 12 are 11 hops.
  EXPECT_EQ(t.hop_distance({0, 0, 0, 0, 0, 0}, {0, 22, 0, 0, 0, 0}), 1);
  EXPECT_EQ(t.hop_distance({0, 0, 0, 0, 0, 0}, {0, 12, 0, 0, 0, 0}), 11);
  EXPECT_EQ(Topology(k_system().axes).node_count(), 82944);
}

TEST(Topology, DimensionOrderRouteFollowsNeighbours) {
  Topology t({{"X", 5, true}, {"Y", 4, false}, {"Z", 6, true}});
  for (int64_t s = 0; s < t.node_count(); s += 7)
    for (int64_t d = 0; d < t.node_count(); d += 3) {
      std::vector<int64_t> links;
      int hops = t.route(s, d, [&](int64_t l) { links.push_back(l); });
      ASSERT_EQ(hops, t.hop_distance(t.coord(s), t.coord(d)));
      ASSERT_EQ(static_cast<int>(links.size()), hops);
      int last_axis = -1;
      for (int64_t l : links) {  // axes are visited in order, never going back
        int axis = static_cast<int>((l / 2) % t.ndims());
        ASSERT_GE(axis, last_axis);
        last_axis = axis;
      }
      std::set<int64_t> unique(links.begin(), links.end());
      ASSERT_EQ(unique.size(), links.size());
    }
}

TEST(Systems, ShapeParsing) {
  auto s = parse_shape("2m,3t,2m");
  ASSERT_EQ(s.axes.size(), 3u);
  EXPECT_EQ(s.axes[1].size, 3);
  EXPECT_TRUE(s.axes[1].torus);
  EXPECT_FALSE(s.axes[0].torus);
  EXPECT_EQ(s.axes[2].name, "d2");
  auto named = parse_shape("a=2m,b=3t,c=2m");
  EXPECT_EQ(named.axes[1].name, "b");
  for (const char* bad :
       {"", "2", "2x", "m", "2m,,3t", "0m", "-2m", "2m,a=", "a=2m,a=3t", "99999999t", "4096t,4096t,4096t"})
    EXPECT_THROW(parse_shape(bad), g500::util::UsageError) << bad;
  EXPECT_THROW(system_preset("summit"), g500::util::UsageError);
  EXPECT_TRUE(system_preset("fugaku").has_tofu_axes());
}
