// Tests for the link-load simulator on shapes small enough to count by hand.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "topo/allocation.hpp"
#include "topo/grid_mapping.hpp"
#include "topo/layout_comparison.hpp"
#include "topo/link_load.hpp"
#include "topo/segment_loads.hpp"
#include "topo/systems.hpp"

using namespace g500::topo;

namespace {
constexpr double kBlock = 1000.0;
LinkParameters unit_link() {
  LinkParameters p;
  p.message_bytes = kBlock;
  p.bandwidth = 1e9;
  p.latency = 1e-6;
  return p;
}
}  // namespace

TEST(LinkLoad, RingOfFourRowRing) {
  Topology ring({{"X", 4, true}});
  Placement p = plain_rank_order(ring, 1, 4);
  auto rep = simulate(ring, p, Pattern::RowRing, unit_link(), {}, true);
  // Each rank sends block/2 each way to its neighbours: every directed link carries one message.
  EXPECT_EQ(rep.messages, 8);
  EXPECT_EQ(rep.links, 8);
  EXPECT_DOUBLE_EQ(rep.max_link_bytes, kBlock / 2);
  EXPECT_DOUBLE_EQ(rep.mean_link_bytes, kBlock / 2);
  EXPECT_EQ(rep.max_hops, 1);
  // 4 sub-steps per step, each 1 hop latency + 500 B / 1 GB/s.
  EXPECT_NEAR(rep.estimated_seconds, 4 * (1e-6 + 500 / 1e9), 1e-15);
}

TEST(LinkLoad, RingOfFourAlltoallByHand) {
  Topology ring({{"X", 4, true}});
  Placement p = plain_rank_order(ring, 1, 4);
  auto rep = simulate(ring, p, Pattern::Alltoall, unit_link(), {}, true);
  // From every node: +1 (1 hop, + link), +2 (tie: 2 hops the + way), -1 (1 hop, - link).
  // A + link carries 3 messages (to +1 and +2 from its node, to +2 from the node behind), a - link 1.
  EXPECT_EQ(rep.messages, 12);
  EXPECT_DOUBLE_EQ(rep.max_link_bytes, 3 * kBlock);
  EXPECT_DOUBLE_EQ(rep.mean_link_bytes, 2 * kBlock);
  EXPECT_NEAR(rep.mean_hops, 4.0 / 3.0, 1e-12);
  EXPECT_EQ(rep.max_hops, 2);
  for (int node = 0; node < 4; ++node) {
    EXPECT_DOUBLE_EQ(rep.link_bytes[ring.link_index(node, 0, true)], 3 * kBlock);
    EXPECT_DOUBLE_EQ(rep.link_bytes[ring.link_index(node, 0, false)], kBlock);
  }
}

TEST(LinkLoad, MeshLineColumnAllgatherv) {
  // 3-node mesh, grid 3 x 1: the column allgatherv is all-to-all among 3 nodes on a line.
  Topology line({{"X", 3, false}});
  Placement p = plain_rank_order(line, 3, 1);
  auto rep = simulate(line, p, Pattern::ColAllgatherv, unit_link(), {}, true);
  // + link 0->1 carries 0->1, 0->2; + link 1->2 carries 0->2, 1->2: 2 each; same for - links.
  EXPECT_EQ(rep.links, 4);
  EXPECT_DOUBLE_EQ(rep.max_link_bytes, 2 * kBlock);
  EXPECT_DOUBLE_EQ(rep.mean_link_bytes, 2 * kBlock);
  EXPECT_NEAR(rep.mean_hops, 8.0 / 6.0, 1e-12);
  EXPECT_DOUBLE_EQ(rep.link_bytes[line.link_index(2, 0, true)], 0.0);  // no link leaves the end
}

TEST(LinkLoad, RowAlltoallvSplitsTheBlock) {
  Topology t({{"X", 4, true}, {"Y", 2, false}});
  Placement p = plain_rank_order(t, 2, 4);  // rows are the X rings
  auto rep = simulate(t, p, Pattern::RowAlltoallv, unit_link(), {}, true);
  EXPECT_EQ(rep.messages, 8 * 3);
  EXPECT_DOUBLE_EQ(rep.max_link_bytes, 3 * kBlock / 3);             // three messages of block/3 on a + link
  EXPECT_DOUBLE_EQ(rep.link_bytes[t.link_index(0, 1, true)], 0.0);  // nothing crosses Y
}

TEST(LinkLoad, BinomialBcast) {
  Topology line({{"X", 8, false}});
  Placement p = plain_rank_order(line, 1, 8);
  auto rep = simulate(line, p, Pattern::Bcast, unit_link(), {}, true);
  // 0->1, 0->2, 0->4, 1->3, 1->5, 2->6, 3->7, ... : 7 messages; link 0->1 carries 0->1, 0->2, 0->4.
  EXPECT_EQ(rep.messages, 7);
  EXPECT_EQ(rep.routed_messages, 7);
  EXPECT_DOUBLE_EQ(rep.link_bytes[line.link_index(0, 0, true)], 3 * kBlock);
}

TEST(LinkLoad, SegmentMarksEqualHopByHopRouting) {
  std::mt19937 rng(7);
  for (const char* shape : {"5t,4m,3t", "2m,3t,2m", "6t,1m,4t", "24t,3t"}) {
    Topology t(parse_shape(shape).axes);
    SegmentLoads seg(t);
    std::vector<int64_t> hop(t.link_slot_count(), 0);
    std::uniform_int_distribution<int64_t> pick(0, t.node_count() - 1);
    for (int i = 0; i < 2000; ++i) {
      int64_t s = pick(rng), d = pick(rng);
      int h1 = seg.add_route(s, d);
      int h2 = t.route(s, d, [&](int64_t l) { ++hop[l]; });
      ASSERT_EQ(h1, h2);
    }
    EXPECT_EQ(seg.counts(), hop) << shape;
  }
}

TEST(LinkLoad, SamplingScalesToTheFullVolume) {
  Topology t(parse_shape("4t,4t,3t").axes);
  Placement p = plain_rank_order(t, 6, 8);
  SimulationBudget small;
  small.max_routes = 200;
  small.max_routes_alltoall = 200;
  auto exact = simulate(t, p, Pattern::Alltoall, unit_link(), {}, false);
  auto sampled = simulate(t, p, Pattern::Alltoall, unit_link(), small, false);
  EXPECT_GT(sampled.sampled_sources, 0);
  EXPECT_LT(sampled.routed_messages, exact.routed_messages);
  EXPECT_NEAR(sampled.mean_link_bytes / exact.mean_link_bytes, 1.0, 0.25);
}

TEST(LinkLoad, SixDMappingWinsTheBfsStepOnOneSixteenthFugaku) {
  // 9,936 nodes (Nakao et al. 2021, section 6.1 uses 1/16 of Fugaku): plain rank order vs scheduler 2D shape vs 6D
  // mapping.
  auto system = fugaku_system();
  GridMapping m = choose_grid_mapping(system, {9936, std::nullopt});
  Topology box = box_topology(system, m.extents);
  auto layouts = comparison_layouts(system, m);
  ASSERT_EQ(layouts.size(), 3u);
  const std::vector<Pattern> bfs{Pattern::ColAllgatherv, Pattern::RowAlltoallv, Pattern::RowRing};
  auto rows = compare_layouts(box, layouts, bfs, LinkParameters{}, SimulationBudget{}, false);
  std::map<std::string, double> step;
  for (const auto& r : rows) {
    EXPECT_EQ(r.report.sampled_sources, 0);  // exact at this size
    step[r.layout] += r.report.estimated_seconds;
    if (r.layout == "6d-mapping" && r.pattern == Pattern::RowRing) {
      EXPECT_EQ(r.report.max_hops, 1);
    }
  }
  EXPECT_LT(step["6d-mapping"], step["plain"]);
  EXPECT_LT(step["6d-mapping"], step["scheduler-2d"]);
}
