// Batch scripts for Graph500-compliant `g500 bfs` runs on clusters (`g500 jobscript`): Slurm
// (#SBATCH, srun with core binding) and Fugaku's PJM (#PJM node shape, max-proc-per-node, the
// Eager limit of Nakao et al. 2021, section 5.4, mpiexec). Pure text generation, no MPI: unit-tested directly.
#pragma once
#include <string>

namespace g500::jobs {

struct JobSpec {
  std::string system;  // "slurm" or "fugaku"
  int nodes = 0;
  int scale = 0;
  int ppn = 1;                    // MPI ranks per node
  int threads = 0;                // OpenMP threads per rank; 0: the node's cores / ppn
  std::string grid;               // "RxC"; empty: R >= C, closest factors of nodes * ppn
  std::string rankmap;            // a `g500 map` CSV passed to g500 bfs --rankmap (checked when readable here)
  std::string time = "01:00:00";  // wall-time limit HH:MM:SS
  std::string node_shape;         // Fugaku: "A", "AxB" or "AxBxC" nodes; empty: from the grid
  std::string queue;              // Slurm partition / PJM resource group (optional)
  std::string binary = "./build/g500";
  long eager_limit = 512000;  // bytes; Nakao et al. 2021, section 5.4 sets 512,000 so every sendrecv is Eager
  // Memory of one node in bytes, for the check that the run fits (g500 bfs's own estimate);
  // 0: Fugaku's kFugakuNodeMemoryBytes, no check on Slurm.
  double node_memory_bytes = 0;
  std::string node_memory_origin;  // where node_memory_bytes came from, said when the run does not fit
  bool force = false;              // no memory check; the script runs g500 bfs --force
};

// Cores per Fugaku node available to jobs (A64FX: 4 CMGs x 12 compute cores).
constexpr int kFugakuCoresPerNode = 48;
// Memory of a Fugaku node (A64FX: 32 GiB of HBM2).
constexpr double kFugakuNodeMemoryBytes = 32.0 * 1024 * 1024 * 1024;
// Graph500 rules: 64 BFS roots.
constexpr int kGraph500Roots = 64;

// The batch script text. Throws g500::UsageError (one line) for bad input, for more nodes than
// Fugaku has, and for a run whose memory estimate exceeds a node's memory (unless force).
std::string make_jobscript(const JobSpec& spec);

// The memory plan g500 bfs would make for the job (run/run_plan.hpp), per process part by part,
// and the peak per node against the node's memory; the same checks of the input as
// make_jobscript but the memory's.
std::string job_plan_text(const JobSpec& spec);

// Node shape for Fugaku when none is given: the C ring of the grid along the first axis (so the
// bottom-up sendrecv neighbours are adjacent, Nakao et al. 2021, section 5.6), e.g. 8x8 grid at 1 rank per node ->
// "8x8", 16x8 grid at 4 ranks per node -> "2x16". Exposed for the tests.
std::string default_fugaku_node_shape(int nodes, int ppn, int grid_rows, int grid_cols);

}  // namespace g500::jobs
