// What the MPI library runs for "mpi": with Open MPI, the coll_tuned component's forced algorithm
// (MCA parameters coll_tuned_use_dynamic_rules and coll_tuned_<op>_algorithm[_segmentsize],
// which Open MPI reads at MPI_Init, e.g. from `mpiexec --mca ...`), read back through the MPI tool
// interface (MPI_T control variables), so the harness records what was in force, not what was asked.
#pragma once
#include <string>

#include "coll/coll_catalog.hpp"

namespace g500::coll {

struct TunedSelection {
  bool visible = false;        // the MPI_T control variables exist (Open MPI with coll/tuned)
  bool dynamic_rules = false;  // coll_tuned_use_dynamic_rules
  int algorithm = 0;           // coll_tuned_<op>_algorithm (0 = library decides)
  std::string algorithm_name;  // its enumerator name, e.g. "pairwise"
  int segment_bytes = 0;       // coll_tuned_<op>_algorithm_segmentsize (bcast)
};

// Not collective: reads this process's control variables only.
TunedSelection read_tuned_selection(CollOp op);

// The text recorded in the CSV "ran" column for algorithm "mpi": "mpi:library-choice" or
// "ompi-tuned:<op>_algorithm=N(name)[;segmentsize=S]".
std::string describe_mpi_choice(CollOp op);

// For --algo ompi:N: throws UsageError naming the mpiexec flags unless N is in force.
void require_tuned_algorithm(CollOp op, int algorithm);

// The mpiexec options that force Open MPI's built-in algorithm N for `op`.
std::string tuned_mpiexec_flags(CollOp op, int algorithm);

}  // namespace g500::coll
