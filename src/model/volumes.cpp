// Per-level communication volumes of Nakao et al. 2021, Table 3 (see volumes.hpp).
#include "model/volumes.hpp"

#include <algorithm>

namespace g500::model {

namespace {
constexpr double kBitsPerByte = 8;
constexpr double kWordBytes = 8;

// Bytes of `count` vertices out of `range` as the smaller of a bitmap and a list; `bitmap` tells which.
double bitmap_or_list(double count, double range, double entry_bytes, bool& bitmap) {
  const double bitmap_bytes = range / kBitsPerByte, list_bytes = count * entry_bytes;
  bitmap = bitmap_bytes <= list_bytes;
  return std::min(bitmap_bytes, list_bytes);
}
}  // namespace

BfsVariant paper_variant() { return BfsVariant{kWordBytes, 2 * kWordBytes, false}; }
BfsVariant g500_variant() { return BfsVariant{kWordBytes / 2, kWordBytes, true}; }

LevelVolumes level_volumes(const LevelCounts& level, int rows, int cols, const BfsVariant& variant) {
  const double R = rows, C = cols, P = R * C;
  const double from_others_in_column = (R - 1) / R, to_others_in_row = (C - 1) / C;
  LevelVolumes v;
  if (level.direction == Direction::kTopDown) {
    v.transposed = variant.topdown_transposed;
    // nR words per BFS: each process receives the frontier of its column's range, F/C vertices
    // (transposed: of its row's range, F/R vertices from the C - 1 others of the row).
    v.allgatherv = v.transposed ? level.frontier / R * variant.list_entry_bytes * to_others_in_row
                                : level.frontier / C * variant.list_entry_bytes * from_others_in_column;
    // 4m words per BFS: one pair per examined edge, to the owner along the row (transposed: column).
    v.alltoallv = level.examined / P * variant.pair_bytes * (v.transposed ? from_others_in_column : to_others_in_row);
    return v;
  }
  // s_b nR/64 words: the frontier of the column's vertex range, n/C vertices (F/C of them set).
  v.allgatherv = bitmap_or_list(level.frontier / C, level.vertices / C, variant.list_entry_bytes,
                                v.frontier_is_bitmap) * from_others_in_column;
  // s_b nC/64 words: the visited bits of the row's range, n/R vertices, pass every process of the
  // row once (C blocks of n/P vertices); as a list, the unvisited ones.
  v.sendrecv = bitmap_or_list(level.unvisited / R, level.vertices / R, variant.list_entry_bytes,
                              v.unvisited_is_bitmap) * to_others_in_row;
  // 2n words per BFS: one pair per vertex found, to its owner along the row.
  v.alltoallv = level.found / P * variant.pair_bytes * to_others_in_row;
  return v;
}

}  // namespace g500::model
