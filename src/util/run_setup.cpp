#include "util/run_setup.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "topo/rankmap_file.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/memory.hpp"

namespace g500 {

GridChoice choose_grid(const std::string& grid_text, const std::string& rankmap_path, int nranks) {
  GridChoice choice;
  choice.shape = grid_text.empty() ? default_grid_shape(nranks) : parse_grid_shape(grid_text, nranks);
  if (rankmap_path.empty()) return choice;
  int rows = 0, cols = 0;
  for (const auto& p : topo::read_rankmap_csv(rankmap_path, nranks, &rows, &cols)) choice.placement.emplace_back(p.row, p.col);
  if (!grid_text.empty() && (rows != choice.shape.rows || cols != choice.shape.cols))
    throw UsageError("--grid " + grid_text + " disagrees with the " + std::to_string(rows) + "x" + std::to_string(cols) +
                     " grid of --rankmap " + rankmap_path);
  choice.shape = GridShape{rows, cols};
  return choice;
}

int choose_threads(int requested, MPI_Comm comm) {
  if (requested > 0) return requested;
  const int local_ranks = ranks_on_this_node(comm);
  const int procs = omp_get_num_procs();
  const int hardware = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  // Unbound ranks see every core and share them; a rank bound to a core set uses all of it.
  return procs >= hardware ? std::max(1, hardware / local_ranks) : std::max(1, procs);
}

namespace {
std::string format_gib(double bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  return text;
}
}  // namespace

void check_run_fits(const std::string& what, double bytes_per_rank, bool from_file, bool force,
                    const Distribution& probe, MPI_Comm world) {
  const double need = bytes_per_rank * ranks_on_this_node(world);
  const double have = static_cast<double>(physical_memory_bytes());
  std::string error;
  if (!force && have > 0 && need > have)
    error = what + " needs about " + format_gib(need) + " on this node but it has " + format_gib(have) +
            (from_file ? " (use more nodes or --force)" : " (use more nodes, a smaller SCALE, or --force)");
  agree_or_throw(error, world);
  if (!probe.ids_fit_32_bits())
    throw UsageError(what + " on a " + std::to_string(probe.R) + "x" + std::to_string(probe.C) +
                     " grid needs more than 2^32 vertices per grid row or column; use more ranks");
}

}  // namespace g500
