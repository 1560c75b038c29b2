// Row starts as plain CSR or BCSR (graph/row_index.hpp).
#include "graph/row_index.hpp"

namespace g500::graph {

RowIndex::RowIndex(util::LargeArray<int64_t> plain_starts, bool compressed)
    : compressed_(compressed), nrows_(static_cast<int64_t>(plain_starts.size()) - 1) {
  if (!compressed) {
    starts_ = std::move(plain_starts);
    return;
  }
  nonempty_ = PresentIndex::none_of(nrows_);
  for (int64_t v = 0; v < nrows_; ++v)
    if (plain_starts[v + 1] > plain_starts[v]) nonempty_.mark_atomic(v);
  nonempty_.count_all();
  starts_.reserve(static_cast<size_t>(nonempty_.present() + 1));
  for (int64_t v = 0; v < nrows_; ++v)
    if (nonempty_.contains(v)) starts_.push_back(plain_starts[v]);
  starts_.push_back(plain_starts[nrows_]);
}

RowIndex::Memory RowIndex::memory() const {
  Memory m{};
  m.row_starts = starts_.size() * sizeof(int64_t);
  m.bitmap = nonempty_.bits_bytes();
  m.offsets = nonempty_.counts_bytes();
  m.plain_csr_row_starts = static_cast<size_t>(nrows_ + 1) * sizeof(int64_t);
  return m;
}

}  // namespace g500::graph
