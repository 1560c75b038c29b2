// Row lengths kept whole or for the rows met (graph/row_lengths.hpp).
#include "graph/row_lengths.hpp"

#include <bit>

#include "graph/grid.hpp"
#include "graph/set_map.hpp"

namespace g500::graph {

util::Bitmap RowLengths::rows_met() const {
  if (!is_whole_) return index_.bitmap();
  util::Bitmap met(size_);
  uint64_t* words = met.data();
#pragma omp parallel for schedule(static)
  for (int64_t w = 0; w < met.num_words(); ++w) {  // a word's 64 rows in one thread: no shared words
    uint64_t bits = 0;
    for (int64_t x = w * util::kBitsPerWord; x < std::min(size_, (w + 1) * util::kBitsPerWord); ++x)
      if (whole_[x] > 0) bits |= uint64_t{1} << (x % util::kBitsPerWord);
    words[w] = bits;
  }
  return met;
}

RowLengths RowLengths::renumbered(const LocalId* owned_new, const Distribution& d, const ProcessGrid& grid) && {
  const int64_t B = d.block;
  if (is_whole_) {  // in place, a block at a time
    std::vector<int64_t> block(static_cast<size_t>(B));
    for_each_block_table(owned_new, VertexSet::kRows, d, grid, [&](int position, const LocalId* table) {
      int64_t* here = whole_.data() + position * B;
      std::copy_n(here, B, block.data());
#pragma omp parallel for schedule(static)
      for (int64_t o = 0; o < B; ++o) here[table[o]] = block[o];
    });
    return std::move(*this);
  }
  // The blocks are whole words (B is a multiple of 64) and come in order: once a block's rows are
  // marked, its words are final and can be counted, and its rows' counts placed.
  RowLengths out;
  out.size_ = size_;
  out.index_ = PresentIndex::none_of(size_);
  out.counts_.resize(counts_.size());
  for_each_block_table(owned_new, VertexSet::kRows, d, grid, [&](int position, const LocalId* table) {
    const int64_t first = position * B, first_word = first / util::kBitsPerWord,
                  end_word = (first + B) / util::kBitsPerWord;
    auto each_row_met = [&](auto visit) {
#pragma omp parallel for schedule(static)
      for (int64_t w = first_word; w < end_word; ++w) {
        int64_t at = static_cast<int64_t>(index_.count(w));
        for (uint64_t bits = index_.bits(w); bits != 0; bits &= bits - 1, ++at) {
          const int64_t x = w * util::kBitsPerWord + std::countr_zero(bits);
          visit(first + table[x - first], at);
        }
      }
    };
    each_row_met([&](int64_t renumbered, int64_t) { out.index_.mark_atomic(renumbered); });
    out.index_.count_from(first_word, end_word);
    each_row_met([&](int64_t renumbered, int64_t at) { out.counts_[out.index_.slot(renumbered)] = counts_[at]; });
  });
  return out;
}

}  // namespace g500::graph
