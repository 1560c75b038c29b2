// Where each row's neighbours start in LocalGraph::neighbors: plain CSR row-starts, or the
// bitmap-based CSR of Nakao et al. 2021, section 4.1 (BCSR, switch `bcsr`).
//
// Plain CSR keeps one start per row of the row set, C*B of them, most of them repeating because
// with a 2D partitioning most rows of a process's block are empty. BCSR keeps
//  - a bitmap with one bit per row, set when the row has at least one edge,
//  - counts of the set bits before each word (`offset` in Fig. 4; here graph/present_index.hpp's
//    rank9 layout, a count per 512 rows and 9-bit counts per word),
//  - the starts of the non-empty rows only (graph/slot_starts.hpp: 16 bits each and two words per 64).
// Row v starts at starts[rank(v)] with rank(v) = the count before v's word + popcount of the bits
// below v in its word; an empty row gets the empty range at the next non-empty row's start.
//
// The bitmap is N/R bits, 2 GiB per process at SCALE 42 on 256 x 256, where a process's entries
// meet about one row in fifty. Where they meet few, the non-empty rows are kept instead as their
// offsets in buckets of 256 rows (graph/sparse_present_index.hpp, a byte per non-empty row): the
// same ranks, a word of the bitmap made from its bucket when the bottom-up scan asks for it
// (`buckets`, chosen where it is the smaller, as the plan chooses).
#pragma once
#include <omp.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "graph/present_index.hpp"
#include "graph/slot_starts.hpp"
#include "graph/sparse_present_index.hpp"
#include "util/bitmap.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

// How BCSR keeps its non-empty rows: the smaller of the two (the plan's rule), or, for tests, one.
enum class BcsrRows { kSmaller, kBitmap, kBuckets };

class RowIndex {
 public:
  RowIndex() = default;
  // From plain CSR starts (nrows + 1 entries); compressed keeps only BCSR's arrays.
  RowIndex(util::LargeArray<int64_t> plain_starts, bool compressed, BcsrRows kept = BcsrRows::kBitmap);
  // From the length of every row, length_of(v) for v in [0, nrows), in parallel and without plain
  // starts in between when compressed.
  template <class LengthOf>
  static RowIndex from_lengths(int64_t nrows, LengthOf length_of, bool compressed, BcsrRows kept = BcsrRows::kSmaller);

  bool compressed() const { return compressed_; }
  // BCSR with its non-empty rows kept in buckets (else as a bitmap, when compressed).
  bool bucketed() const { return bucketed_; }
  int64_t num_rows() const { return nrows_; }
  int64_t nonempty_rows() const {
    return !compressed_ ? 0 : bucketed_ ? bucketed_rows_.present() : nonempty_.present();
  }
  // Row slots: the rows that have a start (the non-empty ones with BCSR, every row with plain CSR).
  int64_t num_slots() const { return compressed_ ? nonempty_rows() : nrows_; }
  int64_t num_entries() const {
    if (compressed_) return slot_starts_.empty() ? 0 : slot_starts_.back();
    return starts_.empty() ? 0 : starts_.back();
  }
  // The non-empty rows and their counts (compressed only): as a bitmap, or in buckets.
  const PresentIndex& nonempty() const { return nonempty_; }
  const SparsePresentIndex& nonempty_buckets() const { return bucketed_rows_; }
  int64_t begin(int64_t v) const { return extent(v).begin; }
  int64_t end(int64_t v) const { return extent(v).end; }
  struct Extent {
    int64_t begin, end;
    int64_t slot;  // the row's slot (meaningful when the row is not empty)
  };
  // Row v's range in the neighbour array (one rank computation for both ends).
  Extent extent(int64_t v) const {
    if (!compressed_) return Extent{starts_[v], starts_[v + 1], v};
    const int64_t r = rank(v);
    return Extent{slot_starts_[r], slot_starts_[r + static_cast<int64_t>(contains(v))], r};
  }
  // Position of row v among the non-empty rows (compressed only).
  int64_t rank(int64_t v) const { return bucketed_ ? bucketed_rows_.slot(v) : nonempty_.slot(v); }
  // Whether row v has edges (compressed only).
  bool contains(int64_t v) const { return bucketed_ ? bucketed_rows_.contains(v) : nonempty_.contains(v); }
  // Where slot s starts (s = num_slots(): the end).
  int64_t slot_start(int64_t s) const { return compressed_ ? slot_starts_[s] : starts_[s]; }
  // Direct access for hot loops: plain CSR's starts (nullptr under BCSR), BCSR's.
  const int64_t* plain_starts() const { return compressed_ ? nullptr : starts_.data(); }
  const SlotStarts& slot_starts() const { return slot_starts_; }

  struct Memory {
    // Bytes as stored; bucketed: `bitmap` holds the buckets' counts and `offsets` the rows' offsets.
    size_t row_starts, bitmap, offsets;
    size_t plain_csr_row_starts;  // what plain CSR row-starts need
    bool bucketed;
  };
  Memory memory() const;

 private:
  template <class LengthOf>
  static RowIndex bucketed_from_lengths(int64_t nrows, LengthOf length_of);

  bool compressed_ = false, bucketed_ = false;
  int64_t nrows_ = 0;
  PresentIndex nonempty_;             // compressed, not bucketed
  SparsePresentIndex bucketed_rows_;  // bucketed
  util::LargeArray<int64_t> starts_;  // plain CSR
  SlotStarts slot_starts_;            // BCSR
};

// Whether the rows of word w (rows 64 w ..) have edges, from length_of.
template <class LengthOf>
uint64_t nonempty_word(int64_t nrows, int64_t w, LengthOf& length_of) {
  uint64_t word = 0;
  for (int64_t v = w * util::kBitsPerWord; v < std::min(nrows, (w + 1) * util::kBitsPerWord); ++v)
    word |= static_cast<uint64_t>(length_of(v) > 0) << (v % util::kBitsPerWord);
  return word;
}

template <class LengthOf>
RowIndex RowIndex::bucketed_from_lengths(int64_t nrows, LengthOf length_of) {
  RowIndex index;
  index.compressed_ = index.bucketed_ = true;
  index.nrows_ = nrows;
  index.bucketed_rows_ =
      SparsePresentIndex::from_words(nrows, [&](int64_t w) { return nonempty_word(nrows, w, length_of); });
  const SparsePresentIndex& rows = index.bucketed_rows_;
  const int64_t slots = rows.present(), buckets = rows.buckets();
  SlotStarts& starts = index.slot_starts_;
  starts.resize(slots + 1);  // unwritten: written below
  // The entries of a thread's buckets, then each slot's start from the sum before it.
  const int threads = omp_get_max_threads();
  std::vector<int64_t> entries(threads + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const int64_t first = buckets * t / threads, end = buckets * (t + 1) / threads;
    int64_t mine = 0;
    for (int64_t b = first; b < end; ++b)
      for (int64_t s = rows.begin(b); s < rows.begin(b + 1); ++s) mine += length_of(rows.vertex(b, s));
    entries[t + 1] = mine;
#pragma omp barrier
    int64_t at = 0;
    for (int s = 0; s <= t; ++s) at += entries[s];
    for (int64_t b = first; b < end; ++b)
      for (int64_t s = rows.begin(b); s < rows.begin(b + 1); ++s) {
        const int64_t n = length_of(rows.vertex(b, s));
        starts.set(s, at, n);
        at += n;
      }
    if (t == threads - 1) starts.set(slots, at, 0);
  }
  starts.finish();
  return index;
}

template <class LengthOf>
RowIndex RowIndex::from_lengths(int64_t nrows, LengthOf length_of, bool compressed, BcsrRows kept) {
  if (compressed && kept == BcsrRows::kSmaller) {
    const int64_t words = util::words_for_bits(nrows);
    int64_t nonempty = 0;
#pragma omp parallel for schedule(static) reduction(+ : nonempty)
    for (int64_t w = 0; w < words; ++w) nonempty += std::popcount(nonempty_word(nrows, w, length_of));
    kept = sparse_index_smaller(static_cast<double>(nonempty), static_cast<double>(nrows)) ? BcsrRows::kBuckets
                                                                                           : BcsrRows::kBitmap;
  }
  if (compressed && kept == BcsrRows::kBuckets) return bucketed_from_lengths(nrows, length_of);
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
      // unwritten: written below
      if (compressed) {
        index.slot_starts_.resize(slots[threads] + 1);
        index.slot_starts_.set(slots[threads], entries[threads], 0);
      } else {
        index.starts_.resize(static_cast<size_t>(slots[threads] + 1));
        index.starts_[slots[threads]] = entries[threads];
      }
    }
    int64_t at = entries[t];
    int64_t* starts = index.starts_.data();
    for (int64_t v = first_row, slot = slots[t]; v < end_row; ++v) {
      const int64_t n = length_of(v);
      if (!compressed)
        starts[slot++] = at;
      else if (n > 0)
        index.slot_starts_.set(slot++, at, n);
      at += n;
    }
  }
  if (compressed) index.slot_starts_.finish();
  if (compressed) index.nonempty_.count_all();
  return index;
}

}  // namespace g500::graph
