// The R x C process grid of the 2D-partitioned BFS (Nakao et al. 2021, section 3.2, Fig. 3; 5.2 for the shape).
// Process P(i, j) sits in grid row i (0..R-1) and grid column j (0..C-1). The row communicator
// holds P(i, 0..C-1) ordered by j; the column communicator holds P(0..R-1, j) ordered by i.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "util/grid_shape.hpp"
#include "util/message_limits.hpp"

namespace g500::graph {

// Parses "RxC" (util/grid_shape.hpp); throws UsageError when malformed or when R*C != nranks.
util::GridShape parse_grid_shape(const std::string& text, int nranks);

class ProcessGrid {
 public:
  // placement[rank] = {row, col}; empty means row-major (rank = row * C + col). `limits`: the
  // largest message of one MPI call on the grid's communicators (comm/large_count.hpp).
  ProcessGrid(MPI_Comm world, util::GridShape shape, const std::vector<std::pair<int, int>>& placement = {},
              util::MessageLimits limits = {});
  ~ProcessGrid();
  ProcessGrid(const ProcessGrid&) = delete;
  ProcessGrid& operator=(const ProcessGrid&) = delete;

  int rows() const { return shape_.rows; }
  int cols() const { return shape_.cols; }
  int row() const { return row_; }
  int col() const { return col_; }
  int size() const { return shape_.rows * shape_.cols; }
  int world_rank() const { return world_rank_; }
  MPI_Comm world() const { return world_; }
  MPI_Comm row_comm() const { return row_comm_; }  // P(i, :), rank in it == col()
  MPI_Comm col_comm() const { return col_comm_; }  // P(:, j), rank in it == row()
  // World rank of P(i, j).
  int world_rank_of(int i, int j) const { return rank_of_[static_cast<size_t>(i) * shape_.cols + j]; }
  // Grid row of the process with world rank r.
  int row_of_rank(int r) const { return row_of_rank_[r]; }
  const util::MessageLimits& limits() const { return limits_; }

 private:
  MPI_Comm world_;
  util::GridShape shape_;
  util::MessageLimits limits_;
  int world_rank_ = 0;
  int row_ = 0;
  int col_ = 0;
  std::vector<int> rank_of_;
  std::vector<int> row_of_rank_;
  MPI_Comm row_comm_ = MPI_COMM_NULL;
  MPI_Comm col_comm_ = MPI_COMM_NULL;
};

}  // namespace g500::graph
