// Kernel 1: distributed graph construction (Nakao et al. 2021: the data layout of section 3.2,
// Yoo's distribution of section 4.3).
//
// N, the number of vertices, is not given: a first read of every rank's share of the edge list
// finds the largest vertex id (graph/vertex_count.hpp), and the distribution is made from it.
//
// Every rank reads its share of the edge list in chunks and routes each edge {a, b} (self-loops
// dropped) as two directed entries: (v=a, u=b) to P(row(a), col(b)) and (v=b, u=a) to
// P(row(b), col(a)) (graph/edge_router.hpp). The edge list is never held whole. The receivers keep
// the entries of a slab of their rows, grouped by buckets of consecutive rows as each chunk
// arrives; pass 1 also counts the rows of the other slabs. The rows are then renumbered
// (`reorder`, Nakao et al. 2021, section 4.2) and filled bucket by bucket, each bucket sorted in
// cache so every row comes out in descending-degree order (`degree-sort`), into plain 32-bit
// neighbours or packed gaps (`compress`, graph/packed_rows.hpp); each further slab is one more
// pass over the input (the generator is random-access). One slab when the entries fit, so the
// edges are generated once; the number of slabs trades passes for memory. No access per entry
// lands at a random place of a whole-graph array except the lookup of the neighbour's sort key.
//
// The steps' own files: the kept entries (graph/kernel1_entries.hpp), the count of their rows
// (graph/kernel1_row_count.hpp, graph/row_lengths.hpp), the mirrors (graph/kernel1_mirrors.hpp)
// and the fill (graph/kernel1_fill.hpp); here the passes, the rows' plan and the slab loop.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <memory>
#include <optional>
#include <vector>

#include "comm/large_count.hpp"
#include "comm/typed.hpp"
#include "graph/column_blocks.hpp"
#include "graph/column_originals.hpp"
#include "graph/edge_router.hpp"
#include "graph/kernel1_entries.hpp"
#include "graph/kernel1_fill.hpp"
#include "graph/kernel1_mirrors.hpp"
#include "graph/kernel1_row_count.hpp"
#include "graph/local_graph.hpp"
#include "graph/memory_plan.hpp"
#include "graph/owned_degrees.hpp"
#include "graph/packed_rows.hpp"
#include "graph/row_buckets.hpp"
#include "graph/set_map.hpp"
#include "graph/vertex_count.hpp"
#include "util/huge_pages.hpp"
#include "util/large_array.hpp"
#include "util/page_release.hpp"
#include "util/raw_buffer.hpp"

namespace g500 {
namespace {

using kernel1::BucketedEntries;
using kernel1::BucketFill;
using kernel1::count_rows;
using kernel1::PackedRowSink;
using kernel1::PlainRowSink;
using kernel1::RowAndMirrorCount;
using kernel1::SlabMirrors;

// The sort keys of the columns with `degree-sort` (graph/column_keys.hpp): with `reorder` the
// renumbered blocks interleaved, from the ids alone; without it the order of the column set's
// degrees, gathered along the grid column (and over the world with the row-major layout).
ColumnKeys neighbor_order(const LocalGraph& g, const ProcessGrid& grid, const GraphOptions& options) {
  const Distribution& d = g.dist;
  if (options.reorder) return ColumnKeys::interleaved(d.R, d.block);
  std::vector<int64_t> column_degree(d.col_set_size());
  std::vector<int64_t> hosted(d.columns_aligned() ? 0 : d.block);
  comm::allgather(hosted_column_block(g.owned_degree.data(), hosted.data(), d.block, MPI_INT64_T, d, grid),
                  column_degree.data(), d.block, MPI_INT64_T, grid.col_comm(), grid.limits());
  return ColumnKeys::tabled(degree_order(column_degree));  // stable: ties keep ascending ids
}

// The fill's value of every column (original column-local id): sorted, its key; unsorted, its id
// in the graph; none where that is the original id. With `reorder` the renumbered ids come from
// the columns' owners a block at a time, kept on a grid of several rows for the columns pass 1 met
// only (graph/set_map.hpp); on a grid of one row the column set is the owned block, whose map
// is the renumbering's own. Without it, the degree order's keys, a table of the column set (the
// `--disable reorder` ablation).
std::optional<SetMap> fill_column_values(const LocalGraph& g, const ProcessGrid& grid, const GraphOptions& options,
                                         const ColumnKeys& order, const Bitmap& columns_met) {
  const Distribution& d = g.dist;
  if (options.reorder) {
    if (d.R == 1) return SetMap::whole(g.renumbering.owned_new);  // the keys are the ids with R = 1
    // The interleaved key of the column at `position`, new offset o, is o * R + position.
    const BlockValue value = options.degree_sort ? BlockValue{d.R, 1} : BlockValue::id(d.block);
    return SetMap::from_blocks(columns_met, g.renumbering.owned_new.data(), VertexSet::kColumns, d, grid, value);
  }
  if (!options.degree_sort) return std::nullopt;
  LargeArray<LocalId> keys;
  resize_huge_unwritten(keys, static_cast<size_t>(d.col_set_size()));  // read at random
#pragma omp parallel for schedule(static)
  for (int64_t u = 0; u < d.col_set_size(); ++u) keys[u] = order.key(static_cast<LocalId>(u));
  return SetMap::whole(IdTable(std::move(keys)));
}

// Slabs: runs of whole row buckets whose entries are kept and filled together. Pass s over the
// input keeps slab s's entries only, so the kept entries of one slab, not of the whole block, are
// in memory at a time; one slab is the whole block when it fits.
struct RowSlabs {
  int64_t count = 1;
  int64_t buckets_per_slab = 0;
  int64_t total_buckets = 0;

  RowSlabs(const RowBuckets& buckets, int64_t slabs)
      : count(std::max<int64_t>(1, slabs)), buckets_per_slab((buckets.count + count - 1) / count),
        total_buckets(buckets.count) {}
  int64_t first_bucket(int64_t s) const { return std::min(total_buckets, s * buckets_per_slab); }
  int64_t end_bucket(int64_t s) const { return std::min(total_buckets, (s + 1) * buckets_per_slab); }
};

// The first neighbour of every row the row index addresses (empty rows of plain CSR get 0).
std::vector<LocalId> first_neighbors_of(const LocalGraph& g) {
  const int64_t* starts = g.rows.starts();
  const int64_t count = g.rows.compressed() ? g.rows.nonempty_rows() : g.rows.num_rows();
  std::vector<LocalId> first(count);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < count; ++r) first[r] = starts[r + 1] > starts[r] ? g.neighbors[starts[r]] : 0;
  return first;
}

// The number of slabs, the same on every rank (every pass routes collectively): the run's plan
// (run/run_plan.hpp) sets `passes` from the node's memory; tests set it or `slab_entries`.
int64_t slabs_needed(const EdgeSource& source, const Distribution& d, const GraphOptions& options) {
  const GraphShape shape{source.global_edges, source.kronecker_scale, source.local_count};
  return std::max<int64_t>(1, given_slabs(shape, d, options));
}

// Original row-local id -> the graph's, for the rows with edges: with `reorder` kept as the
// columns' values are (graph/set_map.hpp), the owned map itself on a grid of one column; none
// without it (the ids stay).
using RowMap = std::optional<SetMap>;

// The row index from the rows' lengths, in the graph's order.
RowIndex index_rows(const RowLengths& lengths, const GraphOptions& options) {
  if (!lengths.is_whole())
    return RowIndex::from_lengths(
        lengths.size(), [&](int64_t x) { return lengths[x]; }, options.bcsr);
  const int64_t* whole = lengths.whole_data();
  return RowIndex::from_lengths(
      lengths.size(), [whole](int64_t x) { return whole[x]; }, options.bcsr);
}

// With `reorder` on several grid columns: the row lengths put in the graph's order and the row
// index made from them, then the original id of each row slot; both a block of the row set at a
// time from its owner (no table of the whole row set).
void index_renumbered_rows(LocalGraph& g, RowLengths lengths, const ProcessGrid& grid, const GraphOptions& options) {
  const Distribution& d = g.dist;
  const int64_t B = d.block;
  Renumbering& ids = g.renumbering;
  lengths = std::move(lengths).renumbered(ids.owned_new.data(), d, grid);
  g.rows = index_rows(lengths, options);
  lengths = RowLengths();
  // From here on only the rows with edges need their original ids: kept by slot.
  const RowIndex& rows = g.rows;
  ids.row_original_by_slot.resize(static_cast<size_t>(rows.num_slots()));
  InBlockId* by_slot = ids.row_original_by_slot.data();
  auto take_block = [&](int position, const LocalId* owned_original) {
    const int64_t first = position * B;
#pragma omp parallel for schedule(static)
    for (int64_t x = first; x < first + B; ++x) {
      const RowIndex::Extent e = rows.extent(x);
      if (e.end > e.begin || !rows.compressed())
        by_slot[e.slot] = keep_in_block(static_cast<LocalId>(first + owned_original[x - first]), d);
    }
  };
  for_each_block_table(ids.owned_original.data(), VertexSet::kRows, d, grid, take_block);
}

// From the row lengths of pass 1 (original row ids): the owned degrees, the renumbering with
// `reorder`, and the row index in the graph's ids. Returns the rows' map for placing the entries.
RowMap plan_rows(LocalGraph& g, RowLengths lengths, const ProcessGrid& grid, const GraphOptions& options) {
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  g.owned_degree = owned_degrees(lengths, d, grid);
  const int64_t* degree =
      g.owned_degree.data();  // on a grid of one column, the row lengths (the row set is the owned block)
  if (!options.reorder) {
    g.rows = d.C == 1 ? RowIndex::from_lengths(
                            nrows, [degree](int64_t x) { return degree[x]; }, options.bcsr)
                      : index_rows(lengths, options);
    return std::nullopt;
  }
  Renumbering& ids = g.renumbering = build_renumbering(g.owned_degree);
  if (d.C == 1) {
    ids.row_original = ids.owned_original;
    const LocalId* original = ids.owned_original.data();
    g.rows = RowIndex::from_lengths(
        nrows, [&](int64_t x) { return degree[original[x]]; }, options.bcsr);
    return SetMap::whole(ids.owned_new);
  }
  RowMap row_new =
      SetMap::from_blocks(lengths.rows_met(), ids.owned_new.data(), VertexSet::kRows, d, grid, BlockValue::id(d.block));
  index_renumbered_rows(g, std::move(lengths), grid, options);
  return row_new;
}

// Kernel 1 in slabs: pass 1 keeps slab 0's entries and counts the others' rows; the rows are then
// renumbered and ordered, and each slab is filled bucket by bucket (pass s + 1 keeps slab s + 1's
// entries). With one slab this is one pass over the input.
void build_in_slabs(LocalGraph& g, const EdgeSource& source, const ProcessGrid& grid, const GraphOptions& options,
                    const Kernel1Observer& observe) {
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  const int64_t expected = expected_entries_per_rank(source.global_edges, grid.size());
  const RowBuckets buckets(nrows, expected);
  const RowSlabs slabs(buckets, slabs_needed(source, d, options));
  observe(0, slabs.count, "routing the edges");
  // Reserved address space, so room for slabs somewhat above the average costs nothing.
  constexpr double kSlabSizeHeadroom = 1.25;
  const int64_t expected_per_slab =
      static_cast<int64_t>(kSlabSizeHeadroom * static_cast<double>(expected) / slabs.count) + 1;
  Router router(d, grid);
  RawBuffer<gen::Edge> buffer;
  // Edges inside one slab kept once, their mirrors made by the fill (SlabMirrors): only when the
  // rows are sorted by key (in input order the mirrors would change the order) and the row ids
  // leave the flag bit free.
  const bool mirror = options.mirror && (options.degree_sort || options.compress) && nrows <= int64_t{1} << 31;
  auto slab_rows = [&](int64_t s) {
    return std::pair{buckets.first_row(slabs.first_bucket(s)), std::min(nrows, buckets.first_row(slabs.end_bucket(s)))};
  };

  // Pass 1 routes the mirrors of slab 0 only to count their rows; one process has them at hand
  // (they are its kept entries' columns) and counts them after the pass instead (RowAndMirrorCount).
  const bool mirrors_counted_after_pass = grid.size() == 1;
  const int64_t chunk_edges = options.chunk_edges > 0 ? options.chunk_edges : kChunkEdges;
  Kernel1Steps& seconds = g.kernel1_seconds;
  // Of pass 1's entries, the rows of those it does not keep, to be counted (the column left out):
  // the entries beyond slab 0 and the mirrors routed only to be counted.
  const int64_t slab0_end_bucket = slabs.end_bucket(0);
  auto not_kept = [&buckets, slab0_end_bucket, mirror](Entry e) {
    constexpr Entry kRowPart = ~Entry{0} << kLocalIdBits;
    if (mirror && (e & kMirrorFlag))
      return e & ~kMirrorFlag & kRowPart;  // with mirrors the rows are below half their range
    return buckets.of(e) < slab0_end_bucket ? BucketedEntries::kNotPicked : e & kRowPart;
  };
  // `others`: the rows of the entries pass 1 does not keep, when it counts the rows met only.
  auto keep_slab = [&](int64_t s, int64_t* other_lengths, Bitmap* columns, BucketedEntries* others) {
    if (mirror) router.mirror_rows(slab_rows(s).first, slab_rows(s).second, s == 0 && !mirrors_counted_after_pass);
    auto kept = std::make_unique<BucketedEntries>(buckets, slabs.first_bucket(s), slabs.end_bucket(s),
                                                  expected_per_slab, d.col_set_size(), options.direct_write_buckets);
    RoutingSeconds routing;
    for_each_routed_chunk(
        source, grid.world(), router, buffer, routing,
        [&](const Entry* entries, int64_t n) {
          observe(s, slabs.count, "routing the edges");
          const double start = MPI_Wtime();
          kept->append_chunk(entries, n, other_lengths, columns);
          if (others) others->append_chunk_picked(entries, n, nullptr, nullptr, not_kept);
          seconds[Kernel1Steps::kBucket] += MPI_Wtime() - start;
        },
        chunk_edges);
    kept->appended_all();
    seconds[Kernel1Steps::kGenerate] += routing.read;
    seconds[Kernel1Steps::kRoute] += routing.route;
    return kept;
  };
  // Pass 1 counts every row: a word per row, counted at random places (the other slabs' entries,
  // the routed mirrors), on huge pages; or, where that is smaller, the rows met only, from the rows
  // of the entries it does not keep (graph/row_lengths.hpp).
  const bool rows_met_only =
      lengths_of_rows_met(GraphShape{source.global_edges, source.kronecker_scale, source.local_count}, d, options);
  const bool counts_others = slabs.count > 1 || (mirror && !mirrors_counted_after_pass);
  std::vector<int64_t> lengths;
  if (!rows_met_only) assign_huge(lengths, static_cast<size_t>(nrows), int64_t{0});
  std::unique_ptr<BucketedEntries> others;
  if (rows_met_only && counts_others)
    others = std::make_unique<BucketedEntries>(buckets, 0, buckets.count, expected, 1, options.direct_write_buckets);
  // The columns pass 1 meets: with `reorder` on a grid of several rows the fill's column values are
  // kept for those only (fill_column_values).
  Bitmap columns_met(options.reorder && d.R > 1 ? d.col_set_size() : 0);
  std::unique_ptr<BucketedEntries> kept = keep_slab(0, counts_others && !rows_met_only ? lengths.data() : nullptr,
                                                    columns_met.size() > 0 ? &columns_met : nullptr, others.get());
  observe(0, slabs.count, "planning the rows");
  const double plan_start = MPI_Wtime();
  RowLengths row_lengths;
  if (rows_met_only) {
    if (others) others->appended_all();
    row_lengths = RowLengths::of_rows_met(nrows, buckets.shift, [&](int64_t b, int64_t* counts) {
      const int64_t first = buckets.first_row(b);
      auto add = [&](const Entry* entries, int64_t n) {
        for (int64_t k = 0; k < n; ++k) ++counts[entry_row(entries[k]) - first];
      };
      if (b >= kept->first_bucket() && b < kept->first_bucket() + kept->buckets())
        kept->for_each_segment(b - kept->first_bucket(), add);
      if (others) others->for_each_segment(b, add);
    });
    others.reset();
  } else {
    if (mirror && mirrors_counted_after_pass)
      RowAndMirrorCount(slab_rows(0).first, slab_rows(0).second - slab_rows(0).first).count(*kept, lengths.data());
    else
      count_rows(*kept, lengths.data());
    row_lengths = RowLengths::whole(std::move(lengths));
  }
  const RowMap row_new = plan_rows(g, std::move(row_lengths), grid, options);
  const int64_t entries = g.rows.num_entries();

  ColumnKeys order;  // the ids unless the degree order says otherwise
  if (options.degree_sort) order = neighbor_order(g, grid, options);
  const bool sorted = options.degree_sort || options.compress;  // packed rows without the degree order: by column id
  const std::optional<SetMap> column_values = fill_column_values(g, grid, options, order, columns_met);
  columns_met = Bitmap();
  const int64_t ncols = d.col_set_size();
  const BucketFill fill{buckets,
                        nrows,
                        g.rows,
                        row_new ? &*row_new : nullptr,
                        column_values ? &*column_values : nullptr,
                        sorted,
                        static_cast<int>(std::bit_width(static_cast<uint64_t>(std::max<int64_t>(1, ncols - 1)))),
                        options.radix_digit_bits > 0 ? options.radix_digit_bits : BucketFill::kMaxDigitBits};
  const int64_t slots = g.rows.compressed() ? g.rows.nonempty_rows() : g.rows.num_rows();
  std::atomic<int64_t> stream_end{0};
  std::optional<PlainRowSink> plain;
  std::optional<PackedRowSink> packed;
  if (options.compress) {
    if (options.degree_sort) g.packed.keys = std::move(order);
    g.packed.in_use = true;
    const int64_t* starts = g.rows.starts();
    g.packed.place_rows(
        slots, [starts](int64_t r) { return starts[r + 1] - starts[r]; }, omp_get_max_threads());
    // Reserved, not touched: only the bytes written count in memory.
    g.packed.bytes.resize(static_cast<size_t>(entries) *
                          varint::size(static_cast<LocalId>(std::max<int64_t>(0, ncols - 1))));
    g.first_neighbors.assign(slots, 0);
    packed.emplace(PackedRowSink{g.rows, g.packed, g.first_neighbors, stream_end, {}});
  } else {
    g.neighbors.resize(entries);
    plain.emplace(PlainRowSink{g.rows, g.neighbors.data(), options.degree_sort ? &order : nullptr});
  }
  seconds[Kernel1Steps::kPlan] += MPI_Wtime() - plan_start;
  for (int64_t s = 0; s < slabs.count; ++s) {
    if (s > 0) {  // only this slab's entries are routed
      router.keep_rows(slab_rows(s).first, slab_rows(s).second);
      kept = keep_slab(s, nullptr, nullptr, nullptr);
    }
    std::optional<SlabMirrors> mirrors;
    if (mirror)
      mirrors.emplace(buckets, slabs.first_bucket(s), slabs.end_bucket(s), expected_per_slab,
                      std::max(expected_per_slab, kept->entries()), d, grid, router,
                      column_values ? column_values->whole_table() : nullptr, options.direct_write_buckets,
                      options.mirrors_per_group);
    SlabMirrors* made = mirrors ? &*mirrors : nullptr;
    observe(s, slabs.count, "filling the rows");
    const double fill_start = MPI_Wtime(), mirror_before = seconds[Kernel1Steps::kMirror];
    if (packed)
      fill.run(*kept, made, *packed, nullptr, seconds[Kernel1Steps::kMirror]);
    else
      fill.run(*kept, made, *plain, g.neighbors.data(), seconds[Kernel1Steps::kMirror]);
    kept.reset();
    seconds[Kernel1Steps::kFill] += MPI_Wtime() - fill_start - (seconds[Kernel1Steps::kMirror] - mirror_before);
  }
  if (packed)
    g.packed.bytes.resize(static_cast<size_t>(stream_end.load()));
  else
    g.first_neighbors = first_neighbors_of(g);
  g.local_entries = entries;
  g.kernel1_slabs = slabs.count;
}

}  // namespace

LocalGraph build_local_graph(const EdgeSource& source, const ProcessGrid& grid, const GraphOptions& options,
                             const Kernel1Observer& observe) {
  const Kernel1Observer tell = observe ? observe : [](int64_t, int64_t, const char*) {};
  tell(0, 0, "counting the vertices");
  LocalGraph g;
  const VertexCount n =
      count_vertices(source, grid.world(), options.chunk_edges > 0 ? options.chunk_edges : kChunkEdges);
  g.kernel1_seconds[Kernel1Steps::kGenerate] += n.seconds;
  g.dist = Distribution(n.nvertices, grid.rows(), grid.cols(), grid.row(), grid.col(), options.layout);
  build_in_slabs(g, source, grid, options, tell);
  tell(g.kernel1_slabs, g.kernel1_slabs, "the columns' original ids");
  make_column_originals(g, grid);
  make_search_tables(g);
  release_free_heap();  // kernel 1's freed scratch: glibc would keep it, counted in the search's memory
  g.global_directed_edges = comm::Communicator(grid.world()).sum(g.local_edges());
  return g;
}

}  // namespace g500
