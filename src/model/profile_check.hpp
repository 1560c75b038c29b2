// Whether a profile calibrated from a run of g500 bfs (calibrate_from_trace) measured a node at
// work. A run on a loaded machine, an oversubscribed one, or one whose levels are too short to
// time gives rates that predict a cluster tens of times too slow; the memory-bound rates of a
// node (node_presets.hpp) say what its cores make at least when each access goes to memory:
//  * refused: a run of more threads than its node's cores (config.node of the JSON), and a run
//    whose top-down or bottom-up access rate per core is below a tenth of the node's memory-bound
//    rate (the cores were busy with other work, or the levels are so short that fixed costs
//    dominate);
//  * warned: a rate above ten times the memory-bound one (the run's graph lives in the caches,
//    so predictions at larger SCALEs are optimistic).
#pragma once
#include <string>
#include <vector>

#include "model/node_profile.hpp"
#include "model/trace.hpp"

namespace g500::model {

// Throws UsageError (one line naming the file and the rate) for the refusals above; returns the
// warnings. `node` names the node the memory-bound profile is of.
std::vector<std::string> check_calibration(const TraceRun& run, const NodeProfile& measured,
                                           const NodeProfile& memory_bound, const std::string& node);

}  // namespace g500::model
