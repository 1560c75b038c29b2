// The memory plan's model of what kernel 1 holds (graph/memory_plan.hpp): the entries a process
// keeps and holds while a slab is filled, against the shares worked out by hand for one process,
// for the columns of Yoo's and the row-major layout, and the pages a chunk's kept entries touch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/memory_plan.hpp"

namespace g500::graph {
namespace {

constexpr int64_t kVertices = int64_t{1} << 20;
constexpr double kTolerance = 1e-12;

std::vector<KeptEntryShares> columns_of(int R, int C, Layout layout, bool mirror = true) {
  return kept_entry_shares(Distribution(kVertices, R, C, 0, 0, layout), layout, mirror);
}

// One process: the other end of an entry is anywhere. A slab [a, b) of S keeps its edges inside
// once: (b - a)(1 - 1/(2S)) of the entries at its start, none at its end, and its mirrors are
// half of the edges inside it.
TEST(KeptEntryShares, OneProcessKeepsHalfOfTheEdgesInsideASlab) {
  const auto columns = columns_of(1, 1, Layout::kYoo);
  ASSERT_EQ(columns.size(), 1u);
  for (const int S : {1, 2, 4, 7}) {
    for (int s = 0; s < S; ++s) {
      const double a = static_cast<double>(s) / S, b = static_cast<double>(s + 1) / S;
      EXPECT_NEAR(columns[0].held(b, a), (1.0 / S) * (1 - 1.0 / (2 * S)), kTolerance) << S;
      EXPECT_NEAR(columns[0].held(b, b), 0, kTolerance);
      EXPECT_NEAR(columns[0].mirrors_made(a, b), 1.0 / (2.0 * S * S), kTolerance);
    }
  }
  // Halfway through one slab: the rows [1/2, 1) hold their entries, less the mirrors of the
  // edges with both rows there (1/8 of the entries).
  EXPECT_NEAR(columns[0].held(1, 0.5), 0.5 - 0.125, kTolerance);
}

TEST(KeptEntryShares, WithoutMirrorsEveryEntryIsKept) {
  const auto columns = columns_of(2, 3, Layout::kYoo, false);
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_NEAR(columns[0].held(1, 0), 1, kTolerance);
  EXPECT_NEAR(columns[0].held(0.5, 0.25), 0.25, kTolerance);
  EXPECT_NEAR(columns[0].mirrors_made(0, 1), 0, kTolerance);
}

// Yoo's layout on a grid of C columns: column c's other ends are the row block c, so column c
// keeps (c + 1/2) / C of its entries in one slab, the last column nearly all of them; over the
// columns, every edge is kept once.
TEST(KeptEntryShares, YooColumnsKeepMoreTheLaterTheirRowBlock) {
  for (const int C : {2, 3, 4}) {
    const auto columns = columns_of(2, C, Layout::kYoo);
    ASSERT_EQ(columns.size(), static_cast<size_t>(C));  // one per row block, in block order
    double kept_sum = 0;
    for (int c = 0; c < C; ++c) {
      EXPECT_NEAR(columns[c].held(1, 0), (c + 0.5) / C, kTolerance) << C << " columns, column " << c;
      kept_sum += columns[c].held(1, 0);
    }
    EXPECT_NEAR(kept_sum / C, 0.5, kTolerance);
    for (const int S : {2, 3}) {  // every slab: the columns together keep what one process would
      for (int s = 0; s < S; ++s) {
        const double a = static_cast<double>(s) / S, b = static_cast<double>(s + 1) / S;
        double sum = 0;
        for (const auto& column : columns) sum += column.held(b, a);
        EXPECT_NEAR(sum / C, (1.0 / S) * (1 - 1.0 / (2 * S)), kTolerance) << C << " columns, " << S << " slabs";
      }
    }
  }
}

// The row-major layout: column c holds the blocks c R + t, whose row positions are (c R + t) mod C.
// On a square grid every column covers every row block (one distribution, as one process); on a
// 2x4 grid the columns cover the blocks {0, 1} or {2, 3}.
TEST(KeptEntryShares, RowMajorColumnsCoverTheirBlocksRowPositions) {
  const auto square = columns_of(3, 3, Layout::kRowMajor);
  ASSERT_EQ(square.size(), 1u);
  EXPECT_NEAR(square[0].held(1, 0), 0.5, kTolerance);
  const auto wide = columns_of(2, 4, Layout::kRowMajor);
  ASSERT_EQ(wide.size(), 2u);
  // One slab keeps the entries whose row is below their other end u: a share E[u], 1/4 for the
  // other ends uniform on [0, 1/2), 3/4 on [1/2, 1).
  EXPECT_NEAR(wide[0].held(1, 0), 0.25, kTolerance);
  EXPECT_NEAR(wide[1].held(1, 0), 0.75, kTolerance);
}

// The fullest column, with its shortcut (a column with no other ends in the rest of the slab holds
// all of it), equal to the most over every column, at every point of every slab.
TEST(FullestColumn, EqualsTheMostOverEveryColumn) {
  for (const Layout layout : {Layout::kYoo, Layout::kRowMajor})
    for (const auto& [R, C] :
         std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 2}, {2, 3}, {2, 4}, {5, 7}})
      for (const int S : {1, 2, 3, 5}) {
        const auto columns = columns_of(R, C, layout);
        const FullestColumn fullest(columns);
        double most_made = 0;
        for (int s = 0; s < S; ++s) {
          const double a = static_cast<double>(s) / S, b = static_cast<double>(s + 1) / S;
          for (int step = 0; step <= 16; ++step) {
            const double p = a + (b - a) * step / 16;
            double most = 0;
            for (const auto& column : columns) most = std::max(most, column.held(b, p));
            EXPECT_NEAR(fullest.held(b, p), most, kTolerance) << R << "x" << C << ", " << S << " slabs, p " << p;
          }
          for (const auto& column : columns) most_made = std::max(most_made, column.mirrors_made(a, b));
        }
        EXPECT_NEAR(fullest.mirrors_made(S), most_made, kTolerance) << R << "x" << C << ", " << S << " slabs";
      }
}

// One process routes a chunk's entries into two slots per edge, each thread from its slice's
// start, then moves them together to the front.
TEST(KeptBufferShare, PagesWrittenByTheThreadsAndTheMoveToTheFront) {
  EXPECT_NEAR(kept_buffer_share(0.5, 1), 0.5, kTolerance);
  EXPECT_NEAR(kept_buffer_share(0.5, 2), 0.75, kTolerance);  // [0, 1/2) and [1/2, 3/4)
  EXPECT_NEAR(kept_buffer_share(0.25, 4), 0.25 + 3 * 0.0625, kTolerance);
  EXPECT_NEAR(kept_buffer_share(1, 2), 1, kTolerance);
}

// The parts the plan reports (Table 2's terms) are the same figures: the finished graph's add up to
// `graph`, kernel 1's to its peak, whether pass 1 or the fill is the larger, on one process and on
// grids of several rows and columns, with plain and with packed rows (pass 1 is the larger without
// the mirrors, kept entries of both ends).
TEST(GraphMemoryParts, AddUpToTheFigures) {
  struct Case {
    int scale, R, C;
    bool packed_rows, mirror;
    int64_t slabs;
    RowCounting rows = RowCounting::kAuto;
  };
  const Case cases[] = {{16, 1, 1, false, false, 1},
                        {20, 1, 2, true, false, 1},
                        {16, 1, 1, true, true, 3},
                        {20, 2, 3, true, true, 1},
                        {20, 4, 2, false, true, 2},
                        {26, 1, 4, true, true, 4},
                        {37, 138, 72, true, true, 4},
                        {20, 2, 3, true, true, 1, RowCounting::kRowsMet},
                        {20, 4, 2, false, false, 3, RowCounting::kRowsMet},
                        {41, 552, 288, true, true, 1},
                        {41, 552, 288, true, true, 4},
                        {32, 64, 64, false, false, 8, RowCounting::kWhole}};  // a word per row: pass 1 the larger
  constexpr int kThreads = 2;
  bool first_pass_larger = false, filling_larger = false;
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "SCALE " << c.scale << " " << c.R << "x" << c.C << " packed " << c.packed_rows);
    const int64_t nedges = int64_t{16} << c.scale;
    const Distribution d(int64_t{1} << c.scale, c.R, c.C, 0, 0);
    const GraphShape shape{nedges, c.scale, nedges / (c.R * c.C)};
    GraphOptions options;
    options.packed_rows = c.packed_rows;
    options.mirror = c.mirror;
    options.row_counting = c.rows;
    const GraphMemory m = plan_graph_memory(shape, d, options, c.slabs, kThreads);
    EXPECT_NEAR(util::total_bytes(m.graph_parts), m.graph, 1e-9 * m.graph);
    EXPECT_NEAR(util::total_bytes(m.kernel1_parts), m.kernel1_peak(), 1e-9 * m.kernel1_peak());
    for (const util::MemoryPart& part : m.kernel1_parts) EXPECT_GE(part.bytes, 0) << part.name;
    first_pass_larger = first_pass_larger || m.first_pass >= m.filling;
    filling_larger = filling_larger || m.first_pass < m.filling;
  }
  EXPECT_TRUE(first_pass_larger);
  EXPECT_TRUE(filling_larger);
}

// Pass 1 counts the rows met only where the row set far outnumbers a process's entries (the
// papers' SCALE 41 on 552 x 288: 4.0 billion rows, 0.44 billion entries), saving nearly the word
// per row it would count: the rows it stores instead take 2 bytes per entry it does not keep.
// Where rows are fewer than entries, or on one grid column, a word per row.
TEST(GraphMemory, RowsMetOnlyWhereTheRowsFarOutnumberTheEntries) {
  constexpr int kThreads = 2;
  auto plan = [&](int scale, int R, int C, RowCounting rows) {
    const int64_t nedges = int64_t{16} << scale;
    GraphOptions options;
    options.row_counting = rows;
    return plan_graph_memory(GraphShape{nedges, scale, nedges / (int64_t{R} * C)},
                             Distribution(int64_t{1} << scale, R, C, 0, 0), options, 4, kThreads);
  };
  const GraphMemory met = plan(41, 552, 288, RowCounting::kAuto), whole = plan(41, 552, 288, RowCounting::kWhole);
  EXPECT_TRUE(met.lengths_of_rows_met);
  EXPECT_FALSE(whole.lengths_of_rows_met);
  const double row_words = 8.0 * static_cast<double>(Distribution(int64_t{1} << 41, 552, 288, 0, 0).row_set_size());
  const double entries = 2.0 * (int64_t{16} << 41) / (552 * 288);
  EXPECT_GT(whole.first_pass - met.first_pass, row_words - 2 * entries - 0.1e9);
  EXPECT_LT(met.first_pass, whole.first_pass - 0.9 * row_words);
  EXPECT_FALSE(plan(26, 4, 4, RowCounting::kAuto).lengths_of_rows_met);      // 2^24 rows, 2^27 entries
  EXPECT_FALSE(plan(26, 64, 1, RowCounting::kRowsMet).lengths_of_rows_met);  // one column: the owned block
}

}  // namespace
}  // namespace g500::graph
