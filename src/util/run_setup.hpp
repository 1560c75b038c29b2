// Set-up shared by the kernel drivers (g500 bfs, g500 sssp): the process grid, how many OpenMP
// threads a rank uses, and the up-front check that a run fits the node's memory and 32-bit ids.
#pragma once
#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/grid.hpp"

namespace g500 {

// The grid of a run: --grid RxC (empty: R >= C, closest factors), or the grid and the rank
// placement of a `g500 map` CSV (--rankmap, empty: row-major placement), which --grid must then
// agree with. Throws UsageError naming the problem.
struct GridChoice {
  GridShape shape;
  std::vector<std::pair<int, int>> placement;  // placement[rank] = {row, col}; empty: row-major
};
GridChoice choose_grid(const std::string& grid_text, const std::string& rankmap_path, int nranks);

// The requested count, or else the node's cores divided among its ranks (all of a rank's cores
// when it is bound to a core set).
int choose_threads(int requested, MPI_Comm comm);

// Collective: throws UsageError (the same on every rank) when `what` needs more memory than the
// node has (unless force) or more than 32-bit local ids (probe: this run's distribution).
void check_run_fits(const std::string& what, double bytes_per_rank, bool from_file, bool force,
                    const Distribution& probe, MPI_Comm world);

}  // namespace g500
