// A value for each vertex of a process's row set (C blocks of B vertices) or column set (R blocks),
// kept for the vertices in use only where that is smaller: kernel 1's new id of each original row
// and sort key of each original column, a search's original id of each column.
//
// A table for the whole set is a word per vertex of N/R or N/C, which grows as sqrt(P) at fixed
// work per process (7.6 billion entries for the column set at SCALE 41 on 552 x 288). A block's
// entries touch at most m/P rows and columns, so the values are kept for those only, in the
// order of their index: rank9 (graph/present_index.hpp, 1.25 bits per vertex of the set) or, where fewer than about
// one in seven are present, bucketed offsets (graph/sparse_present_index.hpp, a byte per present vertex and 1/16 bit
// per vertex of the set), whichever is the smaller. A lookup then reads two arrays where the whole table reads one (8 %
// of the bottom-up scan at SCALE 20 on 2 x 1), so the whole table stays where it is not much larger: on a grid of one
// row (the column set is the owned block) and where the vertices in use are most of the set.
//
// The values come from the owners of the set's blocks: from_blocks takes one block's owned table
// at a time (a broadcast along the grid row or column), so no table of the whole set exists while
// a compact map is made. A value is the owner's table entry, an offset inside the block, with the
// block's position: kept for the vertices in use it is that offset alone (graph/in_block_id.hpp),
// the position coming from the vertex looked up.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>

#include "graph/distribution.hpp"
#include "graph/id_table.hpp"
#include "graph/in_block_id.hpp"
#include "graph/present_index.hpp"
#include "graph/sparse_present_index.hpp"
#include "util/bitmap.hpp"
#include "util/huge_pages.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

class ProcessGrid;

// Values for the vertices in use only when they and their index take at most half the whole
// table (a LocalId per vertex of the set), the plan's rule as kernel 1's.
inline bool keep_present_only(double in_use, double set_size) {
  constexpr double kMostShareOfWhole = 0.5;
  return in_use * sizeof(InBlockId) + present_index_bytes(in_use, set_size).total() <=
         kMostShareOfWhole * set_size * sizeof(LocalId);
}

enum class VertexSet { kRows, kColumns };

// The value of a vertex at block `position` of its set whose owner's table holds `entry` at the
// vertex's offset: entry * scale + position * position_scale. An id of the set is (1, B); kernel
// 1's interleaved sort key of a column (graph/column_keys.hpp) is (R, 1).
struct BlockValue {
  int64_t scale = 1, position_scale = 0;
  static BlockValue id(int64_t block) { return {1, block}; }
  LocalId of(int64_t position, LocalId entry) const {
    return static_cast<LocalId>(static_cast<int64_t>(entry) * scale + position * position_scale);
  }
};

// Collective over the grid row (row set) or column (column set): f(position, table) for every
// block position of the set in order, with the owned table (B entries, `owned` on each process)
// of the block's owner.
void for_each_block_table(const LocalId* owned, VertexSet set, const Distribution& d, const ProcessGrid& grid,
                          const std::function<void(int, const LocalId*)>& f);

class SetMap {
 public:
  SetMap() = default;
  // A table of every vertex of the set, shared (not copied).
  static SetMap whole(IdTable table) {
    SetMap m;
    m.table_ = std::move(table);
    m.whole_ = m.table_.data();
    m.shared_ = true;
    return m;
  }
  // Collective over the grid row or column of `set`: the present vertices' values only where
  // keep_present_only says so, else a whole table; value.of(block position, owned[offset]) from
  // every process's `owned` table (B entries), a block at a time.
  static SetMap from_blocks(const util::Bitmap& present, const LocalId* owned, VertexSet set, const Distribution& d,
                            const ProcessGrid& grid, BlockValue value);

  bool empty() const { return table_.empty() && values_.empty(); }
  bool is_whole() const { return whole_ != nullptr; }
  const LocalId* whole_table() const { return whole_; }
  LocalId operator[](LocalId u) const { return whole_ ? whole_[u] : value_at(slot(u), u); }
  // The value of present vertex u, whose slot is known.
  LocalId value_at(int64_t slot, LocalId u) const {
    if constexpr (kWideIds)
      return value_.of(static_cast<int64_t>(by_block_.divide(u)), values_[slot]);
    else
      return values_[slot];  // the value itself fits the 32 bits
  }
  bool contains(LocalId u) const { return is_whole() || (sparse_ ? sparse_index_.contains(u) : index_.contains(u)); }
  // The place of present vertex u among the present ones.
  int64_t slot(LocalId u) const { return sparse_ ? sparse_index_.slot(u) : index_.slot(u); }
  // Fetches what a lookup of u reads into the cache ahead of use.
  void prefetch(LocalId u) const {
    if (whole_)
      __builtin_prefetch(&whole_[u]);
    else if (sparse_)
      sparse_index_.prefetch(u);
    else
      index_.prefetch(u);
  }
  // The stored value of each present vertex, in order (for prefetching).
  InBlockIdsView values() const { return values_.view(); }
  int64_t present_columns() const { return static_cast<int64_t>(values_.size()); }
  // Bytes held (none for a shared whole table).
  size_t memory_bytes() const {
    return (shared_ ? 0 : table_.size() * sizeof(LocalId)) + index_.memory_bytes() + sparse_index_.memory_bytes() +
           values_.memory_bytes();
  }
  bool sparse_index() const { return sparse_; }

 private:
  IdTable table_;
  const LocalId* whole_ = nullptr;  // table_'s ids, read without its indirections in the searches' loops
  bool shared_ = false;             // the whole table is another structure's
  // The vertices in use (present-only maps): one of the two, by sparse_index_smaller.
  PresentIndex index_;
  SparsePresentIndex sparse_index_;
  bool sparse_ = false;
  InBlockIds values_;  // of the present vertices, in order: the owners' entries (32-bit ids: the values)
  BlockValue value_;
  util::FastDivisor by_block_;
};

}  // namespace g500::graph
