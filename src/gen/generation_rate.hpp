// `g500 gen --benchmark`: the Kronecker generator's rate without writing anything. Each rank
// generates its share of the edges in chunks, timed several times; the best wall time over the
// ranks and the CPU time summed over them (what one core sustains, unaffected by other load).
#pragma once
#include <mpi.h>

#include "gen/kronecker.hpp"

namespace g500::gen {

struct GenerationRate {
  double best_seconds = 0;      // wall, slowest rank, best of the repeats
  double best_cpu_seconds = 0;  // CPU, summed over the ranks, best of the repeats
};

// Collective over comm.
GenerationRate measure_generation_rate(const KroneckerSpec& spec, bool weights, int repeat, MPI_Comm comm);

}  // namespace g500::gen
