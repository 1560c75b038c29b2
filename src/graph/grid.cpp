#include "graph/grid.hpp"

#include <cmath>
#include <cstdio>

#include "util/error.hpp"

namespace g500 {

GridShape default_grid_shape(int nranks) {
  int cols = static_cast<int>(std::sqrt(static_cast<double>(nranks)));
  while (cols > 1 && nranks % cols != 0) --cols;
  if (cols < 1) cols = 1;
  return GridShape{nranks / cols, cols};
}

GridShape parse_grid_shape(const std::string& text, int nranks) {
  int rows = 0, cols = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%dx%d%c", &rows, &cols, &tail) != 2 || rows < 1 || cols < 1)
    throw UsageError("--grid '" + text + "' is not of the form RxC with positive R and C (e.g. 3x2)");
  if (static_cast<long>(rows) * cols != nranks)
    throw UsageError("--grid " + text + " needs " + std::to_string(static_cast<long>(rows) * cols) +
                     " MPI ranks but the job has " + std::to_string(nranks));
  return GridShape{rows, cols};
}

ProcessGrid::ProcessGrid(MPI_Comm world, GridShape shape, const std::vector<std::pair<int, int>>& placement)
    : world_(world), shape_(shape) {
  MPI_Comm_rank(world, &world_rank_);
  const int n = shape.rows * shape.cols;
  rank_of_.assign(n, -1);
  row_of_rank_.assign(n, 0);
  for (int r = 0; r < n; ++r) {
    int i = placement.empty() ? r / shape.cols : placement[r].first;
    int j = placement.empty() ? r % shape.cols : placement[r].second;
    rank_of_[static_cast<size_t>(i) * shape.cols + j] = r;
    row_of_rank_[r] = i;
    if (r == world_rank_) {
      row_ = i;
      col_ = j;
    }
  }
  MPI_Comm_split(world, row_, col_, &row_comm_);
  MPI_Comm_split(world, col_, row_, &col_comm_);
}

ProcessGrid::~ProcessGrid() {
  if (row_comm_ != MPI_COMM_NULL) MPI_Comm_free(&row_comm_);
  if (col_comm_ != MPI_COMM_NULL) MPI_Comm_free(&col_comm_);
}

}  // namespace g500
