// Rank map files: the CSV `g500 map` writes, one line per rank,
//   rank,row,col,<one column per network axis, lower-case axis names>
// and the Fugaku/K map-file form (Kuroda et al. 2013, section 4.2): one coordinate tuple per line in rank order.
// read_rankmap_csv() is what `g500 bfs --rankmap FILE` uses to build its row/column communicators.
#pragma once
#include <string>
#include <vector>

namespace g500::io {

struct GridPlacement {
  int row;
  int col;
};

struct RankmapRow {
  int row = 0;
  int col = 0;
  std::vector<int> coord;  // one entry per axis
};

// Writes FILE through util/output_file.hpp (atomically, or streamed to a device or FIFO). Throws UsageError if it
// cannot.
void write_rankmap_csv(const std::string& path, const std::vector<std::string>& axis_names,
                       const std::vector<RankmapRow>& rows);
// One "(c0,c1,...)" tuple per line, in rank order. Throws UsageError if it cannot write.
void write_coordinate_map(const std::string& path, const std::vector<std::vector<int>>& tuples);

// Reads and checks the CSV: header "rank,row,col,..." , one line per rank 0..nranks-1, every
// (row, col) used once, rows*cols == nranks. Throws UsageError "FILE:LINE: problem" otherwise.
std::vector<GridPlacement> read_rankmap_csv(const std::string& path, int nranks, int* rows, int* cols);

}  // namespace g500::io
