// Tunable parameters of the distributed BFS (kernel 2).
#pragma once
#include <cstdint>
#include <string>

namespace g500::bfs {

struct BfsOptions {
  // Direction switching (Beamer et al. 2012; Nakao et al. 2021, Algorithm 1 "next-direction"): go bottom-up when
  // the frontier's edges exceed the unvisited vertices' edges / alpha, back to top-down when the
  // frontier holds fewer than N / beta vertices. Beta is Beamer's published 24; alpha is twice his
  // 14: a top-down entry here costs an atomic claim of a random visited bit, and the levels whose
  // frontier holds between 1/28 and 1/14 of the unvisited edges search faster bottom-up
  // (docs/performance.md).
  double alpha = 28.0;
  double beta = 24.0;
  std::string alltoallv = "mpi";  // algorithm names from comm/collectives.hpp
  std::string allgatherv = "mpi";
  bool trace = false;  // the report's JSON lists every level (the BFS records them always)
  // Techniques of Nakao et al. 2021, section 4 that can be switched off (`--disable NAME`) to measure them.
  bool bu_alltoallv = true;   // 4.5: one alltoallv of found pairs per bottom-up level
  bool lb_topdown = true;     // 4.4: high-degree rows split among threads in top-down
  bool sparse_switch = true;  // 4.5: lists instead of bitmaps when few vertices are involved
  bool overlap = true;        // 4.5: n x C sub-steps, rotation both ways, arrival order
  int substeps = 4;           // n of `overlap` (the paper's value)
  // Top-down candidates a process lists in one round of a level (0: as the run's plan counts them,
  // run::top_down_candidates_per_round; tests make it small to run levels in many rounds).
  int64_t candidates_per_round = 0;
  // The level buffers by direction rather than kept through the search (run/run_plan.hpp's
  // LevelBuffersChoice, which the run's plan makes): a top-down level's (candidates, work items,
  // the grid row's frontier) freed when the search turns bottom-up, the column frontier freed when
  // it turns top-down, and the grid row's frontier bitmap gathered in slices.
  bool level_buffers_by_direction = false;
};

}  // namespace g500::bfs
