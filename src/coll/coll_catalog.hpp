// Names of the collective operations and algorithms of `g500 coll`, and lookup by name.
// "mpi" is always available and means the MPI library's own collective.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "comm/coll_algorithms.hpp"

namespace g500::coll {

// The study measures and models the algorithms of comm/.
using namespace g500::comm;

enum class CollOp { alltoallv, alltoall, allgatherv, bcast };

inline constexpr const char* kMpiAlgorithm = "mpi";

std::string op_name(CollOp op);
CollOp parse_op(const std::string& name);  // throws UsageError
std::vector<CollOp> all_ops();

using AlltoallvAlgo = int (*)(const void*, const int*, const int*, MPI_Datatype, void*, const int*, const int*,
                              MPI_Datatype, MPI_Comm, const CollOptions&);
using AlltoallAlgo = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm, const CollOptions&);
using AllgathervAlgo = int (*)(const void*, int, MPI_Datatype, void*, const int*, const int*, MPI_Datatype, MPI_Comm,
                               const CollOptions&);
using BcastAlgo = int (*)(void*, int, MPI_Datatype, int, MPI_Comm, const CollOptions&);

// One algorithm: its name, and the options it implies (e.g. "ktree6" sets trees = 6).
struct AlgoEntry {
  std::string name;
  std::string description;
  AlltoallvAlgo alltoallv = nullptr;
  AlltoallAlgo alltoall = nullptr;
  AllgathervAlgo allgatherv = nullptr;
  BcastAlgo bcast = nullptr;
  int trees = 0;              // bcast_ktree: trees implied by the name
  bool uses_segment = false;  // --segment applies
  bool uses_shape = false;    // --shape applies
};

// Every algorithm of `op`, "mpi" first.
const std::vector<AlgoEntry>& algorithms(CollOp op);
// nullptr for an unknown name.
const AlgoEntry* find_algorithm(CollOp op, const std::string& name);
// Options for running `entry` with the user's segment and shape.
CollOptions options_for(const AlgoEntry& entry, int segment_bytes, const Shape3& shape);

}  // namespace g500::coll
