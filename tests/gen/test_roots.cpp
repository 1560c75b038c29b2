// BFS root selection vs. the reference 3.0 test vectors (g500_s*.json "roots").
#include <gtest/gtest.h>

#include <vector>

#include "gen/kronecker.hpp"
#include "gen/roots.hpp"
#include "testvectors.hpp"

using namespace g500::gen;

namespace {
// Non-self-loop degree of every vertex, from the generated edges.
std::vector<int64_t> degrees(const KroneckerSpec& spec) {
  KroneckerGenerator g(spec);
  std::vector<Edge> e(spec.nedges());
  g.generate_parallel(0, spec.nedges(), e.data(), nullptr);
  std::vector<int64_t> d(spec.nvertices(), 0);
  for (const Edge& x : e)
    if (x.v0 != x.v1) ++d[x.v0], ++d[x.v1];
  return d;
}
}  // namespace

class RootVectors : public ::testing::TestWithParam<int> {};

TEST_P(RootVectors, SixtyFourRootsMatchReference) {
  const int scale = GetParam();
  const auto ref = g500::testing::load_graph_vector(scale);
  KroneckerSpec spec;
  spec.scale = scale;
  const auto deg = degrees(spec);
  int calls = 0;
  auto roots = select_roots(spec, 64, [&](const std::vector<int64_t>& cand, std::vector<char>& usable) {
    ++calls;
    ASSERT_EQ(cand.size(), usable.size());
    for (size_t k = 0; k < cand.size(); ++k) usable[k] = deg[cand[k]] > 0;
  });
  ASSERT_EQ(ref.roots.size(), 64u);
  ASSERT_EQ(roots.size(), 64u);
  for (int k = 0; k < 64; ++k) EXPECT_EQ(roots[k], ref.roots[k].root) << "root " << k;
  EXPECT_GE(calls, 1);
  // Candidates are the reference stream's, one per counter value.
  EXPECT_EQ(root_candidate(spec, 0) >= 0, true);
}

INSTANTIATE_TEST_SUITE_P(Gen, RootVectors, ::testing::Values(8, 10, 12, 14, 16));

TEST(Roots, StopsWhenCounterExceedsTwoN) {
  KroneckerSpec spec;
  spec.scale = 4;  // 16 vertices: at most 16 candidates
  int64_t seen = 0;
  auto roots = select_roots(spec, 64, [&](const std::vector<int64_t>& cand, std::vector<char>& usable) {
    seen += static_cast<int64_t>(cand.size());
    for (auto& u : usable) u = 1;
  });
  EXPECT_EQ(seen, 16);
  EXPECT_LE(roots.size(), 16u);
  EXPECT_GE(roots.size(), 1u);
  // No usable vertex at all: no roots, and the search still ends.
  auto none = select_roots(spec, 8, [](const std::vector<int64_t>&, std::vector<char>&) {});
  EXPECT_TRUE(none.empty());
}

TEST(Roots, BatchesMatchSingleCandidates) {
  KroneckerSpec spec;
  spec.scale = 10;
  std::vector<int64_t> all;
  select_roots(spec, 1000, [&](const std::vector<int64_t>& cand, std::vector<char>& usable) {
    all.insert(all.end(), cand.begin(), cand.end());
    (void)usable;  // nothing usable: walks the whole candidate stream
  });
  ASSERT_EQ(all.size(), 1024u);
  for (int64_t k : {0, 1, 63, 64, 65, 500, 1023}) EXPECT_EQ(all[k], root_candidate(spec, k)) << k;
}

// A graph where nearly every candidate is skipped is searched in a few dozen growing batches
// (each a collective call under MPI), and the roots are still those of checking candidates one
// at a time: here the only usable vertices are the 1000th and the 700000th candidate's.
TEST(Roots, FewUsableVerticesTakeFewChecksAndKeepTheirOrder) {
  KroneckerSpec spec;
  spec.scale = 20;
  const int64_t late = root_candidate(spec, 700000), early = root_candidate(spec, 1000);
  int calls = 0;
  int64_t seen = 0;
  auto roots = select_roots(spec, 3, [&](const std::vector<int64_t>& cand, std::vector<char>& usable) {
    ++calls;
    seen += static_cast<int64_t>(cand.size());
    for (size_t k = 0; k < cand.size(); ++k) usable[k] = cand[k] == late || cand[k] == early;
  });
  ASSERT_NE(late, early);
  // One candidate at a time: the order in which the two values first appear in the stream.
  std::vector<int64_t> expected;
  for (int64_t k = 0; k <= 700000 && expected.size() < 2; ++k) {
    const int64_t v = root_candidate(spec, k);
    if ((v == early || v == late) && (expected.empty() || expected[0] != v)) expected.push_back(v);
  }
  EXPECT_EQ(roots, expected);
  EXPECT_EQ(seen, spec.nvertices());  // fewer than asked: the whole stream was walked
  // 64, 128, ..., 2^18 (13 batches, 524224 candidates), then two of 2^18 and the last 64.
  EXPECT_EQ(calls, 16);
  EXPECT_EQ(root_batch_size(0), 64);
  EXPECT_EQ(root_batch_size(12), 1 << 18);
  EXPECT_EQ(root_batch_size(40), 1 << 18);
}
