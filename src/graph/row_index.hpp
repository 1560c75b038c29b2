// Where each row's neighbours start in LocalGraph::neighbors: plain CSR row-starts, or the
// bitmap-based CSR of Nakao et al. 2021, section 4.1 (BCSR, switch `bcsr`).
//
// Plain CSR keeps one start per row of the row set, C*B of them, most of them repeating because
// with a 2D partitioning most rows of a process's block are empty. BCSR keeps
//  - a bitmap with one bit per row, set when the row has at least one edge,
//  - counts of the set bits before each word (`offset` in Fig. 4; here graph/present_index.hpp's
//    rank9 layout, a count per 512 rows and 9-bit counts per word),
//  - the starts of the non-empty rows only.
// Row v starts at starts[rank(v)] with rank(v) = the count before v's word + popcount of the bits
// below v in its word; an empty row gets the empty range at the next non-empty row's start.
#pragma once
#include <omp.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "graph/present_index.hpp"
#include "util/bitmap.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

class RowIndex {
 public:
  RowIndex() = default;
  // From plain CSR starts (nrows + 1 entries); compressed keeps only BCSR's arrays.
  RowIndex(util::LargeArray<int64_t> plain_starts, bool compressed);
  // From the length of every row, length_of(v) for v in [0, nrows), in parallel and without plain
  // starts in between when compressed.
  template <class LengthOf>
  static RowIndex from_lengths(int64_t nrows, LengthOf length_of, bool compressed);

  bool compressed() const { return compressed_; }
  int64_t num_rows() const { return nrows_; }
  int64_t nonempty_rows() const { return compressed_ ? nonempty_.present() : 0; }
  // Row slots: the rows that have a start (the non-empty ones with BCSR, every row with plain CSR).
  int64_t num_slots() const { return compressed_ ? nonempty_rows() : nrows_; }
  int64_t num_entries() const { return starts_.empty() ? 0 : starts_.back(); }
  // The non-empty rows and their counts (compressed only).
  const PresentIndex& nonempty() const { return nonempty_; }
  int64_t begin(int64_t v) const { return compressed_ ? starts_[rank(v)] : starts_[v]; }
  int64_t end(int64_t v) const {
    return compressed_ ? starts_[rank(v) + static_cast<int64_t>(nonempty_.contains(v))] : starts_[v + 1];
  }
  struct Extent {
    int64_t begin, end;
    int64_t slot;  // the row's slot (meaningful when the row is not empty)
  };
  // Row v's range in the neighbour array (one rank computation for both ends).
  Extent extent(int64_t v) const {
    if (!compressed_) return Extent{starts_[v], starts_[v + 1], v};
    const int64_t r = rank(v);
    return Extent{starts_[r], starts_[r + static_cast<int64_t>(nonempty_.contains(v))], r};
  }
  // Position of row v among the non-empty rows (compressed only).
  int64_t rank(int64_t v) const { return nonempty_.slot(v); }
  // Direct access for hot loops.
  const int64_t* starts() const { return starts_.data(); }

  struct Memory {
    size_t row_starts, bitmap, offsets;  // bytes as stored
    size_t plain_csr_row_starts;         // what plain CSR row-starts need
  };
  Memory memory() const;

 private:
  bool compressed_ = false;
  int64_t nrows_ = 0;
  PresentIndex nonempty_;  // compressed only
  util::LargeArray<int64_t> starts_;
};

template <class LengthOf>
RowIndex RowIndex::from_lengths(int64_t nrows, LengthOf length_of, bool compressed) {
  RowIndex index;
  index.compressed_ = compressed;
  index.nrows_ = nrows;
  index.nonempty_ = PresentIndex::none_of(compressed ? nrows : 0);
  const int64_t words = util::words_for_bits(nrows);
  const int threads = omp_get_max_threads();
  // Thread t takes the words [words t / T, words (t + 1) / T): first its rows' bits and totals,
  // then, from the totals of the threads before it, its words' offsets and its rows' starts.
  std::vector<int64_t> slots(threads + 1, 0), entries(threads + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const int64_t first_word = words * t / threads, end_word = words * (t + 1) / threads;
    const int64_t first_row = first_word * util::kBitsPerWord, end_row = std::min(nrows, end_word * util::kBitsPerWord);
    int64_t my_slots = 0, my_entries = 0;
    for (int64_t w = first_word; w < end_word; ++w) {
      uint64_t word = 0;
      for (int64_t v = w * util::kBitsPerWord; v < std::min(nrows, (w + 1) * util::kBitsPerWord); ++v) {
        const int64_t n = length_of(v);
        word |= static_cast<uint64_t>(n > 0) << (v % util::kBitsPerWord);
        my_entries += n;
      }
      if (compressed) index.nonempty_.set_bits(w, word);
      my_slots += std::popcount(word);
    }
    slots[t + 1] = compressed ? my_slots : end_row - first_row;
    entries[t + 1] = my_entries;
#pragma omp barrier
#pragma omp single
    {
      for (int s = 0; s < threads; ++s) {
        slots[s + 1] += slots[s];
        entries[s + 1] += entries[s];
      }
      index.starts_.resize(static_cast<size_t>(slots[threads] + 1));  // unwritten: written below
      index.starts_[slots[threads]] = entries[threads];
    }
    int64_t at = entries[t];
    int64_t* starts = index.starts_.data();
    for (int64_t v = first_row, slot = slots[t]; v < end_row; ++v) {
      const int64_t n = length_of(v);
      if (!compressed || n > 0) starts[slot++] = at;
      at += n;
    }
  }
  if (compressed) index.nonempty_.count_all();
  return index;
}

}  // namespace g500::graph
