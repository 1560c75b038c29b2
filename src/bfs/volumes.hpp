// The bytes one BFS sent in each communication phase, top-down and bottom-up apart, summed over
// the ranks, beside what Nakao et al. 2021, Table 3 predicts for the same levels (comm/table3.hpp;
// docs/volumes.md).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "bfs/bfs.hpp"
#include "comm/table3.hpp"

namespace g500::bfs {

// Bytes of one BFS (or the mean of several), summed over the ranks.
struct BfsVolumes {
  comm::table3::DirectionVolumes measured{};  // the ranks' PhaseProfile::bytes_sent
  comm::table3::DirectionVolumes table3{};    // table3::level_bytes summed over the levels
  double bottom_up_levels = 0;                // s_b

  BfsVolumes& operator+=(const BfsVolumes& other);
  BfsVolumes& operator/=(double divisor);
};

// Collective: replaces every level's bytes_sent (this rank's) by its sum over the ranks of comm.
// Every rank has the same levels (their directions are global decisions).
void sum_level_bytes(std::vector<LevelTrace>& levels, MPI_Comm comm);

// Level `index` of a run as Table 3's formulas see it (level_sizes: BfsRun::level_sizes).
comm::table3::Level table3_level(const std::vector<LevelTrace>& levels, const std::vector<int64_t>& level_sizes,
                                 size_t index, int64_t vertices_with_edges);

// The measured bytes of a run whose levels were summed over the ranks, and Table 3's.
BfsVolumes run_volumes(const std::vector<LevelTrace>& levels, const std::vector<int64_t>& level_sizes,
                       const comm::table3::Model& model);

}  // namespace g500::bfs
