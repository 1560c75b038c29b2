// The model's arithmetic on hand-computable cases: Table 3 volumes, link loads, collective times,
// the Kronecker formulas, the level extrapolation on synthetic data, calibration and prediction.
#include <gtest/gtest.h>

#include <cmath>

#include "model/bfs_model.hpp"
#include "model/host_sharing.hpp"
#include "model/imbalance.hpp"
#include "model/level_work.hpp"
#include "model/levels.hpp"
#include "model/network.hpp"
#include "model/node_profile.hpp"
#include "model/pattern_loads.hpp"
#include "model/published.hpp"
#include "model/volumes.hpp"
#include "topo/allocation.hpp"
#include "topo/grid_mapping.hpp"
#include "util/error.hpp"

namespace {

using namespace g500::model;

constexpr double kTolerance = 1e-9;

// `statement` throws a UsageError whose message contains `text`.
#define EXPECT_USAGE_ERROR(statement, text)                                     \
  try {                                                                         \
    statement;                                                                  \
    ADD_FAILURE() << "no UsageError from " #statement;                          \
  } catch (const g500::util::UsageError& e) {                                   \
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what(); \
  }

LevelCounts counts(Direction d, double n, double frontier, double found, double examined, double unvisited) {
  LevelCounts c;
  c.direction = d;
  c.vertices = n;
  c.frontier = frontier;
  c.found = found;
  c.examined = examined;
  c.unvisited = unvisited;
  return c;
}

// Top-down on 4 x 2: 800 frontier vertices, 6,400 edges examined; paper words (8 and 16 bytes).
TEST(ModelVolumes, TopDownByHand) {
  const LevelVolumes v = level_volumes(counts(Direction::kTopDown, 1 << 20, 800, 0, 6400, 0), 4, 2, paper_variant());
  EXPECT_NEAR(v.allgatherv, 800.0 / 2 * 8 * 3 / 4, kTolerance);   // F/C entries, 3 of 4 from others
  EXPECT_NEAR(v.alltoallv, 6400.0 / 8 * 16 * 1 / 2, kTolerance);  // E/P pairs, half to the other column
  EXPECT_EQ(v.sendrecv, 0);
  // g500's transposed step: the frontier along the row (F/R entries of 4 bytes), candidates along the column.
  const LevelVolumes g = level_volumes(counts(Direction::kTopDown, 1 << 20, 800, 0, 6400, 0), 4, 2, g500_variant());
  EXPECT_TRUE(g.transposed);
  EXPECT_NEAR(g.allgatherv, 800.0 / 4 * 4 * 1 / 2, kTolerance);
  EXPECT_NEAR(g.alltoallv, 6400.0 / 8 * 8 * 3 / 4, kTolerance);
}

// Bottom-up on 4 x 2 with n = 2^20: a large frontier goes as a bitmap, a small unvisited set as a list.
TEST(ModelVolumes, BottomUpBitmapsAndLists) {
  const double n = 1 << 20;
  const LevelVolumes v = level_volumes(counts(Direction::kBottomUp, n, n / 4, 1000, 0, 4096), 4, 2, paper_variant());
  EXPECT_TRUE(v.frontier_is_bitmap);
  EXPECT_NEAR(v.allgatherv, n / 2 / 8 * 3 / 4, kTolerance);  // n/C bits, 3/4 from others
  EXPECT_FALSE(v.unvisited_is_bitmap);
  EXPECT_NEAR(v.sendrecv, 4096.0 / 4 * 8 / 2, kTolerance);    // U/R entries, C-1 of C passes
  EXPECT_NEAR(v.alltoallv, 1000.0 / 8 * 16 / 2, kTolerance);  // D/P pairs
  // With g500's 4-byte entries the list is half as long: the switch to a bitmap moves to n/32.
  const LevelVolumes g = level_volumes(counts(Direction::kBottomUp, n, n / 48, 0, 0, n), 1, 1, g500_variant());
  EXPECT_FALSE(g.frontier_is_bitmap);
  EXPECT_EQ(g.allgatherv, 0);  // a 1 x 1 grid sends nothing
  EXPECT_EQ(g.sendrecv, 0);
}

// All-to-all on a 4-ring (ties go +): each + link carries 3 of the 12 messages, each node sends 3.
TEST(ModelNetwork, AlltoallLinkLoadsByHand) {
  EXPECT_NEAR(alltoall_link_load({{"x", 4, true}}), 1.0, kTolerance);
  EXPECT_NEAR(alltoall_link_load({{"x", 3, false}}), 1.0, kTolerance);  // mesh 0-1-2: 2 of 2 per link
  EXPECT_NEAR(alltoall_link_load({{"a", 2, false}, {"b", 2, false}}), 2.0 / 3, kTolerance);  // 2 per link of 3 sent
  EXPECT_EQ(alltoall_link_load({}), 0);
  EXPECT_NEAR(links_per_node({{"x", 24, true}, {"a", 2, false}, {"b", 3, true}, {"m", 4, false}}), 2 + 1 + 2 + 1.5,
              kTolerance);
}

TEST(ModelNetwork, NodeBlocksAndFolding) {
  EXPECT_EQ(node_block(1), (g500::util::GridShape{1, 1}));
  EXPECT_EQ(node_block(2), (g500::util::GridShape{1, 2}));
  EXPECT_EQ(node_block(4), (g500::util::GridShape{2, 2}));
  EXPECT_EQ(node_block(8), (g500::util::GridShape{2, 4}));
  const auto fugaku = g500::topo::fugaku_system();
  const auto folded = fold_logical_axis("R", 128, fugaku);
  ASSERT_EQ(folded.size(), 2u);
  EXPECT_EQ(folded[0].size, 16);
  EXPECT_EQ(folded[1].size, 8);
  EXPECT_EQ(fold_logical_axis("R", 23, fugaku).size(), 1u);
  ASSERT_EQ(fold_logical_axis("R", 29, fugaku).size(), 1u);  // a prime longer than every axis
  EXPECT_TRUE(fold_logical_axis("R", 1, fugaku).empty());
}

// A full fat tree of 1 GB/s ports and 1 us latency: the formulas by hand.
TEST(ModelNetwork, CollectiveTimesByHand) {
  NetworkSpec net = fat_tree_network(1e9, 1e-6);
  net.eager_limit = 1000;
  const GridView view = grid_view(net, g500::util::GridShape{4, 2}, 1, Mapping::kSixD);
  const CollectiveTimes t{net, view};
  // Ring: 3 steps; 3e6 bytes over the port. Recursive doubling would take 2 steps + the bytes:
  // 2 us + 3 ms is shorter than 3 us + 3 ms.
  EXPECT_NEAR(t.allgatherv(view.column, 3e6), 2e-6 + 3e-3, 1e-12);
  EXPECT_NEAR(t.alltoallv(view.row, 2e6), 1e-6 + 2e-3, 1e-12);     // pairwise: 1 step, full bisection
  EXPECT_NEAR(t.sendrecv_step(500), 1e-6 + 500 / 0.5e9, 1e-12);    // both ways share the port
  EXPECT_NEAR(t.sendrecv_step(2000), 3e-6 + 2000 / 0.5e9, 1e-12);  // rendezvous: two more latencies
  const NetworkSpec dragonfly = dragonfly_network(1e9, 1e-6, 0.5);
  const GridView dview = grid_view(dragonfly, g500::util::GridShape{4, 2}, 1, Mapping::kSixD);
  EXPECT_NEAR((CollectiveTimes{dragonfly, dview}.alltoallv(dview.row, 2e6)), 1e-6 + 4e-3, 1e-12);
}

// Two processes per node (1 x 2 blocks): the row pair shares a node and needs no network.
TEST(ModelNetwork, ProcessesOfOneNodeDoNotUseLinks) {
  const NetworkSpec net = fat_tree_network(1e9, 1e-6);
  const GridView view = grid_view(net, g500::util::GridShape{2, 2}, 2, Mapping::kSixD);
  EXPECT_EQ(view.row.nodes, 1);
  EXPECT_NEAR((CollectiveTimes{net, view}.alltoallv(view.row, 1e6)), 1e-6, 1e-12);
  EXPECT_THROW(grid_view(net, g500::util::GridShape{3, 3}, 2, Mapping::kSixD), g500::util::UsageError);
}

TEST(ModelNetwork, TofudSixDMappingOfTheWholeSystem) {
  const GridView v = grid_view(tofud_network(), g500::util::GridShape{552, 288}, 1, Mapping::kSixD);
  EXPECT_EQ(v.placement, "XY x Zabc 6D mapping");
  EXPECT_NEAR(v.row.exchange_load, 1, kTolerance);  // the Zabc snake closes: every message one link
  EXPECT_NEAR(v.column.ring_load, 1, kTolerance);
  EXPECT_NEAR(v.column.lanes, 4, kTolerance);  // X and Y tori: two links each
  EXPECT_NEAR(v.row.lanes, 6, kTolerance);     // Z torus 2, a 1, b ring 2, c 1
  // Routed by symmetry (one group per side): the all-to-all's busiest link is the formula's.
  EXPECT_FALSE(v.routed_all_groups);
  EXPECT_NEAR(v.row.alltoall_load, alltoall_link_load(v.row.axes), 1e-9);
  EXPECT_NEAR(v.column.alltoall_load, alltoall_link_load(v.column.axes), 1e-9);
}

// Routed patterns by hand on a 3-node mesh row (0-1-2, its snake cannot close) and a 2 x 4-node
// column: the one-way ring uses each link once (the closing message 2 -> 0 goes back over the
// links of the other direction); the sendrecv sends both ways, so the + links carry 0 -> 1 and
// 0 -> 2 (the left neighbour of 0 is 2): 2 messages.
TEST(ModelNetwork, RoutedPatternLoadsByHand) {
  const g500::topo::Topology box({{"x", 3, false}, {"y", 4, true}});
  const g500::topo::GridMapping m = g500::topo::map_grid(box, {3, 4}, {1}, {0});  // R on y, C on x
  const PatternLoads loads = route_patterns(box, m.placement, Groups::kAll);
  EXPECT_NEAR(loads.row.ring, 1, kTolerance);
  EXPECT_NEAR(loads.row.exchange, 2, kTolerance);
  EXPECT_NEAR(loads.row.alltoall, alltoall_link_load({{"x", 3, false}}), kTolerance);  // 1: mesh 0-1-2
  EXPECT_NEAR(loads.column.ring, 1, kTolerance);                                       // the y torus closes
  EXPECT_NEAR(loads.column.exchange, 1, kTolerance);
  EXPECT_NEAR(loads.column.alltoall, 1, kTolerance);  // the 4-ring of AlltoallLinkLoadsByHand
  EXPECT_EQ(loads.routes, 4 * 3 * 2 + 3 * 4 * 3 + (12 + 24) + (12 + 24));
}

// The symmetry the model relies on at full size: with whole axes per side, one group per side
// gives the loads of routing every group (here a 6 x 12 grid on a 3 x 2 x 4 x 3 torus).
TEST(ModelNetwork, OneGroupPerSideEqualsTheWholePattern) {
  const g500::topo::SystemSpec system = g500::topo::parse_shape("3t,2m,4t,3m");
  const g500::topo::GridMapping m = g500::topo::map_named_axes(system, "d0,d1/d2,d3");
  const g500::topo::Topology box = g500::topo::box_topology(system, m.extents);
  const PatternLoads all = route_patterns(box, m.placement, Groups::kAll);
  const PatternLoads one = route_patterns(box, m.placement, Groups::kFirst);
  EXPECT_TRUE(all.all_groups);
  EXPECT_FALSE(one.all_groups);
  EXPECT_LT(one.routes, all.routes);
  for (int side = 0; side < 2; ++side) {
    const GroupLoads& a = side == 0 ? all.column : all.row;
    const GroupLoads& o = side == 0 ? one.column : one.row;
    EXPECT_GT(a.alltoall, 0);
    EXPECT_NEAR(o.alltoall, a.alltoall, kTolerance);
    EXPECT_NEAR(o.ring, a.ring, kTolerance);
    EXPECT_NEAR(o.exchange, a.exchange, kTolerance);
  }
}

TEST(ModelLevels, KroneckerFormulas) {
  EXPECT_NEAR(kronecker_degree_concentration(1), 0.76 * 0.76 + 0.24 * 0.24, kTolerance);
  // SCALE 1, edgefactor 1: 2 edges; vertex 0 gets an end with 0.76, vertex 1 with 0.24.
  const double expected = 1 - (std::exp(-4 * 0.76) + std::exp(-4 * 0.24)) / 2;
  EXPECT_NEAR(kronecker_reached_fraction(1, 1), expected, kTolerance);
}

TEST(ModelLevels, FitLine) {
  const Line l = fit_line({1, 2, 3}, {3, 5, 7}, {1, 1, 1});
  EXPECT_NEAR(l.intercept, 1, kTolerance);
  EXPECT_NEAR(l.slope, 2, kTolerance);
  const Line flat = fit_line({5, 5}, {1, 3}, {1, 3});
  EXPECT_NEAR(flat.slope, 0, kTolerance);
  EXPECT_NEAR(flat.at(9), 2.5, kTolerance);
}

// Synthetic rows at SCALE 10 and 12: the frontier of level 0 halves per SCALE, the share of level
// 1's bottom-up runs grows by 0.25 per SCALE; extrapolated to SCALE 14 (log-linear, clamped).
TEST(ModelLevels, ExtrapolationOfSyntheticRows) {
  const std::vector<LevelRow> rows{
      {10, -1, Direction::kTopDown, 8, 1.0, 0.01, 0.5}, {12, -1, Direction::kTopDown, 8, 1.0, 0.01, 0.5},
      {10, 0, Direction::kBottomUp, 8, 1.0, 0.8, 2.0},  {12, 0, Direction::kBottomUp, 8, 1.0, 0.2, 2.0},
      {10, 1, Direction::kBottomUp, 8, 0.25, 0.1, 0.1}, {12, 1, Direction::kBottomUp, 8, 0.75, 0.1, 0.1},
      {10, 1, Direction::kTopDown, 8, 0.75, 0.1, 0.01}, {12, 1, Direction::kTopDown, 8, 0.25, 0.1, 0.01},
  };
  const LevelStructure s = level_structure(rows, 14, 16);
  const double reached = kronecker_reached_fraction(14, 16) * 16384;
  EXPECT_NEAR(s.reached, reached, 1e-6);
  double frontier_sum = 0;
  const LevelCounts* peak = nullptr;
  for (const auto& l : s.levels) {
    frontier_sum += l.share * l.counts.frontier;
    if (l.relative == 0) peak = &l.counts;
    if (l.relative == 1) {
      EXPECT_NEAR(l.share, l.counts.direction == Direction::kBottomUp ? 1.0 : 0.0, kTolerance);
    }
  }
  EXPECT_EQ(s.levels.size(), 3u);            // level 1 top-down extrapolates to share 0 and is left out
  EXPECT_NEAR(frontier_sum, reached, 1e-6);  // every reached vertex is in one frontier
  ASSERT_NE(peak, nullptr);
  // Before rescaling: 0.01 + 0.05 + 0.1 = 0.16 per reached vertex (0.8 / 4^2 at SCALE 14).
  EXPECT_NEAR(peak->frontier, 0.05 / 0.16 * reached, 1e-6);
  EXPECT_NEAR(peak->examined, 2.0 * reached, 1e-6);
  EXPECT_NEAR(peak->unvisited, reached * (1 - (0.01 + 0.05) / 0.16), 1e-6);
}

TEST(ModelLevels, RowsOfATraceAlignAtThePeak) {
  TraceRun run;
  run.path = "synthetic";
  run.scale = 10;
  run.edgefactor = 16;
  TracedRoot a, b;
  a.reached = b.reached = 100;
  a.levels = {{Direction::kTopDown, 1, 10, 0}, {Direction::kBottomUp, 80, 50, 0}, {Direction::kTopDown, 19, 5, 0}};
  b.levels = {{Direction::kTopDown, 1, 2, 0},
              {Direction::kTopDown, 9, 40, 0},
              {Direction::kBottomUp, 70, 60, 0},
              {Direction::kBottomUp, 20, 6, 0}};
  run.roots = {a, b};
  const auto rows = level_rows(run);
  ASSERT_EQ(rows.size(), 5u);  // (-2 TD) (-1 TD) (0 BU) (1 TD) (1 BU)
  EXPECT_EQ(rows[0].relative, -2);
  EXPECT_NEAR(rows[0].share, 0.5, kTolerance);
  EXPECT_NEAR(rows[1].share, 1.0, kTolerance);  // -1: both roots, top-down
  EXPECT_NEAR(rows[1].frontier, (0.01 + 0.09) / 2, kTolerance);
  EXPECT_NEAR(rows[2].examined, (0.5 + 0.6) / 2, kTolerance);
  const auto again = parse_level_rows_csv(level_rows_csv(rows), "round trip");
  ASSERT_EQ(again.size(), rows.size());
  EXPECT_NEAR(again[2].frontier, rows[2].frontier, 1e-6);
  EXPECT_USAGE_ERROR(parse_level_rows_csv("scale,relative,direction,roots,share,frontier,examined\n10,x\n", "bad.csv"),
                     "bad.csv: bad level row at line 2");
}

// A 1 x 1 run on one machine: no communication; calculation = words / word rate + edges / rate.
TEST(ModelPredict, OneProcessByHand) {
  NodeProfile p;
  p.cores = 1;
  p.topdown_rate = 1e8;
  p.bottomup_rate = 2e8;
  p.topdown_word_rate = p.bottomup_word_rate = 1e9;
  const NetworkSpec net = shared_memory_network(1e-6, 1e9, 1);
  LevelStructure levels;
  levels.scale = 20;
  levels.vertices = 1 << 20;
  levels.edges = 16.0 * (1 << 20);
  levels.levels = {{-1, 1.0, counts(Direction::kTopDown, 1 << 20, 10, 1000, 1e6, 5e5)},
                   {0, 0.5, counts(Direction::kBottomUp, 1 << 20, 1000, 0, 4e6, 5e5)}};
  RunSetup setup;
  setup.scale = 20;
  setup.grid = g500::util::GridShape{1, 1};
  const Prediction pr = predict(p, net, levels, setup);
  const double words = (1 << 20) / 64.0;
  // Bottom-up: the 4e6 edges and a visit of each of the 5e5 unvisited vertices.
  const double calc = (words / 1e9 + 1e6 / 1e8) + 0.5 * (words / 1e9 + (4e6 + 5e5) / 2e8);
  EXPECT_NEAR(pr.seconds[static_cast<int>(Phase::kCalculation)], calc, 1e-12);
  EXPECT_EQ(pr.seconds[static_cast<int>(Phase::kAllgatherv)], 0);
  EXPECT_EQ(pr.seconds[static_cast<int>(Phase::kImbalance)], 0);
  EXPECT_NEAR(pr.teps, levels.edges / calc, 1e-3);
}

// Levels on an exact line t = a + E / r per direction give back the rates.
TEST(ModelPredict, CalibrationFromATrace) {
  TraceRun run;
  run.path = "synthetic";
  run.scale = 16;
  run.threads = 2;
  TracedRoot root;
  const double words = 65536 / 64.0;
  for (double e : {1e3, 1e5, 1e6}) {
    root.levels.push_back({Direction::kTopDown, 1, e, words / 4e8 + e / 5e7});
    root.levels.push_back({Direction::kBottomUp, 1, e, words / 2e8 + e / 1e8});
  }
  run.roots = {root};
  const NodeProfile p = calibrate_from_trace(run, 4);
  EXPECT_NEAR(p.topdown_rate, 5e7 / 2, 1);  // per core: two threads
  EXPECT_NEAR(p.bottomup_rate, 1e8 / 2, 1);
  EXPECT_NEAR(p.topdown_word_rate, 4e8 / 2, 1e2);
  EXPECT_NEAR(p.bottomup_word_rate, 2e8 / 2, 1e2);
  run.ranks = 2;
  EXPECT_USAGE_ERROR(calibrate_from_trace(run, 4), "calibrate from a 1-rank run");
}

TEST(ModelPublished, CalibrationPointIsMetAndLinesHaveTheirForm) {
  const auto rows = check_published(measured_level_rows());
  int calibrations = 0;
  for (const auto& r : rows) {
    if (r.point.calibration) {
      ++calibrations;
      EXPECT_NEAR(r.error_percent, 0, 0.01);
      EXPECT_NE(check_line(r).find(" calibration"), std::string::npos);
    }
    EXPECT_EQ(check_line(r).rfind(r.point.system + " nodes=" + std::to_string(r.point.nodes) + " scale=", 0), 0u);
  }
  EXPECT_EQ(calibrations, 1);
}

// One machine: ranks per core, the message step and copy bandwidth by the law and from a
// measurement at the rank count, and where the turns on a core go.
TEST(ModelHost, RanksPerCoreAndMessages) {
  EXPECT_NEAR(ranks_per_core(8, 1, 2), 4, kTolerance);
  EXPECT_NEAR(ranks_per_core(1, 1, 2), 1, kTolerance);  // never below 1
  NetworkSpec net = shared_memory_network(5e-6, 2e9, 2, 1e-6);
  EXPECT_NEAR(shared_step_latency(net, 8, 4), 5e-6 + 3 * 1e-6, 1e-15);  // L0 + (q - 1) t_switch
  EXPECT_NEAR(shared_bandwidth(net, 8, 4), 0.5e9, 1e-3);                // B0 / q
  net.measured_at_ranks = parse_measured_at_ranks("ranks,latency_us,bandwidth_gbs\n8,10.5,0.25\n", "m.csv");
  EXPECT_NEAR(shared_step_latency(net, 8, 4), 10.5e-6, 1e-15);  // measured at 8 ranks: as it is
  EXPECT_NEAR(shared_bandwidth(net, 8, 4), 0.25e9, 1e-3);
  EXPECT_NEAR(shared_step_latency(net, 6, 3), 7e-6, 1e-15);  // no measurement at 6: the law
  EXPECT_USAGE_ERROR(parse_measured_at_ranks("ranks,latency_us,bandwidth_gbs\n8;1;2\n", "m.csv"), "m.csv: bad line 2");
  EXPECT_USAGE_ERROR(parse_measured_at_ranks("ranks,latency_us,bandwidth_gbs\n", "m.csv"), "no measurements");
}

TEST(ModelHost, TurnsOnACoreGoToTheSynchronisationsAround) {
  // Bottom-up, C = 2, three ranks per core, 1 s of calculation: two segments of 0.5 s, each
  // waiting (3 - 1) / 2 of its length before and after: allgatherv | sub-step 0 | sendrecv |
  // sub-step 1 | alltoallv.
  PhaseSeconds s{};
  add_core_waits(s, 1.0, 3, LevelSynchronisation{true, 2, true, true});
  EXPECT_NEAR(s[static_cast<int>(Phase::kAllgatherv)], 0.5, kTolerance);
  EXPECT_NEAR(s[static_cast<int>(Phase::kSendrecv)], 1.0, kTolerance);
  EXPECT_NEAR(s[static_cast<int>(Phase::kAlltoallv)], 0.5, kTolerance);
  EXPECT_NEAR(total_seconds(s), (3 - 1) * 1.0, kTolerance);  // the level lasts q times one rank's calculation
  // Top-down with a row of one process (no allgatherv): that side waits at the level's end.
  PhaseSeconds t{};
  add_core_waits(t, 1.0, 2, LevelSynchronisation{false, 1, false, true});
  EXPECT_NEAR(t[static_cast<int>(Phase::kImbalance)], 0.5, kTolerance);
  EXPECT_NEAR(t[static_cast<int>(Phase::kAlltoallv)], 0.5, kTolerance);
  PhaseSeconds none{};
  add_core_waits(none, 1.0, 1, LevelSynchronisation{true, 2, true, true});  // a core per rank: no turns
  EXPECT_EQ(total_seconds(none), 0);
}

// The calculation of a level per process: blocks holding edges, bottom-up row visits.
TEST(ModelWork, RowVisitsAndEdgesByHand) {
  EXPECT_NEAR(blocks_with_edges(1, 5), 1, kTolerance);
  EXPECT_NEAR(blocks_with_edges(2, 1), 1, kTolerance);         // one edge: one block
  EXPECT_NEAR(blocks_with_edges(2, 2), 2 * 0.75, kTolerance);  // 2 (1 - 1/4)
  const double n = 1 << 20;
  // 2 x 2 grid, mean degree 60 (b = 2 (1 - 2^-60), 2 to 1e-15): 600 vertices not found visited
  // twice, 400 found visited 1.5 times on average; plus 3,000 edges; over 4 processes.
  const ProcessWork w =
      process_work(counts(Direction::kBottomUp, n, 100, 400, 3000, 1000), g500::util::GridShape{2, 2}, 60);
  EXPECT_NEAR(w.accesses, (600 * 2 + 400 * 1.5 + 3000) / 4, 1e-9);
  EXPECT_NEAR(w.words, n / 64 / 2, kTolerance);  // the row set's n / R rows
  const ProcessWork t =
      process_work(counts(Direction::kTopDown, n, 100, 0, 3000, 1000), g500::util::GridShape{2, 2}, 60);
  EXPECT_NEAR(t.accesses, 3000.0 / 4, kTolerance);
  EXPECT_NEAR(t.words, n / 64 / 4, kTolerance);
  EXPECT_NEAR(one_process_accesses(Direction::kBottomUp, 3000, 1000), 4000, kTolerance);
  EXPECT_NEAR(one_process_accesses(Direction::kTopDown, 3000, 1000), 3000, kTolerance);
}

// Waiting for the slowest: Blom's expected maximum, the Kronecker hubs, the split between the
// group's collective and the barrier.
TEST(ModelImbalance, ExpectedMaximaHubsAndWaitsByHand) {
  EXPECT_EQ(expected_max_normal(1), 0);
  for (double n : {2.0, 8.0, 158976.0}) {
    const double g = expected_max_normal(n);
    EXPECT_NEAR(0.5 * std::erfc(-g / std::sqrt(2.0)), (n - 0.375) / (n + 0.25), 1e-9);
  }
  EXPECT_NEAR(expected_max_normal(2), 1 / std::sqrt(M_PI), 0.03);  // the exact maximum of two: 0.564
  EXPECT_GT(expected_max_normal(158976), expected_max_normal(9936));
  // SCALE 2, edgefactor 1 (2 m = 8 edge ends): class degrees 8 x 0.76^2, 8 x 0.76 x 0.24, 8 x 0.24^2.
  EXPECT_NEAR(kronecker_class_degree(2, 1, 0), 8 * 0.76 * 0.76, kTolerance);
  EXPECT_NEAR(kronecker_class_degree(2, 1, 1), 8 * 0.76 * 0.24, kTolerance);
  EXPECT_NEAR(largest_hub_within(2, 1, 5), 8 * 0.76 * 0.76, kTolerance);
  EXPECT_NEAR(largest_hub_within(2, 1, 4), 8 * 0.76 * 0.24, kTolerance);
  EXPECT_EQ(largest_hub_within(2, 1, 0.1), 0);
  // Two sets share 5 edges, the hub of 4.6208 among them: the slower set does 4.6208 / 2 more
  // than its mean 2.5, 0.92416 of it; with 4 edges the hub is 1.4592.
  EXPECT_NEAR(hub_excess(2, 1, 5, 2), 2 * 4.6208 * 0.5 / 5, 1e-9);
  EXPECT_NEAR(hub_excess(2, 1, 4, 2), 2 * 1.4592 * 0.5 / 4, 1e-9);
  EXPECT_NEAR(hub_excess(2, 1, 8 * 0.76 * 0.76, 16), 15, 1e-9);  // the level is the hub: all on one set of 16
  EXPECT_EQ(hub_excess(2, 1, 5, 1), 0);
  // 1 s of calculation, spread 0.1, a hub excess 0.5, groups of 2 among 8 processes; the count of
  // 1e12 accesses adds 1e-12 to the variance.
  const double sigma = std::sqrt(0.01 + 1e-12);
  const LevelWaits w = level_waits(1.0, 1e12, 0.1, 0.5, 2, 8);
  EXPECT_NEAR(w.group, 0.5 + sigma * expected_max_normal(2), 1e-12);
  EXPECT_NEAR(w.barrier, sigma * (expected_max_normal(8) - expected_max_normal(2)), 1e-12);
  const LevelWaits alone = level_waits(1.0, 1e12, 0.1, 0.5, 1, 8);  // no group: all at the barrier
  EXPECT_EQ(alone.group, 0);
  EXPECT_NEAR(alone.barrier, 0.5 + sigma * expected_max_normal(8), 1e-12);
  EXPECT_EQ(level_waits(1.0, 1e12, 0.1, 0.5, 1, 1).barrier, 0);  // one process waits for nobody
}

// The time spread of the calibration: top-down levels on the line t = accesses / 1e8 at 1e5 and
// 5e5 accesses and off it in pairs by -+10 %, -+30 %, -+20 % at 2e5, 3e5, 4e5 (the line stays
// exact), two bottom-up levels on their line. Deviations 0 (x4), -+0.1, -+0.2, -+0.3: median 0,
// median absolute deviation 0.1 (the sixth of ten), spread 1.4826 x 0.1.
TEST(ModelPredict, TimeSpreadOfTheCalibrationTrace) {
  TraceRun run;
  run.path = "synthetic";
  run.scale = 16;
  run.threads = 1;
  TracedRoot root;
  for (double e : {1e5, 5e5}) root.levels.push_back({Direction::kTopDown, 1, e, e / 1e8, 0});
  for (auto [e, off] : {std::pair{2e5, 0.1}, {3e5, 0.3}, {4e5, 0.2}})
    for (double sign : {-1.0, 1.0}) root.levels.push_back({Direction::kTopDown, 1, e, e / 1e8 * (1 + sign * off), 0});
  for (double e : {1e5, 5e5}) root.levels.push_back({Direction::kBottomUp, 1, e, e / 2e8, 0});
  run.roots = {root};
  const NodeProfile p = calibrate_from_trace(run, 1);
  EXPECT_NEAR(p.topdown_rate, 1e8, 1e-3);
  EXPECT_NEAR(p.level_time_spread, 1.4826 * 0.1, 1e-9);
}

}  // namespace
