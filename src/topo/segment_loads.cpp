// Difference-array link loads for dimension-order routing.
#include "topo/segment_loads.hpp"

#include <cstdlib>

namespace g500::topo {

int SegmentLoads::add_route(int64_t src, int64_t dst) {
  int hops = 0;
  int64_t node = src;
  for (int d = 0; d < topo_.ndims(); ++d) {
    const int size = topo_.axes()[d].size;
    const int64_t stride = topo_.stride(d);
    const int from = static_cast<int>((node / stride) % size);
    const int to = static_cast<int>((dst / stride) % size);
    if (from == to) continue;
    const int delta = topo_.step_delta(d, from, to);
    const int64_t base = node - static_cast<int64_t>(from) * stride;
    mark_segment(base, d, from, delta);
    hops += std::abs(delta);
    node = base + static_cast<int64_t>(to) * stride;
  }
  return hops;
}

int SegmentLoads::add_route(int64_t src, const int16_t* a, const int16_t* b) {
  int hops = 0;
  int64_t node = src;
  for (int d = 0; d < topo_.ndims(); ++d) {
    const int from = a[d], to = b[d];
    if (from == to) continue;
    const int64_t stride = topo_.stride(d);
    const int delta = topo_.step_delta(d, from, to);
    const int64_t base = node - static_cast<int64_t>(from) * stride;
    mark_segment(base, d, from, delta);
    hops += std::abs(delta);
    node = base + static_cast<int64_t>(to) * stride;
  }
  return hops;
}

// + links leaving positions from .. from+delta-1 (mod size) or - links leaving positions
// from, from-1, .. from+delta+1 (mod size). In the walking order of the direction (increasing
// positions for +, decreasing for -) the run starts at `from`, wrapping past the end if needed.
void SegmentLoads::mark_segment(int64_t base, int axis, int from, int delta) {
  const int size = topo_.axes()[axis].size;
  const int64_t stride = topo_.stride(axis);
  const bool positive = delta > 0;
  // q = position in walking order; node position p = q for +, size-1-q for -.
  auto slot = [&](int q) {
    const int p = positive ? q : size - 1 - q;
    return topo_.link_index(base + static_cast<int64_t>(p) * stride, axis, positive);
  };
  const int start = positive ? from : size - 1 - from;
  const int end = start + std::abs(delta);  // exclusive, may pass size (wrap)
  ++diff_[slot(start)];
  if (end < size) {
    --diff_[slot(end)];
  } else {
    ++diff_[slot(0)];
    --diff_[slot(end - size)];
  }
}

void SegmentLoads::merge(const SegmentLoads& other) {
  for (size_t i = 0; i < diff_.size(); ++i) diff_[i] += other.diff_[i];
}

std::vector<int64_t> SegmentLoads::counts() const {
  std::vector<int64_t> out(diff_.size(), 0);
  for (int d = 0; d < topo_.ndims(); ++d) {
    const int size = topo_.axes()[d].size;
    const int64_t stride = topo_.stride(d);
    for (int64_t node = 0; node < topo_.node_count(); ++node) {
      if ((node / stride) % size != 0) continue;  // one pass per line, from its position-0 node
      int64_t up = 0, down = 0;
      for (int q = 0; q < size; ++q) {
        const int64_t l_up = topo_.link_index(node + q * stride, d, true);
        const int64_t l_down = topo_.link_index(node + (size - 1 - q) * stride, d, false);
        up += diff_[l_up];
        down += diff_[l_down];
        out[l_up] = up;
        out[l_down] = down;
      }
    }
  }
  return out;
}

}  // namespace g500::topo
