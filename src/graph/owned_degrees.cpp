#include "graph/owned_degrees.hpp"

#include "comm/large_count.hpp"

namespace g500 {

std::vector<int64_t> owned_degrees(std::vector<int64_t>& lengths, const Distribution& d, const ProcessGrid& grid) {
  std::vector<int64_t> degree;
  if (grid.cols() == 1) {
    degree = std::move(lengths);
    degree.resize(d.block);  // the lengths may have room beyond the rows
    lengths.clear();
    return degree;
  }
  degree.assign(d.block, 0);
  comm::reduce_scatter_block(lengths.data(), degree.data(), d.block, MPI_INT64_T, MPI_SUM, grid.row_comm(), grid.limits());
  return degree;
}

}  // namespace g500
