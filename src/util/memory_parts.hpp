// A memory estimate as named parts, each with the size it grows with, so that an estimate can be
// read in the terms of Nakao et al. 2021, Table 2: per input edge share m/P, per owned vertex N/P,
// per row-set vertex N/R, per column-set vertex N/C, or a fixed amount.
#pragma once
#include <string>
#include <vector>

namespace g500::util {

enum class GrowsWith {
  kEdgeShare,  // m/P: a process's share of the input edges (its adjacency holds about 2 m/P entries)
  kOwned,      // N/P: the vertices a process owns
  kRowSet,     // N/R: the vertices of a process's grid row (its row set)
  kColumnSet,  // N/C: the vertices of a process's grid column (its column set)
  kFixed,      // bounded: buffers of a fixed size, the runtime, per-thread scratch
  kSeveral,    // a part that mixes the above
  kWholeGraph  // m and N: the whole graph on one process
};

struct MemoryPart {
  std::string name;
  double bytes = 0;
  GrowsWith grows_with = GrowsWith::kFixed;
};

inline double total_bytes(const std::vector<MemoryPart>& parts) {
  double sum = 0;
  for (const MemoryPart& part : parts) sum += part.bytes;
  return sum;
}

}  // namespace g500::util
