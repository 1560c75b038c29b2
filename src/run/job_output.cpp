#include "run/job_output.hpp"

namespace g500 {

std::unique_ptr<OutputFile> open_named_output(const std::string& path, const MessageLimits& limits, MPI_Comm comm) {
  if (path.empty()) return nullptr;
  return std::make_unique<OutputFile>(path, comm, OutputFile::kNewFileMode, limits);
}

const io::VertexIdMap& OutputIds::of() {
  if (input_) return input_->ids;
  if (!generated_) generated_ = io::VertexIdMap::offset(generated_vertices_, 0, MPI_COMM_WORLD, limits_);
  return *generated_;
}

void print_peak_memory(FILE* out, const RunSummary& summary) {
  constexpr double kMiB = 1024.0 * 1024.0;
  std::fprintf(out, "peak memory per rank: %.1f MiB (estimated %.1f MiB); %.1f bytes per input edge\n",
               static_cast<double>(summary.peak_rss_bytes_max_rank) / kMiB, summary.estimated_bytes_max_rank / kMiB,
               static_cast<double>(summary.peak_rss_bytes_max_rank) * summary.ranks /
                   static_cast<double>(summary.input_edges));
}

}  // namespace g500
