// The sort keys of a row's neighbours (`degree-sort`, the aim of Nakao et al. 2021, section 4.2)
// and the column ids they stand for.
//
// Every row lists its neighbours by ascending key, which is meant to be descending degree, so the
// bottom-up search meets the likeliest parents first. With the degree-order renumbering each of
// the R blocks of a column set already lists its vertices by descending degree, and the blocks are
// alike (the generator scrambles the vertex ids), so taking the blocks offset by offset,
//   key = offset * R + position of the block,     column = position * B + offset,
// orders the whole column set by descending degree up to the differences between blocks at the
// same rank. Keys and ids convert by arithmetic: no table of the column set, which at the papers'
// scale (SCALE 41 on 552 x 288) would be 7.6 billion entries per process. With R = 1 the keys are
// the ids. Without the renumbering, only the gathered degrees give the order: tables of the column
// set, kept for that ablation (`--disable reorder`).
#pragma once
#include <cstdint>
#include <vector>

#include "graph/distribution.hpp"
#include "util/fast_divisor.hpp"

namespace g500::graph {

class ColumnKeys {
 public:
  enum class Kind { kIds, kInterleaved, kTables };

  ColumnKeys() = default;  // the keys are the column ids
  // The blocks of a column set of R blocks of B vertices taken offset by offset.
  static ColumnKeys interleaved(int R, int64_t B) {
    ColumnKeys keys;
    if (R == 1) return keys;
    keys.kind_ = Kind::kInterleaved;
    keys.blocks_ = static_cast<uint64_t>(R);
    keys.block_ = static_cast<uint64_t>(B);
    keys.by_blocks_ = util::FastDivisor(keys.blocks_);
    keys.by_block_ = util::FastDivisor(keys.block_);
    return keys;
  }
  // The order given as a table: column_of_key[key] is the column at that place.
  static ColumnKeys tabled(std::vector<LocalId> column_of_key);

  Kind kind() const { return kind_; }
  bool are_ids() const { return kind_ == Kind::kIds; }
  LocalId column(LocalId key) const {
    switch (kind_) {
      case Kind::kIds:
        return key;
      case Kind::kInterleaved:
        return interleaved_column(key);
      default:
        return column_of_key_[key];
    }
  }
  LocalId key(LocalId column) const {
    switch (kind_) {
      case Kind::kIds:
        return column;
      case Kind::kInterleaved: {
        const uint64_t position = by_block_.divide(column);
        return static_cast<LocalId>((column - position * block_) * blocks_ + position);
      }
      default:
        return key_of_column_[column];
    }
  }
  LocalId interleaved_column(LocalId key) const {
    const uint64_t offset = by_blocks_.divide(key);
    return static_cast<LocalId>((key - offset * blocks_) * block_ + offset);
  }
  const LocalId* column_table() const { return column_of_key_.data(); }
  size_t table_bytes() const { return (column_of_key_.size() + key_of_column_.size()) * sizeof(LocalId); }

 private:
  Kind kind_ = Kind::kIds;
  uint64_t blocks_ = 1, block_ = 1;
  util::FastDivisor by_blocks_, by_block_;
  std::vector<LocalId> column_of_key_, key_of_column_;
};

inline ColumnKeys ColumnKeys::tabled(std::vector<LocalId> column_of_key) {
  ColumnKeys keys;
  keys.kind_ = Kind::kTables;
  keys.key_of_column_.resize(column_of_key.size());
  const int64_t n = static_cast<int64_t>(column_of_key.size());
#pragma omp parallel for schedule(static)
  for (int64_t key = 0; key < n; ++key) keys.key_of_column_[column_of_key[key]] = static_cast<LocalId>(key);
  keys.column_of_key_ = std::move(column_of_key);
  return keys;
}

}  // namespace g500::graph
