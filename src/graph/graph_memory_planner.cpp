// plan_graph_memory (graph/memory_plan.hpp): the finished graph's sizes, kernel 1's moments and
// their parts.
#include <algorithm>
#include <cmath>

#include "graph/edge_router.hpp"
#include "graph/in_block_id.hpp"
#include "graph/memory_plan.hpp"
#include "graph/packed_rows.hpp"
#include "graph/present_index.hpp"
#include "graph/row_buckets.hpp"
#include "graph/set_map.hpp"
#include "graph/slot_starts.hpp"

namespace g500::graph {
namespace {

// The directory of packed rows (graph/packed_rows.hpp): a block's counts and places per 64 slots,
// 8 bytes per packed row, and 2 bytes per slot of the blocks with a packed or an empty row.
// Packed rows (more than 32 entries) per adjacency entry, measured on the Kronecker graphs on one
// process: 0.0036 at SCALE 16, 0.0040 at 20, 0.0031 at 22, 0.0024 at 24; other graphs take the
// bound of one per 33 entries. The degree order puts a Kronecker graph's packed rows first in
// each of the row set's C blocks, so few blocks hold one: 1/64 to 1/32 of a block per packed row
// (measured at SCALE 18 to 22 on 1 to 6 processes), and one more per block of the row set;
// elsewhere each packed row may have a block of its own, and without BCSR the empty rows give
// every block counts.
double packed_directory_bytes(double slots, double entries, bool kronecker, bool bcsr, int grid_cols) {
  constexpr double kKroneckerPackedRowsPerEntry = 0.004, kKroneckerCountedBlocksPerPackedRow = 1.0 / 32;
  const double packed_rows =
      entries * (kronecker ? kKroneckerPackedRowsPerEntry : 1.0 / (PackedRows::kMaxShortRow + 1));
  const double blocks = std::ceil(slots / PackedRows::kSlotsPerBlock);
  const double counted =
      !bcsr ? blocks
            : std::min(blocks, kronecker ? packed_rows * kKroneckerCountedBlocksPerPackedRow + grid_cols : packed_rows);
  return blocks * sizeof(PackedRows::SlotBlock) + packed_rows * sizeof(uint64_t) +
         counted * PackedRows::kSlotsPerBlock * sizeof(uint16_t);
}

// plan_graph_memory's steps: the finished graph's sizes, then kernel 1's four moments (pass 1, the
// rows' plan, the fill, the originals after it), then the parts of the graph and of the largest
// moment. The sizes are members because every moment adds up some of them.
class GraphMemoryPlanner {
 public:
  GraphMemoryPlanner(const GraphShape& shape, const Distribution& d, const GraphOptions& options, int64_t passes,
                     int threads)
      : shape_(shape), d_(d), options_(options), threads_(threads), ranks_(d.R * d.C),
        rows_(static_cast<double>(d.row_set_size())), cols_(static_cast<double>(d.col_set_size())),
        owned_(static_cast<double>(d.block)), entries_(2.0 * static_cast<double>(shape.nedges) / ranks_),
        nonempty_(shape.scale > 0 ? rows_ * kronecker_nonempty_row_share(shape.scale, shape.nedges, d.C) : rows_),
        slots_(options.bcsr ? nonempty_ : rows_),
        buckets_(d.row_set_size(), expected_entries_per_rank(shape.nedges, ranks_)),
        per_slot_(options.bcsr ? util::GrowsWith::kEdgeShare : util::GrowsWith::kRowSet),
        stored_id_(stored_id_bytes(d.col_set_size())), in_block_id_(in_block_id_bytes(d.block)) {
    m_.passes = std::max<int64_t>(1, passes);
  }

  GraphMemory plan() {
    size_graph();
    size_first_pass();
    size_planning();
    size_fill();
    size_originals();
    list_graph_parts();
    list_kernel1_parts();
    return m_;
  }

 private:
  static constexpr double kWord = sizeof(int64_t), kId = sizeof(LocalId),
                          kEntry = sizeof(Entry),  // Entry: graph/edge_router.hpp
      kMeasuredShortIdBytes = 4;                   // a short row's id where packed_bytes_per_entry was measured
  static constexpr double kBucketScratchPerThread = 4.0 * (int64_t{1} << 16) * sizeof(uint64_t);  // items, spare

  void size_graph() {
    // Under BCSR the starts of the rows with edges (at most one per entry; 16 bits each and two
    // words per 64, graph/slot_starts.hpp) and their index (rank9, 1.25 bits per row of the row
    // set, or bucketed offsets, the smaller: graph/row_index.hpp); plain CSR a start per row.
    row_starts_ = (slots_ + 1) * (options_.bcsr ? SlotStarts::kBytesPerSlot : kWord);
    if (options_.bcsr) row_nonempty_ = present_index_bytes(nonempty_, rows_);
    row_index_ = row_starts_ + row_nonempty_.total();
    key_tables_ = sort_keys_need_tables(options_);
    filled_rows_ = options_.packed_rows ? entries_ * (shape_.scale > 0 ? packed_bytes_per_entry(shape_.scale)
                                                                       : kId)  // other graphs: 4-byte gaps
                                        : entries_ * kId;
    // packed_bytes_per_entry counts short rows' ids at 4 bytes; with 64-bit ids they take the bits
    // the column set's ids need (graph/stored_ids.hpp).
    if (options_.packed_rows && shape_.scale > 0 && stored_id_ != kMeasuredShortIdBytes)
      filled_rows_ += entries_ * (stored_id_ - kMeasuredShortIdBytes) *
                      kronecker_short_row_id_share(shape_.scale, shape_.nedges, d_.C, PackedRows::kMaxShortRow);
    directory_ =
        options_.packed_rows ? packed_directory_bytes(slots_, entries_, shape_.scale > 0, options_.bcsr, d_.C) : 0;
    packed_key_tables_ = options_.packed_rows && key_tables_ ? 2 * cols_ * kId : 0;
    first_neighbours_ = slots_ * (stored_id_ + (options_.reorder ? in_block_id_ : 0));
    // Kernel 1's map of the rows with entries to their new ids (graph/set_map.hpp): the owned one on
    // a grid of one column (shared, not copied), else kept for those rows only where that is smaller.
    rows_met_only_ = keep_present_only(nonempty_, rows_);
    rows_met_index_ = present_index_bytes(nonempty_, rows_);
    row_map_ = d_.C == 1 ? 0 : rows_met_only_ ? nonempty_ * in_block_id_ + rows_met_index_.total() : rows_ * kId;
    // The graph keeps the rows' original ids by slot (one per row with edges under BCSR) and the
    // columns' for the columns in use (graph/column_originals.hpp): an index of the columns in use
    // (rank9 or bucketed offsets, the smaller), an id per column in use.
    row_originals_ = d_.C == 1 ? 0 : slots_;
    const double columns_in_use =
        shape_.scale > 0 ? cols_ * kronecker_nonempty_row_share(shape_.scale, shape_.nedges, d_.R) : cols_;
    in_use_only_ = d_.R > 1 && keep_present_only(columns_in_use, cols_);
    if (in_use_only_) column_index_ = present_index_bytes(columns_in_use, cols_);
    column_bitmap_ = column_index_.total();
    column_ids_ = d_.R == 1 ? 0 : in_use_only_ ? columns_in_use * in_block_id_ : cols_ * kId;
    col_originals_ = column_ids_ + column_bitmap_;
    const double renumbering = options_.reorder ? 2 * owned_ * kId + row_originals_ * in_block_id_ + col_originals_ : 0;
    // Owned degrees (original order), and the searches' tables: 32-bit degrees in the graph's
    // order and the bitmap of vertices without edges (make_search_tables).
    degrees_ = owned_ * (kWord + sizeof(uint32_t) + 1.0 / 8);
    const double neighbours = filled_rows_ + directory_ + packed_key_tables_;
    m_.graph = row_index_ + neighbours + first_neighbours_ + degrees_ + renumbering;
    m_.row_slots = slots_;
    m_.filled_rows = filled_rows_;
  }

  double slab_begin(int64_t s) const { return static_cast<double>(s) / static_cast<double>(m_.passes); }

  // Pass 1: its kept entries (the fullest column's, at its slab's start), the chunks' segment
  // starts, the row counts, the columns met and a chunk staged by groups of buckets or (one
  // process) the column ids that count the mirrors' rows.
  void size_first_pass() {
    entry_bytes_ = compact_entry_bytes(buckets_, d_.col_set_size());
    const double S = static_cast<double>(m_.passes);
    // The fullest column's entries kept in one pass (at its slab's start) and mirrors made, the most
    // over the slabs (rows spread evenly over them).
    mirror_ = options_.mirror && (options_.degree_sort || options_.packed_rows);
    fullest_ = FullestColumn(kept_entry_shares(d_, options_.layout, mirror_));
    double kept_share = 0;
    for (int64_t s = 0; s < m_.passes; ++s)
      kept_share = std::max(kept_share, fullest_.held(slab_begin(s + 1), slab_begin(s)));
    const double made_share = fullest_.mirrors_made(m_.passes);
    kept_per_slab_ = entries_ * kept_share;
    const double chunk_edges = static_cast<double>(chunk_edges_for(shape_.local_edges, kChunkEdges));
    const double chunks = std::ceil(static_cast<double>(shape_.local_edges) / chunk_edges);
    const double groups = static_cast<double>(
        mirror_groups(static_cast<int64_t>(std::ceil(buckets_.count / S)), static_cast<int64_t>(entries_ / S)));
    const double mirror_chunks = mirror_ ? groups + std::ceil(entries_ * made_share / (2 * chunk_edges)) : 0;
    segment_starts_ = (chunks + mirror_chunks) * (static_cast<double>(buckets_.count) / S + 1) * kWord;
    size_chunk_buffers(kept_share);
    // A group's mirrors: on one process per thread as entries; else per thread as edges, then
    // together as edges and as routed entries; then staged by groups of buckets.
    const double mirror_bytes = (ranks_ == 1 ? kEntry : 2 * sizeof(gen::Edge) + kEntry) + kEntry;
    m_.fill_scratch = threads_ * kBucketScratchPerThread + entries_ * made_share / groups * mirror_bytes;
    size_row_counting(chunks);
    columns_met_ = options_.reorder && d_.R > 1 ? cols_ / 8 : 0;
    // Pass 1 stages a chunk's kept entries by groups of buckets; after it, one process counts the
    // rows of the mirrors through a pool of column ids (both freed before the fill).
    staged_per_entry_ = kEntry / std::max(1.0, chunks);
    const double mirror_count =
        ranks_ == 1 && mirror_
            ? static_cast<double>(
                  mirror_count_chunks(mirror_count_block(static_cast<int64_t>(kept_per_slab_)), threads_) *
                  kMirrorCountChunk) *
                  kId
            : 0;
    m_.first_pass = kept_per_slab_ * entry_bytes_ + segment_starts_ + counting_ + columns_met_ +
                    std::max(kept_per_slab_ * staged_per_entry_, mirror_count) + m_.chunk_buffers;
  }

  // One chunk of input edges and its routed entries. The entries a chunk routes, as a share of two
  // per edge: on one process one slab's rows (one entry of the edges kept once); on several, pass 1
  // routes them all (the other slabs' entries and the mirrors, to be counted), and the buffers stay
  // for the later passes.
  void size_chunk_buffers(double kept_share) {
    const double chunk =
        static_cast<double>(std::min(shape_.local_edges, chunk_edges_for(shape_.local_edges, kChunkEdges)));
    const double routed_share = ranks_ == 1 ? kept_share : 1;
    const double routed =
        ranks_ == 1 ? 2 * chunk * kEntry * kept_buffer_share(routed_share, threads_)   // entries kept as they are made
                    : 2 * chunk * routed_share * (kEntry + sizeof(int) + 2 * kEntry);  // entries, ranks, send, receive
    m_.chunk_buffers = chunk * sizeof(gen::Edge) + routed;
  }

  // Pass 1 counts every row: a word per row, or (graph/row_lengths.hpp) the rows of the entries
  // not kept (on the fullest column, which keeps the most of its entries, at more bytes each) with
  // their chunks' segment starts, then the lengths of the rows met: a PresentIndex of the row set
  // and 4 bytes per row met.
  void size_row_counting(double chunks) {
    const int stored_bytes = compact_entry_bytes(buckets_, 1);
    rows_met_counted_ = lengths_of_rows_met(shape_, d_, options_);
    stored_rows_ = rows_met_counted_ ? (entries_ - kept_per_slab_) * stored_bytes +
                                           chunks * (static_cast<double>(buckets_.count) + 1) * kWord
                                     : 0;
    m_.lengths_of_rows_met = rows_met_counted_;
    lengths_index_ = rows_met_counted_ ? PresentIndex::bytes_for(rows_) : 0;
    lengths_counts_ = rows_met_counted_ ? nonempty_ * sizeof(uint32_t) : 0;
    counting_ = rows_met_counted_ ? stored_rows_ : rows_ * kWord;
  }

  // After pass 1 its kept entries and the row lengths stay while the columns' values and then the
  // rows are planned (kernel1::plan_degrees, fill_column_values, plan_rows). The lengths of the
  // rows met are counted beside the stored rows and the columns met; the columns' values are made
  // from the columns met (freed after) with the owned tables of the column's blocks passed along;
  // then the lengths are put in the graph's order beside themselves and the row index and the
  // rows' map made from them. Three moments: counting, the columns' values, the rows.
  void size_planning() {
    column_values_ = options_.reorder ? col_originals_ : options_.degree_sort ? cols_ * kId : 0;
    forward_row_maps_ = options_.reorder ? row_map_ : 0;
    const double base = kept_per_slab_ * entry_bytes_ + segment_starts_ + degrees_ +
                        (options_.reorder ? 2 * owned_ * kId : 0) + m_.chunk_buffers;
    const double lengths = rows_met_counted_ ? lengths_index_ + lengths_counts_ : counting_;
    const double counting = rows_met_counted_ ? base + stored_rows_ + lengths + columns_met_ : 0;
    block_tables_ = options_.reorder && d_.R > 1 ? 2 * owned_ * kId : 0;
    const double columns = base + lengths + columns_met_ + column_values_ + block_tables_;
    const double rows =
        base + (rows_met_counted_ ? 2 * lengths : lengths) + row_index_ + column_values_ + forward_row_maps_;
    planning_moment_ = counting >= std::max(columns, rows) ? PlanningMoment::kCounting
                       : columns >= rows                   ? PlanningMoment::kColumns
                                                           : PlanningMoment::kRows;
    m_.planning = std::max({counting, columns, rows});
  }

  // The fill needs the rows' forward map and each column's value (graph/set_map.hpp): with
  // `reorder` its key or new id, the owned map itself on one grid row, else kept as the column
  // originals are (for the columns in use only where that is smaller); without it the degree
  // order's keys, a table of the column set, and for plain rows the order's two tables, which
  // packed rows keep in the graph. The later passes and the fills, the earlier slabs' rows
  // written: a pass keeps its slab's entries; the fill of a share x of the slab leaves the entries
  // held (KeptEntryShares) while the slab's rows grow by x.
  void size_fill() {
    m_.row_tables = forward_row_maps_ + column_values_ + (key_tables_ && !options_.packed_rows ? 2 * cols_ * kId : 0);
    const double slab_rows = filled_rows_ / static_cast<double>(m_.passes);
    constexpr int kSteps = 64;
    for (int64_t s = 0; s < m_.passes; ++s) {
      const double a = slab_begin(s), b = slab_begin(s + 1), rows_before = slab_rows * static_cast<double>(s);
      if (s > 0)
        passes_ = std::max(passes_, rows_before + entries_ * fullest_.held(b, a) * (entry_bytes_ + staged_per_entry_));
      for (int step = 0; step <= kSteps; ++step) {
        const double x = static_cast<double>(step) / kSteps;
        fills_ =
            std::max(fills_, rows_before + entries_ * fullest_.held(b, a + (b - a) * x) * entry_bytes_ + slab_rows * x);
      }
    }
    first_neighbour_originals_ = options_.reorder ? slots_ * in_block_id_ : 0;
    row_originals_bytes_ = options_.reorder ? row_originals_ * in_block_id_ : 0;
    after_fill_ = options_.reorder ? col_originals_ + first_neighbour_originals_ + row_originals_bytes_ : 0;
    m_.filling = m_.graph - after_fill_ - filled_rows_ + segment_starts_ + m_.row_tables + m_.chunk_buffers +
                 std::max(passes_, fills_ + m_.fill_scratch);
  }

  // With `reorder` the original ids are made after the fill, its maps freed: the rows' by slot
  // (index_row_originals, one owned table of the row's blocks passed along at a time), then the
  // columns' and the first neighbours' (make_column_originals): first the columns in use marked,
  // a bit per column of the set, and the owned tables of the column's blocks passed along (two
  // blocks of ids), then the first neighbours' originals.
  void size_originals() {
    const double row_originals_scratch = row_originals_bytes_ > 0 ? owned_ * kId : 0;
    originals_scratch_ = options_.reorder && d_.R > 1 ? cols_ / 8 + 2 * owned_ * kId : 0;
    row_originals_moment_ = row_originals_bytes_ + row_originals_scratch;
    column_originals_moment_ =
        row_originals_bytes_ + col_originals_ + std::max(originals_scratch_, first_neighbour_originals_);
    m_.originals =
        m_.graph - after_fill_ + (options_.reorder ? std::max(row_originals_moment_, column_originals_moment_) : 0);
  }

  // The parts, named by what they grow with (Nakao et al. 2021, Table 2's terms). Per row slot: one
  // per row with edges under BCSR (at most one per entry), one per row without.
  void list_graph_parts() {
    m_.graph_parts = {
        {"row index: starts", row_starts_, per_slot_},
        {"row index: non-empty rows", row_nonempty_.of_set, util::GrowsWith::kRowSet},
        {"row index: non-empty rows' offsets", row_nonempty_.of_present, util::GrowsWith::kEdgeShare},
        {"neighbours", filled_rows_, util::GrowsWith::kEdgeShare},
        {"packed rows' directory", directory_, per_slot_},
        {"packed rows' key tables", packed_key_tables_, util::GrowsWith::kColumnSet},
        {"first neighbours", first_neighbours_, per_slot_},
        {"degrees", degrees_, util::GrowsWith::kOwned},
        {"renumbering: owned", options_.reorder ? 2 * owned_ * kId : 0, util::GrowsWith::kOwned},
        {kRowOriginalsPart, options_.reorder ? row_originals_ * in_block_id_ : 0, per_slot_},
        {in_use_only_ ? "renumbering: columns in use, ids" : "renumbering: column map",
         options_.reorder ? column_ids_ : 0, in_use_only_ ? util::GrowsWith::kEdgeShare : util::GrowsWith::kColumnSet},
        {"renumbering: columns in use, index", options_.reorder ? column_index_.of_set : 0,
         util::GrowsWith::kColumnSet},
        {"renumbering: columns in use, index offsets", options_.reorder ? column_index_.of_present : 0,
         util::GrowsWith::kEdgeShare}};
  }

  // Kernel 1's parts at its largest moment.
  void list_kernel1_parts() {
    if (m_.originals > std::max({m_.first_pass, m_.planning, m_.filling}))
      list_parts_making_originals();
    else if (m_.planning > m_.first_pass && m_.planning >= m_.filling)
      list_parts_planning();
    else if (m_.first_pass >= m_.filling)
      list_parts_first_pass();
    else
      list_parts_filling();
  }

  static constexpr const char* kRowOriginalsPart = "renumbering: rows' original ids";
  void push(util::MemoryPart part) { m_.kernel1_parts.push_back(std::move(part)); }
  void push_row_map() {
    if (!options_.reorder || d_.C == 1) return;
    if (rows_met_only_) {
      push({"kernel 1: rows with entries, new ids", nonempty_ * in_block_id_, util::GrowsWith::kEdgeShare});
      push({"kernel 1: rows with entries, index", rows_met_index_.of_set, util::GrowsWith::kRowSet});
      push({"kernel 1: rows with entries, index offsets", rows_met_index_.of_present, util::GrowsWith::kEdgeShare});
    } else {
      push({"kernel 1: forward row map", row_map_, util::GrowsWith::kRowSet});
    }
  }
  // The graph's parts before its original ids are made: the columns' and the first neighbours'
  // not yet; during the fill (`filling`) no neighbours (counted as filled) and no rows' either.
  void push_graph_parts_before_originals(bool filling) {
    for (const util::MemoryPart& part : m_.graph_parts) {
      const bool column_originals = part.name.starts_with("renumbering: column");
      const bool row_originals = part.name == kRowOriginalsPart;
      if ((filling && (part.name == "neighbours" || row_originals)) || column_originals) continue;
      util::MemoryPart before = part;
      if (part.name == "first neighbours") before.bytes -= first_neighbour_originals_;
      push(before);
    }
  }
  util::MemoryPart counting_part() const {
    return rows_met_counted_
               ? util::MemoryPart{"kernel 1: rows of the entries not kept", stored_rows_, util::GrowsWith::kEdgeShare}
               : util::MemoryPart{"kernel 1: row lengths", counting_, util::GrowsWith::kRowSet};
  }

  void list_parts_making_originals() {
    if (row_originals_moment_ > column_originals_moment_) {
      push_graph_parts_before_originals(false);
      push({"kernel 1: owned ids of a block, in transit", owned_ * kId, util::GrowsWith::kOwned});
      return;
    }
    if (originals_scratch_ <= first_neighbour_originals_) {
      m_.kernel1_parts = m_.graph_parts;
      return;
    }
    push_graph_parts_before_originals(false);
    for (const util::MemoryPart& part : m_.graph_parts)
      if (part.name.starts_with("renumbering: column")) push(part);
    push({"kernel 1: columns in use, marks", cols_ / 8, util::GrowsWith::kColumnSet});
    push({"kernel 1: owned ids of a block, in transit", 2 * owned_ * kId, util::GrowsWith::kOwned});
  }

  // The columns' values as the fill reads them (`whole`: the bytes of a whole table, with any key
  // tables).
  void push_column_values(double whole) {
    if (options_.reorder && in_use_only_) {
      push({"kernel 1: columns in use, sort keys", column_ids_, util::GrowsWith::kEdgeShare});
      push({"kernel 1: columns in use, index", column_index_.of_set, util::GrowsWith::kColumnSet});
      push({"kernel 1: columns in use, index offsets", column_index_.of_present, util::GrowsWith::kEdgeShare});
    } else {
      push({"kernel 1: column maps and sort keys", whole, util::GrowsWith::kColumnSet});
    }
  }

  void list_parts_planning() {
    m_.kernel1_parts = {
        {"kernel 1: kept entries of a slab", kept_per_slab_ * entry_bytes_, util::GrowsWith::kEdgeShare},
        {"kernel 1: chunk segment starts", segment_starts_, util::GrowsWith::kEdgeShare}};
    const bool counting = planning_moment_ == PlanningMoment::kCounting,
               rows = planning_moment_ == PlanningMoment::kRows;
    if (!rows_met_counted_ || counting) push(counting_part());
    if (rows_met_counted_) {
      const double copies = rows ? 2 : 1;  // before and after the renumbering
      push({"kernel 1: row lengths of the rows met, index", copies * lengths_index_, util::GrowsWith::kRowSet});
      push({"kernel 1: row lengths of the rows met", copies * lengths_counts_, util::GrowsWith::kEdgeShare});
    }
    if (!rows) push({"kernel 1: columns met", columns_met_, util::GrowsWith::kColumnSet});
    if (!counting) push_column_values(column_values_);
    if (planning_moment_ == PlanningMoment::kColumns && block_tables_ > 0)
      push({"kernel 1: owned ids of a block, in transit", block_tables_, util::GrowsWith::kOwned});
    if (rows) {
      push({"row index: starts", row_starts_, per_slot_});
      push({"row index: non-empty rows", row_nonempty_.of_set, util::GrowsWith::kRowSet});
      push({"row index: non-empty rows' offsets", row_nonempty_.of_present, util::GrowsWith::kEdgeShare});
    }
    push({"degrees", degrees_, util::GrowsWith::kOwned});
    push({"renumbering: owned", options_.reorder ? 2 * owned_ * kId : 0, util::GrowsWith::kOwned});
    if (rows) push_row_map();
    push({"kernel 1: chunk buffers", m_.chunk_buffers, util::GrowsWith::kFixed});
  }

  void list_parts_first_pass() {
    m_.kernel1_parts = {
        {"kernel 1: kept entries of a slab", kept_per_slab_ * entry_bytes_, util::GrowsWith::kEdgeShare},
        {"kernel 1: chunk segment starts", segment_starts_, util::GrowsWith::kEdgeShare},
        counting_part(),
        {"kernel 1: columns met", columns_met_, util::GrowsWith::kColumnSet},
        {"kernel 1: staged entries or mirror count",
         m_.first_pass - kept_per_slab_ * entry_bytes_ - segment_starts_ - counting_ - columns_met_ - m_.chunk_buffers,
         util::GrowsWith::kEdgeShare},
        {"kernel 1: chunk buffers", m_.chunk_buffers, util::GrowsWith::kFixed}};
  }

  void list_parts_filling() {
    push_graph_parts_before_originals(true);
    push({"kernel 1: chunk segment starts", segment_starts_, util::GrowsWith::kEdgeShare});
    push_row_map();
    push_column_values(m_.row_tables - forward_row_maps_);
    push({"kernel 1: chunk buffers", m_.chunk_buffers, util::GrowsWith::kFixed});
    if (passes_ >= fills_ + m_.fill_scratch) {
      push({"kernel 1: rows filled and a later slab's entries", passes_, util::GrowsWith::kEdgeShare});
      return;
    }
    const double thread_scratch = threads_ * kBucketScratchPerThread;
    push({"kernel 1: rows filled and entries held", fills_, util::GrowsWith::kEdgeShare});
    push({"kernel 1: a group's mirrors", m_.fill_scratch - thread_scratch, util::GrowsWith::kEdgeShare});
    push({"kernel 1: sort scratch per thread", thread_scratch, util::GrowsWith::kFixed});
  }

  const GraphShape& shape_;
  const Distribution& d_;
  const GraphOptions& options_;
  const int threads_, ranks_;
  const double rows_, cols_, owned_, entries_, nonempty_, slots_;
  const RowBuckets buckets_;
  const util::GrowsWith per_slot_;
  const double stored_id_;    // bytes of a first neighbour or short row's id (graph/stored_ids.hpp)
  const double in_block_id_;  // bytes of an id kept as its offset in a block (graph/in_block_id.hpp)
  GraphMemory m_;
  // The finished graph's sizes (bytes).
  double row_starts_ = 0, row_index_ = 0, filled_rows_ = 0, directory_ = 0, packed_key_tables_ = 0,
         first_neighbours_ = 0, row_map_ = 0, row_originals_ = 0, column_bitmap_ = 0, column_ids_ = 0,
         col_originals_ = 0, degrees_ = 0;
  PresentIndexBytes row_nonempty_, rows_met_index_, column_index_;
  bool key_tables_ = false, rows_met_only_ = false, in_use_only_ = false;
  // Kernel 1's (bytes, or bytes per entry).
  FullestColumn fullest_{{}};
  bool mirror_ = false, rows_met_counted_ = false;
  enum class PlanningMoment { kCounting, kColumns, kRows } planning_moment_ = PlanningMoment::kRows;
  double entry_bytes_ = 0, kept_per_slab_ = 0, segment_starts_ = 0, staged_per_entry_ = 0, columns_met_ = 0,
         stored_rows_ = 0, lengths_index_ = 0, lengths_counts_ = 0, counting_ = 0, forward_row_maps_ = 0, passes_ = 0,
         fills_ = 0, first_neighbour_originals_ = 0, row_originals_bytes_ = 0, after_fill_ = 0, originals_scratch_ = 0,
         row_originals_moment_ = 0, column_originals_moment_ = 0, column_values_ = 0, block_tables_ = 0;
};

}  // namespace

GraphMemory plan_graph_memory(const GraphShape& shape, const Distribution& d, const GraphOptions& options,
                              int64_t passes, int threads) {
  return GraphMemoryPlanner(shape, d, options, passes, threads).plan();
}

}  // namespace g500::graph
