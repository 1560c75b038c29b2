// The entries of every row of a process's row set (C blocks of B rows: N/R), as kernel 1's first
// pass counts them (graph/build_graph.cpp): the owned degrees, the renumbering and the row index
// are made from them.
//
// A word per row of the set grows as sqrt(P) at fixed work per process: 29.7 GiB per process at
// SCALE 41 on 552 x 288, nearly all of kernel 1's peak. A process's entries meet at most m/P of
// those rows, so on such grids pass 1 keeps the rows of the entries it does not keep (a few bytes
// each: their offset in a bucket of rows, graph/row_buckets.hpp), and the lengths are counted
// from them a bucket at a time, in cache, and kept for the rows met only: a PresentIndex (1.25 bits
// per row of the set) and 4 bytes per row met. Where rows are few beside the entries (small grids,
// one process) a word per row is smaller, and counting in place saves storing the rows.
#pragma once
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/present_index.hpp"
#include "util/bitmap.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

class ProcessGrid;

// How kernel 1 counts the rows: as the sizes say (kAuto), or, to test both ways, always a word per
// row, or always the rows met (on a grid of one column the row set is the owned block: a word per row).
enum class RowCounting { kAuto, kWhole, kRowsMet };

// The rule, kernel 1's and its memory plan's (graph/memory_plan.hpp, lengths_of_rows_met): the
// rows met only when the rows pass 1 stores (`stored_bytes` each, at most one per entry), their
// index and a count per row met (`rows_met` expected, at most one per entry) take less than a word
// per row, and the counts fit 32 bits. The last bucket of the row ids stays free: kernel 1
// marks an entry it does not store with a row there.
inline bool count_rows_met_only(RowCounting choice, double rows, double entries, double rows_met, int stored_bytes,
                                int grid_cols) {
  const double kMostRows = std::ldexp(1.0, kLocalIdBits) - std::ldexp(1.0, 16);  // buckets of up to 2^16 rows
  if (grid_cols == 1 || choice == RowCounting::kWhole || rows >= kMostRows) return false;
  if (choice == RowCounting::kRowsMet) return true;
  constexpr double kIndexBytesPerRow = 2.0 / 8, kCountBytes = sizeof(uint32_t), kWordBytes = sizeof(int64_t);
  rows_met = std::min({rows_met, rows, entries});
  const bool counts_fit = entries < static_cast<double>(std::numeric_limits<uint32_t>::max());
  return counts_fit && entries * stored_bytes + rows * kIndexBytesPerRow + rows_met * kCountBytes < rows * kWordBytes;
}

class RowLengths {
 public:
  RowLengths() = default;
  // A word per row.
  static RowLengths whole(std::vector<int64_t> lengths) {
    RowLengths l;
    l.size_ = static_cast<int64_t>(lengths.size());
    l.whole_ = std::move(lengths);
    l.is_whole_ = true;
    return l;
  }
  // The rows met only, counted a bucket of 2^shift rows at a time: count_bucket(b, counts) adds
  // the entries of rows b 2^shift + r to counts[r] (called twice per bucket, in parallel).
  template <class CountBucket>
  static RowLengths of_rows_met(int64_t nrows, int shift, CountBucket count_bucket);

  bool is_whole() const { return is_whole_; }
  int64_t size() const { return size_; }
  int64_t operator[](int64_t x) const {
    if (is_whole_) return whole_[x];
    return index_.contains(x) ? static_cast<int64_t>(counts_[index_.slot(x)]) : 0;
  }
  // f(row, length) for every row met, in order (rows met only).
  template <class F>
  void for_each_row_met(F f) const {
    for (int64_t w = 0, at = 0; w < index_.words(); ++w)
      for (uint64_t bits = index_.bits(w); bits != 0; bits &= bits - 1, ++at)
        f(w * util::kBitsPerWord + std::countr_zero(bits), counts_[at]);
  }
  // A word per row (is_whole() only): moved out, leaving no rows.
  std::vector<int64_t> take_whole() {
    size_ = 0;
    return std::move(whole_);
  }
  const int64_t* whole_data() const { return whole_.data(); }
  // The rows with entries.
  util::Bitmap rows_met() const;
  // Collective over the grid row: the lengths in the graph's order, the rows of each block of the
  // row set permuted by its owner's owned_new (graph/renumbering.hpp), a block at a time.
  RowLengths renumbered(const LocalId* owned_new, const Distribution& d, const ProcessGrid& grid) &&;

 private:
  bool is_whole_ = false;
  int64_t size_ = 0;
  std::vector<int64_t> whole_;
  PresentIndex index_;
  util::LargeArray<uint32_t> counts_;  // of the rows met, in the index's order
};

template <class CountBucket>
RowLengths RowLengths::of_rows_met(int64_t nrows, int shift, CountBucket count_bucket) {
  RowLengths l;
  l.size_ = nrows;
  l.index_ = PresentIndex::none_of(nrows);
  const int64_t per_bucket = int64_t{1} << shift, buckets = (nrows + per_bucket - 1) >> shift;
  std::atomic<bool> too_long{false};
  // visit(row, length) for every row with entries, a bucket at a time.
  auto each_row_met = [&](auto visit) {
#pragma omp parallel
    {
      std::vector<int64_t> counts(static_cast<size_t>(per_bucket));
#pragma omp for schedule(dynamic, 8)
      for (int64_t b = 0; b < buckets; ++b) {
        std::fill(counts.begin(), counts.end(), 0);
        count_bucket(b, counts.data());
        const int64_t first = b << shift, n = std::min(per_bucket, nrows - first);
        for (int64_t r = 0; r < n; ++r)
          if (counts[r] > 0) visit(first + r, counts[r]);
      }
    }
  };
  each_row_met([&](int64_t x, int64_t) { l.index_.mark_atomic(x); });
  l.index_.count_from(0);
  l.counts_.resize(static_cast<size_t>(l.index_.present()));
  each_row_met([&](int64_t x, int64_t n) {
    if (n > std::numeric_limits<uint32_t>::max()) too_long.store(true, std::memory_order_relaxed);
    l.counts_[l.index_.slot(x)] = static_cast<uint32_t>(n);
  });
  if (too_long.load()) throw std::length_error("kernel 1: a row with 2^32 entries or more on one process");
  return l;
}

}  // namespace g500::graph
