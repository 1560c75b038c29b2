// A serial view of a Kronecker test graph for the validation tests: the whole edge list, the
// adjacency sets and the BFS depths from a root, the same on every rank, so that every rank picks
// the same vertices and edges to corrupt.
#pragma once
#include <mpi.h>

#include <deque>
#include <set>
#include <vector>

#include "gen/kronecker.hpp"
#include "graph/distribution.hpp"

namespace g500::testing {

struct SerialView {
  std::vector<gen::Edge> edges;        // the input edges in generation order
  std::vector<std::set<int64_t>> adj;  // self-loops left out
  std::vector<int> depth;              // -1 when unreached
};

inline SerialView serial_view(const gen::KroneckerSpec& spec, int64_t root) {
  SerialView view;
  const int64_t n = spec.nvertices();
  view.edges.resize(spec.nedges());
  gen::KroneckerGenerator(spec).generate(0, spec.nedges(), view.edges.data(), nullptr);
  view.adj.resize(n);
  for (const auto& e : view.edges)
    if (e.v0 != e.v1) {
      view.adj[e.v0].insert(e.v1);
      view.adj[e.v1].insert(e.v0);
    }
  view.depth.assign(n, -1);
  std::deque<int64_t> queue{root};
  view.depth[root] = 0;
  while (!queue.empty()) {
    int64_t v = queue.front();
    queue.pop_front();
    for (int64_t u : view.adj[v])
      if (view.depth[u] < 0) {
        view.depth[u] = view.depth[v] + 1;
        queue.push_back(u);
      }
  }
  return view;
}

// Collective: the whole parent array (global ids) from every rank's owned parents.
inline std::vector<int64_t> gather_parents(const graph::Distribution& d, const std::vector<int64_t>& parents) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  std::vector<int64_t> all(static_cast<size_t>(d.block) * nranks), begins(nranks);
  MPI_Allgather(parents.data(), static_cast<int>(d.block), MPI_INT64_T, all.data(), static_cast<int>(d.block),
                MPI_INT64_T, MPI_COMM_WORLD);
  const int64_t mine = d.owned_begin();
  MPI_Allgather(&mine, 1, MPI_INT64_T, begins.data(), 1, MPI_INT64_T, MPI_COMM_WORLD);
  std::vector<int64_t> global(d.nvertices, -1);
  for (int r = 0; r < nranks; ++r)
    for (int64_t k = 0; k < d.block && begins[r] + k < d.nvertices; ++k) global[begins[r] + k] = all[r * d.block + k];
  return global;
}

// Sets v's parent in this rank's owned parents when it owns v.
inline void set_parent(const graph::Distribution& d, std::vector<int64_t>& parents, int64_t v, int64_t p) {
  if (v >= d.owned_begin() && v < d.owned_begin() + d.block) parents[v - d.owned_begin()] = p;
}

}  // namespace g500::testing
