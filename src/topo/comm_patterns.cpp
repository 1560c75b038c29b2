// BFS and generic communication patterns for the link-load simulator (Nakao et al. 2021, Table 3, Fig. 6).
#include "topo/comm_patterns.hpp"

#include "util/error.hpp"

namespace g500::topo {

const std::vector<Pattern>& all_patterns() {
  static const std::vector<Pattern> kAll{Pattern::ColAllgatherv, Pattern::RowAlltoallv, Pattern::RowRing,
                                         Pattern::Alltoall, Pattern::Bcast};
  return kAll;
}

std::string pattern_name(Pattern p) {
  switch (p) {
    case Pattern::ColAllgatherv:
      return "col-allgatherv";
    case Pattern::RowAlltoallv:
      return "row-alltoallv";
    case Pattern::RowRing:
      return "row-ring";
    case Pattern::Alltoall:
      return "alltoall";
    case Pattern::Bcast:
      return "bcast";
  }
  return "?";
}

Pattern parse_pattern(const std::string& name) {
  for (Pattern p : all_patterns())
    if (pattern_name(p) == name) return p;
  throw util::UsageError("unknown pattern '" + name +
                         "' (known: col-allgatherv, row-alltoallv, row-ring, alltoall, bcast, bfs, all)");
}

int64_t message_count(Pattern p, int rows, int cols) {
  const int64_t n = static_cast<int64_t>(rows) * cols;
  switch (p) {
    case Pattern::ColAllgatherv:
      return n * (rows - 1);
    case Pattern::RowAlltoallv:
      return n * (cols - 1);
    case Pattern::RowRing:
      return cols > 1 ? 2 * n : 0;
    case Pattern::Alltoall:
      return n * (n - 1);
    case Pattern::Bcast:
      return n - 1;
  }
  return 0;
}

double message_bytes(Pattern p, int /*rows*/, int cols, double block_bytes) {
  switch (p) {
    case Pattern::RowAlltoallv:
      return cols > 1 ? block_bytes / (cols - 1) : 0;
    case Pattern::RowRing:
      return block_bytes / 2;
    default:
      return block_bytes;
  }
}

int rounds_per_step(Pattern p, int /*rows*/, int cols) { return p == Pattern::RowRing ? cols : 1; }

}  // namespace g500::topo
