#include "graph/grid.hpp"

#include "util/error.hpp"

namespace g500::graph {

util::GridShape parse_grid_shape(const std::string& text, int nranks) {
  const util::GridShape shape = util::parse_grid_text(text);
  if (shape.size() != nranks)
    throw util::UsageError("--grid " + text + " needs " + std::to_string(shape.size()) + " MPI ranks but the job has " +
                           std::to_string(nranks));
  return shape;
}

ProcessGrid::ProcessGrid(MPI_Comm world, util::GridShape shape, const std::vector<std::pair<int, int>>& placement,
                         util::MessageLimits limits)
    : world_(world), shape_(shape), limits_(limits) {
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

}  // namespace g500::graph
