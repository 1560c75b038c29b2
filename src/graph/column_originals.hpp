// The original column-local ids of the columns a process's block has entries in.
//
// A search writes a parent found through a column in its original id. A table for the whole
// column set is a word per vertex of N/C, which grows as sqrt(P) at fixed work per process (7.6
// billion entries at SCALE 41 on 552 x 288). The block's entries touch at most m/P columns, so the
// ids are kept for those only and found as BCSR finds its rows (Nakao et al. 2021, section 4.1):
// a bit per column-set vertex, the count of set bits before each 64-bit word, and the ids of the
// present columns in order. The lookup then reads three arrays where the whole table reads one
// (8 % of the bottom-up scan at SCALE 20 on 2 x 1), so the whole table stays where it is not much
// larger: on a grid of one row (it is the owned block's, Renumbering::owned_original) and where
// the columns in use are most of the column set (few processes).
#pragma once
#include <omp.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "graph/distribution.hpp"
#include "util/bitmap.hpp"
#include "util/large_array.hpp"

namespace g500 {

// The ids of the columns in use only when they and their index take at most half the whole table
// (4 bytes per column-set vertex), the plan's rule as kernel 1's.
inline bool keep_columns_in_use_only(double columns_in_use, double column_set) {
  constexpr double kIndexBytesPerColumn = 1.0 / 8 + 1.0 / 8;  // a bit, and a 64-bit offset per 64
  constexpr double kMostShareOfWhole = 0.5;
  return columns_in_use * sizeof(LocalId) + column_set * kIndexBytesPerColumn <=
         kMostShareOfWhole * column_set * sizeof(LocalId);
}

class ColumnOriginals {
 public:
  ColumnOriginals() = default;
  // The whole column set's table, shared (not copied).
  static ColumnOriginals whole(const LocalId* table) {
    ColumnOriginals c;
    c.whole_ = table;
    return c;
  }
  // The columns marked in `present` (a bit per column-set vertex), their ids from `table`.
  static ColumnOriginals of_present(Bitmap present, const LocalId* table);

  bool empty() const { return whole_ == nullptr && ids_.empty(); }
  LocalId operator[](LocalId u) const {
    if (whole_) return whole_[u];
    const int64_t w = u / kBitsPerWord;
    const uint64_t below = (uint64_t{1} << (u % kBitsPerWord)) - 1;
    return ids_[word_offsets_[w] + std::popcount(present_.data()[w] & below)];
  }
  int64_t present_columns() const { return static_cast<int64_t>(ids_.size()); }
  // Bytes held (none for a shared whole table).
  size_t memory_bytes() const {
    return whole_ ? 0
                  : static_cast<size_t>(present_.num_words()) * sizeof(uint64_t) + word_offsets_.size() * sizeof(int64_t) +
                        ids_.size() * sizeof(LocalId);
  }

 private:
  const LocalId* whole_ = nullptr;
  Bitmap present_;
  std::vector<int64_t> word_offsets_;
  LargeArray<LocalId> ids_;
};

inline ColumnOriginals ColumnOriginals::of_present(Bitmap present, const LocalId* table) {
  ColumnOriginals c;
  const int64_t words = present.num_words();
  c.word_offsets_.resize(static_cast<size_t>(words) + 1);
  int64_t count = 0;
  for (int64_t w = 0; w < words; ++w) {
    c.word_offsets_[w] = count;
    count += std::popcount(present.data()[w]);
  }
  c.word_offsets_[words] = count;
  c.ids_.resize(static_cast<size_t>(count));
  LocalId* ids = c.ids_.data();
  const uint64_t* bits = present.data();
  const int64_t* offsets = c.word_offsets_.data();
#pragma omp parallel for schedule(static)
  for (int64_t w = 0; w < words; ++w) {
    int64_t at = offsets[w];
    for (uint64_t word = bits[w]; word != 0; word &= word - 1) ids[at++] = table[w * kBitsPerWord + std::countr_zero(word)];
  }
  c.present_ = std::move(present);
  return c;
}

struct LocalGraph;
class ProcessGrid;
// End of kernel 1 with `reorder`: the graph's ColumnOriginals, of the columns its entries use when
// the grid has several rows (collective over the grid column: the column set's table is gathered
// for the moment it takes).
void make_column_originals(LocalGraph& g, const ProcessGrid& grid);

}  // namespace g500
