// Top-down step of the 2D BFS (Nakao et al. 2021, Algorithm 2 with Algorithm 4's thread
// parallelisation).
//
// One CSR serves both directions, so the top-down step uses the transposed roles of Algorithm 2 of
// Nakao et al. 2021: the frontier is gathered along the grid row (each process of row i owns one
// block of row set i), each frontier vertex x's neighbours y (column-local ids) are read from this
// process's rows, and the candidate (y, parent x) is sent along the grid column to y's owner, which
// keeps the first candidate for each unvisited y (candidates for our own vertices are settled at
// once; with the row-major layout, `yoo` off, y's owner is outside the column and the candidates
// travel over the world communicator). The next frontier is recorded only in per-thread lists; the
// bitmap a following bottom-up step needs is made from them afterwards (advance_frontier), without
// atomics. With these roles the frontier travels along the row (C processes, 32-bit ids) and the
// candidates along the column (R processes, one word per pair), where Table 3 of the paper has
// the frontier along the column and two-word pairs along the row: docs/volumes.md compares the
// bytes.
#include <omp.h>

#include <algorithm>
#include <cstring>

#include "bfs/bfs.hpp"
#include "comm/typed.hpp"

namespace g500::bfs {

DistributedBfs::StepResult DistributedBfs::top_down_step(int64_t frontier_vertices, int64_t frontier_edges,
                                                         util::PhaseProfile& profile) {
  snapshot_visited(frontier_edges, profile);
  // 1. Gather the frontier of this grid row (owned offsets), as row-local ids; by direction a
  // bitmap of it slice by slice, each listed (2.) before the next is gathered.
  const bool sliced = gathers_row_frontier_in_slices(frontier_vertices);
  if (!sliced) gather_row_frontier(frontier_vertices, profile);
  // 2. List the work items of the frontier's rows and 3. expand them: candidates (y offset in its
  // owner's block, x row-local) per destination row; 4. exchange those along the grid column (the
  // world with the row-major layout), keeping the first candidate per unvisited vertex. In one
  // round when every process knows that none has more candidates than a round's (the usual case:
  // the items are listed and expanded in one parallel region); else in the rounds the processes
  // agree on, so that a level's candidates are never all held at once.
  if (!sliced && one_candidate_round(frontier_edges)) {
    const int64_t examined = list_and_expand_row_frontier(candidate_exchange_.start(), profile);
    settle_candidates(true, profile);
    return StepResult{examined};
  }
  const int64_t listed_edges = sliced ? list_row_frontier_in_slices(profile) : list_row_frontier(profile);
  const int rounds = candidate_rounds(listed_edges, profile);
  const std::vector<int64_t> starts = round_starts(rounds, listed_edges);
  int64_t examined = 0;
  for (int round = 0; round < rounds; ++round) {
    examined += expand_row_frontier(starts[round], starts[round + 1], candidate_exchange_.start(), profile);
    settle_candidates(round + 1 == rounds, profile);
  }
  return StepResult{examined};
}

void DistributedBfs::snapshot_visited(int64_t frontier_edges, util::PhaseProfile& profile) {
  // What was visited before, so that a following bottom-up step can tell the discoveries by their
  // new bits (advance_frontier). Not worth a copy of the bitmap when there can be only a few:
  // the frontier's edges bound the discoveries of every process.
  snapshot_taken_ = frontier_edges > static_cast<int64_t>(visited_before_.size()) * kSnapshotDiscoveriesPerWord;
  if (!snapshot_taken_) return;
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
  std::memcpy(visited_before_.data(), visited_.data(), visited_before_.size() * sizeof(uint64_t));
}

void DistributedBfs::gather_row_frontier(int64_t frontier_vertices, util::PhaseProfile& profile) {
  const int C = dist_.C;
  row_frontier_ = nullptr;
  if (run::top_down_row_frontier_as_bitmap(frontier_vertices, dist_)) {
    gather_row_frontier_bitmap(profile);
    return;
  }
  std::vector<int64_t> counts, displs;
  {
    util::ScopedPhase timed(profile, util::Phase::kAllgatherv);
    counts = comm::allgather_counts(static_cast<int64_t>(frontier_.size()), grid_.row_comm());
    displs = comm::packed_displacements(counts);
    gathered_.resize(displs[C - 1] + counts[C - 1]);
    comm::allgatherv(frontier_.data(), gathered_.data(), counts, graph::local_id_datatype(), grid_.row_comm(),
                     allgatherv_, grid_.limits());
    timed.count_sent(static_cast<int64_t>(frontier_.size() * sizeof(graph::LocalId)) * (C - 1));
  }
  // Owned offsets of P(i, r) become row-local ids: its block is the r-th of row set i.
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
  for (int r = 1; r < C; ++r)
    for (int64_t k = displs[r]; k < displs[r] + counts[r]; ++k)
      gathered_[k] += static_cast<graph::LocalId>(r * dist_.block);
}

void DistributedBfs::make_frontier_bits(util::PhaseProfile& profile) {
  if (frontier_bits_current_) return;  // after a top-down step only its lists hold the frontier
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
  frontier_bits_.clear();
  for (const graph::LocalId v : frontier_) frontier_bits_.set(v);
  frontier_bits_current_ = true;
}

void DistributedBfs::gather_row_frontier_bitmap(util::PhaseProfile& profile) {
  const int C = dist_.C;
  const int64_t block_words = dist_.block / util::kBitsPerWord;
  make_frontier_bits(profile);
  row_slice_begin_ = 0;
  row_slice_words_ = block_words;
  if (C == 1) {  // the row set is our block
    row_frontier_ = frontier_bits_.data();
    return;
  }
  // Block r of the bitmap is P(i, r)'s: the row-local ids in order. A bottom-up step's column
  // frontier is not needed in a top-down one, so its words serve where they are as many.
  uint64_t* words = row_frontier_words_.empty() ? column_frontier_.data() : row_frontier_words_.data();
  util::ScopedPhase timed(profile, util::Phase::kAllgatherv);
  comm::allgatherv(frontier_bits_.data(), words, std::vector<int64_t>(C, block_words), MPI_UINT64_T, grid_.row_comm(),
                   allgatherv_, grid_.limits());
  timed.count_sent(block_words * static_cast<int64_t>(sizeof(uint64_t)) * (C - 1));
  row_frontier_ = words;
}

bool DistributedBfs::gathers_row_frontier_in_slices(int64_t frontier_vertices) const {
  return options_.level_buffers_by_direction && dist_.C > 1 &&
         run::top_down_row_frontier_as_bitmap(frontier_vertices, dist_);
}

void DistributedBfs::gather_row_frontier_slice(int64_t slice, util::PhaseProfile& profile) {
  const int C = dist_.C;
  const int64_t block_words = dist_.block / util::kBitsPerWord, most = run::row_frontier_slice_words(dist_);
  row_slice_begin_ = std::min(block_words, slice * most);
  row_slice_words_ = std::min(block_words - row_slice_begin_, most);
  if (row_frontier_words_.size() < static_cast<size_t>(C * most)) row_frontier_words_.resize(C * most);
  util::ScopedPhase timed(profile, util::Phase::kAllgatherv);
  comm::allgatherv(frontier_bits_.data() + row_slice_begin_, row_frontier_words_.data(),
                   std::vector<int64_t>(C, row_slice_words_), MPI_UINT64_T, grid_.row_comm(), allgatherv_,
                   grid_.limits());
  timed.count_sent(row_slice_words_ * static_cast<int64_t>(sizeof(uint64_t)) * (C - 1));
  row_frontier_ = row_frontier_words_.data();
}

int64_t DistributedBfs::list_row_frontier_in_slices(util::PhaseProfile& profile) {
  make_frontier_bits(profile);
  for (std::vector<RowPiece>& pieces : thread_pieces_) pieces.clear();
  std::fill(thread_listed_edges_.begin(), thread_listed_edges_.end(), 0);
  for (int64_t slice = 0; slice < run::kTopDownListShareOfBitmap; ++slice) {
    gather_row_frontier_slice(slice, profile);
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_)
    {
      const int t = omp_get_thread_num();
      thread_listed_edges_[t] += list_row_pieces(t);
    }
  }
  row_frontier_ = nullptr;
  first_piece_ = piece_starts();
  int64_t listed = 0;
  for (int t = 0; t < nthreads_; ++t) listed += thread_listed_edges_[t];
  return listed;
}

bool DistributedBfs::one_candidate_round(int64_t frontier_edges) const {
  // Alone in its communicator a process settles every candidate at once and buffers none; else its
  // entries of the frontier's rows are part of the frontier's degree sum.
  return candidate_exchange_.size() == 1 ||
         (frontier_edges != kUnknownEdges && frontier_edges <= candidates_per_round_);
}

std::vector<int64_t> DistributedBfs::piece_starts() const {
  std::vector<int64_t> first_piece(nthreads_ + 1, 0);
  for (int t = 0; t < nthreads_; ++t)
    first_piece[t + 1] = first_piece[t] + static_cast<int64_t>(thread_pieces_[t].size());
  return first_piece;
}

int64_t DistributedBfs::list_and_expand_row_frontier(comm::ThreadBuckets& buckets, util::PhaseProfile& profile) {
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
  int64_t examined = 0;
#pragma omp parallel num_threads(nthreads_) reduction(+ : examined)
  {
    const int t = omp_get_thread_num();
    thread_pieces_[t].clear();
    list_row_pieces(t);  // ends with a barrier: every thread's list is complete
    const std::vector<int64_t> first_piece = piece_starts();
    examined += expand_row_pieces(t, first_piece.data(), 0, first_piece.back(), buckets[t]);
  }
  return examined;
}

int64_t DistributedBfs::list_row_frontier(util::PhaseProfile& profile) {
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_)
  {
    const int t = omp_get_thread_num();
    thread_pieces_[t].clear();
    thread_listed_edges_[t] = list_row_pieces(t);
  }
  first_piece_ = piece_starts();
  int64_t listed = 0;
  for (int t = 0; t < nthreads_; ++t) listed += thread_listed_edges_[t];
  return listed;
}

int DistributedBfs::candidate_rounds(int64_t listed_edges, util::PhaseProfile& profile) {
  util::ScopedPhase timed(profile, util::Phase::kAlltoallv);
  const int64_t most = comm::Communicator(candidate_exchange_.communicator()).max(listed_edges);
  return static_cast<int>(std::max<int64_t>(1, (most + candidates_per_round_ - 1) / candidates_per_round_));
}

std::vector<int64_t> DistributedBfs::round_starts(int rounds, int64_t listed_edges) const {
  std::vector<int64_t> starts(static_cast<size_t>(rounds) + 1, first_piece_[nthreads_]);
  starts[0] = 0;
  int next = 1;
  int64_t before = 0, k = 0;  // the entries of the items before item k
  for (int t = 0; t < nthreads_ && next < rounds; ++t)
    for (const RowPiece& piece : thread_pieces_[t]) {
      while (next < rounds && before >= listed_edges * next / rounds) starts[next++] = k;
      before += piece.end - piece.begin;
      ++k;
    }
  return starts;
}

int64_t DistributedBfs::expand_row_frontier(int64_t first, int64_t end, comm::ThreadBuckets& buckets,
                                            util::PhaseProfile& profile) {
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
  int64_t examined = 0;
#pragma omp parallel num_threads(nthreads_) reduction(+ : examined)
  {
    const int t = omp_get_thread_num();
    examined += expand_row_pieces(t, first_piece_.data(), first, end, buckets[t]);
  }
  return examined;
}

int64_t DistributedBfs::list_row_pieces(int t) {
  // Work items: whole rows (Algorithm 4), or with `lb-topdown` rows longer than kEdgesPerPiece
  // cut into pieces, so one high-degree frontier vertex no longer keeps one thread busy while the
  // others wait (the load balancing of Nakao et al. 2021, section 4.4). The threads list the
  // items of the frontier's rows, taking a few rows at a time (finding a row's extent is a random
  // access; listing a packed hub row passes over its gaps, and the hubs come first after the
  // degree-order renumbering), then all threads take items from the concatenation of the lists.
  std::vector<RowPiece>& listed = thread_pieces_[t];
  int64_t edges = 0;
  if (row_frontier_ && row_slice_words_ == dist_.block / util::kBitsPerWord) {  // the whole bitmap
    const int64_t words = dist_.row_set_size() / util::kBitsPerWord;
#pragma omp for schedule(dynamic, kWordsPerListChunk)
    for (int64_t w = 0; w < words; ++w)
      for (uint64_t bits = row_frontier_[w]; bits; bits &= bits - 1)
        edges += list_row(static_cast<graph::LocalId>(w * util::kBitsPerWord + std::countr_zero(bits)), listed);
    return edges;
  }
  if (row_frontier_) {  // a slice of each block: word w is word row_slice_begin_ + w % slice of block w / slice
    const int64_t slice = row_slice_words_, words = dist_.C * slice;
#pragma omp for schedule(dynamic, kWordsPerListChunk)
    for (int64_t w = 0; w < words; ++w) {
      const int64_t first_row = (w / slice) * dist_.block + (row_slice_begin_ + w % slice) * util::kBitsPerWord;
      for (uint64_t bits = row_frontier_[w]; bits; bits &= bits - 1)
        edges += list_row(static_cast<graph::LocalId>(first_row + std::countr_zero(bits)), listed);
    }
    return edges;
  }
  const int64_t nfrontier = static_cast<int64_t>(gathered_.size());
#pragma omp for schedule(dynamic, kRowsPerListChunk)
  for (int64_t k = 0; k < nfrontier; ++k) edges += list_row(gathered_[k], listed);
  return edges;
}

int64_t DistributedBfs::list_row(graph::LocalId x, std::vector<RowPiece>& listed) const {
  const graph::RowIndex::Extent row = graph_.rows.extent(x);
  if (row.begin == row.end) return 0;
  // Candidates carry x's original row-local id, since parents are written in original ids.
  const graph::LocalId x_original = graph_.original_row_local(x, row.slot);
  const int64_t piece_edges = options_.lb_topdown ? kEdgesPerPiece : row.end - row.begin;
  const graph::PackedRows& packed = graph_.packed;
  if (!packed.active()) {
    for (int64_t from = row.begin; from < row.end; from += piece_edges)
      listed.push_back(RowPiece{x_original, from, std::min(row.end, from + piece_edges)});
    return row.end - row.begin;
  }
  // Packed rows are read in order: where each piece starts is found by passing over the gaps
  // before it (eight one-byte gaps at a time, see varint::skip). A short row is one piece.
  const graph::LocalId first = graph_.first_neighbors[row.slot];
  if (graph::PackedRows::is_short(row.end - row.begin)) {
    const graph::StoredIds ids = row.end - row.begin > 1 ? packed.short_row(row.slot, row.begin) : graph::StoredIds();
    listed.push_back(RowPiece{x_original, row.begin, row.end, ids.address(), 0, first, true, true,
                              static_cast<uint8_t>(ids.shift())});
    return row.end - row.begin;
  }
  graph::PackedRows::Reader reader = packed.after_first(row.slot, first);
  for (int64_t from = row.begin; from < row.end; from += piece_edges) {
    const int64_t to = std::min(row.end, from + piece_edges);
    const bool with_first = from == row.begin;
    listed.push_back(RowPiece{x_original, from, to, reader.position(), reader.key(), first, with_first, false});
    if (to < row.end) reader.skip(to - from - (with_first ? 1 : 0));
  }
  return row.end - row.begin;
}

int64_t DistributedBfs::expand_row_pieces(int t, const int64_t* first_piece, int64_t first, int64_t end,
                                          std::vector<std::vector<uint64_t>>& mine) {
  const graph::Distribution& d = dist_;
  const uint64_t own_position = static_cast<uint64_t>(own_column_position_);  // -1: none
  const int* dest = candidate_dest_.data();
  const graph::PackedRows& packed = graph_.packed;
  int64_t examined = 0;
  // Candidates (y, x) for the edges of a piece of frontier row x.
  auto expand = [&](const RowPiece& piece) {
    const graph::LocalId x_original = piece.row_original;
    const int64_t x_global = d.global_from_row_local(x_original, d.row);
    examined += piece.end - piece.begin;
    auto candidate = [&](uint64_t y) {
      const uint64_t position = d.by_block.divide(y);
      const graph::LocalId offset = static_cast<graph::LocalId>(y - position * d.block);
      if (position == own_position) {  // we own y ourselves: no message needed
        if (visited_.test_and_set_atomic(offset)) discover(t, offset, x_global);
      } else {
        mine[dest[position]].push_back(pair_.pack(offset, x_original));
      }
    };
    if (!packed.active()) {
      for (int64_t e = piece.begin; e < piece.end; ++e) candidate(graph_.neighbors[e]);
      return;
    }
    int64_t e = piece.begin;
    if (piece.with_first) {
      candidate(piece.first);
      ++e;
    }
    if (piece.short_row) {
      const graph::StoredIds ids(piece.after_first, piece.after_first_shift, packed.short_ids.width());
      for (int64_t i = 0; i < piece.end - e; ++i) candidate(ids[i]);
      return;
    }
    packed.visit(piece.after_first, piece.key, piece.end - e, [&](graph::LocalId y) {
      candidate(y);
      return false;
    });
  };
  int lister = 0;
#pragma omp for schedule(dynamic, kPiecesPerChunk)
  for (int64_t k = first; k < end; ++k) {
    while (k >= first_piece[lister + 1]) ++lister;
    while (k < first_piece[lister]) --lister;
    expand(thread_pieces_[lister][k - first_piece[lister]]);
  }
  return examined;
}

void DistributedBfs::settle_candidates(bool last_round, util::PhaseProfile& profile) {
  const graph::Distribution& d = dist_;
  const auto& pieces = candidate_exchange_.deliver(profile);
  util::ScopedPhase timed(profile, util::Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_)
  {
    const int t = omp_get_thread_num();
    for (const auto& piece : pieces) {
      const uint64_t* records = piece.records;
      const int64_t count = static_cast<int64_t>(piece.count);
#pragma omp for schedule(static) nowait
      for (int64_t k = 0; k < count; ++k) {
        const graph::LocalId y = static_cast<graph::LocalId>(pair_.offset(records[k]));
        if (visited_.test_and_set_atomic(y))
          discover(t, y,
                   d.global_from_row_local(static_cast<int64_t>(pair_.id(records[k])), source_row_[piece.source]));
      }
    }
    if (last_round) record_discoveries(t);
  }
}

}  // namespace g500::bfs
