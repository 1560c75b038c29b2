// `--packed-rows auto`: which row format a run gets, from the memory plan's kernel 1 passes for plain
// and packed rows on a node (bfs/benchmark.hpp, graph/memory_plan.hpp).
#include <gtest/gtest.h>

#include <cstdint>

#include "bfs/benchmark.hpp"
#include "graph/memory_plan.hpp"

namespace g500::bfs {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr int kThreads = 2;

struct Passes {
  int64_t plain, packed;
};

Passes passes_of(int scale, const graph::Distribution& d, double node_bytes_per_rank) {
  const int64_t nedges = int64_t{16} << scale;
  const graph::GraphShape shape{nedges, scale, nedges / (d.R * d.C)};
  graph::GraphOptions plain, packed;
  plain.packed_rows = false;
  packed.packed_rows = true;
  return {graph::choose_passes(shape, d, plain, node_bytes_per_rank, kThreads),
          graph::choose_passes(shape, d, packed, node_bytes_per_rank, kThreads)};
}

TEST(RowFormat, PackedWhenTheySaveKernel1PassesOnOneGridRow) {
  // SCALE 26 on one process of a 24 GiB node: plain rows need 4 passes, packed rows 1.
  const graph::Distribution one(int64_t{1} << 26, 1, 1, 0, 0);
  const Passes big = passes_of(26, one, 24 * kGiB);
  EXPECT_EQ(big.plain, 4);
  EXPECT_EQ(big.packed, 1);
  EXPECT_TRUE(run::auto_packs_rows(one, graph::GraphOptions{}, true, big.plain, big.packed));
  // SCALE 20: one pass either way, so the plain rows stay.
  const graph::Distribution small(int64_t{1} << 20, 1, 1, 0, 0);
  const Passes few = passes_of(20, small, 24 * kGiB);
  EXPECT_EQ(few.plain, 1);
  EXPECT_EQ(few.packed, 1);
  EXPECT_FALSE(run::auto_packs_rows(small, graph::GraphOptions{}, true, few.plain, few.packed));
}

TEST(RowFormat, KeyTablesKeepPlainRowsUnlessTheyDoNotFit) {
  // On a grid of two rows the packed rows decode through key tables: passes alone do not choose
  // them, memory does.
  const graph::Distribution two_rows(int64_t{1} << 26, 2, 1, 0, 0);
  EXPECT_FALSE(run::auto_packs_rows(two_rows, graph::GraphOptions{}, true, 4, 1));
  EXPECT_TRUE(run::auto_packs_rows(two_rows, graph::GraphOptions{}, false, 4, 1));
  // Nor without the degree-ordered ids as keys.
  const graph::Distribution one(int64_t{1} << 26, 1, 1, 0, 0);
  graph::GraphOptions unordered;
  unordered.reorder = false;
  EXPECT_FALSE(run::auto_packs_rows(one, unordered, true, 4, 1));
  graph::GraphOptions unsorted;
  unsorted.degree_sort = false;
  EXPECT_FALSE(run::auto_packs_rows(one, unsorted, true, 4, 1));
}

}  // namespace
}  // namespace g500::bfs
