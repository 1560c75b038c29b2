// Correctness check of `g500 coll --check`: runs every algorithm of every collective against the
// MPI library's own collective on random data of many sizes (0 bytes, 1 byte, odd sizes, uneven
// alltoallv/allgatherv counts with some ranks sending nothing, several roots, segment sizes and
// shapes) and compares the receive buffers byte for byte.
#pragma once
#include <mpi.h>

#include <string>

#include "coll/coll_catalog.hpp"

namespace g500::coll {

struct CheckResult {
  int cases = 0;               // comparisons made
  std::string first_mismatch;  // empty when every case matched; identical on every rank
};

// Checks one algorithm of `op` on `comm` (collective over comm).
CheckResult check_algorithm(CollOp op, const AlgoEntry& algorithm, MPI_Comm comm);
// Checks every algorithm of every op on `comm`, stopping at the first mismatch.
CheckResult check_everything(MPI_Comm comm);

}  // namespace g500::coll
