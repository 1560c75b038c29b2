// Level loop of the hybrid BFS (001 Algorithm 1) over the 2D grid: each level either expands the
// frontier top-down or searches parents bottom-up, chosen by Beamer's rule from global counts
// gathered at the end of the previous level.
#include "bfs/bfs.hpp"

#include <omp.h>

#include <algorithm>

#include "util/error.hpp"

namespace g500 {

DistributedBfs::DistributedBfs(const LocalGraph& graph, const ProcessGrid& grid, const BfsOptions& options)
    : graph_(graph),
      grid_(grid),
      dist_(graph.dist),
      options_(options),
      allgatherv_(comm::find_allgatherv(options.allgatherv)),
      nthreads_(omp_get_max_threads()),
      row_exchange_(grid.row_comm(), nthreads_, comm::find_alltoallv(options.alltoallv)),
      column_exchange_(grid.col_comm(), nthreads_, comm::find_alltoallv(options.alltoallv)),
      parent_(dist_.block, -1),
      visited_(dist_.block),
      frontier_bits_(dist_.block),
      column_frontier_(dist_.col_set_size()),
      found_(nthreads_),
      rotating_(dist_.block / kBitsPerWord) {
  if (!comm::find_alltoallv(options.alltoallv)) throw UsageError("unknown --alltoallv algorithm '" + options.alltoallv + "'");
  if (!allgatherv_) throw UsageError("unknown --allgatherv algorithm '" + options.allgatherv + "'");
}

void DistributedBfs::prepare() { std::fill(parent_.begin(), parent_.end(), -1); }

void DistributedBfs::collect_next() {
  next_.clear();
  for (auto& part : found_) {
    next_.insert(next_.end(), part.begin(), part.end());
    part.clear();
  }
}

void DistributedBfs::frontier_list_to_bitmap() {
  frontier_bits_.clear();
  for (LocalId v : frontier_) frontier_bits_.set(v);
}

namespace {

// Beamer's direction rule (001 Algorithm 1, next-direction).
Direction next_direction(Direction current, int64_t frontier_vertices, int64_t frontier_edges,
                         int64_t unvisited_edges, int64_t nvertices, const BfsOptions& options) {
  if (current == Direction::kTopDown)
    return static_cast<double>(frontier_edges) > static_cast<double>(unvisited_edges) / options.alpha
               ? Direction::kBottomUp
               : Direction::kTopDown;
  return static_cast<double>(frontier_vertices) < static_cast<double>(nvertices) / options.beta
             ? Direction::kTopDown
             : Direction::kBottomUp;
}

}  // namespace

BfsRun DistributedBfs::run(int64_t root) {
  using comm::Phase;
  BfsRun result;
  result.root = root;
  MPI_Barrier(grid_.world());
  const double start = MPI_Wtime();
  comm::PhaseProfile& profile = result.profile;
  const Distribution& d = dist_;

  {
    comm::ScopedPhase timed(profile, Phase::kCalculation);
    visited_.clear();
    frontier_.clear();
  }
  const int64_t owned_begin = d.owned_begin();
  int64_t unvisited_edges_local = 0;
  for (int64_t deg : graph_.owned_degree) unvisited_edges_local += deg;
  if (root >= owned_begin && root < owned_begin + d.block) {
    const LocalId r = static_cast<LocalId>(root - owned_begin);
    parent_[r] = root;
    visited_.set(r);
    frontier_.push_back(r);
    unvisited_edges_local -= graph_.owned_degree[r];
  }
  int64_t unvisited_edges = 0;
  {
    // Global counts for the first decision: frontier {root}.
    int64_t frontier_edges_local = 0;
    for (LocalId v : frontier_) frontier_edges_local += graph_.owned_degree[v];
    int64_t local[2] = {unvisited_edges_local, frontier_edges_local}, global[2];
    MPI_Allreduce(local, global, 2, MPI_INT64_T, MPI_SUM, grid_.world());
    unvisited_edges = global[0];
    int64_t frontier_vertices = 1, frontier_edges = global[1];
    result.level_sizes.push_back(1);
    Direction direction = Direction::kTopDown;
    while (frontier_vertices > 0) {
      const double level_start = MPI_Wtime();
      direction = next_direction(direction, frontier_vertices, frontier_edges, unvisited_edges, d.nvertices, options_);
      StepResult step;
      if (direction == Direction::kTopDown) {
        step = top_down_step(profile);
      } else {
        {
          comm::ScopedPhase timed(profile, Phase::kCalculation);
          frontier_list_to_bitmap();
        }
        step = bottom_up_step(profile);
      }
      int64_t next_edges_local = 0;
      {
        comm::ScopedPhase timed(profile, Phase::kCalculation);
        frontier_.swap(next_);
        for (LocalId v : frontier_) next_edges_local += graph_.owned_degree[v];
      }
      {
        comm::ScopedPhase timed(profile, Phase::kImbalance);
        MPI_Barrier(grid_.world());
        int64_t local_counts[3] = {static_cast<int64_t>(frontier_.size()), next_edges_local, step.edges_examined};
        int64_t global_counts[3];
        MPI_Allreduce(local_counts, global_counts, 3, MPI_INT64_T, MPI_SUM, grid_.world());
        frontier_vertices = global_counts[0];
        frontier_edges = global_counts[1];
        unvisited_edges -= frontier_edges;
        if (options_.trace)
          result.trace.push_back(LevelTrace{direction, result.level_sizes.back(), global_counts[2],
                                            MPI_Wtime() - level_start});
      }
      if (frontier_vertices > 0) result.level_sizes.push_back(frontier_vertices);
    }
  }
  result.seconds = MPI_Wtime() - start;
  return result;
}

}  // namespace g500
