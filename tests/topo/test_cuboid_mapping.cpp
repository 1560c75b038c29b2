// Tests for Kuroda et al. 2013 Method A (section 4.2): the Fig. 4 data points, the Table 3 and Table 5
// job shapes, cuboid communicators and bijectivity.
#include <gtest/gtest.h>

#include <set>

#include "topo/cuboid_mapping.hpp"
#include "util/error.hpp"

using namespace g500::topo;

namespace {
std::array<int, 3> job_shape_of(const std::string& spec) {
  return enumerate_cuboid(parse_cuboid_spec(spec), k_system()).job_shape;
}
void expect_bijective(const CuboidLayout& l) {
  std::set<std::array<int, 6>> coords(l.coord_of_rank.begin(), l.coord_of_rank.end());
  EXPECT_EQ(coords.size(), l.coord_of_rank.size());
  std::set<std::array<int, 3>> logical(l.logical_of_rank.begin(), l.logical_of_rank.end());
  EXPECT_EQ(logical.size(), l.logical_of_rank.size());
  for (const auto& c : l.logical_of_rank)
    for (int d = 0; d < 3; ++d) {
      EXPECT_GE(c[d], 0);
      EXPECT_LT(c[d], l.job_shape[d]);
    }
}
}  // namespace

TEST(CuboidMapping, Fig4DataPoints) {
  // (A,Y,C) = 2x4x2 = 16 and (X,Z,B) = 8x8x3 = 192: 3,072 ranks, logical job 16 x 12 x 16.
  auto layout = enumerate_cuboid(parse_cuboid_spec("A2,Y4,C2/X8,Z8,B3"), k_system());
  ASSERT_EQ(layout.coord_of_rank.size(), 3072u);
  EXPECT_EQ(layout.job_shape, (std::array<int, 3>{16, 12, 16}));
  struct Point {
    int rank;
    std::array<int, 6> c6;
    std::array<int, 3> c3;
  };
  const Point points[] = {{0, {0, 0, 0, 0, 0, 0}, {0, 0, 0}},   {1, {0, 0, 0, 1, 0, 0}, {15, 0, 0}},
                          {2, {0, 1, 0, 0, 0, 0}, {0, 1, 0}},   {3, {0, 1, 0, 1, 0, 0}, {15, 1, 0}},
                          {4, {0, 2, 0, 0, 0, 0}, {0, 2, 0}},   {5, {0, 2, 0, 1, 0, 0}, {15, 2, 0}},
                          {3071, {7, 3, 7, 1, 2, 1}, {8, 4, 8}}};
  for (const auto& p : points) {
    EXPECT_EQ(layout.coord_of_rank[p.rank], p.c6) << "rank " << p.rank;
    EXPECT_EQ(layout.logical_of_rank[p.rank], p.c3) << "rank " << p.rank;
  }
  // rank = a + 2*(y + 4*(c + 2*(x + 8*(z + 8*b)))) (Kuroda et al. 2013).
  for (int r = 0; r < 3072; ++r) {
    const auto& c = layout.coord_of_rank[r];
    ASSERT_EQ(c[3] + 2 * (c[1] + 4 * (c[5] + 2 * (c[0] + 8 * (c[2] + 8 * c[4])))), r);
  }
  expect_bijective(layout);
}

TEST(CuboidMapping, Table3JobShapes) {
  EXPECT_EQ(job_shape_of("A2,X2,C2/Z2,YB4"), (std::array<int, 3>{4, 4, 4}));       // 8 x 8
  EXPECT_EQ(job_shape_of("A2,X4,C2/Z4,YB4"), (std::array<int, 3>{8, 4, 8}));       // 16 x 16
  EXPECT_EQ(job_shape_of("A2,B3,X4/C2,Z3,Y4"), (std::array<int, 3>{8, 12, 6}));    // 24 x 24
  EXPECT_EQ(job_shape_of("X4,A2,Z4/C2,YB16"), (std::array<int, 3>{8, 16, 8}));     // 32 x 32
  EXPECT_EQ(job_shape_of("A2,B3,X8/C2,Y4,Z6"), (std::array<int, 3>{16, 12, 12}));  // 48 x 48
  for (const char* spec :
       {"A2,X2,C2/Z2,YB4", "A2,X4,C2/Z4,YB4", "A2,B3,X4/C2,Z3,Y4", "X4,A2,Z4/C2,YB16", "A2,B3,X8/C2,Y4,Z6"})
    expect_bijective(enumerate_cuboid(parse_cuboid_spec(spec), k_system()));
}

TEST(CuboidMapping, Table5JobShapes) {
  // PHASE: band x FFT1 x FFT2; primed axes are the outer parts of X, Y, Z (band communicator).
  auto l3072 = enumerate_cuboid(parse_cuboid_spec("X'4,Y'2,Z'2/X2,B3,Z4/A2,Y2,C2"), k_system());
  EXPECT_EQ(l3072.job_shape, (std::array<int, 3>{16, 12, 16}));
  EXPECT_EQ(l3072.comm_sizes, (std::vector<int>{16, 24, 8}));
  expect_bijective(l3072);
  auto l12288 = enumerate_cuboid(parse_cuboid_spec("X'4,Y'2,Z'4/Y4,B3,Z4/A2,C2,X2"), k_system());
  EXPECT_EQ(l12288.job_shape, (std::array<int, 3>{16, 24, 32}));
  EXPECT_EQ(l12288.comm_sizes, (std::vector<int>{32, 48, 8}));
  expect_bijective(l12288);
}

TEST(CuboidMapping, CommunicatorsAreCuboids) {
  // Members of communicator 1 (same r / 16) differ only on A, Y, C; of communicator 2 (same r % 16)
  // only on X, Z, B.
  auto layout = enumerate_cuboid(parse_cuboid_spec("A2,Y4,C2/X8,Z8,B3"), k_system());
  for (int r = 0; r < 3072; ++r) {
    const auto& c = layout.coord_of_rank[r];
    const auto& head1 = layout.coord_of_rank[(r / 16) * 16];
    const auto& head2 = layout.coord_of_rank[r % 16];
    ASSERT_TRUE(c[0] == head1[0] && c[2] == head1[2] && c[4] == head1[4]);
    ASSERT_TRUE(c[1] == head2[1] && c[3] == head2[3] && c[5] == head2[5]);
  }
}

TEST(CuboidMapping, AutomaticFactorisationIsValid) {
  struct Case {
    int n1, n2;
  };
  for (auto [n1, n2] : {Case{8, 8}, Case{16, 16}, Case{24, 24}, Case{32, 32}, Case{48, 48}, Case{16, 192},
                        Case{288, 552}, Case{12, 1}}) {
    auto sys = n1 * n2 > 82944 ? fugaku_system() : k_system();
    CuboidSpec spec = auto_cuboid_spec({n1, n2}, sys);
    ASSERT_EQ(spec.comms.size(), 2u);
    int p1 = 1, p2 = 1;
    for (const auto& f : spec.comms[0]) p1 *= f.size;
    for (const auto& f : spec.comms[1]) p2 *= f.size;
    EXPECT_EQ(p1, n1);
    EXPECT_EQ(p2, n2);
    EXPECT_LE(spec.comms[0].size(), 3u);
    EXPECT_LE(spec.comms[1].size(), 3u);
    expect_bijective(enumerate_cuboid(spec, sys));
  }
  EXPECT_THROW(auto_cuboid_spec({7 * 59, 2}, k_system()), g500::util::UsageError);  // 59 fits no axis, not even YB (54)
}

TEST(CuboidMapping, BadSpecsAreUsageErrors) {
  for (const char* bad : {"", "A3/X2", "B2,X2/Z2", "Q2/X2", "A2,A2/X2", "X2/X2", "X30/Z2", "YB4,Y2/Z2",
                          "A2,X2,Z2,Y2/B3", "A/X2", "A2;X2"})
    EXPECT_THROW(enumerate_cuboid(parse_cuboid_spec(bad), k_system()), g500::util::UsageError) << bad;
  EXPECT_THROW(validate_cuboid_spec(parse_cuboid_spec("A2/X2"), parse_shape("2m,2m")), g500::util::UsageError);
}
