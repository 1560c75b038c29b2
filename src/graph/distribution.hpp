// Vertex distribution over the R x C grid (Yoo et al., 001 section 4.3, Fig. 5).
//
// The vertex ids 0..N-1 are cut into R*C blocks of B vertices (B a multiple of 64, the last
// blocks padded with vertices that have no edges). Block k belongs to P(k mod R, k div R), so
//  - the "column set" of grid column j, the blocks j*R .. j*R+R-1, is one contiguous id range:
//    the frontier bitmap of a column needs only an allgather in the column, no transpose;
//  - the "row set" of grid row i is the blocks i, R+i, 2R+i, ...: one block per process of row i.
// Process P(i, j) stores the edges (v, u) with v in row set i and u in column set j. A vertex is
// addressed inside a row set by its row-local index (block position * B + offset) and inside a
// column set by its column-local index (id - j*R*B). Both fit in 32 bits (checked at start).
#pragma once
#include <cstdint>

#include "util/fast_divisor.hpp"

namespace g500 {

using LocalId = uint32_t;

struct Distribution {
  int R = 1, C = 1;
  int64_t nvertices = 0;   // N, the real vertices
  int64_t block = 64;      // B
  int row = 0, col = 0;    // this process

  Distribution() = default;
  Distribution(int64_t n, int rows, int cols, int my_row, int my_col)
      : R(rows), C(cols), nvertices(n), row(my_row), col(my_col) {
    const int64_t parts = static_cast<int64_t>(R) * C;
    int64_t b = (n + parts - 1) / parts;
    block = (b + 63) / 64 * 64;
    if (block == 0) block = 64;
    by_block = FastDivisor(static_cast<uint64_t>(block));
    by_rows = FastDivisor(static_cast<uint64_t>(R));
  }
  FastDivisor by_block, by_rows;

  int64_t row_set_size() const { return block * C; }  // vertices indexed by row-local ids
  int64_t col_set_size() const { return block * R; }  // vertices indexed by column-local ids
  int64_t owned_begin() const { return (static_cast<int64_t>(col) * R + row) * block; }

  int64_t block_of(int64_t v) const { return static_cast<int64_t>(by_block.divide(v)); }
  int grid_row_of(int64_t v) const { return static_cast<int>(by_rows.remainder(by_block.divide(v))); }
  int grid_col_of(int64_t v) const { return static_cast<int>(by_rows.divide(by_block.divide(v))); }
  LocalId row_local(int64_t v) const {
    const uint64_t k = by_block.divide(v);
    return static_cast<LocalId>(by_rows.divide(k) * block + (v - k * block));
  }
  LocalId col_local(int64_t v) const { return static_cast<LocalId>(v - static_cast<int64_t>(grid_col_of(v)) * R * block); }
  // Global id of a row-local index of grid row `i`.
  int64_t global_from_row_local(int64_t x, int i) const {
    const int64_t position = static_cast<int64_t>(by_block.divide(x));
    return (position * R + i) * block + (x - position * block);
  }
  // Global id of a column-local index of grid column `j`.
  int64_t global_from_col_local(int64_t u, int j) const { return static_cast<int64_t>(j) * R * block + u; }
  bool ids_fit_32_bits() const {
    return row_set_size() <= (int64_t{1} << 32) && col_set_size() <= (int64_t{1} << 32);
  }
};

}  // namespace g500
