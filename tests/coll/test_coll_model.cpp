// Model fit, segment-size formulas and the torus cost model of Hosono et al. 2021.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "coll/coll_model.hpp"
#include "coll/torus_model.hpp"
#include "comm/bcast_trees.hpp"

namespace {

using namespace g500::comm;
using namespace g500::coll;

constexpr double kTrinaryLatency = 1.73e-6, kTrinaryBandwidth = 6.34e9;  // Hosono et al. 2021's fit for Trinaryx6
constexpr double kBintreeLatency = 4.29e-6, kBintreeBandwidth = 6.64e9;  // Hosono et al. 2021's fit for Bintree3d

// Synthetic times from the model itself (with 0.1% noise) must give back L and B within 1%.
TEST(CollModel, FitRecoversLatencyAndBandwidth) {
  std::mt19937 generator(7);
  std::uniform_real_distribution<double> noise(-1e-3, 1e-3);
  struct Case {
    CollOp op;
    const char* algorithm;
    Shape3 shape;
    double segment;
    int trees;
  };
  const Case cases[] = {{CollOp::bcast, "ktree6", Shape3{{16, 12, 16}}, 4096, 6},
                        {CollOp::bcast, "bintree3d", Shape3{{8, 6, 8}}, 16384, 0},
                        {CollOp::bcast, "pipeline", Shape3{{384, 1, 1}}, 8192, 0},
                        {CollOp::alltoallv, "pairwise", Shape3{{64, 6, 1}}, 0, 0},
                        {CollOp::alltoallv, "dimwise", Shape3{{8, 6, 8}}, 0, 0},
                        {CollOp::allgatherv, "recdbl", Shape3{{6, 1, 1}}, 0, 0},
                        {CollOp::bcast, "mpi", Shape3{{8, 1, 1}}, 0, 0}};
  for (const Case& c : cases) {
    std::vector<CostTerms> terms;
    std::vector<double> times;
    for (double m = 64; m <= (1 << 24); m *= 2) {
      terms.push_back(cost_terms(c.op, c.algorithm, c.shape.size(), c.shape, m, c.segment, c.trees));
      times.push_back(terms.back().time(kTrinaryLatency, kTrinaryBandwidth) * (1 + noise(generator)));
    }
    const auto fit = fit_latency_bandwidth(terms, times);
    EXPECT_NEAR(fit.latency / kTrinaryLatency, 1.0, 0.01) << c.algorithm;
    EXPECT_NEAR(fit.bandwidth / kTrinaryBandwidth, 1.0, 0.01) << c.algorithm;
    EXPECT_LT(fit.rms_relative_error, 0.01);
  }
}

// Eq. 5 as derived (-3) and Eq. 7 are the minimisers of Eqs. 4 and 6; the printed -2 is not.
TEST(CollModel, SegmentFormulasMatchNumericMinimum) {
  for (const Shape3& shape : {Shape3{{8, 6, 8}}, Shape3{{16, 12, 16}}, Shape3{{48, 64, 1}}}) {
    for (double m = 4096; m <= (1 << 26); m *= 4) {
      auto ktree = [&](double s) { return ktree_time(kTrinaryLatency, kTrinaryBandwidth, m, s, shape, 6); };
      const double derived = ktree_optimal_segment(kTrinaryLatency, kTrinaryBandwidth, m, shape, 6);
      const double numeric = minimise_segment(ktree, 1, 1e9);
      EXPECT_NEAR(derived / numeric, 1.0, 1e-3) << shape.text() << " M=" << m;
      const double printed = ktree_optimal_segment(kTrinaryLatency, kTrinaryBandwidth, m, shape, 6, true);
      EXPECT_LT(printed, derived);
      EXPECT_GE(ktree(printed), ktree(derived));

      auto bintree = [&](double s) { return bintree3d_time(kBintreeLatency, kBintreeBandwidth, m, s, shape); };
      const double formula = bintree3d_optimal_segment(kBintreeLatency, kBintreeBandwidth, m, shape);
      EXPECT_NEAR(formula / minimise_segment(bintree, 1, 1e9), 1.0, 1e-3) << shape.text() << " M=" << m;
    }
  }
}

TEST(CollModel, UnsegmentedKtreeMatchesEquation4) {
  const Shape3 shape{{8, 6, 8}};
  const double m = 1 << 20;
  const auto terms = cost_terms(CollOp::bcast, "ktree6", shape.size(), shape, m, 0, 6);
  EXPECT_NEAR(terms.time(kTrinaryLatency, kTrinaryBandwidth),
              ktree_time(kTrinaryLatency, kTrinaryBandwidth, m, m / 6, shape, 6), 1e-12);
}

TEST(TorusModel, HopsFollowShortestWayRound) {
  const Shape3 ring{{10, 1, 1}};
  EXPECT_EQ(torus_hops(ring, 0, 9), 1);
  EXPECT_EQ(torus_hops(ring, 0, 5), 5);
  const Shape3 cube{{4, 4, 4}};
  EXPECT_EQ(torus_hops(cube, cube.rank_of({0, 0, 0}), cube.rank_of({2, 3, 1})), 2 + 1 + 1);
}

TEST(TorusModel, ShiftLoadsOnARing) {
  // Every rank sends to rank+2 on a ring of 8: each + link carries two messages.
  auto load = rank_shift_load(Shape3{{8, 1, 1}}, 2, 1.0);
  EXPECT_DOUBLE_EQ(load.max_link_units, 2.0);
  EXPECT_DOUBLE_EQ(load.max_hops, 2.0);
  // Shift by 6 goes the other way round, two hops.
  load = rank_shift_load(Shape3{{8, 1, 1}}, 6, 1.0);
  EXPECT_DOUBLE_EQ(load.max_link_units, 2.0);
  // On 4x2 a shift of 4 ranks is one hop in Y for everybody, over the direct link each way.
  load = rank_shift_load(Shape3{{4, 2, 1}}, 4, 1.0);
  EXPECT_DOUBLE_EQ(load.max_hops, 1.0);
  EXPECT_DOUBLE_EQ(load.max_link_units, 1.0);
}

TEST(TorusModel, ThreeDimensionalShapesAreFasterForAlltoall) {
  const NetworkParams network;
  for (const char* algorithm : {"linear", "pairwise", "dimwise"}) {
    const double t1 = simulate_alltoall(algorithm, Shape3{{384, 1, 1}}, 65536, network);
    const double t3 = simulate_alltoall(algorithm, Shape3{{8, 6, 8}}, 65536, network);
    EXPECT_LT(t3, t1) << algorithm;
  }
}

TEST(TorusModel, KtreeOnOneDimensionIsNoBetterThanLinearAlgorithms) {
  const NetworkParams network;
  const Shape3 line{{384, 1, 1}}, cube{{8, 6, 8}};
  const double small = 1024;
  EXPECT_GE(simulate_bcast("ktree6", line, small, 0, network), simulate_bcast("linear", line, small, 0, network));
  EXPECT_LT(simulate_bcast("ktree6", cube, small, 0, network), simulate_bcast("linear", cube, small, 0, network));
}

TEST(BcastTrees, EveryTreeSpansAllRanksOnce) {
  const Shape3 shape{{3, 2, 4}};
  const int p = shape.size();
  for (int root : {0, 5, p - 1}) {
    for (int tree = 0; tree < 7; ++tree) {
      std::vector<int> parents(p, -2);
      for (int r = 0; r < p; ++r) {
        TreeLinks links = tree < 6 ? dimension_chain_tree(r, root, shape, tree) : bintree3d_tree(r, root, shape);
        for (int child : links.children) {
          EXPECT_EQ(parents[child], -2) << "child " << child << " twice";
          parents[child] = r;
        }
        EXPECT_EQ(
            links.parent,
            r == root
                ? -1
                : (tree < 6 ? dimension_chain_tree(r, root, shape, tree) : bintree3d_tree(r, root, shape)).parent);
      }
      for (int r = 0; r < p; ++r) {
        const int parent =
            tree < 6 ? dimension_chain_tree(r, root, shape, tree).parent : bintree3d_tree(r, root, shape).parent;
        EXPECT_EQ(parents[r], r == root ? -2 : parent) << "rank " << r << " tree " << tree;
      }
    }
  }
}

}  // namespace

namespace {
TEST(TorusModel, KtreeLinkSharingIsCounted) {
  using namespace g500::comm;
  using namespace g500::coll;
  // On a ring all three "plus" trees are the same chain, so they share every link.
  EXPECT_EQ(max_trees_per_link("ktree3", Shape3{{16, 1, 1}}), 3);
  // On 3D the rotated trees overlap only partly.
  EXPECT_LE(max_trees_per_link("ktree3", Shape3{{8, 6, 8}}), 3);
  EXPECT_GE(max_trees_per_link("ktree6", Shape3{{8, 6, 8}}), 1);
}
}  // namespace
