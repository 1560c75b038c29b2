// The largest message g500 hands to MPI in one call (docs/messages.md). MPI counts and
// displacements are `int`, so one call can describe at most 2^31-1 elements, and a displacement
// into a receive buffer of more than 2^31-1 elements cannot be written at all; large runs reach
// that (a rank's share of an exchange at SCALE 30 and above, a per-vertex array of 2^31 vertices).
// Every call with counts goes through comm/large_count.hpp, which sends a larger message in rounds
// of at most max_message_bytes each. The limit travels as a value: ProcessGrid, the file input
// and the output files carry it; the hidden option --max-message-bytes of bfs, sssp and gen sets
// it, so that tests can force tiny rounds (64 bytes) on small graphs.
#pragma once
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

namespace g500::util {

struct MessageLimits {
  // 1 GiB: far below 2^31-1 bytes, and far above what a round needs to amortise its latency.
  static constexpr int64_t kDefaultBytes = int64_t{1} << 30;
  // A call of this many bytes still has int counts and displacements for any element size.
  static constexpr int64_t kLargestBytes = INT_MAX;
  static constexpr int64_t kSmallestBytes = 1;

  int64_t max_message_bytes = kDefaultBytes;

  // How many elements of `element_bytes` each of `parts` parts of one call may hold (the parts
  // are the peers of a collective, 1 for a point-to-point message): at least one, so that every
  // round makes progress even under a limit smaller than parts * element_bytes.
  int64_t elements_per_part(int64_t element_bytes, int64_t parts) const {
    return std::max<int64_t>(1,
                             max_message_bytes / (std::max<int64_t>(element_bytes, 1) * std::max<int64_t>(parts, 1)));
  }
  // "" when the limit is in range, else the rule it breaks (for the option's error message).
  std::string check() const {
    if (max_message_bytes >= kSmallestBytes && max_message_bytes <= kLargestBytes) return "";
    return "must be from " + std::to_string(kSmallestBytes) + " to " + std::to_string(kLargestBytes) + " bytes";
  }
};

}  // namespace g500::util
