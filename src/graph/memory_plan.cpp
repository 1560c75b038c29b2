#include "graph/memory_plan.hpp"

#include <algorithm>
#include <cmath>

#include "graph/edge_router.hpp"
#include "graph/packed_rows.hpp"
#include "graph/row_buckets.hpp"
#include "util/bitmap.hpp"

namespace g500 {

double kronecker_nonempty_row_share(int scale, int64_t nedges, int grid_cols) {
  // The generator's initiator A, B, C, D = 0.57, 0.19, 0.19, 0.05 (reference 3.0): a bit of an
  // endpoint is 0 with probability A + B = 0.76.
  constexpr double kZeroBit = 0.76, kOneBit = 0.24;
  const double per_block = 2.0 * static_cast<double>(nedges) / std::max(1, grid_cols);
  double nonempty = 0, binomial = 1;  // binomial = C(scale, k)
  for (int k = 0; k <= scale; ++k) {
    const double p = std::pow(kZeroBit, scale - k) * std::pow(kOneBit, k);
    nonempty += binomial * -std::expm1(-per_block * p);
    binomial = binomial * (scale - k) / (k + 1);
  }
  return nonempty / std::ldexp(1.0, scale);
}

// The directory of packed rows (graph/packed_rows.hpp): 2 bytes per row slot, a block's bases per
// 64 slots, 8 bytes per packed row. Packed rows (more than 32 entries) per adjacency entry,
// measured on the Kronecker graphs on one process: 0.0036 at SCALE 16, 0.0040 at 20, 0.0031 at 22,
// 0.0024 at 24; other graphs take the bound of one per 33 entries.
double packed_directory_bytes(double slots, double entries, bool kronecker) {
  constexpr double kKroneckerPackedRowsPerEntry = 0.004;
  const double packed_rows = entries * (kronecker ? kKroneckerPackedRowsPerEntry : 1.0 / (PackedRows::kMaxShortRow + 1));
  return slots * sizeof(uint16_t) + std::ceil(slots / PackedRows::kSlotsPerBlock) * sizeof(PackedRows::SlotBlock) +
         packed_rows * sizeof(uint64_t);
}

double packed_bytes_per_entry(int scale) {
  // Measured on the Kronecker graphs with the degree sort, one process, the gaps and the short
  // rows' ids together (graph/packed_rows.hpp): SCALE 16 1.496, 18 1.499, 20 1.542, 22 1.685, 24
  // 1.813; odd SCALEs halfway. The gaps shrink relative to the column count as hubs grow, but the
  // count grows: about 0.07 more per SCALE, taken as 0.08 beyond the measured range.
  constexpr int kFirst = 16, kLast = 24;
  constexpr double kMeasured[] = {1.496, 1.498, 1.499, 1.521, 1.542, 1.614, 1.685, 1.749, 1.813};
  constexpr double kPerScaleBeyond = 0.08;
  if (scale <= kFirst) return kMeasured[0];
  if (scale <= kLast) return kMeasured[scale - kFirst];
  return kMeasured[kLast - kFirst] + kPerScaleBeyond * (scale - kLast);
}

GraphMemory plan_graph_memory(const GraphShape& shape, const Distribution& d, const GraphOptions& options, int64_t slabs,
                              int threads) {
  const int ranks = d.R * d.C;
  const double rows = static_cast<double>(d.row_set_size()), cols = static_cast<double>(d.col_set_size());
  const double owned = static_cast<double>(d.block);
  const double entries = 2.0 * static_cast<double>(shape.nedges) / ranks;
  const double nonempty = shape.scale > 0 ? rows * kronecker_nonempty_row_share(shape.scale, shape.nedges, d.C) : rows;
  const double slots = options.bcsr ? nonempty : rows;
  constexpr double kWord = sizeof(int64_t), kId = sizeof(LocalId);

  GraphMemory m;
  const double row_index = options.bcsr ? (nonempty + 1) * kWord + rows / 8 + (rows / kBitsPerWord + 1) * kWord
                                        : (rows + 1) * kWord;
  const bool key_tables = options.degree_sort && !sort_keys_are_column_ids(options, d);
  const double filled_rows =
      options.compress ? entries * (shape.scale > 0 ? packed_bytes_per_entry(shape.scale) : kId)  // other graphs: 4-byte gaps
                       : entries * kId;
  const double neighbours =
      filled_rows + (options.compress ? packed_directory_bytes(slots, entries, shape.scale > 0) + (key_tables ? 2 * cols * kId : 0)
                                      : 0);
  const double first_neighbours = slots * kId * (options.reorder ? 2 : 1);
  // The row maps are the owned ones on a grid of one column, the column maps on a grid of one row
  // (graph/renumbering.hpp: shared, not copied).
  const double row_maps = d.C == 1 ? 0 : rows, col_maps = d.R == 1 ? 0 : cols;
  const double renumbering = options.reorder ? (2 * owned + row_maps + col_maps) * kId : 0;
  m.graph = row_index + neighbours + first_neighbours + owned * kWord + renumbering;
  m.filled_rows = filled_rows;

  const RowBuckets buckets(d.row_set_size(), expected_entries_per_rank(shape.nedges, ranks));
  const double entry_bytes = compact_entry_bytes(buckets, d.col_set_size());
  m.slabs = std::max<int64_t>(1, slabs);
  const double S = static_cast<double>(m.slabs);
  // With mirrors an edge whose rows are both in one slab (1 in S of them, the rows spread evenly
  // over the slabs) is kept once: a slab keeps 2E/S - E/S^2 entries instead of 2E/S.
  const bool mirror = options.mirror && (options.degree_sort || options.compress);
  const double kept_per_slab = entries / S * (mirror ? 1 - 1 / (2 * S) : 1);
  m.mirrored_share = mirror ? 1 / (2 * S - 1) : 0;
  const double chunks = std::ceil(static_cast<double>(shape.local_edges) / kChunkEdges);
  const double groups =
      static_cast<double>(mirror_groups(static_cast<int64_t>(std::ceil(buckets.count / S)), static_cast<int64_t>(entries / S)));
  const double mirror_chunks = mirror ? groups + std::ceil(kept_per_slab * m.mirrored_share / kChunkEdges) : 0;
  const double segment_starts = (chunks + mirror_chunks) * (static_cast<double>(buckets.count) / S + 1) * kWord;
  m.kept_entries = kept_per_slab * entry_bytes + segment_starts;

  const double chunk = std::min<double>(static_cast<double>(shape.local_edges), kChunkEdges);
  const double routed = ranks == 1 ? 2 * chunk * kWord  // entries kept as they are made
                                   : 2 * chunk * (kWord + sizeof(int) + 2 * kWord);  // entries, ranks, send, receive
  constexpr double kBucketScratchPerThread = 4.0 * (int64_t{1} << 16) * sizeof(uint64_t);  // items, sort spare
  // A group's mirrors: on one process per thread as entries; else per thread as edges, then
  // together as edges and as routed entries; then staged by groups of buckets.
  const double mirror_bytes = (ranks == 1 ? kWord : 2 * sizeof(gen::Edge) + kWord) + kWord;
  const double mirror_group = mirror ? kept_per_slab * m.mirrored_share / groups * mirror_bytes : 0;
  m.chunk_buffers = chunk * sizeof(gen::Edge) + routed + threads * kBucketScratchPerThread + mirror_group;
  // Pass 1 counts every row; the fill needs the forward maps and the sort keys of the columns
  // (with the degree order on one grid row the keys are the renumbered ids: the column map itself).
  const double counting = rows * kWord;
  const bool keys_are_column_map = sort_keys_are_column_ids(options, d);
  const double filling = (options.reorder ? row_maps + col_maps : 0) * kId +
                         ((options.degree_sort || options.compress) && !keys_are_column_map ? cols * kId : 0);
  m.row_tables = filling;  // the row lengths are gone by then (or are the owned degrees: in the graph)
  // Pass 1 stages a chunk's kept entries by groups of buckets; after it, one process counts the
  // rows of the mirrors through a pool of column ids (both freed before the fill).
  const double staged = kept_per_slab / std::max(1.0, chunks) * kWord;
  const double mirror_count =
      ranks == 1 && mirror
          ? static_cast<double>(mirror_count_chunks(mirror_count_block(static_cast<int64_t>(kept_per_slab)), threads) *
                                kMirrorCountChunk) * sizeof(uint32_t)
          : 0;
  m.first_pass = m.kept_entries + counting + std::max(staged, mirror_count) + m.chunk_buffers;
  return m;
}

int64_t choose_slabs(const GraphShape& shape, const Distribution& d, const GraphOptions& options, double node_bytes_per_rank,
                     int threads) {
  if (options.passes > 0) return options.passes;
  if (options.slab_entries > 0) {
    const double entries = 2.0 * static_cast<double>(shape.nedges) / (d.R * d.C);
    return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(entries / static_cast<double>(options.slab_entries))));
  }
  // The kernel-1 peak falls with the slabs (kept entries take more bytes than the rows they
  // become): the fewest slabs whose peak fits the share.
  auto fewest_within = [&](double share, int64_t first, int64_t last) -> int64_t {
    for (int64_t slabs = first; slabs <= last; ++slabs)
      if (plan_graph_memory(shape, d, options, slabs, threads).kernel1_peak() <= share * node_bytes_per_rank) return slabs;
    return 0;
  };
  if (const int64_t modest = fewest_within(kModestMemoryShare, 1, kPreferredMostSlabs)) return modest;
  // Beyond, the slabs halve the kept entries each time they double: a few dozen cover any case
  // where the graph itself fits.
  constexpr int64_t kMostSlabs = 256;
  if (const int64_t most = fewest_within(kMostMemoryShare, kPreferredMostSlabs, kMostSlabs)) return most;
  return kPreferredMostSlabs;  // the graph alone does not fit: the run's memory check says so
}

}  // namespace g500
