// Kernel 2: the 2D-distributed direction-optimizing BFS (Nakao et al. 2021, section 3 and
// Algorithms 1-3, with the Yoo distribution of its section 4.3, or the row-major layout it
// replaces, and the bottom-up communication of its section 4.5). The level loop and direction
// choice live in bfs.cpp; each direction is its own file (top_down.cpp, bottom_up.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "bfs/bfs_options.hpp"
#include "comm/collectives.hpp"
#include "comm/exchange.hpp"
#include "graph/local_graph.hpp"
#include "run/run_plan.hpp"
#include "util/bitmap.hpp"
#include "util/held_buffers.hpp"
#include "util/phase_profile.hpp"

namespace g500::bfs {

enum class Direction { kTopDown, kBottomUp };

struct LevelTrace {
  Direction direction;
  int64_t frontier_size;   // vertices in the frontier this level expanded
  int64_t edges_examined;  // adjacency entries read, summed over ranks
  double seconds;
  util::PhaseBytes bytes_sent;  // this rank's in the level (PhaseProfile::bytes_sent)
};

struct BfsRun {
  int64_t root = 0;
  double seconds = 0;
  std::vector<int64_t> level_sizes;  // vertices discovered per level, level 0 = root
  util::PhaseProfile profile;        // this rank's time and bytes sent per phase
  std::vector<LevelTrace> levels;    // one per level searched (the last one discovers nothing)
};

class DistributedBfs {
 public:
  DistributedBfs(const graph::LocalGraph& graph, const graph::ProcessGrid& grid, const BfsOptions& options);
  // Resets the parent array to -1, as the reference's clean_pred does before its BFS timer, and
  // makes the level buffers again after release_level_buffers().
  void prepare();
  // Frees the buffers a search's levels grow (the column frontier, a top-down level's lists, work
  // items and candidates' exchange, the bottom-up pairs' exchange) while parents() is validated;
  // the parents and the owned vertices' bitmaps stay.
  void release_level_buffers();
  // Collective: runs one BFS from `root` (after prepare()). Its timed region ends with the
  // output complete: parents() of every owned vertex at its original offset, as the reference
  // and the specification have it ("stop the time when the output has been written to memory").
  BfsRun run(int64_t root);
  // The owned vertices' parents by original offset (global ids, -1 when unreached, the root its
  // own parent), as the last run() wrote them.
  const std::vector<int64_t>& parents() const { return parent_; }

 private:
  struct StepResult {
    int64_t edges_examined = 0;
  };
  // What the direction choice reads between levels, summed over all ranks.
  struct LevelCounts {
    int64_t frontier_vertices = 0, frontier_edges = 0, unvisited_edges = 0;
    // Bottom-up steps do not subtract their discoveries' degrees (Discoveries::counted), so after
    // one the unvisited edges are summed afresh when a top-down step next needs them.
    bool unvisited_edges_stale = false;
    // Whether frontier_edges is the frontier's degree sum: after a top-down step, and after a
    // bottom-up step whose discoveries were few on every process (small_discoveries_degrees).
    bool frontier_edges_known = true;
  };
  // Collective: ends a level run in `direction`: the new frontier's size and degrees summed over the
  // ranks (after the barrier that measures the imbalance), the unvisited edges brought up to date,
  // and the level's trace appended to `result`.
  void close_level(Direction direction, const StepResult& step, double level_start, const util::PhaseBytes& sent_before,
                   LevelCounts& counts, BfsRun& result);
  // frontier_edges: the global degree sum of the frontier (a bound on the discoveries and on any
  // process's candidates), or kUnknownEdges after a bottom-up step that did not sum it.
  StepResult top_down_step(int64_t frontier_vertices, int64_t frontier_edges, util::PhaseProfile& profile);
  static constexpr int64_t kUnknownEdges = -1;
  StepResult bottom_up_step(util::PhaseProfile& profile);

  // The parts of a top-down step (top_down.cpp), in order.
  // Copies visited_ into visited_before_ when the step may discover many vertices.
  void snapshot_visited(int64_t frontier_edges, util::PhaseProfile& profile);
  // Step 1: the frontier of the whole grid row, as row-local ids: listed in gathered_, or (by
  // run::top_down_row_frontier_as_bitmap) as the row set's bitmap in row_frontier_.
  void gather_row_frontier(int64_t frontier_vertices, util::PhaseProfile& profile);
  void gather_row_frontier_bitmap(util::PhaseProfile& profile);
  // Whether this level gathers the row's frontier bitmap in slices (level buffers by direction).
  bool gathers_row_frontier_in_slices(int64_t frontier_vertices) const;
  // The owned frontier's bitmap, made from its list after a top-down step.
  void make_frontier_bits(util::PhaseProfile& profile);
  // Slice `slice` of every block of the row's frontier bitmap into row_frontier_words_.
  void gather_row_frontier_slice(int64_t slice, util::PhaseProfile& profile);
  // Step 2 over the slices of the row's frontier bitmap: each gathered, then its rows' work items
  // listed; their starts in first_piece_. Returns the entries they cover.
  int64_t list_row_frontier_in_slices(util::PhaseProfile& profile);
  // Level buffers by direction: frees the buffers only the other direction uses, before a level
  // that goes `next`, and the heap's free pages when they passed kHeapTrimBytes.
  void free_other_direction_buffers(Direction next);
  static constexpr size_t kHeapTrimBytes = size_t{64} << 20;
  // Whether every process knows, without a collective, that no process's candidates pass one
  // round's: alone in the candidates' communicator, or the frontier's degree sum below a round.
  bool one_candidate_round(int64_t frontier_edges) const;
  // Steps 2 and 3 in one parallel region, in one round: thread t lists the work items of its share
  // of the frontier into thread_pieces_[t] (ends with a barrier), then all threads expand them
  // into their buckets. Returns the edges examined.
  int64_t list_and_expand_row_frontier(comm::ThreadBuckets& buckets, util::PhaseProfile& profile);
  // In rounds: step 2 alone, the lists' starts in first_piece_; returns the entries they cover.
  int64_t list_row_frontier(util::PhaseProfile& profile);
  // Thread t's share of the listing, appended to thread_pieces_[t]; returns the entries of its items.
  int64_t list_row_pieces(int t);
  // Where thread t's list starts in the lists' concatenation (and their total, last).
  std::vector<int64_t> piece_starts() const;
  // Collective over the candidates' communicator: the rounds in which every process's candidates
  // fit candidates_per_round_.
  int candidate_rounds(int64_t listed_edges, util::PhaseProfile& profile);
  // Where each round's items start in the concatenated lists, and their end (rounds + 1 values):
  // round r at the first item whose entries before it reach r / rounds of listed_edges.
  std::vector<int64_t> round_starts(int rounds, int64_t listed_edges) const;
  // Step 3 in a round: the candidates of items [first, end) into the buckets (our own vertices
  // settled at once); returns the edges examined.
  int64_t expand_row_frontier(int64_t first, int64_t end, comm::ThreadBuckets& buckets, util::PhaseProfile& profile);
  // Thread t's share of items [first, end), into its buckets `mine`; returns the edges it examined.
  int64_t expand_row_pieces(int t, const int64_t* first_piece, int64_t first, int64_t end,
                            std::vector<std::vector<uint64_t>>& mine);
  // Step 4: exchanges the candidates and keeps the first one for each unvisited vertex; after the
  // last round the level's discoveries are recorded.
  void settle_candidates(bool last_round, util::PhaseProfile& profile);

  // The parts of a bottom-up step after gather_column_frontier (bottom_up.cpp).
  // Step 2: the C sub-steps over the blocks of row set i, the visited words rotating along the
  // grid row; returns the edges examined.
  int64_t scan_row_set(const uint64_t* frontier, util::PhaseProfile& profile);
  // One scan, by all threads, of block words [w_begin, w_end) of the block of P(i, target) with
  // its rotating visited words; finds in our own block are applied, the others bucketed for
  // their owner. Returns the edges examined.
  int64_t scan_block_words(const uint64_t* frontier, uint64_t* rotating, int target, int64_t w_begin, int64_t w_end,
                           comm::ThreadBuckets& buckets, util::PhaseProfile& profile);
  // Step 3 (switch `bu-alltoallv`): delivers the found pairs along the row and applies them.
  void apply_delivered_pairs(util::PhaseProfile& profile);
  // Where owned vertex v (graph order) has its parent: at its original offset, so that the
  // search writes its output in vertex order as it goes (no conversion after the levels).
  int64_t* parent_slot(graph::LocalId v) { return parent_.data() + (original_of_ ? original_of_[v] : v); }
  // Records that thread t discovered owned vertex v top-down with this parent (the caller has set
  // v's visited bit): listed, since a top-down step reads the frontier as a list.
  void discover(int t, graph::LocalId v, int64_t parent) {
    found_[t].vertices.push_back(v);
    found_[t].parents.push_back(parent);
  }
  // After thread t's top-down search: writes its discoveries' parents (at their original
  // offsets) and sums their degrees
  // (Beamer's rule needs them). Done apart from the search, whose atomic bit sets would otherwise
  // wait on each of these random accesses in turn.
  void record_discoveries(int t);
  // Clears the search state and makes `root` (a global id) the frontier when we own it; returns
  // its degree (0 when another rank owns it).
  int64_t start_from(int64_t root);
  // After a bottom-up step: the degree sum of this rank's discoveries (next_bits_) when they are
  // as few as a frontier the next level may search top-down (a 1/beta share of the owned), so that
  // the top-down step knows its candidates' bound without a collective; else -1.
  int64_t small_discoveries_degrees() const;
  // The owned vertices' degrees summed over the set bits of words [0, words) of `bits` (the clear
  // ones with clear_bits), by all threads.
  int64_t degree_sum(const uint64_t* bits, int64_t words, bool clear_bits) const;
  // Sum of the degrees of the owned vertices not visited yet (Beamer's m_u, this rank's part).
  int64_t local_unvisited_edges() const;
  // Applies received (child offset, column-local parent) pairs found by grid column source_col;
  // called inside a parallel region by every thread.
  void apply_found_pairs(int t, const uint64_t* records, int64_t count, int source_col);
  void send_pairs_now(int to, int from, util::PhaseProfile& profile);
  // Bottom-up step 1: the frontier of this grid column's vertex range, gathered along the column;
  // returns it (our own frontier bitmap when the column is one process).
  const uint64_t* gather_column_frontier(util::PhaseProfile& profile);
  // Makes this level's discoveries the next frontier: as a bitmap (after a top-down step, the
  // bits it set in visited_), and as a list when the next level goes top-down (made from the
  // bitmap after a bottom-up step).
  void advance_frontier(Direction previous, Direction next);

  // Visits the buffers release_level_buffers() frees, in one order.
  template <class Visit>
  void for_each_level_buffer(Visit visit) {
    visit(column_frontier_);
    visit(row_frontier_words_);
    visit(gathered_);
    visit(frontier_);
    visit(first_piece_);
    visit(frontier_message_);
    for (Discoveries& d : found_) {
      visit(d.vertices);
      visit(d.parents);
    }
    for (std::vector<RowPiece>& pieces : thread_pieces_) visit(pieces);
    candidate_exchange_.for_each_buffer(visit);
    row_exchange_.for_each_buffer(visit);
  }
  util::HeldBuffers held_;

  const graph::LocalGraph& graph_;
  const graph::ProcessGrid& grid_;
  const graph::Distribution& dist_;
  graph::OffsetIdPair pair_;  // (owned offset, local id) records of both steps
  BfsOptions options_;
  comm::AllgathervFn allgatherv_;
  int nthreads_;
  comm::Exchanger row_exchange_;  // along P(i, :)
  // Top-down candidates go to the owners of column set j's blocks: along P(:, j) with Yoo's
  // layout, over the world with the row-major one (Nakao et al. 2021, section 4.3).
  comm::Exchanger candidate_exchange_;
  std::vector<int> candidate_dest_;  // column-set position -> destination rank in its communicator
  std::vector<int> source_row_;      // rank in that communicator -> grid row
  int own_column_position_ = -1;     // position of our own block in column set j (-1: none)

  std::vector<int64_t> parent_;           // owned vertices, by original offset, in original global ids
  const graph::LocalId* original_of_;     // graph order -> original offset (null: the same)
  int64_t root_local_ = -1;               // the root's graph offset when we own it, else -1
  const std::vector<uint32_t>& degree_;   // owned vertices' degrees in the graph's ids (kernel 1's)
  util::Bitmap visited_;                  // owned vertices
  std::vector<graph::LocalId> frontier_;  // owned offsets of the current frontier
  util::Bitmap frontier_bits_;            // the same frontier as a bitmap (bottom-up input)
  util::Bitmap next_bits_;                // owned vertices discovered this level
  // One thread's discoveries of this level; a cache line of its own, since every discovery
  // writes it.
  struct alignas(64) Discoveries {
    std::vector<graph::LocalId> vertices;  // top-down
    std::vector<int64_t> parents;          // of `vertices`, until record_discoveries()
    // Bottom-up discoveries are only counted: next_bits_ holds them, the rule after a bottom-up
    // step needs the vertex count alone, and a following top-down step lists them from the bitmap.
    int64_t counted = 0;
    int64_t edges = 0;  // degree sum of `vertices`
    int64_t size() const { return static_cast<int64_t>(vertices.size()) + counted; }
    void clear() {
      vertices.clear();
      parents.clear();
      counted = edges = 0;
    }
  };
  std::vector<Discoveries> found_;
  std::vector<graph::LocalId> gathered_;  // top-down: the frontier of the whole grid row, listed
  // ... or as the row set's bitmap (null: listed): in the column frontier's words when they are as
  // many (a bottom-up step's, unused in a top-down one), else in row_frontier_words_; with one
  // grid column the owned frontier's bitmap itself.
  // By direction its slices: row_frontier_ holds words [row_slice_begin_, + row_slice_words_) of
  // each of the C blocks, one after the other (the whole bitmap: from 0, the block's words).
  const uint64_t* row_frontier_ = nullptr;
  int64_t row_slice_begin_ = 0, row_slice_words_ = 0;
  std::vector<uint64_t> row_frontier_words_;
  static constexpr int64_t kWordsPerListChunk = 4;  // bitmap words a thread takes at a time to list their rows
  bool frontier_bits_current_ = true;               // frontier_bits_ holds frontier_ (not after a top-down step)
  struct RowPiece {
    graph::LocalId row_original;  // the frontier row's original row-local id
    int64_t begin, end;           // entries [begin, end), numbered as in the row index
    // With packed rows: where the piece's gaps start and the sort key before them, or for a short
    // row where its stored ids after the first start (graph/packed_rows.hpp); a piece that begins
    // with the row's first neighbour (a column id) has it in `first`.
    const uint8_t* after_first = nullptr;
    graph::LocalId key = 0;
    graph::LocalId first = 0;
    bool with_first = false;
    bool short_row = false;
    uint8_t after_first_shift = 0;  // a short row's: the bit its first stored id starts at
  };
  // The items of frontier row x into `listed`; returns its entries.
  int64_t list_row(graph::LocalId x, std::vector<RowPiece>& listed) const;
  static_assert(sizeof(RowPiece) == run::kTopDownItemBytes, "the run's plan counts a work item's bytes");
  static constexpr int64_t kEdgesPerPiece = 1024;     // top-down work item size with lb-topdown
  static constexpr int64_t kPiecesPerChunk = 4;       // top-down dynamic-schedule unit
  static constexpr int64_t kRowsPerListChunk = 16;    // frontier rows a thread takes at a time to list their pieces
  std::vector<std::vector<RowPiece>> thread_pieces_;  // top-down work items, listed per thread
  std::vector<int64_t> first_piece_;                  // in rounds: piece_starts() of the level
  std::vector<int64_t> thread_listed_edges_;          // the entries of thread t's items
  // Candidates a process may list in one round of a top-down level, the same on every process
  // (run::top_down_candidates_per_round, which the run's plan counts).
  int64_t candidates_per_round_ = 0;
  // The frontier over this grid column's vertex range (R > 1): R blocks' bitmaps, with
  // sparse-switch gathered as messages and decoded in place (R words more, the bitmaps after them).
  std::vector<uint64_t> column_frontier_;
  std::vector<uint64_t> hosted_frontier_;  // row-major layout: the column's block from its owner
  bool transpose_leaves_rank_ = false;     // row-major layout: our block is hosted by another rank
  std::vector<uint64_t> rotating_;         // visited words passed around the grid row (Nakao et al. 2021, section 4.5)
  std::vector<uint64_t> visited_before_;   // visited_ when the current top-down step began
  bool snapshot_taken_ = false;            // visited_before_ is this top-down step's
  // A top-down step snapshots visited_ when it may discover more than this many vertices per
  // bitmap word; fewer are set in the next frontier bitmap one by one from the lists.
  static constexpr int64_t kSnapshotDiscoveriesPerWord = 1;
  // Room for the level records of a run without reallocation (Kronecker graphs take 5-10).
  static constexpr size_t kLevelsReserved = 16;
  std::vector<uint64_t> frontier_message_;                            // sparse-switch: our part's message
  std::vector<std::vector<uint64_t>> send_messages_, recv_messages_;  // rotating segments in flight
};

}  // namespace g500::bfs
