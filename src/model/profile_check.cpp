// The check of a calibrated profile (profile_check.hpp).
#include "model/profile_check.hpp"

#include <fmt/format.h>

#include "util/counted.hpp"
#include "util/error.hpp"

namespace g500::model {

namespace {
// How far a measured rate may fall below or rise above the memory-bound one: the memory-bound
// rates rest on one calibrated number and peak bandwidths, so only an order of magnitude is a
// finding.
constexpr double kPlausibleFactor = 10;

struct Rate {
  const char* direction;
  double measured, memory_bound;
};
}  // namespace

std::vector<std::string> check_calibration(const TraceRun& run, const NodeProfile& measured,
                                           const NodeProfile& memory_bound, const std::string& node) {
  if (run.node_cores > 0 && static_cast<long long>(run.node_ranks) * run.threads > run.node_cores)
    throw util::UsageError(
        fmt::format("{}: the run was oversubscribed ({} x {} on {} of its node): its rates are those of shared cores; "
                    "calibrate from a run with no more ranks x threads than cores",
                    run.path, util::counted(run.node_ranks, "rank"), util::counted(run.threads, "thread"),
                    util::counted(run.node_cores, "core")));
  std::vector<std::string> warnings;
  for (const Rate& r : {Rate{"top-down", measured.topdown_rate, memory_bound.topdown_rate},
                        Rate{"bottom-up", measured.bottomup_rate, memory_bound.bottomup_rate}}) {
    if (r.measured * kPlausibleFactor < r.memory_bound)
      throw util::UsageError(fmt::format(
          "{}: its {} rate, {:.3g} accesses/s per core, is below 1/{:g} of the {:.3g}/s per core of {} from memory "
          "(was the machine busy, or are SCALE {}'s levels too short to time?); calibrate from a run on an idle node "
          "at SCALE 18 or more",
          run.path, r.direction, r.measured, kPlausibleFactor, r.memory_bound, node, run.scale));
    if (r.measured > kPlausibleFactor * r.memory_bound)
      warnings.push_back(
          fmt::format("{}: its {} rate, {:.3g} accesses/s per core, is more than {:g} times the {:.3g}/s per core of "
                      "{} from memory: "
                      "its graph (SCALE {}) fits in the caches, so predictions at larger SCALEs are optimistic",
                      run.path, r.direction, r.measured, kPlausibleFactor, r.memory_bound, node, run.scale));
  }
  return warnings;
}

}  // namespace g500::model
