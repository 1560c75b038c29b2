// Vertex distribution over the R x C grid: Yoo's layout (Nakao et al. 2021, section 4.3, Fig. 5) or, with the
// switch `yoo` off, the conventional row-major one it replaces.
//
// The vertex ids 0..N-1 are cut into R*C blocks of B vertices (B a multiple of 64, the last blocks
// padded with vertices that have no edges). The "row set" of grid row i and the "column set" of
// grid column j are groups of blocks; process P(i, j) stores the edges (v, u) with v in row set i
// and u in column set j, and owns (keeps the BFS state of) one block. In both layouts
//  - column set j is the contiguous blocks j*R .. j*R+R-1, and a vertex is addressed inside it by
//    its column-local index (id - j*R*B);
//  - position p of row set i (row-local indices p*B .. p*B+B-1) is the block owned by P(i, p).
// The layouts differ in who owns block k:
//  - Yoo: P(k mod R, k div R). Row set i is the blocks i, R+i, 2R+i, ...; position t of column
//    set j is owned by P(t, j), inside grid column j, so the frontier of a column set is gathered
//    along the column with no other communication.
//  - row-major: P(k div C, k mod C). Row set i is the contiguous blocks i*C .. i*C+C-1, but
//    position t of column set j belongs to a process outside grid column j (unless R or C is 1):
//    each block first travels to the process P(t, j) that "hosts" it for the column (a transpose,
//    graph/column_blocks.hpp), and the top-down candidates go to their owners over the world.
// Both local indices fit a LocalId (graph/local_id.hpp; checked at start).
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>

#include "graph/local_id.hpp"
#include "util/fast_divisor.hpp"

namespace g500::graph {

enum class Layout { kYoo, kRowMajor };

struct Distribution {
  int R = 1, C = 1;
  int64_t nvertices = 0;  // N, the real vertices
  int64_t block = 64;     // B
  int row = 0, col = 0;   // this process
  Layout layout = Layout::kYoo;

  Distribution() = default;
  Distribution(int64_t n, int rows, int cols, int my_row, int my_col, Layout l = Layout::kYoo)
      : R(rows), C(cols), nvertices(n), row(my_row), col(my_col), layout(l) {
    const int64_t parts = static_cast<int64_t>(R) * C;
    int64_t b = (n + parts - 1) / parts;
    block = (b + 63) / 64 * 64;
    if (block == 0) block = 64;
    by_block = util::FastDivisor(static_cast<uint64_t>(block));
    by_rows = util::FastDivisor(static_cast<uint64_t>(R));
    by_cols = util::FastDivisor(static_cast<uint64_t>(C));
  }
  util::FastDivisor by_block, by_rows, by_cols;

  bool yoo() const { return layout == Layout::kYoo; }
  int64_t row_set_size() const { return block * C; }  // vertices indexed by row-local ids
  int64_t col_set_size() const { return block * R; }  // vertices indexed by column-local ids

  // Owner of block k, and the block P(i, j) owns.
  int owner_row_of_block(int64_t k) const { return static_cast<int>(yoo() ? by_rows.remainder(k) : by_cols.divide(k)); }
  int owner_col_of_block(int64_t k) const { return static_cast<int>(yoo() ? by_rows.divide(k) : by_cols.remainder(k)); }
  int64_t block_owned_by(int i, int j) const {
    return yoo() ? static_cast<int64_t>(j) * R + i : static_cast<int64_t>(i) * C + j;
  }
  int64_t owned_begin() const { return block_owned_by(row, col) * block; }
  // Block at position t of column set j (hosted by P(t, j) for the column's gathers).
  int64_t column_block(int j, int t) const { return static_cast<int64_t>(j) * R + t; }
  // True when P(t, j) owns the block at position t of column set j for every t and j (Yoo's
  // layout, or a grid with one row or one column): column gathers need no transpose.
  bool columns_aligned() const { return yoo() || R == 1 || C == 1; }

  int64_t block_of(int64_t v) const { return static_cast<int64_t>(by_block.divide(v)); }
  int owner_row(int64_t v) const { return owner_row_of_block(block_of(v)); }
  int owner_col(int64_t v) const { return owner_col_of_block(block_of(v)); }
  // The grid row whose row set holds v (= its owner's row) and the grid column whose column set
  // holds v (= its owner's column only with Yoo's layout).
  int row_set_of(int64_t v) const { return owner_row(v); }
  int col_set_of(int64_t v) const { return static_cast<int>(by_rows.divide(block_of(v))); }
  LocalId row_local(int64_t v) const {
    const uint64_t k = by_block.divide(v);
    return static_cast<LocalId>(owner_col_of_block(k) * block + (v - k * block));
  }
  LocalId col_local(int64_t v) const {
    return static_cast<LocalId>(v - static_cast<int64_t>(col_set_of(v)) * R * block);
  }
  // Global id of a row-local index of grid row `i`.
  int64_t global_from_row_local(int64_t x, int i) const {
    const int64_t position = static_cast<int64_t>(by_block.divide(x));
    return block_owned_by(i, static_cast<int>(position)) * block + (x - position * block);
  }
  // Global id of a column-local index of grid column `j`.
  int64_t global_from_col_local(int64_t u, int j) const { return static_cast<int64_t>(j) * R * block + u; }
  // Whether both local ids fit the build's LocalId: 32 bits; with 64-bit ids 48 (kernel 1 sorts a
  // column's key beside a row's offset in one word, graph/kernel1_fill.hpp; the Graph500 rule of at
  // least 48 bits per vertex id), and beside an owned offset in one word (OffsetIdPair); an offset
  // inside a block in 32 bits (graph/in_block_id.hpp).
  static constexpr int kMostIdBits = kWideIds ? 48 : 32;
  static constexpr int kMostOffsetBits = 32;
  int offset_bits() const { return std::bit_width(static_cast<uint64_t>(block - 1)); }
  bool ids_fit(int most_bits = kMostIdBits) const {
    if (offset_bits() > kMostOffsetBits) return false;
    const int bits = std::min(most_bits, kWideIds ? 64 - offset_bits() : 32);
    return row_set_size() <= (int64_t{1} << bits) && col_set_size() <= (int64_t{1} << bits);
  }
};

// The searches' messages: a pair (an owned vertex's offset in its block, a local id) in one word,
// the id in the low id_bits. 32 and 32 with 32-bit ids; with 64-bit ids the offset takes the bits
// the block size needs (24 at SCALE 41 on 158,976 processes) and the id the rest
// (Distribution::ids_fit).
class OffsetIdPair {
 public:
  OffsetIdPair() = default;
  explicit OffsetIdPair(const Distribution& d) : wide_id_bits_(64 - d.offset_bits()) {}
  uint64_t pack(uint64_t offset, LocalId id) const { return (offset << id_bits()) | id; }
  int64_t offset(uint64_t word) const { return static_cast<int64_t>(word >> id_bits()); }
  LocalId id(uint64_t word) const { return static_cast<LocalId>(word & ((uint64_t{1} << id_bits()) - 1)); }

 private:
  int id_bits() const { return kWideIds ? wide_id_bits_ : 32; }  // a constant with 32-bit ids
  int wide_id_bits_ = 32;
};

}  // namespace g500::graph
