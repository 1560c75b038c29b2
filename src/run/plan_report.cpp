// The parts of a run's plan as text (plan_report.hpp).
#include "run/plan_report.hpp"

#include <fmt/format.h>

namespace g500::run {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kWordBytes = 8, kBitsPerByte = 8;

// "5.12 B per m/P" and the like: a part's bytes over the size it grows with.
std::string per_unit(const util::MemoryPart& part, const RunPlan& plan) {
  auto per = [&](double size, const char* unit) {
    return size > 0 ? fmt::format("{:8.3f} B per {}", part.bytes / size, unit) : std::string();
  };
  switch (part.grows_with) {
    case util::GrowsWith::kEdgeShare:
      return per(plan.edge_share, "m/P");
    case util::GrowsWith::kOwned:
      return per(plan.owned, "N/P");
    case util::GrowsWith::kRowSet:
      return per(plan.row_set, "N/R");
    case util::GrowsWith::kColumnSet:
      return per(plan.column_set, "N/C");
    case util::GrowsWith::kFixed:
      return "   fixed";
    case util::GrowsWith::kSeveral:
      return "   several sizes";
    case util::GrowsWith::kWholeGraph:
      return "   the whole graph";
  }
  return {};
}

std::string phase_text(const char* name, const std::vector<util::MemoryPart>& parts, const RunPlan& plan,
                       const std::string& prefix) {
  std::string text = fmt::format("{}{:<52} {:9.3f}\n", prefix, name, util::total_bytes(parts) / kGiB);
  for (const util::MemoryPart& part : parts)
    if (part.bytes > 0)
      text += fmt::format("{}  {:<50} {:9.3f}  {}\n", prefix, part.name, part.bytes / kGiB, per_unit(part, plan));
  const PartsBySize by = parts_by_size(parts);
  auto ratio = [](double bytes, double size, double unit) { return size > 0 ? bytes / size / unit : 0.0; };
  text += fmt::format(
      "{}  in Table 2's terms: {:.2f} words per m/P, {:.2f} words per N/P, {:.2f} bits per N/R, "
      "{:.2f} bits per N/C, {:.3f} GiB fixed",
      prefix, ratio(by.edge_share, plan.edge_share, kWordBytes), ratio(by.owned, plan.owned, kWordBytes),
      ratio(by.row_set, plan.row_set, 1 / kBitsPerByte), ratio(by.column_set, plan.column_set, 1 / kBitsPerByte),
      by.fixed / kGiB);
  if (by.several > 0) text += fmt::format(", {:.3f} GiB of several sizes", by.several / kGiB);
  if (by.whole_graph > 0) text += fmt::format(", {:.3f} GiB the whole graph", by.whole_graph / kGiB);
  return text + "\n";
}

}  // namespace

PartsBySize parts_by_size(const std::vector<util::MemoryPart>& parts) {
  PartsBySize by;
  for (const util::MemoryPart& part : parts) {
    switch (part.grows_with) {
      case util::GrowsWith::kEdgeShare:
        by.edge_share += part.bytes;
        break;
      case util::GrowsWith::kOwned:
        by.owned += part.bytes;
        break;
      case util::GrowsWith::kRowSet:
        by.row_set += part.bytes;
        break;
      case util::GrowsWith::kColumnSet:
        by.column_set += part.bytes;
        break;
      case util::GrowsWith::kFixed:
        by.fixed += part.bytes;
        break;
      case util::GrowsWith::kSeveral:
        by.several += part.bytes;
        break;
      case util::GrowsWith::kWholeGraph:
        by.whole_graph += part.bytes;
        break;
    }
  }
  return by;
}

std::string plan_parts_text(const RunPlan& plan, const std::string& prefix) {
  std::string text;
  if (plan.kernel == PlanKernel::kBfs)
    text +=
        fmt::format("{}memory plan per process, {}x{} grid: {} rows, kernel 1 in {} pass{}{}\n", prefix, plan.grid_rows,
                    plan.grid_cols, plan.packed_rows ? "packed" : "plain", plan.passes, plan.passes == 1 ? "" : "es",
                    plan.level_buffers_by_direction ? ", the search's level buffers by direction" : "");
  else
    text += fmt::format("{}memory plan per process, {}x{} grid: kernel 1 {}\n", prefix, plan.grid_rows, plan.grid_cols,
                        plan.keeps_entries ? "keeps its entries (one pass)" : "reads the edges twice");
  text += fmt::format("{}sizes: m/P {:.4g} input edges, N/P {:.4g}, N/R {:.4g}, N/C {:.4g} vertices\n", prefix,
                      plan.edge_share, plan.owned, plan.row_set, plan.column_set);
  text += fmt::format("{}{:<52} {:>9}  {}\n", prefix, "part", "GiB", "per size it grows with");
  text += phase_text("kernel 1 (peak)", plan.kernel1, plan, prefix);
  text += phase_text("search and validation (peak)", plan.search, plan, prefix);
  return text;
}

}  // namespace g500::run
