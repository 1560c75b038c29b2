#include "graph/row_index.hpp"

namespace g500 {

RowIndex::RowIndex(LargeArray<int64_t> plain_starts, bool compressed)
    : compressed_(compressed), nrows_(static_cast<int64_t>(plain_starts.size()) - 1), has_edges_(nrows_) {
  for (int64_t v = 0; v < nrows_; ++v)
    if (plain_starts[v + 1] > plain_starts[v]) has_edges_.set(v);
  if (!compressed) {
    starts_ = std::move(plain_starts);
    return;
  }
  word_offsets_.resize(has_edges_.num_words() + 1);
  int64_t nonempty = 0;
  for (int64_t w = 0; w < has_edges_.num_words(); ++w) {
    word_offsets_[w] = nonempty;
    nonempty += std::popcount(has_edges_.data()[w]);
  }
  word_offsets_[has_edges_.num_words()] = nonempty;
  starts_.reserve(nonempty + 1);
  for (int64_t v = 0; v < nrows_; ++v)
    if (has_edges_.test(v)) starts_.push_back(plain_starts[v]);
  starts_.push_back(plain_starts[nrows_]);
}

RowIndex::Memory RowIndex::memory() const {
  Memory m{};
  m.row_starts = starts_.size() * sizeof(int64_t);
  m.bitmap = static_cast<size_t>(has_edges_.num_words()) * sizeof(uint64_t);
  m.offsets = word_offsets_.size() * sizeof(int64_t);
  m.plain_csr_row_starts = static_cast<size_t>(nrows_ + 1) * sizeof(int64_t);
  return m;
}

}  // namespace g500
