#include "run/file_input.hpp"

#include <cmath>

#include "util/progress.hpp"

namespace g500::run {
namespace {

int ceil_log2(int64_t n) {
  int s = 0;
  while ((int64_t{1} << s) < n && s < 62) ++s;
  return s;
}

}  // namespace

std::optional<io::EdgeInput> load_file_input(const FileInputRequest& request, gen::KroneckerSpec& spec,
                                             std::optional<uint64_t>& sampling_seed, const comm::Communicator& comm,
                                             bool progress,
                                             const std::function<void(const io::DeclaredSize&)>& check_declared_size) {
  std::optional<io::EdgeInput> edges;
  if (request.path.empty()) return edges;
  io::InputSpec input_spec;
  input_spec.path = request.path;
  input_spec.format = request.format.empty() ? io::guess_format(request.path) : *io::parse_format(request.format);
  input_spec.directed_as_undirected = request.directed_as_undirected;
  input_spec.check_declared_size = check_declared_size;
  input_spec.messages = comm.limits();
  {
    util::Progress reading(progress, "reading " + request.path);
    edges.emplace(io::load_edge_input(input_spec, comm.mpi()));
  }
  const int64_t n = edges->nvertices, m = edges->global_edges;
  const bool reference_roots = input_spec.format == io::Format::bin && (n & (n - 1)) == 0 && !request.root_seed_given;
  spec.scale = ceil_log2(n);
  spec.edgefactor = static_cast<int>(std::llround(static_cast<double>(m) / static_cast<double>(n)));
  if (!reference_roots) sampling_seed = request.root_seed;
  return edges;
}

void print_input_line(FILE* out, const char* command, const io::EdgeInput& edges, int64_t vertices_without_edges,
                      const std::string& note) {
  const io::InputStats& st = edges.stats;
  std::fprintf(out,
               "# g500 %s: input %s (%s): %lld vertices, %lld edges, %lld self-loops, %lld duplicate edges, "
               "%lld vertices without edges%s%s; read in %.3f s\n",
               command, edges.spec.path.c_str(), io::format_name(edges.spec.format),
               static_cast<long long>(st.vertices), static_cast<long long>(st.edges),
               static_cast<long long>(st.self_loops), static_cast<long long>(st.duplicates),
               static_cast<long long>(vertices_without_edges), note.c_str(), st.relabelled ? ", ids relabelled" : "",
               st.read_seconds);
}

nlohmann::json input_json(const io::EdgeInput& edges, int64_t vertices_without_edges) {
  const io::InputStats& st = edges.stats;
  return {{"path", edges.spec.path},
          {"format", io::format_name(edges.spec.format)},
          {"vertices", st.vertices},
          {"edges", st.edges},
          {"self_loops", st.self_loops},
          {"duplicates", st.duplicates},
          {"vertices_without_edges", vertices_without_edges},
          {"weighted", st.weighted},
          {"relabelled", st.relabelled},
          {"directed_as_undirected", edges.spec.directed_as_undirected},
          {"read_time_s", st.read_seconds}};
}

}  // namespace g500::run
