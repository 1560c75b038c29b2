// Local vertex ids: a vertex's index inside the row set or the column set of a process
// (graph/distribution.hpp), and a pair of such ids in one word.
//
// A row set holds N/R vertices and a column set N/C. Below 2^32 each (every grid up to SCALE 40
// on a square grid of 2^16 processes) the ids are 32 bits: half the bytes of the neighbour
// arrays and messages. Larger sets (SCALE 41 on Fugaku's 552 x 288 grid at one process per node:
// 7.6e9 vertices per column set) take the build configured with `-DG500_WIDE_IDS=ON`: 64-bit ids,
// and 128-bit pairs. One switch widens every local id, so both builds run the same code.
#pragma once
#include <mpi.h>

#include <cstdint>

namespace g500::graph {

#if defined(G500_WIDE_IDS) && G500_WIDE_IDS
using LocalId = uint64_t;
__extension__ typedef unsigned __int128 IdPair;  // GCC and Clang both have it
#else
using LocalId = uint32_t;
using IdPair = uint64_t;
#endif

constexpr int kLocalIdBits = 8 * static_cast<int>(sizeof(LocalId));
constexpr bool kWideIds = kLocalIdBits == 64;
// MPI datatypes of a LocalId and of an IdPair (with 64-bit ids two MPI_UINT64_T, a type made
// once, at the first call after MPI_Init, and kept until MPI_Finalize).
inline MPI_Datatype local_id_datatype() { return kWideIds ? MPI_UINT64_T : MPI_UINT32_T; }
inline MPI_Datatype id_pair_datatype() {
  if constexpr (!kWideIds) return MPI_UINT64_T;
  static const MPI_Datatype pair = [] {
    MPI_Datatype t;
    MPI_Type_contiguous(static_cast<int>(sizeof(IdPair) / sizeof(uint64_t)), MPI_UINT64_T, &t);
    MPI_Type_commit(&t);
    return t;
  }();
  return pair;
}

// (high, low) in one word: `high` in the upper half.
constexpr IdPair pack_ids(LocalId high, LocalId low) { return (static_cast<IdPair>(high) << kLocalIdBits) | low; }
constexpr LocalId high_id(IdPair pair) { return static_cast<LocalId>(pair >> kLocalIdBits); }
constexpr LocalId low_id(IdPair pair) { return static_cast<LocalId>(pair); }

// The configure option that builds 64-bit ids, for messages that name it.
constexpr const char* kWideIdsOption = "-DG500_WIDE_IDS=ON";

}  // namespace g500::graph
