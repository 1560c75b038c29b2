// Shared helpers for the point-to-point collective algorithms of Hosono et al. 2021 (src/comm/coll_*.cpp):
// communicator facts, datatype extents, local copies, and the logical X x Y x Z process shape
// used by the topology-aware algorithms (rank = x + X * (y + Y * z)).
#pragma once
#include <mpi.h>

#include <array>
#include <cstddef>
#include <string>

namespace g500::comm {

// Tag used by every algorithm in this library; collectives on one communicator are ordered, so one
// tag is enough, and it stays clear of small tags an application might use.
inline constexpr int kCollectiveTag = 30004;

struct CommFacts {
  int rank = 0;
  int size = 1;
};
CommFacts comm_facts(MPI_Comm comm);

// Extent of one element in bytes (MPI_Type_get_extent), for displacement arithmetic.
MPI_Aint extent_of(MPI_Datatype type);
// True when the type is a gap-free run of bytes (size == extent, lower bound 0), so a block of
// `count` elements may be copied as count * extent bytes.
bool is_contiguous(MPI_Datatype type);

inline char* byte_offset(void* base, MPI_Aint bytes) { return static_cast<char*>(base) + bytes; }
inline const char* byte_offset(const void* base, MPI_Aint bytes) { return static_cast<const char*>(base) + bytes; }

// Copies a local block with type conversion rules of MPI (a self send/receive).
int copy_local(const void* src, int src_count, MPI_Datatype src_type, void* dst, int dst_count, MPI_Datatype dst_type);

// Logical process shape for dimension-aware algorithms; unused dimensions are 1.
struct Shape3 {
  std::array<int, 3> n{1, 1, 1};
  int size() const { return n[0] * n[1] * n[2]; }
  int dimensions() const;    // number of extents > 1 (at least 1)
  std::string text() const;  // "8x6x8"
  std::array<int, 3> coords_of(int rank) const;
  int rank_of(const std::array<int, 3>& c) const;
};

// The most processes a shape may have: far above any machine's (Fugaku at 4 processes per node:
// 635,904), and small enough that products of a shape's extents and ranks never overflow an int.
inline constexpr int kMaxShapeProcesses = 1 << 24;

// Parses "384", "64x6" or "8x6x8"; throws UsageError on malformed text and on more than
// kMaxShapeProcesses processes.
Shape3 parse_shape(const std::string& text);
// A balanced shape of `dims` dimensions for `size` processes (MPI_Dims_create).
Shape3 balanced_shape(int size, int dims);
// `requested` when it has a non-trivial size, else a balanced 3D shape; throws UsageError when
// the requested shape does not multiply to the communicator size.
Shape3 shape_for(const Shape3& requested, int comm_size);

}  // namespace g500::comm
