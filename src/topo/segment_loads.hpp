// Fast link-load accumulation for dimension-order routing (158,976 nodes in under
// a minute): a route is at most one straight segment per axis, so each message adds +w/-w marks
// in a difference array (one per axis line and direction) instead of touching every hop; a prefix
// sum along every line afterwards turns the marks into per-link loads. Equals routing hop by hop
// with Topology::route (tested). Messages are counted (SegmentLoads, the mapping simulator) or
// weighted (WeightedSegmentLoads, the collective model of coll/torus_model.hpp).
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

#include "topo/topology.hpp"

namespace g500::topo {

template <class Weight>
class BasicSegmentLoads {
 public:
  // Per-link totals: message counts in 64 bits, weights as they are.
  using Total = std::conditional_t<std::is_integral_v<Weight>, int64_t, Weight>;

  explicit BasicSegmentLoads(const Topology& topo) : topo_(topo), diff_(topo.link_slot_count(), 0) {}

  // Marks the dimension-order route src -> dst with `weight`; returns its hop count.
  int add_route(int64_t src, int64_t dst, Weight weight = 1);
  // The same with the coordinates given (no divisions; the simulator's hot path).
  int add_route(int64_t src, const int16_t* src_coord, const int16_t* dst_coord);
  // Adds another accumulator's marks (same topology).
  void merge(const BasicSegmentLoads& other);
  // Per link slot loads (prefix sums of the marks).
  std::vector<Total> counts() const;
  // The largest of counts(), without building it.
  Total max_count() const;

 private:
  void mark_segment(int64_t line_base, int axis, int from, int delta, Weight weight);
  // Calls store(link slot, load) for every slot, line by line.
  template <class Store>
  void prefix_sums(Store&& store) const;
  const Topology& topo_;
  std::vector<Weight> diff_;
};

using SegmentLoads = BasicSegmentLoads<int32_t>;
using WeightedSegmentLoads = BasicSegmentLoads<double>;

extern template class BasicSegmentLoads<int32_t>;
extern template class BasicSegmentLoads<double>;

}  // namespace g500::topo
