// Kernel 1's output does not depend on how many slabs it is built in, and its packed rows decode
// to the neighbours of the plain rows (in the same order with the degree sort, sorted by column
// id without it), on every grid of the run's ranks and with the graph techniques on and off.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "graph/column_originals.hpp"
#include "graph/memory_plan.hpp"
#include "graph/packed_rows.hpp"
#include "graph/renumbering.hpp"
#include "graph/set_map.hpp"
#include "local_graph_fixture.hpp"

namespace g500::graph {
namespace {

using testing::build_test_graph;

std::vector<util::GridShape> grids_of_this_run() {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  std::vector<util::GridShape> shapes;
  for (int r = 1; r <= nranks; ++r)
    if (nranks % r == 0) shapes.push_back(util::GridShape{r, nranks / r});
  return shapes;
}

// Row v's neighbours as column ids, read from the plain array or decoded from the packed rows.
std::vector<LocalId> row_of(const LocalGraph& g, int64_t v) {
  const RowIndex::Extent e = g.rows.extent(v);
  if (!g.packed.active()) return {g.neighbors.begin() + e.begin, g.neighbors.begin() + e.end};
  std::vector<LocalId> row;
  const int64_t n = e.end - e.begin;
  if (n == 0) return row;
  const int64_t slot = g.rows.compressed() ? g.rows.rank(v) : v;
  row.push_back(g.first_neighbors[slot]);
  g.packed.for_each_after_first(slot, e.begin, n, g.first_neighbors[slot], [&](LocalId u) {
    row.push_back(u);
    return false;
  });
  return row;
}

// Same rows, same neighbours, same degrees and first-neighbour streams.
void expect_same_graph(const LocalGraph& a, const LocalGraph& b, bool sort_rows) {
  ASSERT_EQ(a.rows.num_rows(), b.rows.num_rows());
  ASSERT_EQ(a.local_edges(), b.local_edges());
  EXPECT_EQ(a.global_directed_edges, b.global_directed_edges);
  EXPECT_EQ(a.owned_degree, b.owned_degree);
  EXPECT_EQ(a.renumbering.owned_new.ids(), b.renumbering.owned_new.ids());
  int64_t mismatched = 0;
  for (int64_t v = 0; v < a.rows.num_rows(); ++v) {
    std::vector<LocalId> ra = row_of(a, v), rb = row_of(b, v);
    if (sort_rows) {
      std::sort(ra.begin(), ra.end());
      std::sort(rb.begin(), rb.end());
    }
    mismatched += ra != rb;
  }
  EXPECT_EQ(mismatched, 0);
  if (!sort_rows) {
    EXPECT_EQ(a.first_neighbors, b.first_neighbors);
    EXPECT_EQ(a.first_neighbors_original, b.first_neighbors_original);
  }
}

// The short rows' ids after their first, over all ranks, as the memory plan expects them
// (kronecker_short_row_id_share, within 0.3 % at SCALE 13 on 1x4).
void expect_short_ids_as_planned(const LocalGraph& g, int scale) {
  int64_t counts[2] = {static_cast<int64_t>(g.packed.short_ids.size()), g.local_edges()};
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  const double share = static_cast<double>(counts[0]) / static_cast<double>(counts[1]);
  const double planned =
      kronecker_short_row_id_share(scale, g.global_directed_edges / 2, g.dist.C, PackedRows::kMaxShortRow);
  constexpr double kMargin = 0.05;
  EXPECT_NEAR(share, planned, kMargin * planned) << "short ids per entry";
}

TEST(Kernel1, SlabsAndPackingKeepTheGraph) {
  GraphOptions plain;
  plain.packed_rows = false;
  GraphOptions no_sort = plain;
  no_sort.degree_sort = false;
  GraphOptions no_reorder = plain;
  no_reorder.reorder = false;
  GraphOptions no_bcsr = plain;
  no_bcsr.bcsr = false;
  GraphOptions row_major = plain;
  row_major.layout = Layout::kRowMajor;
  for (const util::GridShape shape : grids_of_this_run())
    for (int scale : {10, 13})
      for (const GraphOptions& base : {plain, no_sort, no_reorder, no_bcsr, row_major}) {
        if (scale > 10 && (base.bcsr != plain.bcsr || base.layout != plain.layout)) continue;  // covered at SCALE 10
        SCOPED_TRACE(::testing::Message()
                     << "grid " << shape.rows << "x" << shape.cols << " scale " << scale << " degree_sort "
                     << base.degree_sort << " reorder " << base.reorder << " bcsr " << base.bcsr);
        const auto reference = build_test_graph(scale, shape, base);
        EXPECT_EQ(reference->graph.kernel1_passes, 1);
        GraphOptions slabs = base;
        slabs.passes = 5;  // several slabs
        const auto sliced = build_test_graph(scale, shape, slabs);
        EXPECT_GT(sliced->graph.kernel1_passes, 2);
        expect_same_graph(reference->graph, sliced->graph, false);
        for (int64_t passes : {int64_t{0}, int64_t{5}}) {
          GraphOptions packing = base;
          packing.packed_rows = true;
          packing.passes = passes;
          const auto packed = build_test_graph(scale, shape, packing);
          ASSERT_TRUE(packed->graph.packed.active());
          EXPECT_TRUE(packed->graph.neighbors.empty());
          // Without the degree sort plain rows keep the input order and packed rows are by id.
          expect_same_graph(reference->graph, packed->graph, !base.degree_sort);
          // Fewer bytes than plain 32-bit neighbours.
          EXPECT_LT(packed->graph.packed.bytes.size(), reference->graph.neighbors.size() * sizeof(LocalId));
          if (scale > 10 && passes == 0 && base.degree_sort) expect_short_ids_as_planned(packed->graph, scale);
        }
      }
}

// Every entry as a pair of original global ids (row vertex, column vertex), sorted.
std::vector<std::pair<int64_t, int64_t>> original_edges(const LocalGraph& g) {
  const Distribution& d = g.dist;
  std::vector<std::pair<int64_t, int64_t>> edges;
  for (int64_t x = 0; x < g.rows.num_rows(); ++x) {
    const int64_t v = d.global_from_row_local(g.original_row_local(static_cast<LocalId>(x)), d.row);
    for (LocalId u : row_of(g, x)) edges.emplace_back(v, d.global_from_col_local(g.original_col_local(u), d.col));
  }
  std::sort(edges.begin(), edges.end());
  return edges;
}

// The first `share` of the Kronecker edge list (a sparse graph: few columns in use per process).
EdgeSource sparse_edge_source(const gen::KroneckerGenerator& generator, int64_t share, int rank, int nranks) {
  EdgeSource source;
  source.global_edges = generator.spec().nedges() / share;
  source.local_begin = source.global_edges * rank / nranks;
  source.local_count = source.global_edges * (rank + 1) / nranks - source.local_begin;
  source.read = [&generator, begin = source.local_begin](int64_t offset, int64_t count, gen::Edge* out) {
    generator.generate(begin + offset, begin + offset + count, out, nullptr);
  };
  return source;
}

// The renumbered graph keeps the original ids of its rows with edges (by slot) and, where they
// are few enough (keep_present_only), of the columns its entries use, not of the whole row
// and column sets: translated back, its entries are those of the graph built without the
// renumbering, plain or packed, dense (the whole column table kept) or sparse, on every grid.
TEST(Kernel1, OriginalIdsOfTheRowsAndColumnsInUse) {
  for (const util::GridShape shape : grids_of_this_run())
    for (const int64_t share : {1, 64})
      for (const bool packed : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << "grid " << shape.rows << "x" << shape.cols << " edges 1/" << share << " packed " << packed);
        GraphOptions renumbered, kept_ids;
        renumbered.packed_rows = kept_ids.packed_rows = packed;
        kept_ids.reorder = false;
        auto build = [&](const GraphOptions& options) {
          return testing::build_test_graph_with<LocalGraph>(
              share == 1 ? 10 : 14, shape,
              [&](const gen::KroneckerGenerator& generator, int rank, int nranks, const ProcessGrid& grid) {
                return build_local_graph(sparse_edge_source(generator, share, rank, nranks), grid, options);
              });
        };
        const auto built = build(renumbered);
        const auto plain_ids = build(kept_ids);
        const LocalGraph& g = built->graph;
        const Renumbering& ids = g.renumbering;
        ASSERT_TRUE(ids.active());
        EXPECT_EQ(original_edges(g), original_edges(plain_ids->graph));
        if (shape.cols > 1) {  // the row set is not the owned block: the rows with edges only
          EXPECT_TRUE(ids.row_original.empty());
          EXPECT_EQ(static_cast<int64_t>(ids.row_original_by_slot.size()), g.rows.nonempty_rows());
        }
        if (shape.rows > 1) {  // the columns in use only, where they are few
          std::vector<bool> used(static_cast<size_t>(g.dist.col_set_size()));
          int64_t distinct = 0;
          for (int64_t x = 0; x < g.rows.num_rows(); ++x)
            for (LocalId u : row_of(g, x)) distinct += used[u] ? 0 : (used[u] = true, 1);
          const bool in_use_only =
              keep_present_only(static_cast<double>(distinct), static_cast<double>(g.dist.col_set_size()));
          EXPECT_TRUE(ids.col_original.empty());                     // no table of the whole column set, unless...
          EXPECT_EQ(ids.column_originals.is_whole(), !in_use_only);  // ... the columns in use are most of it
          if (in_use_only) {
            EXPECT_EQ(ids.column_originals.present_columns(), distinct);
          }
          if (share > 1) {
            EXPECT_TRUE(in_use_only) << distinct;
          }
        }
        // The first neighbours' original ids agree with the table (kept as offsets in their blocks
        // with 64-bit ids, graph/in_block_id.hpp).
        for (int64_t r = 0; r < g.first_neighbors.size(); ++r)
          ASSERT_EQ(read_in_block(g.first_neighbors_original[r], g.first_neighbors[r], g.dist),
                    g.original_col_local(g.first_neighbors[r]))
              << r;
      }
}

// A row or column map made a block at a time from the owners' tables (graph/set_map.hpp) holds,
// for every vertex it keeps, the value of the whole set's gathered table: with a few vertices
// present (kept for those only: one in 5 indexed by rank9, one in 29 by bucketed offsets) and with
// all of them (a whole table), under both layouts.
TEST(Kernel1, SetMapsMadeByBlocksMatchTheGatheredTables) {
  for (const util::GridShape shape : grids_of_this_run())
    for (const Layout layout : {Layout::kYoo, Layout::kRowMajor}) {
      SCOPED_TRACE(::testing::Message() << "grid " << shape.rows << "x" << shape.cols << " layout "
                                        << static_cast<int>(layout));
      GraphOptions options;
      options.layout = layout;
      const auto built = build_test_graph(10, shape, options);
      const LocalGraph& g = built->graph;
      const Distribution& d = g.dist;
      Renumbering ids = g.renumbering;
      ForwardMaps forward;
      gather_set_maps(ids, d, *built->grid, forward);
      const BlockValue original = BlockValue::id(d.block);
      for (const VertexSet set : {VertexSet::kRows, VertexSet::kColumns})
        for (const int64_t every : {int64_t{1}, int64_t{5}, int64_t{29}}) {
          const bool rows = set == VertexSet::kRows;
          const int64_t size = rows ? d.row_set_size() : d.col_set_size();
          const IdTable& gathered = rows ? ids.row_original : ids.col_original;
          util::Bitmap present(size);
          for (int64_t u = 0; u < size; u += every) present.set(u);
          const SetMap map = SetMap::from_blocks(present, ids.owned_original.data(), set, d, *built->grid, original);
          EXPECT_EQ(map.is_whole(), every == 1);
          EXPECT_EQ(map.sparse_index(), every == 29);
          int64_t wrong = 0;
          for (int64_t u = 0; u < size; ++u) {
            ASSERT_EQ(map.contains(static_cast<LocalId>(u)), every == 1 || u % every == 0);
            if (u % every == 0) wrong += map[static_cast<LocalId>(u)] != gathered[static_cast<size_t>(u)];
          }
          EXPECT_EQ(wrong, 0) << (rows ? "rows" : "columns") << ", present every " << every;
        }
    }
}

// The fill gives each slab's kept entries back to the system bucket by bucket, in every chunk's
// segments (whole pages: buckets of 2^16 entries at SCALE 17, chunks of 2^17 edges): the graph is
// the same as in one slab of one chunk.
TEST(Kernel1, EntriesReleasedBehindTheFillKeepTheGraph) {
  constexpr int kScale = 17;
  for (const util::GridShape shape : grids_of_this_run())
    for (const bool packed : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "grid " << shape.rows << "x" << shape.cols << " packed " << packed);
      GraphOptions one;
      one.packed_rows = packed;
      const auto reference = build_test_graph(kScale, shape, one);
      EXPECT_EQ(reference->graph.kernel1_passes, 1);
      GraphOptions three = one;
      three.tuning.chunk_edges = int64_t{1} << 17;
      three.passes = 3;
      const auto sliced = build_test_graph(kScale, shape, three);
      EXPECT_EQ(sliced->graph.kernel1_passes, 3);
      expect_same_graph(reference->graph, sliced->graph, false);
    }
}

// An edge inside one slab is kept once and its mirror made in the fill (every edge of the graph
// in one slab, some of them in several): the same graph as with both entries kept, on every grid,
// plain and packed, with and without the degree order and the renumbering. On one process the
// mirrors' rows are counted after the first pass, in blocks (about 8 at this SCALE): equal
// degrees, hence equal rows.
TEST(Kernel1, MirrorsMadeInTheFillKeepTheGraph) {
  constexpr int kScale = 13;
  GraphOptions sorted;
  sorted.packed_rows = false;
  GraphOptions packed_by_id;
  packed_by_id.degree_sort = false;
  GraphOptions packed_no_reorder;
  packed_no_reorder.reorder = false;
  for (const util::GridShape shape : grids_of_this_run())
    for (const GraphOptions& base : {sorted, packed_by_id, packed_no_reorder})
      for (int64_t passes : {int64_t{0}, int64_t{4}}) {
        SCOPED_TRACE(::testing::Message()
                     << "grid " << shape.rows << "x" << shape.cols << " packed " << base.packed_rows << " degree_sort "
                     << base.degree_sort << " reorder " << base.reorder << " passes " << passes);
        GraphOptions both = base;
        both.mirror = false;
        both.passes = passes;
        GraphOptions once = both;
        once.mirror = true;
        const auto reference = build_test_graph(kScale, shape, both);
        const auto mirrored = build_test_graph(kScale, shape, once);
        EXPECT_EQ(mirrored->graph.kernel1_passes, passes ? 4 : 1);
        EXPECT_EQ(reference->graph.kernel1_passes, mirrored->graph.kernel1_passes);
        expect_same_graph(reference->graph, mirrored->graph, false);
      }
}

// The mirrors made in many groups of buckets, cut where the most any rank keeps per bucket reaches
// equal shares (so a rank's groups hold unequal runs of its buckets): the same graph as with both
// entries kept, on every grid, packed and plain.
TEST(Kernel1, MirrorsMadeInManyGroupsKeepTheGraph) {
  constexpr int kScale = 16;  // 2^21 entries: 32 buckets on one process, fewer on each of more ranks
  GraphOptions sorted;
  sorted.packed_rows = false;
  for (const util::GridShape shape : grids_of_this_run())
    for (const GraphOptions& base : {GraphOptions{}, sorted}) {
      SCOPED_TRACE(::testing::Message() << "grid " << shape.rows << "x" << shape.cols << " packed "
                                        << base.packed_rows);
      GraphOptions both = base;
      both.mirror = false;
      GraphOptions grouped = base;
      grouped.tuning.mirrors_per_group = 1024;
      const auto reference = build_test_graph(kScale, shape, both);
      const auto mirrored = build_test_graph(kScale, shape, grouped);
      expect_same_graph(reference->graph, mirrored->graph, false);
    }
}

// Routed entries written to their buckets through groups of buckets (two passes), with the
// entries not kept counted through the row tally (the mirrors, the other slabs'): the same graph
// as written straight to the buckets, row by row and in the same order, also where the rows keep
// the input order.
TEST(Kernel1, EntriesWrittenThroughGroupsOfBucketsKeepTheGraph) {
  constexpr int kScale = 13;
  GraphOptions packed;
  GraphOptions input_order;
  input_order.packed_rows = false;
  input_order.degree_sort = false;
  for (const util::GridShape shape : grids_of_this_run())
    for (const GraphOptions& base : {packed, input_order})
      for (int64_t passes : {int64_t{0}, int64_t{3}}) {
        SCOPED_TRACE(::testing::Message() << "grid " << shape.rows << "x" << shape.cols << " packed "
                                          << base.packed_rows << " passes " << passes);
        GraphOptions direct = base;
        direct.passes = passes;
        direct.tuning.direct_write_buckets = int64_t{1} << 20;
        GraphOptions grouped = direct;
        grouped.tuning.direct_write_buckets = 1;
        const auto reference = build_test_graph(kScale, shape, direct);
        const auto written = build_test_graph(kScale, shape, grouped);
        EXPECT_EQ(written->graph.kernel1_passes, passes ? 3 : 1);
        expect_same_graph(reference->graph, written->graph, false);
      }
}

// The rows' lengths counted for the rows met only (graph/row_lengths.hpp: pass 1 keeps the rows of
// the entries it does not keep, the other slabs' and the mirrors', and counts them a bucket at a
// time): the same graph as counted a word per row, in the same order, on every grid of several
// columns (one column counts a word per row), with and without the renumbering and the mirrors,
// in one slab (rows written straight to their buckets) and in three (through groups of buckets).
TEST(Kernel1, RowsCountedForTheRowsMetOnlyKeepTheGraph) {
  constexpr int kScale = 13;
  GraphOptions packed;
  GraphOptions no_reorder;
  no_reorder.reorder = false;
  GraphOptions both_entries;
  both_entries.mirror = false;
  for (const util::GridShape shape : grids_of_this_run())
    for (const GraphOptions& base :
         shape.cols == 1 ? std::vector<GraphOptions>{} : std::vector{packed, no_reorder, both_entries})
      for (const auto& [passes, direct_write_buckets] :
           {std::pair{int64_t{0}, int64_t{0}}, std::pair{int64_t{3}, int64_t{1}}}) {
        SCOPED_TRACE(::testing::Message()
                     << "grid " << shape.rows << "x" << shape.cols << " packed " << base.packed_rows << " reorder "
                     << base.reorder << " mirror " << base.mirror << " passes " << passes << " direct_write_buckets "
                     << direct_write_buckets);
        GraphOptions whole = base;
        whole.passes = passes;
        whole.tuning.direct_write_buckets = direct_write_buckets;
        whole.row_counting = RowCounting::kWhole;
        GraphOptions met = whole;
        met.row_counting = RowCounting::kRowsMet;
        const auto reference = build_test_graph(kScale, shape, whole);
        const auto counted = build_test_graph(kScale, shape, met);
        EXPECT_EQ(counted->graph.kernel1_passes, passes ? 3 : 1);
        expect_same_graph(reference->graph, counted->graph, false);
        EXPECT_EQ(reference->graph.renumbering.row_original_by_slot, counted->graph.renumbering.row_original_by_slot);
      }
}

// The fill's radix sort in narrow digits (3 and 5 bits: 3 to 5 passes over SCALE 13's 13-bit keys,
// as 27-bit keys take 3 at SCALE 27 on one process) gives the same rows, in the same order, as in
// the default digits (1 or 2 passes), packed and plain.
TEST(Kernel1, RadixSortsOfMorePassesKeepTheGraph) {
  constexpr int kScale = 13;
  GraphOptions packed;
  GraphOptions plain;
  plain.packed_rows = false;
  for (const util::GridShape shape : grids_of_this_run())
    for (const GraphOptions& base : {packed, plain})
      for (int digit_bits : {3, 5}) {
        SCOPED_TRACE(::testing::Message() << "grid " << shape.rows << "x" << shape.cols << " packed "
                                          << base.packed_rows << " digit bits " << digit_bits);
        GraphOptions narrow = base;
        narrow.tuning.radix_digit_bits = digit_bits;
        const auto reference = build_test_graph(kScale, shape, base);
        const auto sorted = build_test_graph(kScale, shape, narrow);
        expect_same_graph(reference->graph, sorted->graph, false);
      }
}

}  // namespace
}  // namespace g500::graph
