#include "io/vertex_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>

#include "io/mpi_util.hpp"
#include "util/error.hpp"

namespace g500::io {
namespace {

size_t total_count(const std::vector<int64_t>& counts) {
  size_t total = 0;
  for (int64_t c : counts) total += static_cast<size_t>(c);
  return total;
}

// The shortest decimal text that reads back as exactly `value`: as a float when the value is
// one (the SSSP's distances are float sums, so 0.1f + 0.2f prints as 0.3, not 0.300000012).
std::string shortest_text(double value) {
  constexpr int kLongestShortestDouble = 32;  // "-2.2250738585072014e-308" and room to spare
  char text[kLongestShortestDouble];
  const float narrow = static_cast<float>(value);
  const std::to_chars_result written = static_cast<double>(narrow) == value
                                           ? std::to_chars(text, text + sizeof text, narrow)
                                           : std::to_chars(text, text + sizeof text, value);
  return std::string(text, written.ptr);
}

}  // namespace

namespace {

template <class T>
std::vector<T> move_to_slices(const graph::LocalGraph& graph, const graph::ProcessGrid& grid, const VertexIdMap& ids,
                              const std::vector<T>& owned_values, T missing) {
  const graph::Distribution& d = graph.dist;
  const int nranks = grid.size();
  const int64_t first = d.owned_begin();
  const int64_t last = std::min(first + d.block, ids.nvertices());
  struct Value {
    int64_t v;
    T value;
  };
  std::vector<int64_t> counts(nranks, 0);
  for (int64_t v = first; v < last; ++v) ++counts[ids.owner_of(v)];
  std::vector<Value> send(total_count(counts));
  std::vector<int64_t> cursor(nranks, 0);
  for (int r = 1; r < nranks; ++r) cursor[r] = cursor[r - 1] + counts[r - 1];
  for (int64_t v = first; v < last; ++v) send[cursor[ids.owner_of(v)]++] = {v, owned_values[v - first]};
  std::vector<int64_t> recv_counts;
  std::vector<Value> in = alltoallv(send, counts, recv_counts, grid.world(), grid.limits());
  std::vector<T> out(ids.local_count(), missing);
  for (const Value& x : in) out[x.v - ids.local_begin()] = x.value;
  return out;
}

}  // namespace

std::vector<int64_t> to_map_slices(const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                                   const VertexIdMap& ids, const std::vector<int64_t>& owned_values) {
  return move_to_slices<int64_t>(graph, grid, ids, owned_values, -1);
}

std::vector<double> to_map_slices(const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                                  const VertexIdMap& ids, const std::vector<double>& owned_values) {
  return move_to_slices<double>(graph, grid, ids, owned_values, std::numeric_limits<double>::infinity());
}

void write_vertex_file(util::OutputFile& file, const VertexIdMap& ids, const std::vector<int64_t>& values,
                       bool values_are_vertices, const std::string& comment) {
  std::vector<int64_t> wanted;
  if (values_are_vertices)
    for (int64_t v : values)
      if (v >= 0) wanted.push_back(v);
  const std::vector<uint64_t> translated = ids.to_file_ids(wanted);
  std::string text;
  int rank = 0;
  MPI_Comm_rank(file.comm(), &rank);
  if (rank == 0) text = "# " + comment + "\n";
  fmt::memory_buffer buffer;
  size_t next = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    const uint64_t id = ids.local_file_id(static_cast<int64_t>(k));
    if (values[k] < 0)
      fmt::format_to(std::back_inserter(buffer), "{} -1\n", id);
    else if (values_are_vertices)
      fmt::format_to(std::back_inserter(buffer), "{} {}\n", id, translated[next++]);
    else
      fmt::format_to(std::back_inserter(buffer), "{} {}\n", id, values[k]);
  }
  text.append(buffer.data(), buffer.size());
  file.write_concatenated(text);
}

void write_vertex_file(util::OutputFile& file, const VertexIdMap& ids, const std::vector<double>& values,
                       const std::string& comment) {
  std::string text;
  int rank = 0;
  MPI_Comm_rank(file.comm(), &rank);
  if (rank == 0) text = "# " + comment + "\n";
  fmt::memory_buffer buffer;
  for (size_t k = 0; k < values.size(); ++k) {
    const uint64_t id = ids.local_file_id(static_cast<int64_t>(k));
    if (!(values[k] < 1e300))
      fmt::format_to(std::back_inserter(buffer), "{} inf\n", id);
    else
      fmt::format_to(std::back_inserter(buffer), "{} {}\n", id, shortest_text(values[k]));
  }
  text.append(buffer.data(), buffer.size());
  file.write_concatenated(text);
}

}  // namespace g500::io
