#include "comm/coll_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "util/error.hpp"

namespace g500::comm {

CommFacts comm_facts(MPI_Comm comm) {
  CommFacts facts;
  MPI_Comm_rank(comm, &facts.rank);
  MPI_Comm_size(comm, &facts.size);
  return facts;
}

MPI_Aint extent_of(MPI_Datatype type) {
  MPI_Aint lower = 0, extent = 0;
  MPI_Type_get_extent(type, &lower, &extent);
  return extent;
}

bool is_contiguous(MPI_Datatype type) {
  MPI_Aint lower = 0, extent = 0;
  MPI_Type_get_extent(type, &lower, &extent);
  int size = 0;
  MPI_Type_size(type, &size);
  return lower == 0 && static_cast<MPI_Aint>(size) == extent;
}

int copy_local(const void* src, int src_count, MPI_Datatype src_type, void* dst, int dst_count, MPI_Datatype dst_type) {
  return MPI_Sendrecv(src, src_count, src_type, 0, kCollectiveTag, dst, dst_count, dst_type, 0, kCollectiveTag,
                      MPI_COMM_SELF, MPI_STATUS_IGNORE);
}

int Shape3::dimensions() const {
  return std::max(1, static_cast<int>(std::count_if(n.begin(), n.end(), [](int e) { return e > 1; })));
}

std::string Shape3::text() const {
  int last = 2;
  while (last > 0 && n[last] == 1) --last;
  std::string out = std::to_string(n[0]);
  for (int d = 1; d <= last; ++d) out += fmt::format("x{}", n[d]);
  return out;
}

std::array<int, 3> Shape3::coords_of(int rank) const {
  return {rank % n[0], (rank / n[0]) % n[1], rank / (n[0] * n[1])};
}

int Shape3::rank_of(const std::array<int, 3>& c) const { return c[0] + n[0] * (c[1] + n[1] * c[2]); }

Shape3 parse_shape(const std::string& text) {
  Shape3 shape;
  std::stringstream in(text);
  std::string part;
  int d = 0;
  while (std::getline(in, part, 'x')) {
    if (d == 3 || part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 9 ||
        std::stoi(part) < 1)
      throw util::UsageError(fmt::format("bad --shape '{}': expected X, XxY or XxYxZ with positive integers", text));
    shape.n[d++] = std::stoi(part);
  }
  if (d == 0) throw util::UsageError(fmt::format("bad --shape '{}': expected X, XxY or XxYxZ", text));
  long long processes = 1;
  for (int extent : shape.n) {
    processes *= extent;  // no overflow: below 2^24 times an extent below 10^9
    if (processes > kMaxShapeProcesses)
      throw util::UsageError(
          fmt::format("--shape {} has more than {} processes (the limit)", text, kMaxShapeProcesses));
  }
  return shape;
}

Shape3 balanced_shape(int size, int dims) {
  int extents[3] = {0, 0, 0};
  MPI_Dims_create(size, dims, extents);
  Shape3 shape;
  for (int d = 0; d < dims; ++d) shape.n[d] = extents[d];
  return shape;
}

Shape3 shape_for(const Shape3& requested, int comm_size) {
  if (requested.size() <= 1 && comm_size > 1) return balanced_shape(comm_size, 3);
  if (requested.size() != comm_size)
    throw util::UsageError(fmt::format("shape {} has {} processes but the communicator has {}", requested.text(),
                                       requested.size(), comm_size));
  return requested;
}

}  // namespace g500::comm
