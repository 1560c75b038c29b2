// N-dimensional mesh/torus network model (Nakao et al. 2021, section 2 and 5.6, Kuroda et al. 2013, section 2.2):
// per axis a name, a size and a wrap flag; coordinates <-> node id (first axis fastest);
// hop distance; dimension-order routing over directed links.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace g500::topo {

struct Axis {
  std::string name;
  int size = 1;
  bool torus = false;
};

using Coord = std::vector<int>;

// A directed link leaves `node` along `axis` in the + (positive=true) or - direction.
// Its index is node * 2 * ndims + 2 * axis + (positive ? 0 : 1).
class Topology {
 public:
  explicit Topology(std::vector<Axis> axes);

  const std::vector<Axis>& axes() const { return axes_; }
  int ndims() const { return static_cast<int>(axes_.size()); }
  int64_t node_count() const { return node_count_; }
  int64_t link_slot_count() const { return node_count_ * 2 * ndims(); }
  int axis_index(const std::string& name) const;  // -1 when absent

  int64_t node_id(const Coord& c) const;
  Coord coord(int64_t id) const;

  // Signed number of steps along `axis` on the shortest way from a to b (ties go +).
  int step_delta(int axis, int from, int to) const;
  int hop_distance(const Coord& a, const Coord& b) const;
  bool adjacent(const Coord& a, const Coord& b) const { return hop_distance(a, b) == 1; }

  // Dimension-order routing: axis 0 first. Calls visit(link_index) for each hop; returns hops.
  template <class Visit>
  int route(int64_t src, int64_t dst, Visit&& visit) const;

  int64_t link_index(int64_t node, int axis, bool positive) const {
    return node * 2 * ndims() + 2 * axis + (positive ? 0 : 1);
  }
  int64_t stride(int axis) const { return strides_[axis]; }

 private:
  std::vector<Axis> axes_;
  std::vector<int64_t> strides_;
  int64_t node_count_ = 1;
};

template <class Visit>
int Topology::route(int64_t src, int64_t dst, Visit&& visit) const {
  int hops = 0;
  int64_t node = src;
  for (int d = 0; d < ndims(); ++d) {
    const int size = axes_[d].size;
    int from = static_cast<int>((node / strides_[d]) % size);
    const int to = static_cast<int>((dst / strides_[d]) % size);
    int delta = step_delta(d, from, to);
    const bool positive = delta > 0;
    for (; delta != 0; delta += positive ? -1 : 1, ++hops) {
      visit(link_index(node, d, positive));
      int next = from + (positive ? 1 : -1);
      if (next == size) next = 0;
      if (next < 0) next = size - 1;
      node += (static_cast<int64_t>(next) - from) * strides_[d];
      from = next;
    }
  }
  return hops;
}

}  // namespace g500::topo
