#include "run/run_setup.hpp"

#include <omp.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <thread>

#include "comm/typed.hpp"
#include "io/rankmap_file.hpp"
#include "io/vertex_output.hpp"
#include "run/roots.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/memory.hpp"

namespace g500::run {

GridChoice choose_grid(const std::string& grid_text, const std::string& rankmap_path, int nranks) {
  GridChoice choice;
  choice.shape = grid_text.empty() ? util::closest_factor_shape(nranks) : graph::parse_grid_shape(grid_text, nranks);
  if (rankmap_path.empty()) return choice;
  int rows = 0, cols = 0;
  for (const auto& p : io::read_rankmap_csv(rankmap_path, nranks, &rows, &cols))
    choice.placement.emplace_back(p.row, p.col);
  if (!grid_text.empty() && (rows != choice.shape.rows || cols != choice.shape.cols))
    throw util::UsageError("--grid " + grid_text + " disagrees with the " + std::to_string(rows) + "x" +
                           std::to_string(cols) + " grid of --rankmap " + rankmap_path);
  choice.shape = util::GridShape{rows, cols};
  return choice;
}

int choose_threads(int requested, MPI_Comm comm) {
  if (requested > 0) {
    // A launcher that binds each rank to one core (Open MPI does for 2 ranks or fewer) makes the
    // threads take turns on it: the run is correct but slower by about the thread count.
    const int procs = omp_get_num_procs();
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (requested > procs && rank == 0)
      std::fprintf(stderr,
                   "g500: warning: --threads %d but rank 0 can run on %d core%s (threads take turns; if the "
                   "launcher bound the rank to cores: mpiexec --bind-to none)\n",
                   requested, procs, procs == 1 ? "" : "s");
    return requested;
  }
  const int local_ranks = util::ranks_on_this_node(comm);
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

std::string memory_shortfall(const std::string& what, double need, double have, const std::string& node, bool from_file,
                             bool available) {
  if (!(have > 0) || need <= have) return "";
  return what + " needs about " + format_gib(need) + " on " + node + " but it has " + format_gib(have) +
         (available ? " available" : "") +
         (from_file ? " (use more nodes or --force)" : " (use more nodes, a smaller SCALE, or --force)");
}

double this_node_bytes_per_rank(MPI_Comm comm) {
  return static_cast<double>(util::physical_memory_bytes()) / util::ranks_on_this_node(comm);
}

std::string local_id_overflow(const std::string& what, const graph::Distribution& probe, int kernel_id_bits) {
  const std::string grid = what + " on a " + std::to_string(probe.R) + "x" + std::to_string(probe.C) + " grid";
  if (kernel_id_bits > 0 && !probe.ids_fit(kernel_id_bits))
    return grid + " needs more than 2^" + std::to_string(kernel_id_bits) +
           " vertices per grid row or column, beyond this kernel's ids; use more ranks";
  if (probe.ids_fit()) return "";
  const int64_t widest = std::max(probe.row_set_size(), probe.col_set_size());
  if (graph::kWideIds && widest <= (int64_t{1} << graph::Distribution::kMostIdBits))  // not beside the block offsets
    return grid +
           " needs more than 64 bits for a vertex's offset in its block and its id in a grid row or column; use more "
           "ranks";
  if (graph::kWideIds) return grid + " needs more than 2^48 vertices per grid row or column; use more ranks";
  return grid + " needs more than 2^32 vertices per grid row or column; use more ranks, or g500 built with " +
         graph::kWideIdsOption;
}

void check_run_fits(const std::string& what, double bytes_per_rank, bool from_file, bool force,
                    const graph::Distribution& probe, MPI_Comm world, int kernel_id_bits) {
  const double need = bytes_per_rank * util::ranks_on_this_node(world);
  // What the node has free now (with what the ranks already hold), not its total: memory that
  // other programs use is not the run's.
  const double have = util::node_memory_for_run_bytes(world);
  util::agree_or_throw(force ? "" : memory_shortfall(what, need, have, "this node", from_file, true), world);
  if (const std::string overflow = local_id_overflow(what, probe, kernel_id_bits); !overflow.empty())
    throw util::UsageError(overflow);
}

void check_declared_graph_fits(const RunConfig& config, const comm::Communicator& world, int64_t nvertices,
                               const std::string& what,
                               const std::function<double(const graph::Distribution& probe)>& bytes_per_rank) {
  const int rank = world.rank(), nranks = world.size();
  const GridChoice choice = choose_grid(config.grid_text, config.rankmap_path, nranks);
  // This rank's place as ProcessGrid assigns it.
  const int row = choice.placement.empty() ? rank / choice.shape.cols : choice.placement[rank].first;
  const int col = choice.placement.empty() ? rank % choice.shape.cols : choice.placement[rank].second;
  const graph::Distribution probe(nvertices, choice.shape.rows, choice.shape.cols, row, col);
  check_run_fits(what, bytes_per_rank(probe), true, config.force, probe, world.mpi(), config.kernel_id_bits);
}

std::unique_ptr<graph::ProcessGrid> start_run(
    const RunConfig& config, const comm::Communicator& world,
    const std::function<double(const graph::Distribution& probe)>& bytes_per_rank, RunSummary& summary) {
  const int nranks = world.size();
  const GridChoice choice = choose_grid(config.grid_text, config.rankmap_path, nranks);
  auto grid = std::make_unique<graph::ProcessGrid>(world.mpi(), choice.shape, choice.placement, config.messages);
  summary.ranks = nranks;
  summary.grid_rows = choice.shape.rows;
  summary.grid_cols = choice.shape.cols;
  summary.threads = choose_threads(config.threads, world.mpi());
  summary.node_ranks = util::ranks_on_this_node(world.mpi());  // every rank's own node; rank 0's is reported
  summary.node_cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  summary.input_edges = config.nedges();
  omp_set_num_threads(summary.threads);
  const std::string what =
      config.input ? "the graph of '" + config.input->spec.path + "'" : "SCALE " + std::to_string(config.spec.scale);
  const graph::Distribution probe(config.nvertices(), choice.shape.rows, choice.shape.cols, grid->row(), grid->col());
  const double estimate = bytes_per_rank(probe);
  summary.estimated_bytes_max_rank = world.max(estimate);
  check_run_fits(what, estimate, config.input != nullptr, config.force, probe, world.mpi(), config.kernel_id_bits);
  return grid;
}

int64_t global_vertices_with_edges(const graph::LocalGraph& graph, MPI_Comm world) {
  int64_t with_edges = 0;  // the padding vertices past N have no edges
  for (const int64_t degree : graph.owned_degree) with_edges += degree > 0;
  return comm::Communicator(world).sum(with_edges);
}

RunRoots choose_run_roots(const RunConfig& config, const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                          const std::string& kernel, RunSummary& summary) {
  MPI_Comm world = grid.world();
  const io::VertexIdMap identity =
      config.input ? io::VertexIdMap() : io::VertexIdMap::offset(config.nvertices(), 0, world, grid.limits());
  const io::VertexIdMap& ids = config.input ? config.input->ids : identity;
  RunRoots r;
  if (!config.root_ids.empty())
    r.roots = resolve_roots(graph, grid, ids, config.root_ids, config.input ? config.input->spec.path : "the graph");
  else if (config.root_seed)
    r.roots = sample_roots(graph, grid, config.nvertices(), config.nroots, *config.root_seed);
  else
    r.roots = choose_roots(config.spec, config.nroots, graph, grid);
  if (r.roots.empty()) throw util::UsageError("no vertex has an edge (other than self-loops): no " + kernel + " root");
  const bool fewer_than_asked = config.root_ids.empty() && static_cast<int64_t>(r.roots.size()) < config.nroots;
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  if (config.input || fewer_than_asked) {
    const int64_t with_edges = global_vertices_with_edges(graph, world);
    if (config.input) summary.vertices_without_edges = config.nvertices() - with_edges;
    if (fewer_than_asked && rank == 0) {
      const std::string graph_name =
          config.input ? "'" + config.input->spec.path + "'" : "SCALE " + std::to_string(config.spec.scale);
      const std::string found = std::to_string(r.roots.size());
      // The root rules draw a bounded number of candidates, so they may miss some usable vertices.
      const std::string reason = static_cast<int64_t>(r.roots.size()) == with_edges
                                     ? "only " + found + " vertices of " + graph_name + " have an edge"
                                     : "the root rule found " + found + " of the " + std::to_string(with_edges) +
                                           " vertices of " + graph_name + " that have an edge";
      std::string command = kernel;
      for (char& c : command) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::fprintf(stderr, "g500 %s: note: running %s roots instead of %d: %s\n", command.c_str(), found.c_str(),
                   config.nroots, reason.c_str());
      std::fflush(stderr);
    }
  }
  summary.nroots_run = static_cast<int>(r.roots.size());
  // Rank 0 translates the roots to file ids (every rank takes part) and broadcasts them.
  const std::vector<uint64_t> file_ids = ids.to_file_ids(rank == 0 ? r.roots : std::vector<int64_t>{});
  r.reported.resize(r.roots.size());
  if (rank == 0)
    for (size_t k = 0; k < r.roots.size(); ++k) r.reported[k] = static_cast<int64_t>(file_ids[k]);
  comm::Communicator(world, grid.limits()).broadcast(r.reported, 0);
  return r;
}

}  // namespace g500::run
