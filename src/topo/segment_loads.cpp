// Difference-array link loads for dimension-order routing.
#include "topo/segment_loads.hpp"

#include <algorithm>
#include <cstdlib>

namespace g500::topo {

template <class Weight>
int BasicSegmentLoads<Weight>::add_route(int64_t src, int64_t dst, Weight weight) {
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
    mark_segment(base, d, from, delta, weight);
    hops += std::abs(delta);
    node = base + static_cast<int64_t>(to) * stride;
  }
  return hops;
}

template <class Weight>
int BasicSegmentLoads<Weight>::add_route(int64_t src, const int16_t* a, const int16_t* b) {
  int hops = 0;
  int64_t node = src;
  for (int d = 0; d < topo_.ndims(); ++d) {
    const int from = a[d], to = b[d];
    if (from == to) continue;
    const int64_t stride = topo_.stride(d);
    const int delta = topo_.step_delta(d, from, to);
    const int64_t base = node - static_cast<int64_t>(from) * stride;
    mark_segment(base, d, from, delta, Weight{1});
    hops += std::abs(delta);
    node = base + static_cast<int64_t>(to) * stride;
  }
  return hops;
}

// + links leaving positions from .. from+delta-1 (mod size) or - links leaving positions
// from, from-1, .. from+delta+1 (mod size). In the walking order of the direction (increasing
// positions for +, decreasing for -) the run starts at `from`, wrapping past the end if needed.
template <class Weight>
void BasicSegmentLoads<Weight>::mark_segment(int64_t base, int axis, int from, int delta, Weight weight) {
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
  diff_[slot(start)] += weight;
  if (end < size) {
    diff_[slot(end)] -= weight;
  } else {
    diff_[slot(0)] += weight;
    diff_[slot(end - size)] -= weight;
  }
}

template <class Weight>
void BasicSegmentLoads<Weight>::merge(const BasicSegmentLoads& other) {
  for (size_t i = 0; i < diff_.size(); ++i) diff_[i] += other.diff_[i];
}

template <class Weight>
template <class Store>
void BasicSegmentLoads<Weight>::prefix_sums(Store&& store) const {
  for (int d = 0; d < topo_.ndims(); ++d) {
    const int size = topo_.axes()[d].size;
    const int64_t stride = topo_.stride(d);
    for (int64_t node = 0; node < topo_.node_count(); ++node) {
      if ((node / stride) % size != 0) continue;  // one pass per line, from its position-0 node
      Total up = 0, down = 0;
      for (int q = 0; q < size; ++q) {
        const int64_t l_up = topo_.link_index(node + q * stride, d, true);
        const int64_t l_down = topo_.link_index(node + (size - 1 - q) * stride, d, false);
        up += diff_[l_up];
        down += diff_[l_down];
        store(l_up, up);
        store(l_down, down);
      }
    }
  }
}

template <class Weight>
auto BasicSegmentLoads<Weight>::counts() const -> std::vector<Total> {
  std::vector<Total> out(diff_.size(), 0);
  prefix_sums([&](int64_t slot, Total load) { out[slot] = load; });
  return out;
}

template <class Weight>
auto BasicSegmentLoads<Weight>::max_count() const -> Total {
  Total most = 0;
  prefix_sums([&](int64_t, Total load) { most = std::max(most, load); });
  return most;
}

template class BasicSegmentLoads<int32_t>;
template class BasicSegmentLoads<double>;

}  // namespace g500::topo
