// The nodes `g500 model --node` knows: the hardware figures of common x86 and Arm servers and of
// the A64FX and K computer nodes (cores, clock, memory bandwidth, cache line, memory per node),
// from the vendors' public specifications (docs/model.md, "The nodes").
//
// A node without a measured profile computes at memory-bound rates: the BFS's random accesses each
// bring one cache line from memory, at the share of the peak bandwidth that the A64FX's one
// calibrated number implies (its accesses per second times its 256-byte line over its 1,024 GB/s),
// and the bitmap words stream at the peak bandwidth over the bytes a word reads, as for the A64FX.
// The same memory-bound rates are what a measured profile is checked against (profile_check.hpp).
#pragma once
#include <string>
#include <vector>

#include "model/node_profile.hpp"

namespace g500::model {

struct NodePreset {
  std::string name;             // the --node value
  std::string label;            // the hardware, e.g. "2 x AMD EPYC 7763"
  int cores = 1;                // per node
  double clock_ghz = 1;         // base clock
  double memory_bandwidth = 0;  // peak bytes per second per node
  double cache_line_bytes = 64;
  double memory_bytes = 0;  // per node (a configuration: --node-memory changes it)
  std::string source;
};

const std::vector<NodePreset>& node_presets();
// "a64fx, k, epyc-7763, ..." for messages and help.
std::string node_preset_names();
// Throws UsageError naming the presets when there is no node of this name.
const NodePreset& node_preset(const std::string& name);

// The memory-bound profile of a node (above), from the calibrated A64FX profile; the A64FX and
// K computer presets have their own profiles (calibrate_a64fx, k_profile) and give a64fx and k.
NodeProfile preset_profile(const NodePreset& node, const NodeProfile& a64fx);

}  // namespace g500::model
