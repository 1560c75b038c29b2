#include "bfs/report.hpp"

#include <fmt/format.h>
#include <fmt/printf.h>

#include "bfs/volume_report.hpp"
#include "run/result_block.hpp"
#include "run/result_json.hpp"
#include "util/stats.hpp"

namespace g500::bfs {

run::ResultBlockInput bfs_result_block_input(const BenchmarkConfig& config, const BenchmarkResult& result) {
  run::ResultBlockInput in = run::result_block_input(config, result);
  in.bfs = run::kernel_series(result.roots);
  return in;
}

void print_phase_profile(FILE* out, const BenchmarkResult& result) {
  const run::RootSeries s = run::collect_root_series(result.roots);
  if (result.ranks > 1) {  // bytes sent, and Table 3 beside them
    const BfsVolumes mean = mean_volumes(result.roots);
    run::print_phase_table(out, "BFS", s.total, result.roots.size(), phase_bytes_title(), phase_bytes_column(mean));
    print_table3_comparison(out, result.volume_model, mean, result.roots.size());
  } else {
    run::print_phase_table(out, "BFS", s.total, result.roots.size());
  }
  if (result.energy_loop.ran)
    run::print_energy_loop(out, result.energy_loop);
  else
    std::fprintf(
        out, "%s\n",
        util::energy_line(result.energy, util::compute_teps_statistics(s.times, s.nedges).harmonic_mean).c_str());
}

void print_graph_memory(FILE* out, const BenchmarkResult& result) {
  const auto& m = result.row_index_max_rank;
  const auto& p = result.packed_max_rank;
  const double mib = 1024.0 * 1024.0;
  const bool bcsr = m.bitmap > 0 && m.offsets > 0;
  std::fprintf(out, "\nGraph memory on the largest rank (%s%s):\n", bcsr ? "bitmap-based CSR" : "plain CSR",
               p.active ? ", packed rows" : "");
  std::fprintf(out, "  %-12s %10.1f MiB\n", "row-starts", m.row_starts / mib);
  if (bcsr && m.bucketed) {  // the non-empty rows as offsets in buckets of rows (graph/row_index.hpp)
    std::fprintf(out, "  %-12s %10.1f MiB\n", "row buckets", m.bitmap / mib);
    std::fprintf(out, "  %-12s %10.1f MiB\n", "row offsets", m.offsets / mib);
  } else if (bcsr) {
    std::fprintf(out, "  %-12s %10.1f MiB\n", "bitmap", m.bitmap / mib);
    std::fprintf(out, "  %-12s %10.1f MiB\n", "offset", m.offsets / mib);
  }
  size_t neighbors = result.neighbors_bytes_max_rank;
  if (p.active) {  // the neighbours as varint gaps after a dense first neighbour, short rows as ids
                   // (graph/packed_rows.hpp)
    std::fprintf(out, "  %-12s %10.1f MiB\n", "dst first", p.first_neighbors / mib);
    std::fprintf(out, "  %-12s %10.1f MiB\n", "dst gaps", p.gaps / mib);
    std::fprintf(out, "  %-12s %10.1f MiB\n", "dst short", p.short_rows / mib);
    std::fprintf(out, "  %-12s %10.1f MiB\n", "dst offsets", p.offsets / mib);
    if (p.key_tables > 0) std::fprintf(out, "  %-12s %10.1f MiB\n", "key tables", p.key_tables / mib);
    neighbors = p.first_neighbors + p.gaps + p.short_rows + p.offsets + p.key_tables;
  } else {
    std::fprintf(out, "  %-12s %10.1f MiB\n", "dst", neighbors / mib);
  }
  const double total = static_cast<double>(m.row_starts + m.bitmap + m.offsets + neighbors);
  const double plain = static_cast<double>(m.plain_csr_row_starts + (p.active ? p.plain_neighbors : neighbors));
  std::fprintf(out, "  %-12s %10.1f MiB (plain CSR: %.1f MiB", "total", total / mib, plain / mib);
  if (p.active) std::fprintf(out, "; dst unpacked: %.1f MiB", p.plain_neighbors / mib);
  std::fprintf(out, ")\n");
  if (result.input_edges > 0)
    std::fprintf(
        out, "  %-12s %10.1f MiB, %.2f bytes per input edge (largest rank x ranks)\n", "all arrays",
        result.graph_bytes_max_rank / mib,
        static_cast<double>(result.graph_bytes_max_rank) * result.ranks / static_cast<double>(result.input_edges));
  std::fprintf(out, "  kernel 1 read the input edges %lld time%s (one slab of rows per pass)\n",
               static_cast<long long>(result.kernel1_passes), result.kernel1_passes == 1 ? "" : "s");
  if (result.level_buffers_by_direction)
    std::fprintf(out, "  the search's level buffers by direction (each made again when the search turns)\n");
  std::fprintf(out, "kernel 1 time per step (slowest rank):");
  for (int k = 0; k < graph::Kernel1Steps::kCount; ++k)
    std::fprintf(out, " %s %.2f s%s", graph::Kernel1Steps::kNames[k], result.kernel1_seconds_max_rank.seconds[k],
                 k + 1 < graph::Kernel1Steps::kCount ? "," : "\n");
}

namespace {

nlohmann::json kernel1_steps_json(const graph::Kernel1Steps& steps) {
  nlohmann::json j = nlohmann::json::object();
  for (int k = 0; k < graph::Kernel1Steps::kCount; ++k) j[graph::Kernel1Steps::kNames[k]] = steps.seconds[k];
  return j;
}

// --trace: direction, frontier, edges examined, time and bytes of each level.
nlohmann::json levels_json(const RootResult& r, const comm::table3::Model& model) {
  nlohmann::json levels = nlohmann::json::array();
  for (size_t l = 0; l < r.levels.size(); ++l) {
    const LevelTrace& level = r.levels[l];
    nlohmann::json one = {{"direction", level.direction == Direction::kTopDown ? "top-down" : "bottom-up"},
                          {"frontier", level.frontier_size},
                          {"edges_examined", level.edges_examined},
                          {"time_s", level.seconds}};
    add_level_volumes(one, r, l, model);
    levels.push_back(one);
  }
  return levels;
}

}  // namespace

nlohmann::json result_json(const BenchmarkConfig& config, const BenchmarkResult& result) {
  using nlohmann::json;
  json j;
  j["config"] = run::run_config_json(config, result);
  j["config"]["options"] = {
      {"validate", config.validate}, {"alpha", config.bfs.alpha},         {"substeps", config.bfs.substeps},
      {"beta", config.bfs.beta},     {"alltoallv", config.bfs.alltoallv}, {"allgatherv", config.bfs.allgatherv},
      {"trace", config.bfs.trace},   {"rankmap", config.rankmap_path},    {"disabled", config.disabled}};
  json roots = json::array();
  for (const auto& r : result.roots) {
    json one = run::root_json(r);
    one["level_sizes"] = r.level_sizes;
    // The validator's hash of the tree's depths (the test vectors' depth_hash).
    if (r.validated) one["depth_hash"] = fmt::format("{:016x}", r.depth_hash);
    add_root_volumes(one, r.volumes);
    if (config.bfs.trace) one["levels"] = levels_json(r, result.volume_model);
    roots.push_back(one);
  }
  j["roots"] = roots;
  const run::RootSeries series = run::collect_root_series(result.roots);
  j["summary"] = run::summary_json(config, result, series, "");
  j["profile"] = run::profile_json(series.total);
  j["volumes"] = volumes_json(result.volume_model, mean_volumes(result.roots));
  if (result.energy_loop.ran) {
    j["energy"] = run::energy_loop_json(result.energy_loop);
  } else {  // RAPL around the timed searches only
    j["energy"] = util::energy_json(result.energy, j["summary"]["harmonic_mean_TEPS"].get<double>());
    j["energy"]["loop"] = false;
  }
  j["memory"] = {
      {"graph_bytes_max_rank", result.graph_bytes_max_rank},
      {"kernel1_passes", result.kernel1_passes},
      {"level_buffers", result.level_buffers_by_direction ? "by-direction" : "kept"},
      {"kernel1_seconds_max_rank", kernel1_steps_json(result.kernel1_seconds_max_rank)},
      {"graph_arrays_max_rank",
       {{"row_starts", result.row_index_max_rank.row_starts},
        {"bitmap", result.row_index_max_rank.bitmap},
        {"offset", result.row_index_max_rank.offsets},
        {"rows_in_buckets", result.row_index_max_rank.bucketed},
        {"dst", result.neighbors_bytes_max_rank},
        {"plain_csr_row_starts", result.row_index_max_rank.plain_csr_row_starts},
        {"packed_rows",
         {{"active", result.packed_max_rank.active},
          {"first_neighbors", result.packed_max_rank.first_neighbors},
          {"gaps", result.packed_max_rank.gaps},
          {"short_rows", result.packed_max_rank.short_rows},
          {"offsets", result.packed_max_rank.offsets},
          {"key_tables", result.packed_max_rank.key_tables},
          {"plain_dst", result.packed_max_rank.plain_neighbors}}}}},
      {"peak_rss_bytes_max_rank", result.peak_rss_bytes_max_rank},
      {"estimated_bytes_max_rank", result.estimated_bytes_max_rank},
      {"kernel1_peak_rss_bytes_max_rank", result.kernel1_peak_rss_bytes_max_rank},
      {"search_peak_rss_bytes_max_rank", result.search_peak_rss_bytes_max_rank},
      {"estimated_kernel1_bytes_max_rank", result.estimated_kernel1_bytes_max_rank},
      {"estimated_search_bytes_max_rank", result.estimated_search_bytes_max_rank},
      {"bytes_per_input_edge", result.input_edges > 0 ? static_cast<double>(result.peak_rss_bytes_max_rank) *
                                                            result.ranks / static_cast<double>(result.input_edges)
                                                      : 0.0}};
  return j;
}

}  // namespace g500::bfs
