// Row starts as plain CSR or BCSR (graph/row_index.hpp).
#include "graph/row_index.hpp"

namespace g500::graph {

RowIndex::RowIndex(util::LargeArray<int64_t> plain_starts, bool compressed, BcsrRows kept)
    : compressed_(compressed), nrows_(static_cast<int64_t>(plain_starts.size()) - 1) {
  if (!compressed) {
    starts_ = std::move(plain_starts);
    return;
  }
  if (kept != BcsrRows::kBitmap) {
    *this = from_lengths(
        nrows_, [&](int64_t v) { return plain_starts[v + 1] - plain_starts[v]; }, true, kept);
    return;
  }
  nonempty_ = PresentIndex::none_of(nrows_);
  for (int64_t v = 0; v < nrows_; ++v)
    if (plain_starts[v + 1] > plain_starts[v]) nonempty_.mark_atomic(v);
  nonempty_.count_all();
  slot_starts_.resize(nonempty_.present() + 1);
  int64_t slot = 0;
  for (int64_t v = 0; v < nrows_; ++v)
    if (nonempty_.contains(v)) slot_starts_.set(slot++, plain_starts[v], plain_starts[v + 1] - plain_starts[v]);
  slot_starts_.set(slot, plain_starts[nrows_], 0);
  slot_starts_.finish();
}

RowIndex::Memory RowIndex::memory() const {
  Memory m{};
  m.row_starts = compressed_ ? slot_starts_.memory_bytes() : starts_.size() * sizeof(int64_t);
  m.bucketed = bucketed_;
  if (bucketed_) {
    m.offsets = static_cast<size_t>(bucketed_rows_.present());
    m.bitmap = bucketed_rows_.memory_bytes() - m.offsets;
  } else {
    m.bitmap = nonempty_.bits_bytes();
    m.offsets = nonempty_.counts_bytes();
  }
  m.plain_csr_row_starts = static_cast<size_t>(nrows_ + 1) * sizeof(int64_t);
  return m;
}

}  // namespace g500::graph
