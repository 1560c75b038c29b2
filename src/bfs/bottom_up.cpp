// Bottom-up step of the 2D BFS (Nakao et al. 2021, Algorithm 3, with the collective exchange of
// Algorithm 6).
//
// The frontier bitmap of this grid column's vertex range is gathered along the column. The
// unvisited vertices of row set i are visited in C sub-steps: in sub-step s this process examines
// the block owned by P(i, j+s), skipping vertices whose bit is set in the rotating visited bitmap
// of that block (and rows without edges), and stops at the first neighbour in the frontier. The
// bitmap then moves one step along the row (sendrecv), so a vertex found here is skipped by the
// processes after us. Pairs found in our own block (sub-step 0) are applied here; the others go
// to their owners in one alltoallv at the end of the level (Nakao et al. 2021, section 4.5,
// switch `bu-alltoallv`), or, with that switch off, by a sendrecv after every sub-step as in
// Algorithm 3.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "bfs/bfs.hpp"
#include "bfs/sparse_switch.hpp"
#include "comm/large_count.hpp"
#include "graph/column_blocks.hpp"

namespace g500::bfs {

namespace {

// Where the candidate rows of a bitmap word live: plain CSR indexes rows directly, BCSR finds a
// non-empty row's index by rank (Nakao et al. 2021, section 4.1), its non-empty rows kept as a
// bitmap or in buckets (graph/row_index.hpp).
enum class RowForm { kPlain, kBitmap, kBuckets };

template <RowForm kForm>
struct RowRanges {
  static constexpr bool kCompressed = kForm != RowForm::kPlain;
  const int64_t* plain_starts;                  // plain CSR's starts
  const graph::SlotStarts* slot_starts;         // BCSR's
  const graph::PresentIndex* nonempty;          // BCSR's non-empty rows as a bitmap
  const graph::SparsePresentIndex* in_buckets;  // or in buckets
  graph::StoredIds first_neighbors;
  graph::InBlockIdsView first_neighbors_original;  // none: the graph's ids are the original ones
  const graph::SetMap* col_original;               // likewise
  const graph::Distribution* dist;
  // The rows of bitmap word gw: with BCSR its non-empty-row bits and the index of its first
  // non-empty row. Read once per word into registers: the compiler cannot tell the parent stores
  // from these arrays, so reading them per row re-reads them after every store (7 % slower).
  struct Word {
    uint64_t has_edges;
    int64_t first_index;
  };
  Word word(int64_t gw) const {
    if constexpr (kForm == RowForm::kBuckets) {
      const graph::SparsePresentIndex::Word made = in_buckets->word(gw);
      return Word{made.bits, made.before};
    } else {
      return Word{has_edges(gw), first_index(gw)};
    }
  }
  // The bitmap and plain forms read the two apart (a word without candidates needs no count); the
  // bucketed form has both from one read of its bucket, in word().
  uint64_t has_edges(int64_t gw) const {
    static_assert(kForm != RowForm::kBuckets);
    if constexpr (kForm == RowForm::kBitmap)
      return nonempty->bits(gw);
    else
      return ~uint64_t{0};
  }
  int64_t first_index(int64_t gw) const {
    static_assert(kForm != RowForm::kBuckets);
    if constexpr (kForm == RowForm::kBitmap)
      return static_cast<int64_t>(nonempty->count(gw));
    else
      return gw * util::kBitsPerWord;
  }
  // Where the neighbours of the row at index r start.
  int64_t start(int64_t r) const {
    if constexpr (kCompressed)
      return (*slot_starts)[r];
    else
      return plain_starts[r];
  }
  // Original column-local id of row r's first neighbour, and of any column-local id.
  graph::LocalId first_original(int64_t r) const {
    return first_neighbors_original ? graph::read_in_block(first_neighbors_original[r], first_neighbors[r], *dist)
                                    : first_neighbors[r];
  }
  graph::LocalId original(graph::LocalId u) const { return col_original ? (*col_original)[u] : u; }
  // Index in starts and first_neighbors of the word's row `bit`.
  int64_t index(const Word& word, int bit) const {
    if constexpr (kCompressed)
      return word.first_index + std::popcount(word.has_edges & ((uint64_t{1} << bit) - 1));
    else
      return word.first_index + bit;
  }
};

inline bool in_frontier(const uint64_t* frontier, graph::LocalId u) {
  return (frontier[u / util::kBitsPerWord] >> (u % util::kBitsPerWord)) & 1U;
}

// The neighbours after a row's first: a plain CSR array, or packed rows.
// find_after_first(r, begin, n, first, frontier, parent) returns the position in the row (1 ..
// n - 1) of the first of them in the frontier, with that neighbour in `parent`, or n if none is.
// prefetch(r, begin, n) asks for the start of row r's neighbours after the first.
struct PlainAdjacency {
  const graph::LocalId* neighbors;

  void prefetch(int64_t, int64_t begin, int64_t) const { __builtin_prefetch(neighbors + begin + 1); }
  int64_t find_after_first(int64_t, int64_t begin, int64_t n, graph::LocalId, const uint64_t* frontier,
                           graph::LocalId& parent) const {
    const graph::LocalId* row = neighbors + begin;
    int64_t i = 1;
    while (i < n && !in_frontier(frontier, row[i])) ++i;
    if (i < n) parent = row[i];
    return i;
  }
};

struct PackedAdjacency {
  const graph::PackedRows& packed;

  void prefetch(int64_t r, int64_t begin, int64_t n) const {
    __builtin_prefetch(packed.after_first_start(r, begin, n));
  }
  int64_t find_after_first(int64_t r, int64_t begin, int64_t n, graph::LocalId first, const uint64_t* frontier,
                           graph::LocalId& parent) const {
    const int64_t before = packed.visit_after_first(r, begin, n, first, [&](graph::LocalId u) {
      parent = u;
      return in_frontier(frontier, u);
    });
    return before + 1;
  }
};

// Scans the candidate rows of block words [0, block_words) starting at global word base_word:
// for each unvisited row, the first neighbour in the frontier becomes its parent. Found pairs
// (offset in block, column-local parent) go to out; returns the edges examined.
//
// Rows are sorted by descending neighbour degree, so the first neighbour is the likeliest parent:
// it is read from the dense first_neighbors stream. Each word is done in two passes: the first
// neighbours of all its candidates, then the rest of the rows they did not settle. The first pass
// runs one word ahead and prefetches those rows, so their cache misses (the dominant cost of the
// bottom-up step) overlap with the work on the current word.
// Found is called as found(offset in block, parent's original column-local id).
template <RowForm kForm, class Adjacency, class Found>
class BlockScanner {
  static constexpr bool kCompressed = RowRanges<kForm>::kCompressed;

 public:
  BlockScanner(const RowRanges<kForm>& rows, const Adjacency& adjacency, const uint64_t* frontier, uint64_t* rotating,
               int64_t base_word, Found& on_found)
      : rows_(rows), adjacency_(adjacency), frontier_(frontier), rotating_(rotating), base_word_(base_word),
        on_found_(on_found) {}

  // First pass over word w: settles rows whose first neighbour is in the frontier; returns the
  // rows left for the second pass (and prefetches their adjacency).
  uint64_t first_pass(int64_t w, uint64_t& found_bits) {
    // Candidates: unvisited rows, with BCSR only non-empty ones. The word's count is read only when
    // it has some: most words of the later levels have none.
    // In buckets the word's rows and count come from one read of its bucket.
    typename RowRanges<kForm>::Word word{};
    if constexpr (kForm == RowForm::kBuckets)
      word = rows_.word(base_word_ + w);
    else
      word.has_edges = rows_.has_edges(base_word_ + w);
    uint64_t candidates = ~rotating_[w] & word.has_edges, unsettled = 0;
    if (!candidates) return 0;
    if constexpr (kForm != RowForm::kBuckets) word.first_index = rows_.first_index(base_word_ + w);
    while (candidates) {
      const int bit = std::countr_zero(candidates);
      candidates &= candidates - 1;
      const int64_t r = rows_.index(word, bit);
      if (!kCompressed && rows_.start(r) == rows_.start(r + 1)) continue;  // plain CSR also lists empty rows
      if (in_frontier(frontier_, rows_.first_neighbors[r])) {              // the row's extent is not needed
        ++examined_;
        found(w, bit, rows_.first_original(r), found_bits);
        continue;
      }
      const int64_t begin = rows_.start(r), end = rows_.start(r + 1);
      if (end - begin > 1) {
        unsettled |= uint64_t{1} << bit;
        adjacency_.prefetch(r, begin, end - begin);
      } else {
        ++examined_;
      }
    }
    return unsettled;
  }

  // Second pass: the rest of each unsettled row.
  void second_pass(int64_t w, uint64_t unsettled, uint64_t& found_bits) {
    if (!unsettled) return;
    const typename RowRanges<kForm>::Word word = rows_.word(base_word_ + w);
    while (unsettled) {
      const int bit = std::countr_zero(unsettled);
      unsettled &= unsettled - 1;
      const int64_t r = rows_.index(word, bit);
      const int64_t begin = rows_.start(r), n = rows_.start(r + 1) - begin;
      graph::LocalId parent = 0;
      const int64_t at = adjacency_.find_after_first(r, begin, n, rows_.first_neighbors[r], frontier_, parent);
      if (at == n) {
        examined_ += n;
      } else {
        examined_ += at + 1;
        found(w, bit, rows_.original(parent), found_bits);
      }
    }
  }

  int64_t examined() const { return examined_; }

 private:
  void found(int64_t w, int bit, graph::LocalId parent, uint64_t& found_bits) {
    found_bits |= uint64_t{1} << bit;
    on_found_(static_cast<graph::LocalId>(w * util::kBitsPerWord + bit), parent);
  }

  const RowRanges<kForm>& rows_;
  const Adjacency& adjacency_;
  const uint64_t* frontier_;
  uint64_t* rotating_;
  int64_t base_word_;
  Found& on_found_;
  int64_t examined_ = 0;
};

constexpr int64_t kWordsPerScanChunk = 64;  // dynamic-schedule unit of the bottom-up scan
// Tags of Algorithm 3's direct exchange of found pairs along the row (send_pairs_now).
constexpr int kPairCountTag = 1001;
constexpr int kPairTag = 1002;

struct ScanCounts {
  int64_t examined = 0;  // adjacency entries read
  int64_t found = 0;     // vertices given a parent
};

// Scans block words [w_begin, w_end) (relative to the block starting at global word base_word);
// called inside a parallel region by every thread.
template <RowForm kForm, class Adjacency, class Found>
ScanCounts scan_block(const RowRanges<kForm>& rows, const Adjacency& adjacency, const uint64_t* frontier,
                      uint64_t* rotating, int64_t base_word, int64_t w_begin, int64_t w_end, bool own_block,
                      uint64_t* visited, uint64_t* next_bits, Found& on_found) {
  BlockScanner<kForm, Adjacency, Found> scanner(rows, adjacency, frontier, rotating, base_word, on_found);
  int64_t found = 0;
  const int64_t nchunks = (w_end - w_begin + kWordsPerScanChunk - 1) / kWordsPerScanChunk;
#pragma omp for schedule(dynamic, 1)
  for (int64_t c = 0; c < nchunks; ++c) {
    const int64_t chunk_begin = w_begin + c * kWordsPerScanChunk;
    const int64_t chunk_end = std::min(w_end, chunk_begin + kWordsPerScanChunk);
    uint64_t found_next = 0;
    uint64_t unsettled_next = scanner.first_pass(chunk_begin, found_next);
    for (int64_t w = chunk_begin; w < chunk_end; ++w) {
      uint64_t found_bits = found_next, unsettled = unsettled_next;
      found_next = 0;
      if (w + 1 < chunk_end) unsettled_next = scanner.first_pass(w + 1, found_next);
      scanner.second_pass(w, unsettled, found_bits);
      // Most words of the later levels find nothing: leaving them unwritten keeps their cache
      // lines clean (and, between cores, unshared).
      if (!found_bits) continue;
      rotating[w] |= found_bits;
      found += std::popcount(found_bits);
      if (own_block) {
        if (visited != rotating) visited[w] |= found_bits;
        next_bits[w] |= found_bits;
      }
    }
  }
  return ScanCounts{scanner.examined(), found};
}

// A part of the block whose visited words travel together (overlap, Nakao et al. 2021, section
// 4.5): leftward parts go to P(i, j-1) after each sub-step, rightward parts to P(i, j+1).
struct Segment {
  int64_t begin, end;  // words of the block
  bool leftward;
};

std::vector<Segment> make_segments(int64_t block_words, int parts, bool both_directions) {
  std::vector<Segment> segments;
  for (int k = 0; k < parts; ++k) {
    const int64_t begin = block_words * k / parts, end = block_words * (k + 1) / parts;
    if (end > begin) segments.push_back(Segment{begin, end, !both_directions || k < (parts + 1) / 2});
  }
  if (segments.empty()) segments.push_back(Segment{0, block_words, true});
  return segments;
}

}  // namespace

const uint64_t* DistributedBfs::gather_column_frontier(util::PhaseProfile& profile) {
  using util::Phase;
  using util::ScopedPhase;
  const int R = dist_.R;
  const int64_t block_words = dist_.block / util::kBitsPerWord;
  // Our part of the column's frontier: our own block with Yoo's layout, the block of position
  // `row` of the column set, fetched from its owner (a transpose), with the row-major one.
  const uint64_t* part = frontier_bits_.data();
  if (!dist_.columns_aligned()) {
    util::ScopedPhase timed(profile, util::Phase::kSendrecv);
    part = static_cast<const uint64_t*>(
        graph::hosted_column_block(part, hosted_frontier_.data(), block_words, MPI_UINT64_T, dist_, grid_));
    if (transpose_leaves_rank_) timed.count_sent(block_words * static_cast<int64_t>(sizeof(uint64_t)));
  }
  if (R == 1) return part;         // the column is our block alone
  if (column_frontier_.empty()) {  // level buffers by direction: made again for the bottom-up levels
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
    column_frontier_.resize(sparse_switch::gathered_buffer_words(R, block_words));
  }
  if (!options_.sparse_switch) {
    util::ScopedPhase timed(profile, util::Phase::kAllgatherv);
    comm::allgatherv(part, column_frontier_.data(), std::vector<int64_t>(R, block_words), MPI_UINT64_T,
                     grid_.col_comm(), allgatherv_, grid_.limits());
    timed.count_sent(block_words * static_cast<int64_t>(sizeof(uint64_t)) * (R - 1));
    return column_frontier_.data();
  }
  // sparse-switch: each part as a bitmap or as the list of its frontier vertices, gathered into
  // the column frontier's own words and decoded there.
  int64_t mine = 0;
  {
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
    frontier_message_.resize(sparse_switch::max_message_words(block_words));
    mine = static_cast<int64_t>(
        sparse_switch::encode(part, block_words, sparse_switch::Listed::kSetBits, true, frontier_message_.data()));
  }
  std::vector<int64_t> counts;
  {
    util::ScopedPhase timed(profile, util::Phase::kAllgatherv);
    counts = comm::allgather_counts(mine, grid_.col_comm());
    comm::allgatherv(frontier_message_.data(), column_frontier_.data(), counts, MPI_UINT64_T, grid_.col_comm(),
                     allgatherv_, grid_.limits());
    timed.count_sent(mine * static_cast<int64_t>(sizeof(uint64_t)) * (R - 1));
  }
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
  return sparse_switch::decode_gathered_in_place(column_frontier_.data(), counts, block_words,
                                                 sparse_switch::Listed::kSetBits, frontier_message_.data());
}

DistributedBfs::StepResult DistributedBfs::bottom_up_step(util::PhaseProfile& profile) {
  // 1. Frontier over the column's vertex range: owned frontier bitmaps gathered along the column.
  const uint64_t* const frontier = gather_column_frontier(profile);
  // 2. C sub-steps over the blocks of the row set, the visited bitmap rotating along the row.
  const int64_t examined = scan_row_set(frontier, profile);
  // 3. Found pairs to their owners along the row.
  if (dist_.C > 1 && options_.bu_alltoallv) apply_delivered_pairs(profile);
  return StepResult{examined};
}

namespace {

// The visited segments travelling along the grid row during one bottom-up step: each comes from
// the neighbour on the side it travels from and, once scanned, goes on to the other side. Every
// segment has its own tag, buffers and requests, so the segments of a sub-step are scanned in the
// order they arrive. A segment is at most a block's bitmap, 2^26 words with 32-bit local ids, so
// its messages need no rounds; their counts are still checked (comm::narrow_count).
constexpr const char* kSegmentMessage = "bottom-up visited segment";

class SegmentRing {
 public:
  using Messages = std::vector<std::vector<uint64_t>>;
  // send/recv: message buffers, kept from step to step and sized here when the segments change
  // (not when nothing travels: with one grid column they are never used).
  SegmentRing(const std::vector<Segment>& segments, bool travels, Messages& send, Messages& recv, int left, int right,
              MPI_Comm row_comm)
      : segments_(segments), send_(send), recv_(recv), left_(left), right_(right), comm_(row_comm),
        nsegments_(static_cast<int>(segments.size())), sends_(nsegments_, MPI_REQUEST_NULL),
        receives_(nsegments_, MPI_REQUEST_NULL), next_receives_(nsegments_, MPI_REQUEST_NULL) {
    if (!travels || static_cast<int>(send_.size()) == nsegments_) return;
    send_.assign(nsegments_, {});
    recv_.assign(nsegments_, {});
    for (int k = 0; k < nsegments_; ++k) {
      send_[k].resize(sparse_switch::max_message_words(segments_[k].end - segments_[k].begin));
      recv_[k].resize(send_[k].size());
    }
  }

  // Starts a sub-step: the receives posted during the previous one become this one's. The first
  // sub-step posts them all (when another follows).
  void start_substep(bool first, bool more, util::PhaseProfile& profile) {
    receives_.swap(next_receives_);
    if (!first || !more) return;
    util::ScopedPhase timed(profile, util::Phase::kSendrecv);
    for (int k = 0; k < nsegments_; ++k) post_receive(k);
  }

  // Waits for any segment of this sub-step, writes it into `rotating` and, when another sub-step
  // follows, posts the receive of its next visit in the freed buffer; returns its index.
  int receive_any(uint64_t* rotating, bool more, util::PhaseProfile& profile) {
    int k = 0;
    {
      util::ScopedPhase timed(profile, util::Phase::kSendrecv);
      MPI_Waitany(nsegments_, receives_.data(), &k, MPI_STATUS_IGNORE);
    }
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
    sparse_switch::decode(recv_[k].data(), segments_[k].end - segments_[k].begin, sparse_switch::Listed::kClearBits,
                          rotating + segments_[k].begin);
    if (more) post_receive(k);
    return k;
  }

  // Sends segment k of `rotating` on, once the previous sub-step's message has left its buffer.
  void pass_on(int k, const uint64_t* rotating, bool sparse, util::PhaseProfile& profile) {
    util::ScopedPhase timed(profile, util::Phase::kSendrecv);
    const Segment& segment = segments_[k];
    MPI_Wait(&sends_[k], MPI_STATUS_IGNORE);
    const size_t length = sparse_switch::encode(rotating + segment.begin, segment.end - segment.begin,
                                                sparse_switch::Listed::kClearBits, sparse, send_[k].data());
    MPI_Isend(send_[k].data(), comm::narrow_count(static_cast<int64_t>(length), kSegmentMessage), MPI_UINT64_T,
              segment.leftward ? left_ : right_, k, comm_, &sends_[k]);
    timed.count_sent(static_cast<int64_t>(length * sizeof(uint64_t)));
  }

  void wait_sends(util::PhaseProfile& profile) {
    util::ScopedPhase timed(profile, util::Phase::kSendrecv);
    MPI_Waitall(nsegments_, sends_.data(), MPI_STATUSES_IGNORE);
  }

 private:
  void post_receive(int k) {
    MPI_Irecv(recv_[k].data(), comm::narrow_count(static_cast<int64_t>(recv_[k].size()), kSegmentMessage), MPI_UINT64_T,
              segments_[k].leftward ? right_ : left_, k, comm_, &next_receives_[k]);
  }

  const std::vector<Segment>& segments_;
  Messages& send_;
  Messages& recv_;
  int left_, right_;
  MPI_Comm comm_;
  int nsegments_;
  // receives_: this sub-step's segments; next_receives_: the next one's, posted as buffers free up.
  std::vector<MPI_Request> sends_, receives_, next_receives_;
};

}  // namespace

int64_t DistributedBfs::scan_row_set(const uint64_t* frontier, util::PhaseProfile& profile) {
  const int C = dist_.C, j = dist_.col;
  const int64_t block_words = dist_.block / util::kBitsPerWord;
  comm::ThreadBuckets& buckets = row_exchange_.start();
  // With one grid column nothing rotates: the scan marks its finds in visited_ itself.
  uint64_t* const rotating = C > 1 ? rotating_.data() : visited_.data();
  if (C > 1) std::memcpy(rotating, visited_.data(), block_words * sizeof(uint64_t));
  // With `overlap` the block is cut into n segments (n x C scans), half of them travelling each
  // way, each sent as soon as it is scanned (Nakao et al. 2021, section 4.5). With C = 1 nothing
  // travels, so nothing overlaps.
  const bool split = options_.overlap && C > 1;
  const std::vector<Segment> segments = make_segments(block_words, split ? options_.substeps : 1, split);
  const int nsegments = static_cast<int>(segments.size());
  const bool both_directions = split && nsegments > 1;
  const int left = (j + C - 1) % C, right = (j + 1) % C;
  SegmentRing ring(segments, C > 1, send_messages_, recv_messages_, left, right, grid_.row_comm());
  int64_t examined = 0;
  for (int s = 0; s < C; ++s) {
    const bool more = s + 1 < C;
    ring.start_substep(s == 0, more, profile);
    for (int done = 0; done < nsegments; ++done) {
      // Sub-step 0 scans our own visited words; later ones the segments as they arrive.
      const int k = s == 0 ? done : ring.receive_any(rotating, more, profile);
      const Segment& segment = segments[k];
      const int target = segment.leftward ? (j + s) % C : (j - s + C) % C;  // owner of the block examined
      examined += scan_block_words(frontier, rotating, target, segment.begin, segment.end, buckets, profile);
      if (more) ring.pass_on(k, rotating, options_.sparse_switch, profile);
    }
    if (s > 0 && !options_.bu_alltoallv) {  // Algorithm 3: this sub-step's pairs go to their owners now
      send_pairs_now((j + s) % C, (j - s + C) % C, profile);
      if (both_directions && (j + s) % C != (j - s + C) % C) send_pairs_now((j - s + C) % C, (j + s) % C, profile);
    }
  }
  ring.wait_sends(profile);
  return examined;
}

int64_t DistributedBfs::scan_block_words(const uint64_t* frontier, uint64_t* rotating, int target, int64_t w_begin,
                                         int64_t w_end, comm::ThreadBuckets& buckets, util::PhaseProfile& profile) {
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
  const graph::Distribution& d = dist_;
  const int j = d.col;
  const int64_t base_word = static_cast<int64_t>(target) * (d.block / util::kBitsPerWord);
  const bool own_block = target == j;  // sub-step 0: every later one examines another column's block
  const graph::RowIndex& index = graph_.rows;
  const bool renumbered = graph_.renumbering.active();
  const graph::InBlockIdsView first_original =
      renumbered ? graph_.first_neighbors_original.view() : graph::InBlockIdsView();
  const graph::SetMap* col_original = renumbered ? &graph_.renumbering.column_originals : nullptr;
  const graph::SlotStarts* starts = &index.slot_starts();
  const graph::StoredIds first = graph_.first_neighbors.view();
  const RowRanges<RowForm::kBitmap> bitmap{nullptr, starts,         &index.nonempty(), nullptr,
                                           first,   first_original, col_original,      &d};
  const RowRanges<RowForm::kBuckets> in_buckets{nullptr, starts,         nullptr,      &index.nonempty_buckets(),
                                                first,   first_original, col_original, &d};
  const RowRanges<RowForm::kPlain> csr{index.plain_starts(), nullptr,      nullptr, nullptr, first,
                                       first_original,       col_original, &d};
  const PlainAdjacency plain{graph_.neighbors.data()};
  const PackedAdjacency packed{graph_.packed};
  int64_t examined = 0;
#pragma omp parallel num_threads(nthreads_) reduction(+ : examined)
  {
    const int t = omp_get_thread_num();
    auto scan_rows = [&](const auto& rows, auto& on_found) {
      return graph_.packed.active() ? scan_block(rows, packed, frontier, rotating, base_word, w_begin, w_end, own_block,
                                                 visited_.data(), next_bits_.data(), on_found)
                                    : scan_block(rows, plain, frontier, rotating, base_word, w_begin, w_end, own_block,
                                                 visited_.data(), next_bits_.data(), on_found);
    };
    auto scan = [&](auto& on_found) {
      if (!index.compressed()) return scan_rows(csr, on_found);
      return index.bucketed() ? scan_rows(in_buckets, on_found) : scan_rows(bitmap, on_found);
    };
    if (own_block) {  // our own block's finds need no communication: applied at once
      // (by-value captures: the compiler keeps them in registers across the stores)
      // Parents are written at the vertex's original offset (parent_slot).
      int64_t* const parents = parent_.data();
      const graph::LocalId* const original = original_of_;
      const int64_t column_base = d.global_from_col_local(0, j);
      ScanCounts counts;
      if (original) {
        auto apply = [parents, original, column_base](graph::LocalId v, graph::LocalId parent) {
          parents[original[v]] = column_base + parent;
        };
        counts = scan(apply);
      } else {
        auto apply = [parents, column_base](graph::LocalId v, graph::LocalId parent) {
          parents[v] = column_base + parent;
        };
        counts = scan(apply);
      }
      examined += counts.examined;
      found_[t].counted += counts.found;
    } else {  // (offset, parent's original column-local id) for the block's owner
      auto& out = buckets[t][target];
      auto send = [&](graph::LocalId v, graph::LocalId parent) { out.push_back(pair_.pack(v, parent)); };
      examined += scan(send).examined;
    }
  }
  return examined;
}

void DistributedBfs::apply_delivered_pairs(util::PhaseProfile& profile) {
  const auto& pieces = row_exchange_.deliver(profile);
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_)
  {
    const int t = omp_get_thread_num();
    for (const auto& piece : pieces)
      apply_found_pairs(t, piece.records, static_cast<int64_t>(piece.count), piece.source);
  }
}

void DistributedBfs::apply_found_pairs(int t, const uint64_t* records, int64_t count, int source_col) {
  // Each vertex arrives at most once per level (the rotating bitmap keeps later finders off it),
  // so its bits are simply set; atomically, since other threads set bits of the same words.
  const int64_t column_base = dist_.global_from_col_local(0, source_col);
  int64_t applied = 0;
#pragma omp for schedule(static) nowait
  for (int64_t k = 0; k < count; ++k) {
    const graph::LocalId v = static_cast<graph::LocalId>(pair_.offset(records[k]));
    visited_.set_atomic(v);
    next_bits_.set_atomic(v);
    *parent_slot(v) = column_base + static_cast<int64_t>(pair_.id(records[k]));
    ++applied;
  }
  found_[t].counted += applied;
}

// Algorithm 3's exchange (switch `bu-alltoallv` off): after a sub-step the pairs found for the block
// of P(i, to) go straight to it, and the pairs P(i, from) found for our block arrive.
void DistributedBfs::send_pairs_now(int to, int from, util::PhaseProfile& profile) {
  using util::Phase;
  std::vector<uint64_t> send;
  {
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
    for (auto& per_thread : row_exchange_.start_bucket_view()) {
      send.insert(send.end(), per_thread[to].begin(), per_thread[to].end());
      per_thread[to].clear();
    }
  }
  std::vector<uint64_t> received;
  {
    util::ScopedPhase timed(profile, util::Phase::kSendrecv);
    int64_t outgoing = static_cast<int64_t>(send.size()), incoming = 0;
    MPI_Sendrecv(&outgoing, 1, MPI_INT64_T, to, kPairCountTag, &incoming, 1, MPI_INT64_T, from, kPairCountTag,
                 grid_.row_comm(), MPI_STATUS_IGNORE);
    received.resize(incoming);
    comm::sendrecv(send.data(), outgoing, to, received.data(), incoming, from, MPI_UINT64_T, kPairTag, grid_.row_comm(),
                   grid_.limits());
    timed.count_sent(outgoing * static_cast<int64_t>(sizeof(uint64_t)));  // the one-word count left out
  }
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_)
  apply_found_pairs(omp_get_thread_num(), received.data(), static_cast<int64_t>(received.size()), from);
}

}  // namespace g500::bfs
