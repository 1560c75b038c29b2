// Every way a run chooses its roots, each a collective call that gives the same roots on every
// rank and for every rank count:
// - choose_roots: the Graph500 reference 3.0 rule (the test vectors' README): candidates from the
//   generator's random stream (gen/roots.hpp), skipping repeats and vertices without a
//   non-self-loop edge;
// - sample_roots (--root-seed, file input): candidates splitmix64(seed, k) mod n for k = 0, 1, ...
//   (checked in the growing batches of gen/roots.hpp), with the same skips, until nroots are
//   found or 2n + 4096 were drawn; n is the input's vertex count (a header's may exceed the N
//   kernel 1 finds, the largest id + 1: the vertices past N have no edges and are skipped);
// - resolve_roots (--root ID): the given file ids, refused when not a vertex or without edges.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gen/kronecker.hpp"
#include "graph/local_graph.hpp"
#include "io/edge_input.hpp"

namespace g500::run {

std::vector<int64_t> choose_roots(const gen::KroneckerSpec& spec, int nroots, const graph::LocalGraph& graph,
                                  const graph::ProcessGrid& grid);
std::vector<int64_t> sample_roots(const graph::LocalGraph& graph, const graph::ProcessGrid& grid, int64_t nvertices,
                                  int nroots, uint64_t seed);
// File ids -> the graph's ids; throws UsageError naming the id.
std::vector<int64_t> resolve_roots(const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                                   const io::VertexIdMap& ids, const std::vector<uint64_t>& file_ids,
                                   const std::string& path);

}  // namespace g500::run
