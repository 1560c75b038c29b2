// Bottom-up step of the 2D BFS (001 Algorithm 3, with the collective exchange of Algorithm 6).
//
// The frontier bitmap of this grid column's vertex range is gathered along the column. The
// unvisited vertices of row set i are visited in C sub-steps: in sub-step s this process examines
// the block owned by P(i, j+s), skipping vertices whose bit is set in the rotating visited bitmap
// of that block (and rows without edges), and stops at the first neighbour in the frontier. The
// bitmap then moves one step along the row (sendrecv), so a vertex found here is skipped by the
// processes after us. Pairs found in our own block (sub-step 0) are applied here; the others go
// to their owners in one alltoallv at the end of the level (4.5, switch `bu-alltoallv`), or, with
// that switch off, by a sendrecv after every sub-step as in Algorithm 3.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "bfs/bfs.hpp"

namespace g500 {

namespace {

// Where the candidate rows of a bitmap word live: plain CSR indexes rows directly, BCSR finds a
// non-empty row's index by rank (001 4.1).
template <bool kCompressed>
struct RowRanges {
  const int64_t* starts;
  const int64_t* word_offsets;
  const uint64_t* has_edges;
  const LocalId* first_neighbors;
  const LocalId* col_original;  // with renumbering: found parents are sent in original ids
  LocalId original(LocalId u) const { return col_original ? col_original[u] : u; }
  // Candidates of word w (global word index gw): unvisited rows, and with BCSR only non-empty ones.
  uint64_t candidates(uint64_t unvisited, int64_t gw) const { return kCompressed ? unvisited & has_edges[gw] : unvisited; }
  // Index of row (gw, bit) in starts and first_neighbors.
  int64_t index(int64_t gw, int bit) const {
    if constexpr (kCompressed)
      return word_offsets[gw] + std::popcount(has_edges[gw] & ((uint64_t{1} << bit) - 1));
    else
      return gw * kBitsPerWord + bit;
  }
};

inline bool in_frontier(const uint64_t* frontier, LocalId u) { return (frontier[u / kBitsPerWord] >> (u % kBitsPerWord)) & 1U; }

// Scans the candidate rows of block words [0, block_words) starting at global word base_word:
// for each unvisited row, the first neighbour in the frontier becomes its parent. Found pairs
// (offset in block, column-local parent) go to out; returns the edges examined.
//
// Rows are sorted by descending neighbour degree, so the first neighbour is the likeliest parent:
// it is read from the dense first_neighbors stream. Each word is done in two passes: the first
// neighbours of all its candidates, then the rest of the rows they did not settle. The first pass
// runs one word ahead and prefetches those rows, so their cache misses (the dominant cost of the
// bottom-up step) overlap with the work on the current word.
template <bool kCompressed>
class BlockScanner {
 public:
  BlockScanner(const RowRanges<kCompressed>& rows, const LocalId* neighbors, const uint64_t* frontier,
               uint64_t* rotating, int64_t base_word, std::vector<uint64_t>& out)
      : rows_(rows), neighbors_(neighbors), frontier_(frontier), rotating_(rotating), base_word_(base_word), out_(out) {}

  // First pass over word w: settles rows whose first neighbour is in the frontier; returns the
  // rows left for the second pass (and prefetches their adjacency).
  uint64_t first_pass(int64_t w, uint64_t& found_bits) {
    const int64_t gw = base_word_ + w;
    uint64_t candidates = rows_.candidates(~rotating_[w], gw), unsettled = 0;
    while (candidates) {
      const int bit = std::countr_zero(candidates);
      candidates &= candidates - 1;
      const int64_t r = rows_.index(gw, bit);
      const int64_t begin = rows_.starts[r], end = rows_.starts[r + 1];
      if (!kCompressed && begin == end) continue;  // plain CSR also lists empty rows
      const LocalId first = rows_.first_neighbors[r];
      if (in_frontier(frontier_, first)) {
        ++examined_;
        found(w, bit, first, found_bits);
      } else if (end - begin > 1) {
        unsettled |= uint64_t{1} << bit;
        __builtin_prefetch(neighbors_ + begin + 1);
      } else {
        ++examined_;
      }
    }
    return unsettled;
  }

  // Second pass: the rest of each unsettled row.
  void second_pass(int64_t w, uint64_t unsettled, uint64_t& found_bits) {
    const int64_t gw = base_word_ + w;
    while (unsettled) {
      const int bit = std::countr_zero(unsettled);
      unsettled &= unsettled - 1;
      const int64_t r = rows_.index(gw, bit);
      const int64_t begin = rows_.starts[r], end = rows_.starts[r + 1];
      int64_t e = begin + 1;
      while (e < end && !in_frontier(frontier_, neighbors_[e])) ++e;
      if (e == end) {
        examined_ += end - begin;
      } else {
        examined_ += e - begin + 1;
        found(w, bit, neighbors_[e], found_bits);
      }
    }
  }

  int64_t examined() const { return examined_; }

 private:
  void found(int64_t w, int bit, LocalId parent, uint64_t& found_bits) {
    found_bits |= uint64_t{1} << bit;
    out_.push_back((static_cast<uint64_t>(w * kBitsPerWord + bit) << 32) | rows_.original(parent));
  }

  const RowRanges<kCompressed>& rows_;
  const LocalId* neighbors_;
  const uint64_t* frontier_;
  uint64_t* rotating_;
  int64_t base_word_;
  std::vector<uint64_t>& out_;
  int64_t examined_ = 0;
};

constexpr int64_t kWordsPerScanChunk = 64;  // dynamic-schedule unit of the bottom-up scan

template <bool kCompressed>
int64_t scan_block(const RowRanges<kCompressed>& rows, const LocalId* neighbors, const uint64_t* frontier,
                   uint64_t* rotating, int64_t base_word, int64_t block_words, bool own_block, uint64_t* visited,
                   uint64_t* next_bits, std::vector<uint64_t>& out) {
  BlockScanner<kCompressed> scanner(rows, neighbors, frontier, rotating, base_word, out);
  const int64_t nchunks = (block_words + kWordsPerScanChunk - 1) / kWordsPerScanChunk;
#pragma omp for schedule(dynamic, 1)
  for (int64_t c = 0; c < nchunks; ++c) {
    const int64_t w_begin = c * kWordsPerScanChunk, w_end = std::min(block_words, w_begin + kWordsPerScanChunk);
    uint64_t found_next = 0;
    uint64_t unsettled_next = scanner.first_pass(w_begin, found_next);
    for (int64_t w = w_begin; w < w_end; ++w) {
      uint64_t found_bits = found_next, unsettled = unsettled_next;
      found_next = 0;
      if (w + 1 < w_end) unsettled_next = scanner.first_pass(w + 1, found_next);
      scanner.second_pass(w, unsettled, found_bits);
      rotating[w] |= found_bits;
      if (own_block) {
        visited[w] |= found_bits;
        next_bits[w] |= found_bits;
      }
    }
  }
  return scanner.examined();
}

}  // namespace

DistributedBfs::StepResult DistributedBfs::bottom_up_step(comm::PhaseProfile& profile) {
  using comm::Phase;
  using comm::ScopedPhase;
  const Distribution& d = dist_;
  const int R = d.R, C = d.C, j = d.col;
  const int64_t block_words = d.block / kBitsPerWord;

  // 1. Frontier over the column's vertex range: owned frontier bitmaps gathered along the column.
  if (R == 1) {
    ScopedPhase timed(profile, Phase::kCalculation);
    std::memcpy(column_frontier_.data(), frontier_bits_.data(), block_words * sizeof(uint64_t));
  } else {
    ScopedPhase timed(profile, Phase::kAllgatherv);
    std::vector<int> counts(R, static_cast<int>(block_words)), displs(R);
    for (int r = 0; r < R; ++r) displs[r] = static_cast<int>(r * block_words);
    allgatherv_(frontier_bits_.data(), static_cast<int>(block_words), MPI_UINT64_T, column_frontier_.data(),
                counts.data(), displs.data(), MPI_UINT64_T, grid_.col_comm());
  }

  // 2. C sub-steps over the blocks of the row set, the visited bitmap rotating along the row.
  comm::ThreadBuckets& buckets = row_exchange_.start();
  std::memcpy(rotating_.data(), visited_.data(), block_words * sizeof(uint64_t));
  const RowIndex& index = graph_.rows;
  const LocalId* col_original = graph_.renumbering.active() ? graph_.renumbering.col_original.data() : nullptr;
  const RowRanges<true> bcsr{index.starts(), index.word_offsets(), index.has_edges().data(),
                             graph_.first_neighbors.data(), col_original};
  const RowRanges<false> csr{index.starts(), nullptr, nullptr, graph_.first_neighbors.data(), col_original};
  int64_t examined = 0;
  for (int s = 0; s < C; ++s) {
    const int target = (j + s) % C;  // the grid-row position owning the block examined now
    const int64_t base_word = static_cast<int64_t>(target) * d.block / kBitsPerWord;
    const bool own_block = s == 0;
    {
      ScopedPhase timed(profile, Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_) reduction(+ : examined)
      {
        const int t = omp_get_thread_num();
        auto& out = buckets[t][target];
        examined += index.compressed()
                        ? scan_block(bcsr, graph_.neighbors.data(), column_frontier_.data(), rotating_.data(), base_word,
                                     block_words, own_block, visited_.data(), next_bits_.data(), out)
                        : scan_block(csr, graph_.neighbors.data(), column_frontier_.data(), rotating_.data(), base_word,
                                     block_words, own_block, visited_.data(), next_bits_.data(), out);
        if (own_block) {  // our own block's pairs need no communication
          for (uint64_t record : out) {
            const LocalId v = static_cast<LocalId>(record >> 32);
            parent_[graph_.owned_original(v)] = d.global_from_col_local(static_cast<int64_t>(record & 0xffffffffULL), j);
            discover(t, v);
          }
          out.clear();
        }
      }
    }
    if (!own_block && !options_.bu_alltoallv) send_pairs_now(target, s, profile);
    if (s + 1 < C) {
      ScopedPhase timed(profile, Phase::kSendrecv);
      MPI_Sendrecv_replace(rotating_.data(), static_cast<int>(block_words), MPI_UINT64_T, (j + C - 1) % C, 0,
                           (j + 1) % C, 0, grid_.row_comm(), MPI_STATUS_IGNORE);
    }
  }

  // 3. Found pairs to their owners along the row.
  if (C > 1 && options_.bu_alltoallv) {
    const auto& pieces = row_exchange_.deliver(profile);
    ScopedPhase timed(profile, Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_)
    {
      const int t = omp_get_thread_num();
      for (const auto& piece : pieces) apply_found_pairs(t, piece.records, static_cast<int64_t>(piece.count), piece.source);
    }
  }
  return StepResult{examined};
}

void DistributedBfs::apply_found_pairs(int t, const uint64_t* records, int64_t count, int source_col) {
  const Distribution& d = dist_;
#pragma omp for schedule(static) nowait
  for (int64_t k = 0; k < count; ++k) {
    const LocalId v = static_cast<LocalId>(records[k] >> 32);
    visited_.test_and_set_atomic(v);
    next_bits_.test_and_set_atomic(v);
    parent_[graph_.owned_original(v)] = d.global_from_col_local(static_cast<int64_t>(records[k] & 0xffffffffULL), source_col);
    discover(t, v);
  }
}

// Algorithm 3's exchange (switch `bu-alltoallv` off): after sub-step s the pairs found for the
// block of P(i, j+s) go straight to it, and the pairs P(i, j-s) found for our block arrive.
void DistributedBfs::send_pairs_now(int target, int s, comm::PhaseProfile& profile) {
  using comm::Phase;
  const int C = dist_.C, j = dist_.col;
  const int from = (j - s + C) % C;
  std::vector<uint64_t> send;
  {
    comm::ScopedPhase timed(profile, Phase::kCalculation);
    for (auto& per_thread : row_exchange_.start_bucket_view()) {
      send.insert(send.end(), per_thread[target].begin(), per_thread[target].end());
      per_thread[target].clear();
    }
  }
  std::vector<uint64_t> received;
  {
    comm::ScopedPhase timed(profile, Phase::kSendrecv);
    int outgoing = static_cast<int>(send.size()), incoming = 0;
    MPI_Sendrecv(&outgoing, 1, MPI_INT, target, 1, &incoming, 1, MPI_INT, from, 1, grid_.row_comm(), MPI_STATUS_IGNORE);
    received.resize(incoming);
    MPI_Sendrecv(send.data(), outgoing, MPI_UINT64_T, target, 2, received.data(), incoming, MPI_UINT64_T, from, 2,
                 grid_.row_comm(), MPI_STATUS_IGNORE);
  }
  comm::ScopedPhase timed(profile, Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_)
  apply_found_pairs(omp_get_thread_num(), received.data(), static_cast<int64_t>(received.size()), from);
}

}  // namespace g500
