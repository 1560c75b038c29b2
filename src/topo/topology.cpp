// N-dimensional mesh/torus network model: coordinates, distances, routing.
#include "topo/topology.hpp"

#include <cstdlib>
#include <stdexcept>

namespace g500::topo {

Topology::Topology(std::vector<Axis> axes) : axes_(std::move(axes)) {
  if (axes_.empty()) throw std::invalid_argument("a topology needs at least one axis");
  for (const auto& a : axes_) {
    if (a.size < 1) throw std::invalid_argument("axis " + a.name + " has size < 1");
    strides_.push_back(node_count_);
    node_count_ *= a.size;
  }
}

int Topology::axis_index(const std::string& name) const {
  for (int d = 0; d < ndims(); ++d)
    if (axes_[d].name == name) return d;
  return -1;
}

int64_t Topology::node_id(const Coord& c) const {
  int64_t id = 0;
  for (int d = 0; d < ndims(); ++d) id += static_cast<int64_t>(c[d]) * strides_[d];
  return id;
}

Coord Topology::coord(int64_t id) const {
  Coord c(ndims());
  for (int d = 0; d < ndims(); ++d) c[d] = static_cast<int>((id / strides_[d]) % axes_[d].size);
  return c;
}

int Topology::step_delta(int axis, int from, int to) const {
  int delta = to - from;
  const Axis& a = axes_[axis];
  if (!a.torus || a.size <= 2) return delta;  // a 2-node ring has one neighbour: no wrap needed
  const int half = a.size / 2;
  if (delta > half) delta -= a.size;
  if (delta < -half) delta += a.size;
  if (delta == -half && a.size % 2 == 0) delta = half;  // tie: go the + way
  return delta;
}

int Topology::hop_distance(const Coord& a, const Coord& b) const {
  int hops = 0;
  for (int d = 0; d < ndims(); ++d) hops += std::abs(step_delta(d, a[d], b[d]));
  return hops;
}

}  // namespace g500::topo
