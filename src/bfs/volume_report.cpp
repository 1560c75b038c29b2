#include "bfs/volume_report.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace g500::bfs {

namespace {

using nlohmann::json;
using util::Phase;

constexpr std::array<const char*, 2> kDirectionNames{"top-down", "bottom-up"};

// The patterns of Table 3, in its order.
struct Pattern {
  comm::table3::DirectionIndex direction;
  util::Phase phase;
  const char* formula;  // as printed
};
constexpr std::array<Pattern, 5> kPatterns{{{comm::table3::kTopDown, util::Phase::kAllgatherv, "nR"},
                                            {comm::table3::kTopDown, util::Phase::kAlltoallv, "4m"},
                                            {comm::table3::kBottomUp, util::Phase::kAllgatherv, "s_b nR/64"},
                                            {comm::table3::kBottomUp, util::Phase::kSendrecv, "s_b nC/64"},
                                            {comm::table3::kBottomUp, util::Phase::kAlltoallv, "2n"}}};

size_t index_of(util::Phase p) { return static_cast<size_t>(p); }

std::string format_bytes(double bytes) {
  if (bytes < 1e3) return fmt::format("{:.0f} B", bytes);
  if (bytes < 1e6) return fmt::format("{:.3g} kB", bytes / 1e3);
  if (bytes < 1e9) return fmt::format("{:.3g} MB", bytes / 1e6);
  return fmt::format("{:.3g} GB", bytes / 1e9);
}

// {"allgatherv": ..., "alltoallv": ..., "sendrecv": ...}, whole bytes.
template <class Bytes>
json phase_bytes_json(const Bytes& bytes) {
  json j;
  for (util::Phase p : util::kCommunicationPhases)
    j[util::phase_name(p)] = std::llround(static_cast<double>(bytes[index_of(p)]));
  return j;
}

json direction_bytes_json(const comm::table3::DirectionVolumes& v) {
  return {{kDirectionNames[comm::table3::kTopDown], phase_bytes_json(v[comm::table3::kTopDown])},
          {kDirectionNames[comm::table3::kBottomUp], phase_bytes_json(v[comm::table3::kBottomUp])}};
}

}  // namespace

BfsVolumes mean_volumes(const std::vector<RootResult>& roots) {
  BfsVolumes mean;
  for (const RootResult& r : roots) mean += r.volumes;
  if (!roots.empty()) mean /= static_cast<double>(roots.size());
  return mean;
}

std::string phase_bytes_title() { return "; bytes sent per BFS (summed over ranks, mean over the runs)"; }

std::vector<std::string> phase_bytes_column(const BfsVolumes& mean) {
  std::vector<std::string> column(util::kPhaseCount);
  for (util::Phase p : util::kCommunicationPhases) {
    const double top_down = mean.measured[comm::table3::kTopDown][index_of(p)];
    const double bottom_up = mean.measured[comm::table3::kBottomUp][index_of(p)];
    column[index_of(p)] = fmt::format("{:>9} = {} top-down + {} bottom-up", format_bytes(top_down + bottom_up),
                                      format_bytes(top_down), format_bytes(bottom_up));
  }
  return column;
}

void print_table3_comparison(FILE* out, const comm::table3::Model& model, const BfsVolumes& mean, size_t runs) {
  std::fprintf(out,
               "\nBFS bytes sent beside Nakao et al. 2021, Table 3 (mean over %zu BFS runs; n = %lld, m = %lld, %dx%d "
               "grid, s_b = %.2f; docs/volumes.md):\n",
               runs, static_cast<long long>(model.n), static_cast<long long>(model.m), model.R, model.C,
               mean.bottom_up_levels);
  std::fprintf(out, "  %-10s %-11s %10s %10s %9s   %s\n", "direction", "pattern", "measured", "Table 3", "ratio",
               "Table 3's whole-BFS formula at this run's n, m (all levels one way)");
  const comm::table3::DirectionVolumes printed = comm::table3::as_printed(model, mean.bottom_up_levels);
  for (const Pattern& row : kPatterns) {
    const double measured = mean.measured[row.direction][index_of(row.phase)];
    const double predicted = mean.table3[row.direction][index_of(row.phase)];
    const std::string ratio = predicted > 0 ? fmt::format("{:.2f}", measured / predicted) : "-";
    std::fprintf(out, "  %-10s %-11s %10s %10s %9s   %s = %s\n", kDirectionNames[row.direction],
                 util::phase_name(row.phase), format_bytes(measured).c_str(), format_bytes(predicted).c_str(),
                 ratio.c_str(), format_bytes(printed[row.direction][index_of(row.phase)]).c_str(), row.formula);
  }
}

void add_root_volumes(json& root, const BfsVolumes& volumes) {
  root["bytes_sent"] = direction_bytes_json(volumes.measured);
  root["table3_bytes"] = direction_bytes_json(volumes.table3);
  root["bottom_up_levels"] = static_cast<int64_t>(volumes.bottom_up_levels);
}

void add_level_volumes(json& level, const RootResult& root, size_t index, const comm::table3::Model& model) {
  level["bytes_sent"] = phase_bytes_json(root.levels[index].bytes_sent);
  const comm::table3::Level terms = table3_level(root.levels, root.level_sizes, index, model.vertices_with_edges);
  level["table3_bytes"] = phase_bytes_json(comm::table3::level_bytes(model, terms));
  level["unvisited_after"] = terms.unvisited;
}

json volumes_json(const comm::table3::Model& model, const BfsVolumes& mean) {
  const comm::table3::DirectionVolumes printed = comm::table3::as_printed(model, mean.bottom_up_levels);
  return {{"model",
           {{"n", model.n},
            {"m", model.m},
            {"R", model.R},
            {"C", model.C},
            {"vertices_with_edges", model.vertices_with_edges},
            {"sparse_switch", model.sparse_switch},
            {"pairs_by_alltoallv", model.pairs_by_alltoallv}}},
          {"mean_bottom_up_levels", mean.bottom_up_levels},
          {"bytes_sent", direction_bytes_json(mean.measured)},
          {"table3_bytes", direction_bytes_json(mean.table3)},
          {"table3_as_printed_bytes", direction_bytes_json(printed)}};
}

}  // namespace g500::bfs
