// Unit tests of single techniques of Nakao et al. 2021, section 4: the degree-order renumbering (4.2) and the
// sparse/bitmap encoders of sparse-switch (4.5); and, over MPI, that a renumbered graph's BFS
// writes every parent in original ids (each parent edge is an edge of the generated list), and
// that packed rows hold the plain rows' neighbours in their order, so the BFS
// gives the same parents with and without them.
#include <gtest/gtest.h>
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <random>
#include <set>

#include "bfs/bfs.hpp"
#include "bfs/sparse_switch.hpp"
#include "graph/renumbering.hpp"
#include "local_graph_fixture.hpp"
#include "run/roots.hpp"

namespace g500::bfs {
namespace {

TEST(Renumbering, DegreeOrderIsAStablePermutationByDescendingDegree) {
  EXPECT_EQ(graph::degree_order({3, 0, 5, 3, 1}), (std::vector<graph::LocalId>{2, 0, 3, 4, 1}));
  std::mt19937_64 rng(7);
  std::vector<int64_t> degree(5000);
  // Degrees counted per thread and, beyond a few thousand, sorted by comparison: ties in both.
  for (auto& x : degree) x = static_cast<int64_t>(rng() % 50 == 0 ? 4000 + rng() % 200 : rng() % 20);
  const int threads_before = omp_get_max_threads();
  for (const int threads : {1, 2, 3, 7}) {
    omp_set_num_threads(threads);
    const std::vector<graph::LocalId> order = graph::degree_order(degree);
    std::vector<graph::LocalId> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (size_t k = 0; k < sorted.size(); ++k) ASSERT_EQ(sorted[k], k) << threads;  // a permutation
    for (size_t k = 1; k < order.size(); ++k) {
      ASSERT_GE(degree[order[k - 1]], degree[order[k]]) << threads;
      if (degree[order[k - 1]] == degree[order[k]]) {
        ASSERT_LT(order[k - 1], order[k]) << threads;  // stable
      }
    }
  }
  omp_set_num_threads(threads_before);
}

TEST(Renumbering, HugeDegreesAreOrderedToo) {
  EXPECT_EQ(graph::degree_order({1, int64_t{1} << 40, 0, 1}), (std::vector<graph::LocalId>{1, 0, 3, 2}));
}

// Both layouts of 4.3 on grids with and without a single row or column: every vertex has one
// owner whose block holds it, its row and column sets place it at ids that map back to it, row
// set position p is owned by P(i, p), column set j is contiguous, and with Yoo's layout position t
// of column set j is owned by P(t, j) (no transpose) while the row-major one moves it elsewhere.
TEST(Distribution, LayoutsPlaceEveryVertexConsistently) {
  for (graph::Layout layout : {graph::Layout::kYoo, graph::Layout::kRowMajor}) {
    for (auto [R, C] : {std::pair{1, 1}, {2, 1}, {1, 3}, {2, 2}, {3, 2}, {2, 3}}) {
      const int64_t n = 1000;
      std::set<int64_t> seen;
      bool some_block_moves = false;
      for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
          const graph::Distribution d(n, R, C, i, j, layout);
          ASSERT_EQ(d.block % 64, 0);
          for (int64_t k = 0; k < d.block; ++k) {
            const int64_t v = d.owned_begin() + k;
            ASSERT_TRUE(seen.insert(v).second) << "vertex " << v << " owned twice";
            ASSERT_EQ(d.owner_row(v), i);
            ASSERT_EQ(d.owner_col(v), j);
            ASSERT_EQ(d.row_set_of(v), i);
            // Row-local position of an owned vertex is the owner's column.
            ASSERT_EQ(static_cast<int64_t>(d.row_local(v)) / d.block, j);
            ASSERT_EQ(d.global_from_row_local(d.row_local(v), i), v);
            const int c = d.col_set_of(v);
            ASSERT_EQ(d.global_from_col_local(d.col_local(v), c), v);
            ASSERT_EQ(c, static_cast<int>(v / (d.block * R)));  // contiguous column sets
          }
          for (int t = 0; t < R; ++t) {
            const int64_t k = d.column_block(j, t);
            const bool owned_in_column = d.owner_row_of_block(k) == t && d.owner_col_of_block(k) == j;
            if (layout == graph::Layout::kYoo || R == 1 || C == 1) {
              ASSERT_TRUE(owned_in_column);
            }
            if (!owned_in_column) some_block_moves = true;
          }
          ASSERT_EQ(d.columns_aligned(), layout == graph::Layout::kYoo || R == 1 || C == 1);
        }
      }
      EXPECT_EQ(static_cast<int64_t>(seen.size()), graph::Distribution(n, R, C, 0, 0).block * R * C);
      EXPECT_EQ(some_block_moves, layout == graph::Layout::kRowMajor && R > 1 && C > 1) << R << "x" << C;
    }
  }
}

std::vector<uint64_t> random_words(int64_t nwords, int set_in_64, std::mt19937_64& rng) {
  std::vector<uint64_t> words(nwords, 0);
  for (int64_t bit = 0; bit < nwords * 64; ++bit)
    if (static_cast<int>(rng() % 64) < set_in_64) words[bit / 64] |= uint64_t{1} << (bit % 64);
  return words;
}

TEST(SparseSwitch, RoundTripsAndPicksTheSmallerForm) {
  using sparse_switch::Listed;
  std::mt19937_64 rng(11);
  for (Listed listed : {Listed::kSetBits, Listed::kClearBits}) {
    for (int density : {0, 1, 2, 32, 64}) {
      const int64_t nwords = 100;
      std::vector<uint64_t> words = random_words(nwords, density, rng);
      int64_t named = 0;  // the bits a list would name
      for (uint64_t w : words) named += std::popcount(listed == Listed::kSetBits ? w : ~w);
      std::vector<uint64_t> message(sparse_switch::max_message_words(nwords), 123);
      const size_t length = sparse_switch::encode(words.data(), nwords, listed, true, message.data());
      EXPECT_EQ(sparse_switch::is_list(message.data()), named < nwords) << density;
      EXPECT_EQ(length, named < nwords ? 1 + static_cast<size_t>((named + 1) / 2) : 1 + static_cast<size_t>(nwords));
      std::vector<uint64_t> back(nwords, 0x5555);
      sparse_switch::decode(message.data(), nwords, listed, back.data());
      EXPECT_EQ(back, words) << "density " << density;
      // With lists not allowed, always the bitmap.
      EXPECT_EQ(sparse_switch::encode(words.data(), nwords, listed, false, message.data()),
                1 + static_cast<size_t>(nwords));
      EXPECT_FALSE(sparse_switch::is_list(message.data()));
    }
  }
}

// Parts gathered as messages (lists and bitmaps, in every mix) packed at the front of one buffer
// and decoded there: every part's bitmap comes back, R words into the buffer.
TEST(SparseSwitch, GatheredMessagesDecodeInPlace) {
  using sparse_switch::Listed;
  std::mt19937_64 rng(5);
  const int64_t nwords = 40;
  for (Listed listed : {Listed::kSetBits, Listed::kClearBits})
    for (const std::vector<int>& densities :
         {std::vector<int>{64, 64, 64}, {0, 0, 0, 0}, {0, 64, 1, 32, 0}, {64, 0}, {1}, {32, 0, 0, 64, 64, 2}}) {
      const int parts = static_cast<int>(densities.size());
      std::vector<std::vector<uint64_t>> words;
      std::vector<uint64_t> buffer(sparse_switch::gathered_buffer_words(parts, nwords), 77);
      std::vector<int64_t> counts;
      int64_t at = 0;
      for (const int density : densities) {
        words.push_back(random_words(nwords, listed == Listed::kSetBits ? density : 64 - density, rng));
        const size_t length = sparse_switch::encode(words.back().data(), nwords, listed, true, buffer.data() + at);
        counts.push_back(static_cast<int64_t>(length));
        at += static_cast<int64_t>(length);
      }
      std::vector<uint64_t> scratch(sparse_switch::max_message_words(nwords));
      const uint64_t* bitmaps =
          sparse_switch::decode_gathered_in_place(buffer.data(), counts, nwords, listed, scratch.data());
      ASSERT_EQ(bitmaps, buffer.data() + parts);
      for (int q = 0; q < parts; ++q)
        EXPECT_EQ(std::vector<uint64_t>(bitmaps + q * nwords, bitmaps + (q + 1) * nwords), words[q])
            << "part " << q << " of " << parts;
    }
}

TEST(Renumbering, ParentsAreWrittenInOriginalIds) {
  const int scale = 10;
  auto built = testing::build_test_graph(scale);
  const graph::LocalGraph& graph = built->graph;
  ASSERT_TRUE(graph.renumbering.active());
  // The renumbering moved vertices (else this test would prove nothing).
  int64_t moved = 0;
  for (size_t k = 0; k < graph.renumbering.owned_new.size(); ++k) moved += graph.renumbering.owned_new[k] != k;
  int64_t moved_total = 0;
  MPI_Allreduce(&moved, &moved_total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_GT(moved_total, 0);

  std::vector<gen::Edge> edges(built->spec.nedges());
  built->generator->generate(0, built->spec.nedges(), edges.data(), nullptr);
  std::set<std::pair<int64_t, int64_t>> edge_set;
  for (const auto& e : edges) edge_set.insert({std::min(e.v0, e.v1), std::max(e.v0, e.v1)});

  const auto roots = run::choose_roots(built->spec, 8, graph, *built->grid);
  DistributedBfs bfs(graph, *built->grid, BfsOptions{});
  const int64_t first = graph.dist.owned_begin();
  for (int64_t root : roots) {
    bfs.prepare();
    bfs.run(root);
    int64_t children = 0;
    for (int64_t k = 0; k < graph.dist.block && first + k < graph.dist.nvertices; ++k) {
      const int64_t v = first + k, p = bfs.parents()[k];
      if (p < 0 || v == root) continue;
      ++children;
      ASSERT_TRUE(edge_set.count({std::min(v, p), std::max(v, p)})) << "parent " << p << " of " << v;
    }
    int64_t total = 0;
    MPI_Allreduce(&children, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_GT(total, 100);
  }
}

// The neighbours of every row slot of a graph, plain or packed, as column ids in stored order.
std::vector<graph::LocalId> row_neighbors(const graph::LocalGraph& g, int64_t slot) {
  const int64_t begin = g.rows.slot_start(slot), n = g.rows.slot_start(slot + 1) - begin;
  if (!g.packed.active())
    return std::vector<graph::LocalId>(g.neighbors.begin() + begin, g.neighbors.begin() + begin + n);
  std::vector<graph::LocalId> row(n);
  if (n > 0) g.packed.decode_row(slot, begin, n, g.first_neighbors[slot], row.data());
  return row;
}

// Kernel 1 with and without packed rows on the default grid and its transpose (2x3 and 3x2 at 6
// ranks), with `reorder` on and off (key tables when R > 1 or not renumbered), kernel 1 in one
// slab and in several: every row decodes to the plain row, and the BFS gives bit-identical parents. Without
// `degree-sort` packed rows are sorted by column id: the same neighbours, in another order.
TEST(PackedRows, KeepTheRowsAndTheParents) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const util::GridShape shape = util::closest_factor_shape(nranks);
  omp_set_num_threads(1);  // top-down's first candidate per vertex is then deterministic
  for (const util::GridShape grid_shape : {shape, util::GridShape{shape.cols, shape.rows}}) {
    for (const bool reorder : {true, false}) {
      for (const bool several_slabs : {false, true}) {
        for (const bool degree_sort : {true, false}) {
          graph::GraphOptions packed_options;
          packed_options.reorder = reorder;
          packed_options.passes = several_slabs ? 5 : 0;  // 0: one slab at this SCALE
          packed_options.degree_sort = degree_sort;
          graph::GraphOptions plain_options = packed_options;
          plain_options.packed_rows = false;
          const std::string name = std::to_string(grid_shape.rows) + "x" + std::to_string(grid_shape.cols) +
                                   (reorder ? "" : " reorder off") + (several_slabs ? " several slabs" : "") +
                                   (degree_sort ? "" : " degree-sort off");
          auto packed_built = testing::build_test_graph(12, grid_shape, packed_options);
          auto plain_built = testing::build_test_graph(12, grid_shape, plain_options);
          const graph::LocalGraph& packed = packed_built->graph;
          const graph::LocalGraph& plain = plain_built->graph;
          ASSERT_TRUE(packed.packed.active()) << name;
          ASSERT_FALSE(plain.packed.active()) << name;
          ASSERT_TRUE(packed.neighbors.empty()) << name;
          ASSERT_EQ(packed.local_edges(), plain.local_edges()) << name;
          // Key tables of the column set only for the degree order without the renumbering.
          EXPECT_EQ(packed.packed.key_table_bytes() > 0, degree_sort && !reorder) << name;
          EXPECT_LT(packed.packed.bytes.size(), static_cast<size_t>(packed.local_edges()) * sizeof(graph::LocalId))
              << name;
          EXPECT_LT(packed.memory_bytes(), plain.memory_bytes()) << name;
          for (int64_t slot = 0; slot < plain.rows.num_slots(); ++slot) {
            std::vector<graph::LocalId> want = row_neighbors(plain, slot);
            if (!degree_sort) std::sort(want.begin(), want.end());
            ASSERT_EQ(row_neighbors(packed, slot), want) << name << " slot " << slot;
            if (!want.empty()) {
              ASSERT_EQ(packed.first_neighbors[slot], want[0]) << name << " slot " << slot;
            }
          }
          if (!degree_sort) continue;  // other first neighbours: other (valid) parents
          const auto roots = run::choose_roots(packed_built->spec, 16, packed, *packed_built->grid);
          DistributedBfs packed_bfs(packed, *packed_built->grid, BfsOptions{});
          DistributedBfs plain_bfs(plain, *plain_built->grid, BfsOptions{});
          for (int64_t root : roots) {
            packed_bfs.prepare();
            const BfsRun packed_run = packed_bfs.run(root);
            plain_bfs.prepare();
            const BfsRun plain_run = plain_bfs.run(root);
            ASSERT_EQ(packed_run.level_sizes, plain_run.level_sizes) << name << " root " << root;
            ASSERT_EQ(packed_bfs.parents(), plain_bfs.parents()) << name << " root " << root;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace g500::bfs
