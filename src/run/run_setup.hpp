// What the kernel drivers (g500 bfs, g500 sssp) share: the run's common options and results, the
// process grid, how many OpenMP threads a rank uses, the up-front check that a run fits the node's
// memory and 32-bit ids, and the choice of the roots.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "comm/typed.hpp"
#include "gen/kronecker.hpp"
#include "graph/distribution.hpp"
#include "graph/grid.hpp"
#include "graph/local_graph.hpp"
#include "io/edge_input.hpp"
#include "run/energy_loop.hpp"
#include "util/message_limits.hpp"
#include "util/provenance.hpp"

namespace g500::run {

// Options every kernel run has.
struct RunConfig {
  gen::KroneckerSpec spec;
  int nroots = 64;
  std::string grid_text;     // "RxC" or empty for the default shape
  std::string rankmap_path;  // a `g500 map` CSV placing each rank on the grid (empty: row-major)
  int threads = 0;           // OpenMP threads per rank (0 = automatic)
  bool validate = true;
  bool warmup = true;  // one untimed search first, as the reference does
  bool force = false;  // run even when the memory estimate exceeds the node's memory (--force)
  // File input (--input, docs/input.md); null: the Kronecker graph of `spec` (default).
  const io::EdgeInput* input = nullptr;
  std::vector<uint64_t> root_ids;     // --root: explicit roots in the file's ids (used when non-empty)
  std::optional<uint64_t> root_seed;  // sample roots with sample_roots (run/roots.hpp) instead of the reference rule
  bool progress = false;              // progress lines on stderr (see util/progress.hpp)
  util::MessageLimits messages;       // the largest message of one MPI call (--max-message-bytes)
  EnergyLoopOptions energy_loop;      // --energy-loop, --power-command (run/energy_loop.hpp)
  util::Invocation invocation;        // the command, date and hosts of the run (util/provenance.hpp)
  // The kernel's own limit on its local ids, in bits (0: the build's; the SSSP keeps 32-bit ids in
  // its state words whatever the build).
  int kernel_id_bits = 0;

  int64_t nvertices() const { return input ? input->nvertices : spec.nvertices(); }
  int64_t nedges() const { return input ? input->global_edges : spec.nedges(); }
};

// Results every kernel run reports.
struct RunSummary {
  int ranks = 1;
  int grid_rows = 1, grid_cols = 1;
  int threads = 1;
  // Rank 0's node: its ranks and hardware threads; more ranks x threads than cores is an
  // oversubscribed run, whose speed says little (tools/g500report flags it).
  int node_ranks = 1, node_cores = 1;
  double generation_seconds = 0;
  double construction_seconds = 0;
  size_t graph_bytes_max_rank = 0;
  int64_t input_edges = 0;
  int64_t nvertices_computed = 0;      // N as kernel 1 found it: the largest vertex id of the edges + 1
  int64_t vertices_without_edges = 0;  // file input: vertices with no non-self-loop edge
  int nroots_run = 0;                  // roots searched: fewer than asked when few vertices have an edge
  bool validation_failed = false;
  std::string validation_error;
  size_t peak_rss_bytes_max_rank = 0;
  double estimated_bytes_max_rank = 0;  // the memory estimate the run was checked against
};

// Collective: the process grid of the run, its threads (set for OpenMP) and the memory check
// against bytes_per_rank(probe) for this run's distribution; fills summary's ranks, grid, threads,
// input edges and the largest estimate of a rank.
std::unique_ptr<graph::ProcessGrid> start_run(
    const RunConfig& config, const comm::Communicator& world,
    const std::function<double(const graph::Distribution& probe)>& bytes_per_rank, RunSummary& summary);

// The run's roots in global ids (explicit --root ids, sampled with --root seed, else the
// reference rule) and the ids they are reported by (the file's ids; the same for generated
// graphs). Collective; also counts file input's vertices without edges into summary. `kernel`
// names the search in the error when no vertex has an edge. When fewer roots than asked can be
// found, rank 0 says so in one line on stderr ("g500 bfs: note: running 39 roots instead of ...").
// Collective: the vertices with an edge other than a self-loop, over all ranks.
int64_t global_vertices_with_edges(const graph::LocalGraph& graph, MPI_Comm world);

struct RunRoots {
  std::vector<int64_t> roots, reported;
};
RunRoots choose_run_roots(const RunConfig& config, const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                          const std::string& kernel, RunSummary& summary);

// The grid of a run: --grid RxC (empty: R >= C, closest factors), or the grid and the rank
// placement of a `g500 map` CSV (--rankmap, empty: row-major placement), which --grid must then
// agree with. Throws UsageError naming the problem.
struct GridChoice {
  util::GridShape shape;
  std::vector<std::pair<int, int>> placement;  // placement[rank] = {row, col}; empty: row-major
};
GridChoice choose_grid(const std::string& grid_text, const std::string& rankmap_path, int nranks);

// The requested count, or else the node's cores divided among its ranks (all of a rank's cores
// when it is bound to a core set).
int choose_threads(int requested, MPI_Comm comm);

// "WHAT needs about N GiB on NODE but it has M GiB [available] (ADVICE)" when need > have (and
// have is known, > 0), else "". `from_file`: the advice leaves out a smaller SCALE. `available`:
// have is the node's free memory now, not its size.
std::string memory_shortfall(const std::string& what, double need, double have, const std::string& node, bool from_file,
                             bool available = false);

// What every rank holds before the run's data: the MPI library, OpenMP and the program (a rank
// of SCALE 10 peaks at about 18 MiB). Both kernels' memory estimates count it once per rank.
inline constexpr double kRuntimeBytesPerRank = 16.0 * 1024 * 1024;
// Collective: this node's physical memory over the ranks on it (the node memory of a run's plan).
double this_node_bytes_per_rank(MPI_Comm comm);
// The refusal when a rank of `probe`'s grid would need local ids wider than the build's (or than
// the kernel's own `kernel_id_bits`, 0: none), else "".
std::string local_id_overflow(const std::string& what, const graph::Distribution& probe, int kernel_id_bits = 0);

// Collective: throws UsageError (the same on every rank) when `what` needs more memory than the
// node has (unless force) or wider local ids than it can have (probe: this run's distribution).
void check_run_fits(const std::string& what, double bytes_per_rank, bool from_file, bool force,
                    const graph::Distribution& probe, MPI_Comm world, int kernel_id_bits = 0);

// Collective: check_run_fits for a graph of `nvertices` on the grid start_run will build, before
// it exists: for the sizes a file's header declares, so that a graph that cannot run is refused
// before its edges are read. `what` names the file and the header fields.
void check_declared_graph_fits(const RunConfig& config, const comm::Communicator& world, int64_t nvertices,
                               const std::string& what,
                               const std::function<double(const graph::Distribution& probe)>& bytes_per_rank);

}  // namespace g500::run
