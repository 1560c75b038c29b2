// Fast link-load accumulation for dimension-order routing (158,976 nodes in under
// a minute): a route is at most one straight segment per axis, so each message adds +1/-1 marks
// in a difference array (one per axis line and direction) instead of touching every hop; a prefix
// sum along every line afterwards turns the marks into per-link message counts. Equals routing hop
// by hop with Topology::route (tested).
#pragma once
#include <cstdint>
#include <vector>

#include "topo/topology.hpp"

namespace g500::topo {

class SegmentLoads {
 public:
  explicit SegmentLoads(const Topology& topo) : topo_(topo), diff_(topo.link_slot_count(), 0) {}

  // Marks the dimension-order route src -> dst; returns its hop count.
  int add_route(int64_t src, int64_t dst);
  // The same with the coordinates given (no divisions; the simulator's hot path).
  int add_route(int64_t src, const int16_t* src_coord, const int16_t* dst_coord);
  // Adds another accumulator's marks (same topology).
  void merge(const SegmentLoads& other);
  // Per link slot message counts (prefix sums of the marks).
  std::vector<int64_t> counts() const;

 private:
  void mark_segment(int64_t line_base, int axis, int from, int delta);
  const Topology& topo_;
  std::vector<int32_t> diff_;
};

}  // namespace g500::topo
