// The parts of a run's plan (run/run_plan.hpp) as text: each part in GiB per process and per
// unit of the size it grows with, and each phase's sum in the terms of Nakao et al. 2021, Table 2
// (words per m/P and per N/P, bits per N/R and per N/C). Shown by `g500 jobscript --plan`.
#pragma once
#include <string>

#include "run/run_plan.hpp"

namespace g500::run {

// Lines starting with `prefix` (e.g. "# " for comment lines of a script).
std::string plan_parts_text(const RunPlan& plan, const std::string& prefix);

// The sum of a phase's parts per size they grow with, in bytes.
struct PartsBySize {
  double edge_share = 0, owned = 0, row_set = 0, column_set = 0, fixed = 0, several = 0, whole_graph = 0;
};
PartsBySize parts_by_size(const std::vector<util::MemoryPart>& parts);

}  // namespace g500::run
