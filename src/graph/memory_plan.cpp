#include "graph/memory_plan.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "graph/edge_router.hpp"
#include "graph/packed_rows.hpp"
#include "graph/present_index.hpp"
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
  const double packed_rows =
      entries * (kronecker ? kKroneckerPackedRowsPerEntry : 1.0 / (PackedRows::kMaxShortRow + 1));
  return slots * sizeof(uint16_t) + std::ceil(slots / PackedRows::kSlotsPerBlock) * sizeof(PackedRows::SlotBlock) +
         packed_rows * sizeof(uint64_t);
}

bool lengths_of_rows_met(const GraphShape& shape, const Distribution& d, const GraphOptions& options) {
  const double rows = static_cast<double>(d.row_set_size());
  const double entries = static_cast<double>(expected_entries_per_rank(shape.nedges, d.R * d.C));
  const double rows_met =
      shape.scale > 0 ? rows * kronecker_nonempty_row_share(shape.scale, shape.nedges, d.C) : entries;
  const RowBuckets buckets(d.row_set_size(), expected_entries_per_rank(shape.nedges, d.R * d.C));
  return count_rows_met_only(options.row_counting, rows, entries, rows_met, compact_entry_bytes(buckets, 1), d.C);
}

double kept_buffer_share(double kept, int threads) {
  const double T = std::max(1, threads);
  double beyond_front = 0;  // what the threads write past [0, kept), where the entries end up
  for (int t = 1; t < threads; ++t) {
    const double begin = t / T, end = (t + kept) / T;
    beyond_front += end - std::clamp(kept, begin, end);
  }
  return std::min(1.0, kept + beyond_front);
}

double KeptEntryShares::mass(double lo, double hi) const {
  double m = 0;
  for (const auto& [j, w] : blocks_)
    m += w * C_ * std::max(0.0, std::min(hi, (j + 1.0) / C_) - std::max(lo, j / static_cast<double>(C_)));
  return m;
}

double KeptEntryShares::moment(double lo, double hi) const {
  double m = 0;
  for (const auto& [j, w] : blocks_) {
    const double from = std::max(lo, j / static_cast<double>(C_)), to = std::min(hi, (j + 1.0) / C_);
    if (to > from) m += w * C_ * (to * to - from * from) / 2;
  }
  return m;
}

double KeptEntryShares::held(double b, double p) const {
  if (!mirror_) return b - p;
  return (b - p) - (b * mass(p, b) - moment(p, b));  // less the entries p <= u < v < b
}

double KeptEntryShares::mirrors_made(double a, double b) const {
  return mirror_ ? moment(a, b) - a * mass(a, b) : 0;  // entries a <= v < u < b
}

std::vector<KeptEntryShares> kept_entry_shares(const Distribution& d, Layout layout, bool mirror) {
  // Column c's set holds the blocks c R + t (t < R), whose row-local ids start at the block's row
  // position (graph/distribution.hpp): c under Yoo's layout; row-major (c R + t) mod C, a run of R
  // positions from (c R) mod C around the C blocks, the same for the columns of one start.
  std::vector<KeptEntryShares> shares;
  if (!mirror || d.C == 1) {
    shares.emplace_back(1, std::vector<std::pair<int, double>>{{0, 1.0}}, mirror);
    return shares;
  }
  if (layout == Layout::kYoo) {
    for (int c = 0; c < d.C; ++c) shares.emplace_back(d.C, std::vector<std::pair<int, double>>{{c, 1.0}}, mirror);
    return shares;
  }
  std::set<int> starts;
  for (int c = 0; c < d.C; ++c) starts.insert(static_cast<int>(int64_t{c} * d.R % d.C));
  for (const int start : starts) {
    std::vector<double> weight(static_cast<size_t>(d.C), static_cast<double>(d.R / d.C) / d.R);  // whole turns
    for (int t = 0; t < d.R % d.C; ++t) weight[static_cast<size_t>((start + t) % d.C)] += 1.0 / d.R;
    std::vector<std::pair<int, double>> blocks;
    for (int j = 0; j < d.C; ++j)
      if (weight[j] > 0) blocks.emplace_back(j, weight[j]);
    shares.emplace_back(d.C, std::move(blocks), mirror);
  }
  return shares;
}

FullestColumn::FullestColumn(std::vector<KeptEntryShares> columns) : columns_(std::move(columns)) {
  for (const KeptEntryShares& column : columns_) {
    first_support_end_ = std::min(first_support_end_, column.support_end());
    last_support_begin_ = std::max(last_support_begin_, column.support_begin());
  }
}

double FullestColumn::held(double b, double p) const {
  if (first_support_end_ <= p || last_support_begin_ >= b) return b - p;  // a column with none in [p, b)
  double most = 0;
  for (const KeptEntryShares& column : columns_) most = std::max(most, column.held(b, p));
  return most;
}

double FullestColumn::mirrors_made(int64_t slabs) const {
  const double S = static_cast<double>(slabs);
  double most = 0;
  for (const KeptEntryShares& column : columns_) {  // only the slabs its other ends reach
    const int64_t first =
        std::clamp<int64_t>(static_cast<int64_t>(std::floor(column.support_begin() * S)), 0, slabs - 1);
    const int64_t last = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(column.support_end() * S)), 1, slabs);
    for (int64_t s = first; s < last; ++s) most = std::max(most, column.mirrors_made(s / S, (s + 1) / S));
  }
  return most;
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

GraphMemory plan_graph_memory(const GraphShape& shape, const Distribution& d, const GraphOptions& options,
                              int64_t slabs, int threads) {
  const int ranks = d.R * d.C;
  const double rows = static_cast<double>(d.row_set_size()), cols = static_cast<double>(d.col_set_size());
  const double owned = static_cast<double>(d.block);
  const double entries = 2.0 * static_cast<double>(shape.nedges) / ranks;
  const double nonempty = shape.scale > 0 ? rows * kronecker_nonempty_row_share(shape.scale, shape.nedges, d.C) : rows;
  const double slots = options.bcsr ? nonempty : rows;
  constexpr double kWord = sizeof(int64_t), kId = sizeof(LocalId),
                   kEntry = sizeof(Entry),  // Entry: graph/edge_router.hpp
      kInBlockId = sizeof(InBlockId);       // an id kept as its offset in a block (graph/in_block_id.hpp)

  GraphMemory m;
  // Under BCSR the starts of the rows with edges (at most one per entry) and their PresentIndex
  // (graph/present_index.hpp, 1.25 bits per row of the row set); plain CSR a start per row.
  const double row_starts = (slots + 1) * kWord;
  const double row_bitmap = options.bcsr ? PresentIndex::bytes_for(rows) : 0;
  const double row_index = row_starts + row_bitmap;
  const bool key_tables = sort_keys_need_tables(options);
  const double filled_rows = options.compress ? entries * (shape.scale > 0 ? packed_bytes_per_entry(shape.scale)
                                                                           : kId)  // other graphs: 4-byte gaps
                                              : entries * kId;
  const double directory = options.compress ? packed_directory_bytes(slots, entries, shape.scale > 0) : 0;
  const double packed_key_tables = options.compress && key_tables ? 2 * cols * kId : 0;
  const double neighbours = filled_rows + directory + packed_key_tables;
  const double first_neighbours = slots * (kId + (options.reorder ? kInBlockId : 0));
  // Kernel 1's map of the rows with entries to their new ids (graph/set_map.hpp): the owned one on
  // a grid of one column (shared, not copied), else kept for those rows only where that is smaller.
  const bool rows_met_only = keep_present_only(nonempty, rows);
  const double row_map = d.C == 1        ? 0
                         : rows_met_only ? nonempty * kInBlockId + PresentIndex::bytes_for(rows)
                                         : rows * kId;
  // The graph keeps the rows' original ids by slot (one per row with edges under BCSR) and the
  // columns' for the columns in use (graph/column_originals.hpp): a PresentIndex of the column
  // set, an id per column in use.
  const double row_originals = d.C == 1 ? 0 : slots;
  const double columns_in_use =
      shape.scale > 0 ? cols * kronecker_nonempty_row_share(shape.scale, shape.nedges, d.R) : cols;
  const bool in_use_only = d.R > 1 && keep_present_only(columns_in_use, cols);
  const double column_bitmap = in_use_only ? PresentIndex::bytes_for(cols) : 0;
  const double column_ids = d.R == 1 ? 0 : in_use_only ? columns_in_use * kInBlockId : cols * kId;
  const double col_originals = column_ids + column_bitmap;
  const double renumbering = options.reorder ? 2 * owned * kId + row_originals * kInBlockId + col_originals : 0;
  // Owned degrees (original order), and the searches' tables: 32-bit degrees in the graph's
  // order and the bitmap of vertices without edges (make_search_tables).
  const double degrees = owned * (kWord + sizeof(uint32_t) + 1.0 / 8);
  m.graph = row_index + neighbours + first_neighbours + degrees + renumbering;
  m.filled_rows = filled_rows;

  const RowBuckets buckets(d.row_set_size(), expected_entries_per_rank(shape.nedges, ranks));
  const double entry_bytes = compact_entry_bytes(buckets, d.col_set_size());
  m.slabs = std::max<int64_t>(1, slabs);
  const double S = static_cast<double>(m.slabs);
  // The fullest column's entries kept in one pass (at its slab's start) and mirrors made, the most
  // over the slabs (rows spread evenly over them).
  const bool mirror = options.mirror && (options.degree_sort || options.compress);
  const FullestColumn fullest(kept_entry_shares(d, options.layout, mirror));
  auto slab_begin = [S](int64_t s) { return static_cast<double>(s) / S; };
  double kept_share = 0;
  for (int64_t s = 0; s < m.slabs; ++s)
    kept_share = std::max(kept_share, fullest.held(slab_begin(s + 1), slab_begin(s)));
  const double made_share = fullest.mirrors_made(m.slabs);
  const double kept_per_slab = entries * kept_share;
  const double chunks = std::ceil(static_cast<double>(shape.local_edges) / kChunkEdges);
  const double groups = static_cast<double>(
      mirror_groups(static_cast<int64_t>(std::ceil(buckets.count / S)), static_cast<int64_t>(entries / S)));
  const double mirror_chunks = mirror ? groups + std::ceil(entries * made_share / kChunkEdges) : 0;
  const double segment_starts = (chunks + mirror_chunks) * (static_cast<double>(buckets.count) / S + 1) * kWord;

  const double chunk = std::min<double>(static_cast<double>(shape.local_edges), kChunkEdges);
  // The entries a chunk routes, as a share of two per edge: on one process one slab's rows (one
  // entry of the edges kept once); on several, pass 1 routes them all (the other slabs' entries
  // and the mirrors, to be counted), and the buffers stay for the later passes.
  const double routed_share = ranks == 1 ? kept_share : 1;
  const double routed =
      ranks == 1 ? 2 * chunk * kEntry * kept_buffer_share(routed_share, threads)    // entries kept as they are made
                 : 2 * chunk * routed_share * (kEntry + sizeof(int) + 2 * kEntry);  // entries, ranks, send, receive
  m.chunk_buffers = chunk * sizeof(gen::Edge) + routed;
  constexpr double kBucketScratchPerThread = 4.0 * (int64_t{1} << 16) * sizeof(uint64_t);  // items, sort spare
  // A group's mirrors: on one process per thread as entries; else per thread as edges, then
  // together as edges and as routed entries; then staged by groups of buckets.
  const double mirror_bytes = (ranks == 1 ? kEntry : 2 * sizeof(gen::Edge) + kEntry) + kEntry;
  m.fill_scratch = threads * kBucketScratchPerThread + entries * made_share / groups * mirror_bytes;
  // Pass 1 counts every row and, with `reorder` on several grid rows, marks the columns it meets.
  // The fill needs the rows' forward map and each column's value (graph/set_map.hpp): with
  // `reorder` its key or new id, the owned map itself on one grid row, else kept as the column
  // originals are (for the columns in use only where that is smaller); without it the degree
  // order's keys, a table of the column set, and for plain rows the order's two tables, which
  // packed rows keep in the graph.
  // A word per row, or (graph/row_lengths.hpp) the rows of the entries not kept (on the fullest
  // column, which keeps the most of its entries, at more bytes each) with their chunks' segment
  // starts, then the lengths of the rows met: a PresentIndex of the row set and 4 bytes per row met.
  const int stored_bytes = compact_entry_bytes(buckets, 1);
  const bool rows_met_counted = lengths_of_rows_met(shape, d, options);
  const double stored_rows = rows_met_counted ? (entries - kept_per_slab) * stored_bytes +
                                                    chunks * (static_cast<double>(buckets.count) + 1) * kWord
                                              : 0;
  m.lengths_of_rows_met = rows_met_counted;
  const double lengths_index = rows_met_counted ? PresentIndex::bytes_for(rows) : 0,
               lengths_counts = rows_met_counted ? nonempty * sizeof(uint32_t) : 0;
  const double counting = rows_met_counted ? stored_rows : rows * kWord;
  // After pass 1 the lengths of the rows met are counted beside the stored rows; then put in the
  // graph's order beside themselves and the row index made from them.
  const double rows_planned = rows_met_counted ? std::max(stored_rows + lengths_index + lengths_counts,
                                                          2 * (lengths_index + lengths_counts) + row_index)
                                               : counting + row_index;
  const bool stored_rows_at_peak = rows_met_counted && stored_rows >= lengths_index + lengths_counts + row_index;
  const double columns_met = options.reorder && d.R > 1 ? cols / 8 : 0;
  const double column_values = options.reorder ? col_originals : options.degree_sort ? cols * kId : 0;
  const double forward_row_maps = options.reorder ? row_map : 0;
  m.row_tables = forward_row_maps + column_values + (key_tables && !options.compress ? 2 * cols * kId : 0);
  // Pass 1 stages a chunk's kept entries by groups of buckets; after it, one process counts the
  // rows of the mirrors through a pool of column ids (both freed before the fill).
  const double staged_per_entry = kEntry / std::max(1.0, chunks);
  const double mirror_count =
      ranks == 1 && mirror
          ? static_cast<double>(mirror_count_chunks(mirror_count_block(static_cast<int64_t>(kept_per_slab)), threads) *
                                kMirrorCountChunk) *
                kId
          : 0;
  m.first_pass = kept_per_slab * entry_bytes + segment_starts + counting + columns_met +
                 std::max(kept_per_slab * staged_per_entry, mirror_count) + m.chunk_buffers;
  // After pass 1 its kept entries, the row lengths and the columns met stay while the rows are
  // planned: the row index, the rows' map and the renumbering's owned tables are made beside them.
  m.planning = kept_per_slab * entry_bytes + segment_starts + rows_planned + columns_met + forward_row_maps + degrees +
               (options.reorder ? 2 * owned * kId : 0) + m.chunk_buffers;
  // The later passes and the fills, the earlier slabs' rows written: a pass keeps its slab's
  // entries; the fill of a share x of the slab leaves the entries held (KeptEntryShares) while the
  // slab's rows grow by x.
  const double slab_rows = filled_rows / S;
  double passes = 0, fills = 0;
  constexpr int kSteps = 64;
  for (int64_t s = 0; s < m.slabs; ++s) {
    const double a = slab_begin(s), b = slab_begin(s + 1), rows_before = slab_rows * static_cast<double>(s);
    if (s > 0) passes = std::max(passes, rows_before + entries * fullest.held(b, a) * (entry_bytes + staged_per_entry));
    for (int step = 0; step <= kSteps; ++step) {
      const double x = static_cast<double>(step) / kSteps;
      fills = std::max(fills, rows_before + entries * fullest.held(b, a + (b - a) * x) * entry_bytes + slab_rows * x);
    }
  }
  // The columns' original ids and, with `reorder`, the first neighbours' are made after the fill
  // (make_column_originals): first the columns in use marked, a bit per column of the set, and the
  // owned tables of the column's blocks passed along (two blocks of ids), then the first
  // neighbours' originals.
  const double first_neighbour_originals = options.reorder ? slots * kInBlockId : 0;
  const double after_fill = options.reorder ? col_originals + first_neighbour_originals : 0;
  const double originals_scratch = options.reorder && d.R > 1 ? cols / 8 + 2 * owned * kId : 0;
  m.filling = m.graph - after_fill - filled_rows + segment_starts + m.row_tables + m.chunk_buffers +
              std::max(passes, fills + m.fill_scratch);
  m.originals = m.graph - after_fill +
                (options.reorder ? col_originals + std::max(originals_scratch, first_neighbour_originals) : 0);

  // The parts, named by what they grow with (Nakao et al. 2021, Table 2's terms).
  const double thread_scratch = threads * kBucketScratchPerThread;
  // Per row slot: one per row with edges under BCSR (at most one per entry), one per row without.
  const GrowsWith per_slot = options.bcsr ? GrowsWith::kEdgeShare : GrowsWith::kRowSet;
  m.graph_parts = {{"row index: starts", row_starts, per_slot},
                   {"row index: bitmap and offsets", row_bitmap, GrowsWith::kRowSet},
                   {"neighbours", filled_rows, GrowsWith::kEdgeShare},
                   {"packed rows' directory", directory, per_slot},
                   {"packed rows' key tables", packed_key_tables, GrowsWith::kColumnSet},
                   {"first neighbours", first_neighbours, per_slot},
                   {"degrees", degrees, GrowsWith::kOwned},
                   {"renumbering: owned", options.reorder ? 2 * owned * kId : 0, GrowsWith::kOwned},
                   {"renumbering: rows' original ids", options.reorder ? row_originals * kInBlockId : 0, per_slot},
                   {in_use_only ? "renumbering: columns in use, ids" : "renumbering: column map",
                    options.reorder ? column_ids : 0, in_use_only ? GrowsWith::kEdgeShare : GrowsWith::kColumnSet},
                   {"renumbering: columns in use, bitmap", options.reorder ? column_bitmap : 0, GrowsWith::kColumnSet}};
  auto push_row_map = [&] {
    if (!options.reorder || d.C == 1) return;
    if (rows_met_only) {
      m.kernel1_parts.push_back({"kernel 1: rows with entries, new ids", nonempty * kInBlockId, GrowsWith::kEdgeShare});
      m.kernel1_parts.push_back(
          {"kernel 1: rows with entries, bitmap", PresentIndex::bytes_for(rows), GrowsWith::kRowSet});
    } else {
      m.kernel1_parts.push_back({"kernel 1: forward row map", row_map, GrowsWith::kRowSet});
    }
  };
  // The graph's parts as the fill finds them: no neighbours yet (counted as filled), the columns'
  // and the first neighbours' original ids not made yet.
  auto push_graph_parts_before_originals = [&](bool with_neighbours) {
    for (const MemoryPart& part : m.graph_parts) {
      const bool column_originals = part.name.starts_with("renumbering: column");
      if ((!with_neighbours && part.name == "neighbours") || column_originals) continue;
      MemoryPart before = part;
      if (part.name == "first neighbours") before.bytes -= first_neighbour_originals;
      m.kernel1_parts.push_back(before);
    }
  };
  const MemoryPart counting_part =
      rows_met_counted ? MemoryPart{"kernel 1: rows of the entries not kept", stored_rows, GrowsWith::kEdgeShare}
                       : MemoryPart{"kernel 1: row lengths", counting, GrowsWith::kRowSet};
  if (m.originals > std::max({m.first_pass, m.planning, m.filling})) {
    if (originals_scratch > first_neighbour_originals) {
      push_graph_parts_before_originals(true);
      for (const MemoryPart& part : m.graph_parts)
        if (part.name.starts_with("renumbering: column")) m.kernel1_parts.push_back(part);
      m.kernel1_parts.push_back({"kernel 1: columns in use, marks", cols / 8, GrowsWith::kColumnSet});
      m.kernel1_parts.push_back({"kernel 1: owned ids of a block, in transit", 2 * owned * kId, GrowsWith::kOwned});
    } else {
      m.kernel1_parts = m.graph_parts;
    }
  } else if (m.planning > m.first_pass && m.planning >= m.filling) {
    m.kernel1_parts = {{"kernel 1: kept entries of a slab", kept_per_slab * entry_bytes, GrowsWith::kEdgeShare},
                       {"kernel 1: chunk segment starts", segment_starts, GrowsWith::kEdgeShare}};
    if (!rows_met_counted || stored_rows_at_peak) m.kernel1_parts.push_back(counting_part);
    if (rows_met_counted) {
      const double copies = stored_rows_at_peak ? 1 : 2;  // before and after the renumbering
      m.kernel1_parts.push_back(
          {"kernel 1: row lengths of the rows met, index", copies * lengths_index, GrowsWith::kRowSet});
      m.kernel1_parts.push_back(
          {"kernel 1: row lengths of the rows met", copies * lengths_counts, GrowsWith::kEdgeShare});
    }
    m.kernel1_parts.push_back({"kernel 1: columns met", columns_met, GrowsWith::kColumnSet});
    if (!stored_rows_at_peak) {
      m.kernel1_parts.push_back({"row index: starts", row_starts, per_slot});
      m.kernel1_parts.push_back({"row index: bitmap and offsets", row_bitmap, GrowsWith::kRowSet});
    }
    m.kernel1_parts.insert(m.kernel1_parts.end(),
                           {{"degrees", degrees, GrowsWith::kOwned},
                            {"renumbering: owned", options.reorder ? 2 * owned * kId : 0, GrowsWith::kOwned}});
    push_row_map();
    m.kernel1_parts.push_back({"kernel 1: chunk buffers", m.chunk_buffers, GrowsWith::kFixed});
  } else if (m.first_pass >= m.filling) {
    m.kernel1_parts = {
        {"kernel 1: kept entries of a slab", kept_per_slab * entry_bytes, GrowsWith::kEdgeShare},
        {"kernel 1: chunk segment starts", segment_starts, GrowsWith::kEdgeShare},
        counting_part,
        {"kernel 1: columns met", columns_met, GrowsWith::kColumnSet},
        {"kernel 1: staged entries or mirror count",
         m.first_pass - kept_per_slab * entry_bytes - segment_starts - counting - columns_met - m.chunk_buffers,
         GrowsWith::kEdgeShare},
        {"kernel 1: chunk buffers", m.chunk_buffers, GrowsWith::kFixed}};
  } else {
    push_graph_parts_before_originals(false);
    m.kernel1_parts.push_back({"kernel 1: chunk segment starts", segment_starts, GrowsWith::kEdgeShare});
    push_row_map();
    if (options.reorder && in_use_only) {
      m.kernel1_parts.push_back({"kernel 1: columns in use, sort keys", column_ids, GrowsWith::kEdgeShare});
      m.kernel1_parts.push_back(
          {"kernel 1: columns in use, bitmap", m.row_tables - forward_row_maps - column_ids, GrowsWith::kColumnSet});
    } else {
      m.kernel1_parts.push_back(
          {"kernel 1: column maps and sort keys", m.row_tables - forward_row_maps, GrowsWith::kColumnSet});
    }
    m.kernel1_parts.push_back({"kernel 1: chunk buffers", m.chunk_buffers, GrowsWith::kFixed});
    if (passes >= fills + m.fill_scratch) {
      m.kernel1_parts.push_back({"kernel 1: rows filled and a later slab's entries", passes, GrowsWith::kEdgeShare});
    } else {
      m.kernel1_parts.push_back({"kernel 1: rows filled and entries held", fills, GrowsWith::kEdgeShare});
      m.kernel1_parts.push_back(
          {"kernel 1: a group's mirrors", m.fill_scratch - thread_scratch, GrowsWith::kEdgeShare});
      m.kernel1_parts.push_back({"kernel 1: sort scratch per thread", thread_scratch, GrowsWith::kFixed});
    }
  }
  return m;
}

int64_t given_slabs(const GraphShape& shape, const Distribution& d, const GraphOptions& options) {
  if (options.passes > 0) return options.passes;
  if (options.slab_entries > 0) {
    const double entries = 2.0 * static_cast<double>(shape.nedges) / (d.R * d.C);
    return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(entries / static_cast<double>(options.slab_entries))));
  }
  return 0;
}

int64_t choose_slabs(const GraphShape& shape, const Distribution& d, const GraphOptions& options,
                     double node_bytes_per_rank, int threads) {
  if (const int64_t given = given_slabs(shape, d, options); given > 0) return given;
  // The kernel-1 peak falls with the slabs (kept entries take more bytes than the rows they
  // become): the fewest slabs whose peak fits the share.
  auto fewest_within = [&](double share, int64_t first, int64_t last) -> int64_t {
    for (int64_t slabs = first; slabs <= last; ++slabs)
      if (plan_graph_memory(shape, d, options, slabs, threads).kernel1_peak() <= share * node_bytes_per_rank)
        return slabs;
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
