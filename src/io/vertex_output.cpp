#include "io/vertex_output.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include <fmt/format.h>

#include "io/mpi_util.hpp"
#include "util/error.hpp"

namespace g500::io {
namespace {

int bfs_owner(const Distribution& d, const ProcessGrid& grid, int64_t v) {
  return grid.world_rank_of(d.owner_row(v), d.owner_col(v));
}

size_t total_count(const std::vector<int>& counts) {
  size_t total = 0;
  for (int c : counts) total += static_cast<size_t>(c);
  return total;
}

}  // namespace

std::vector<int64_t> tree_depths(const LocalGraph& graph, const ProcessGrid& grid, int64_t root,
                                 const std::vector<int64_t>& parents) {
  const Distribution& d = graph.dist;
  const int nranks = grid.size();
  const int64_t first = d.owned_begin();
  // Children lists at each parent's owner, then one level per round from the root.
  std::vector<int> counts(nranks, 0);
  for (int64_t k = 0; k < d.block; ++k)
    if (parents[k] >= 0 && first + k != root) ++counts[bfs_owner(d, grid, parents[k])];
  struct Link {
    int64_t parent_offset, child;
  };
  std::vector<Link> send(total_count(counts));
  {
    std::vector<int> cursor(nranks, 0);
    for (int r = 1; r < nranks; ++r) cursor[r] = cursor[r - 1] + counts[r - 1];
    for (int64_t k = 0; k < d.block; ++k)
      if (parents[k] >= 0 && first + k != root)
        send[cursor[bfs_owner(d, grid, parents[k])]++] = {parents[k] % d.block, first + k};
  }
  std::vector<int> recv_counts;
  std::vector<Link> links = alltoallv(send, counts, recv_counts, grid.world());
  std::vector<int64_t> start(d.block + 1, 0);
  for (const Link& l : links) ++start[l.parent_offset + 1];
  for (int64_t k = 0; k < d.block; ++k) start[k + 1] += start[k];
  std::vector<int64_t> children(links.size());
  {
    std::vector<int64_t> cursor(start.begin(), start.end() - 1);
    for (const Link& l : links) children[cursor[l.parent_offset]++] = l.child;
  }
  std::vector<int64_t> depth(d.block, -1), frontier;
  if (root >= first && root < first + d.block) {
    depth[root - first] = 0;
    frontier.push_back(root - first);
  }
  struct Visit {
    int64_t offset, depth;
  };
  for (;;) {
    std::fill(counts.begin(), counts.end(), 0);
    for (int64_t p : frontier)
      for (int64_t c = start[p]; c < start[p + 1]; ++c) ++counts[bfs_owner(d, grid, children[c])];
    std::vector<Visit> out(total_count(counts));
    std::vector<int> cursor(nranks, 0);
    for (int r = 1; r < nranks; ++r) cursor[r] = cursor[r - 1] + counts[r - 1];
    for (int64_t p : frontier)
      for (int64_t c = start[p]; c < start[p + 1]; ++c)
        out[cursor[bfs_owner(d, grid, children[c])]++] = {children[c] % d.block, depth[p] + 1};
    std::vector<Visit> in = alltoallv(out, counts, recv_counts, grid.world());
    frontier.clear();
    for (const Visit& v : in) {
      if (depth[v.offset] >= 0) continue;  // a valid tree reaches every vertex once
      depth[v.offset] = v.depth;
      frontier.push_back(v.offset);
    }
    if (sum_all(static_cast<int64_t>(frontier.size()), grid.world()) == 0) break;
  }
  return depth;
}

namespace {

template <class T>
std::vector<T> move_to_slices(const LocalGraph& graph, const ProcessGrid& grid, const VertexIdMap& ids,
                              const std::vector<T>& owned_values, T missing) {
  const Distribution& d = graph.dist;
  const int nranks = grid.size();
  const int64_t first = d.owned_begin();
  const int64_t last = std::min(first + d.block, ids.nvertices());
  struct Value {
    int64_t v;
    T value;
  };
  std::vector<int> counts(nranks, 0);
  for (int64_t v = first; v < last; ++v) ++counts[ids.owner_of(v)];
  std::vector<Value> send(total_count(counts));
  std::vector<int> cursor(nranks, 0);
  for (int r = 1; r < nranks; ++r) cursor[r] = cursor[r - 1] + counts[r - 1];
  for (int64_t v = first; v < last; ++v) send[cursor[ids.owner_of(v)]++] = {v, owned_values[v - first]};
  std::vector<int> recv_counts;
  std::vector<Value> in = alltoallv(send, counts, recv_counts, grid.world());
  std::vector<T> out(ids.local_count(), missing);
  for (const Value& x : in) out[x.v - ids.local_begin()] = x.value;
  return out;
}

}  // namespace

std::vector<int64_t> to_map_slices(const LocalGraph& graph, const ProcessGrid& grid, const VertexIdMap& ids,
                                   const std::vector<int64_t>& owned_values) {
  return move_to_slices<int64_t>(graph, grid, ids, owned_values, -1);
}

std::vector<double> to_map_slices(const LocalGraph& graph, const ProcessGrid& grid, const VertexIdMap& ids,
                                  const std::vector<double>& owned_values) {
  return move_to_slices<double>(graph, grid, ids, owned_values, std::numeric_limits<double>::infinity());
}

void write_vertex_file(OutputFile& file, const VertexIdMap& ids, const std::vector<int64_t>& values,
                       bool values_are_vertices, const std::string& comment) {
  std::vector<int64_t> wanted;
  if (values_are_vertices)
    for (int64_t v : values)
      if (v >= 0) wanted.push_back(v);
  const std::vector<uint64_t> translated = ids.to_file_ids(wanted);
  std::string text;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) text = "# " + comment + "\n";
  fmt::memory_buffer buffer;
  size_t next = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    const uint64_t id = ids.local_file_id(static_cast<int64_t>(k));
    if (values[k] < 0) fmt::format_to(std::back_inserter(buffer), "{} -1\n", id);
    else if (values_are_vertices) fmt::format_to(std::back_inserter(buffer), "{} {}\n", id, translated[next++]);
    else fmt::format_to(std::back_inserter(buffer), "{} {}\n", id, values[k]);
  }
  text.append(buffer.data(), buffer.size());
  file.write_concatenated(text);
}

void write_vertex_file(OutputFile& file, const VertexIdMap& ids, const std::vector<double>& values,
                       const std::string& comment) {
  std::string text;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) text = "# " + comment + "\n";
  fmt::memory_buffer buffer;
  for (size_t k = 0; k < values.size(); ++k) {
    const uint64_t id = ids.local_file_id(static_cast<int64_t>(k));
    if (!(values[k] < 1e300)) fmt::format_to(std::back_inserter(buffer), "{} inf\n", id);
    else fmt::format_to(std::back_inserter(buffer), "{} {:.9g}\n", id, values[k]);
  }
  text.append(buffer.data(), buffer.size());
  file.write_concatenated(text);
}

}  // namespace g500::io
