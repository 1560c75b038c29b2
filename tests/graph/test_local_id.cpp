// Local ids at the papers' scale (graph/local_id.hpp, graph/distribution.hpp): SCALE 41 on Fugaku's
// 552 x 288 grid has 7.6e9 vertices per column set. The 32-bit build refuses it; the 64-bit build
// places every vertex, packs its entries and the searches' records, and gets the ids back.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "graph/distribution.hpp"
#include "graph/edge_router.hpp"

namespace g500::graph {
namespace {

constexpr int64_t kScale41 = int64_t{1} << 41;
constexpr int kFugakuRows = 552, kFugakuCols = 288;

TEST(LocalId, FugakuScale41NeedsTheWideBuild) {
  const Distribution d(kScale41, kFugakuRows, kFugakuCols, 0, 0);
  EXPECT_GT(d.col_set_size(), int64_t{1} << 32);
  EXPECT_LT(d.row_set_size(), int64_t{1} << 32);
  EXPECT_EQ(d.ids_fit(), kWideIds);
  EXPECT_FALSE(d.ids_fit(32));  // the SSSP's own limit
  // One process per 2 x 2 of them (SCALE 41 at 4 per node: 1104 x 576) fits 32 bits.
  EXPECT_TRUE(Distribution(kScale41, 2 * kFugakuRows, 2 * kFugakuCols, 0, 0).ids_fit());
}

TEST(LocalId, PairsKeepBothIds) {
  const LocalId high = static_cast<LocalId>(~LocalId{0} - 5), low = static_cast<LocalId>(~LocalId{0} >> 1);
  const IdPair pair = pack_ids(high, low);
  EXPECT_EQ(high_id(pair), high);
  EXPECT_EQ(low_id(pair), low);
  EXPECT_EQ(entry_row_unflagged(make_entry(high >> 1, low) | kMirrorFlag), high >> 1);
}

TEST(LocalId, EveryVertexOfScale41PlacesAndComesBack) {
  if (!kWideIds) GTEST_SKIP() << "the 32-bit build refuses this grid (FugakuScale41NeedsTheWideBuild)";
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t v = static_cast<int64_t>(rng() % static_cast<uint64_t>(kScale41));
    const Distribution any(kScale41, kFugakuRows, kFugakuCols, 0, 0);
    const Placement p = place(any, v);
    const Distribution at(kScale41, kFugakuRows, kFugakuCols, p.row, p.col);
    ASSERT_EQ(at.global_from_row_local(p.row_local, p.row), v);
    ASSERT_EQ(at.global_from_col_local(p.col_local, p.col), v);
    ASSERT_EQ(p.row_local, at.row_local(v));
    ASSERT_EQ(p.col_local, at.col_local(v));
    const Entry e = make_entry(p.row_local, p.col_local);
    ASSERT_EQ(entry_row(e), p.row_local);
    ASSERT_EQ(entry_col(e), p.col_local);
    // The searches' records: an owned offset beside a local id in one word.
    const OffsetIdPair records(at);
    const int64_t offset = v % at.block;
    const uint64_t word = records.pack(static_cast<uint64_t>(offset), p.col_local);
    ASSERT_EQ(records.offset(word), offset);
    ASSERT_EQ(records.id(word), p.col_local);
  }
}

}  // namespace
}  // namespace g500::graph
