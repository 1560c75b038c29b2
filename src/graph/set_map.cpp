// Maps of a row or column set made a block at a time (graph/set_map.hpp).
#include "graph/set_map.hpp"

#include <algorithm>
#include <bit>

#include "comm/typed.hpp"
#include "graph/column_blocks.hpp"
#include "graph/grid.hpp"

namespace g500::graph {

SetMap SetMap::from_blocks(const util::Bitmap& present, const LocalId* owned, VertexSet set, const Distribution& d,
                           const ProcessGrid& grid, BlockValue value) {
  const int64_t B = d.block;
  SetMap m;
  if (!keep_present_only(static_cast<double>(present.count()), static_cast<double>(present.size()))) {
    util::LargeArray<LocalId> all;  // read at random by kernel 1 (columns): huge pages spare a page walk per lookup
    util::resize_huge_unwritten(all, static_cast<size_t>(present.size()));
    for_each_block_table(owned, set, d, grid, [&](int position, const LocalId* table) {
      LocalId* out = all.data() + static_cast<int64_t>(position) * B;
#pragma omp parallel for schedule(static)
      for (int64_t offset = 0; offset < B; ++offset) out[offset] = value.of(position, table[offset]);
    });
    m.table_ = IdTable(std::move(all));
    m.whole_ = m.table_.data();
    return m;
  }
  const int64_t in_use = present.count();
  m.sparse_ = sparse_index_smaller(static_cast<double>(in_use), static_cast<double>(present.size()));
  if (m.sparse_)
    m.sparse_index_ = SparsePresentIndex(present);
  else
    m.index_ = PresentIndex(present);
  m.values_.assign_zeros(in_use, B);
  m.value_ = value;
  m.by_block_ = d.by_block;
  auto store = [&](int64_t at, int position, LocalId entry) {
    if constexpr (kWideIds)
      m.values_.set(at, static_cast<InBlockId>(entry));  // an offset inside the block; u gives the position
    else
      m.values_.set(at, value.of(position, entry));
  };
  for_each_block_table(owned, set, d, grid, [&](int position, const LocalId* table) {
    const int64_t first = static_cast<int64_t>(position) * B, end = first + B;
    if (m.sparse_) {
      const SparsePresentIndex& index = m.sparse_index_;
      const int64_t first_bucket = first / SparsePresentIndex::kBucket,
                    end_bucket = std::min(index.buckets(),
                                          (end + SparsePresentIndex::kBucket - 1) / SparsePresentIndex::kBucket);
#pragma omp parallel for schedule(static)
      for (int64_t b = first_bucket; b < end_bucket; ++b)
        for (int64_t at = index.begin(b); at < index.begin(b + 1); ++at) {
          const int64_t u = index.vertex(b, at);
          if (u >= first && u < end) store(at, position, table[u - first]);
        }
      return;
    }
    const int64_t first_word = first / util::kBitsPerWord,
                  end_word = (end + util::kBitsPerWord - 1) / util::kBitsPerWord;
#pragma omp parallel for schedule(static)
    for (int64_t w = first_word; w < end_word; ++w) {
      int64_t at = static_cast<int64_t>(m.index_.count(w));
      for (uint64_t bits = m.index_.bits(w); bits != 0; bits &= bits - 1, ++at) {
        const int64_t u = w * util::kBitsPerWord + std::countr_zero(bits);
        if (u < first || u >= end) continue;
        store(at, position, table[u - first]);
      }
    }
  });
  return m;
}

void for_each_block_table(const LocalId* owned, VertexSet set, const Distribution& d, const ProcessGrid& grid,
                          const std::function<void(int, const LocalId*)>& f) {
  // The row set of grid row i is the blocks of P(i, 0..C-1) by grid column, the column set of grid
  // column j the blocks hosted by P(0..R-1, j) by grid row: the communicators' rank orders. With
  // the row-major layout a hosted block first comes from its owner (a transpose).
  util::LargeArray<LocalId> hosted(static_cast<size_t>(set == VertexSet::kColumns ? d.block : 0)),
      buffer(static_cast<size_t>(d.block));
  const void* mine = set == VertexSet::kColumns
                         ? hosted_column_block(owned, hosted.data(), d.block, local_id_datatype(), d, grid)
                         : owned;
  const int positions = set == VertexSet::kColumns ? d.R : d.C, here = set == VertexSet::kColumns ? d.row : d.col;
  const comm::Communicator grid_line(set == VertexSet::kColumns ? grid.col_comm() : grid.row_comm(), grid.limits());
  for (int position = 0; position < positions; ++position) {
    if (position == here) std::copy_n(static_cast<const LocalId*>(mine), d.block, buffer.data());
    grid_line.broadcast(buffer, position);
    f(position, buffer.data());
  }
}

}  // namespace g500::graph
