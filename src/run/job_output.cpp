#include "run/job_output.hpp"

#include "util/counted.hpp"

namespace g500::run {

std::unique_ptr<util::OutputFile> open_named_output(const std::string& path, const comm::Communicator& comm) {
  if (path.empty()) return nullptr;
  return std::make_unique<util::OutputFile>(path, comm.mpi(), util::OutputFile::kNewFileMode, comm.limits());
}

const io::VertexIdMap& OutputIds::of() {
  if (input_) return input_->ids;
  if (!generated_) generated_ = io::VertexIdMap::offset(generated_vertices_, 0, comm_.mpi(), comm_.limits());
  return *generated_;
}

void print_peak_memory(FILE* out, const RunSummary& summary) {
  constexpr double kMiB = 1024.0 * 1024.0;
  std::fprintf(out, "peak memory per rank: %.1f MiB (estimated %.1f MiB)",
               static_cast<double>(summary.peak_rss_bytes_max_rank) / kMiB, summary.estimated_bytes_max_rank / kMiB);
  // The peak holds the process's fixed memory (MPI, libraries, buffers) too: divided by the
  // edges of a small graph it would say nothing about the graph, so only when the graph is most of it.
  const bool graph_is_most_of_peak = 2 * summary.graph_bytes_max_rank >= summary.peak_rss_bytes_max_rank;
  if (graph_is_most_of_peak && summary.input_edges > 0)
    std::fprintf(out, "; %.1f bytes per input edge",
                 static_cast<double>(summary.peak_rss_bytes_max_rank) * summary.ranks /
                     static_cast<double>(summary.input_edges));
  std::fputc('\n', out);
}

void print_validation_line(FILE* out, const RunConfig& config, const RunSummary& summary) {
  // After a blank line: the result block above stays the reference's "key: value" lines only, which
  // parsers of the official output read up to the first blank line.
  if (!config.validate) {
    std::fprintf(out, "\nvalidation: skipped (--no-validate)\n");
    return;
  }
  // Reached only when every root passed: a failed root ends the run with its error instead.
  std::fprintf(out, "\nvalidation: %d of %s passed\n", summary.nroots_run,
               util::counted(summary.nroots_run, "root").c_str());
}

}  // namespace g500::run
