// System presets and --shape parsing. Fugaku's TofuD (Nakao et al. 2021, section 2, Nakao et al. 2020, section 4):
// (X,Y,Z,a,b,c) = (24,23,24,2,3,2), X Y Z tori, a and c 2-node meshes, b a 3-ring.
// The K computer's Tofu (Kuroda et al. 2013, section 2.2): (24,18,16,2,3,2), same axis kinds.
#pragma once
#include <string>
#include <vector>

#include "topo/topology.hpp"

namespace g500::topo {

// Largest node count the tools accept (ranks are int; link-load arrays are 12 slots per node).
inline constexpr long long kMaxNodes = 1LL << 24;
// Most axes a --shape may have (Tofu has 6); keeps the axis-split search small.
inline constexpr int kMaxShapeAxes = 8;

struct SystemSpec {
  std::string name;  // "fugaku", "k" or "shape"
  std::vector<Axis> axes;
  bool has_tofu_axes() const;  // axes named X,Y,Z,a,b,c (scheduler shapes and Method A apply)
};

SystemSpec fugaku_system();
SystemSpec k_system();
SystemSpec system_preset(const std::string& name);  // throws UsageError for an unknown preset
// "[NAME=]SIZE{t|m},..." e.g. "2m,3t,2m" or "a=2m,b=3t,c=2m"; unnamed axes become d0, d1, ...
SystemSpec parse_shape(const std::string& text);

std::string describe_axes(const std::vector<Axis>& axes);  // "X24t,Y23t,..."

}  // namespace g500::topo
