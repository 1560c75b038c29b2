// What the kernel drivers (bfs/driver, sssp/driver) share around a run: the output files named by
// options, opened before the work so a bad path fails first; the vertex ids per-vertex files are
// written in; and the closing memory line.
#pragma once
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "comm/typed.hpp"
#include "graph/local_graph.hpp"
#include "io/edge_input.hpp"
#include "run/run_setup.hpp"
#include "util/message_limits.hpp"
#include "util/output_file.hpp"

namespace g500::run {

// Collective: the file `path` names (util/output_file.hpp), or null when the option was not given.
// The communicator's limits bound a streamed output's MPI sends.
std::unique_ptr<util::OutputFile> open_named_output(const std::string& path, const comm::Communicator& comm);

// The ids of per-vertex result files: the input file's ids, or for a generated graph the
// generated ids 0..2^SCALE-1 themselves (made when first asked for, collectively), the isolated
// ones past the N kernel 1 finds included.
class OutputIds {
 public:
  OutputIds(const RunConfig& config, const comm::Communicator& comm)
      : input_(config.input), generated_vertices_(config.nvertices()), comm_(comm) {}
  const io::VertexIdMap& of();
  // The file id of vertex v (global id of the graph).
  uint64_t file_id(int64_t v) { return of().to_file_ids({v}).front(); }

 private:
  const io::EdgeInput* input_;
  int64_t generated_vertices_;
  comm::Communicator comm_;
  std::optional<io::VertexIdMap> generated_;
};

// "peak memory per rank: X MiB (estimated Y MiB); Z bytes per input edge", the last part only
// when the graph's arrays are at least half of the peak (not on small graphs).
void print_peak_memory(FILE* out, const RunSummary& summary);

// "validation: 64 of 64 roots passed" (or "skipped (--no-validate)"), for a run whose results
// are printed (every root passed).
void print_validation_line(FILE* out, const RunConfig& config, const RunSummary& summary);

}  // namespace g500::run
