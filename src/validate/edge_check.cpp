// Rules 3 and 4 on the input edges (edge_check.hpp): the way that needs less memory, then the
// lowest failing edge agreed over the ranks.
#include "validate/edge_check.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <limits>

#include "comm/typed.hpp"
#include "validate/edge_check_parts.hpp"

namespace g500::validate {
namespace {

// Collective: every rank must take the same way, even one started with another thread count.
bool replicated_way(const graph::Distribution& d, EdgeCheckWay way, int64_t chunk_edges, int64_t global_edges,
                    MPI_Comm comm) {
  if (way != EdgeCheckWay::kFewerBytes) return way == EdgeCheckWay::kReplicated;
  return comm::Communicator(comm).all(edge_check::replicated_bytes(d, chunk_edges, global_edges) <=
                                      edge_check::owner_queries_bytes(d, omp_get_max_threads(), chunk_edges));
}

// Collective: keeps the failing edge only where it is the lowest of all ranks' (by lower id, then
// higher id), so the message does not depend on where the edges were read or checked.
void keep_lowest_bad_edge(EdgeCheck& result, MPI_Comm comm) {
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  const comm::Communicator ranks(comm);
  const int64_t lo = ranks.min(result.bad ? result.bad_v : kNone);
  const int64_t hi = ranks.min(result.bad && result.bad_v == lo ? result.bad_u : kNone);
  result.bad = result.bad && result.bad_v == lo && result.bad_u == hi;
}

}  // namespace

EdgeCheck check_input_edges(const graph::EdgeSource& source, const graph::Distribution& d,
                            const graph::ProcessGrid& grid, const std::vector<int64_t>& parents,
                            const std::vector<int32_t>& depth, int32_t max_depth, const EdgeCheckOptions& given,
                            util::Bitmap& tree_edge_seen) {
  EdgeCheckOptions options = given;
  const bool default_chunk = options.chunk_edges <= 0;
  if (default_chunk) options.chunk_edges = check_chunk_edges(source.local_count);
  const bool narrow = options.narrow_depths && max_depth <= kNarrowMaxDepth;
  if (replicated_way(d, options.way, std::min(source.local_count, options.chunk_edges), source.global_edges,
                     grid.world())) {
    EdgeCheck result = edge_check::check_replicated(source, d, grid, parents, depth, narrow, options, tree_edge_seen);
    keep_lowest_bad_edge(result, grid.world());
    return result;
  }
  if (default_chunk && options.fullest_owner_load > 1)
    options.chunk_edges = std::max<int64_t>(
        1, static_cast<int64_t>(static_cast<double>(options.chunk_edges) / options.fullest_owner_load));
  EdgeCheck result =
      edge_check::check_by_owners(source, d, grid, parents, depth, max_depth, narrow, options, tree_edge_seen);
  keep_lowest_bad_edge(result, grid.world());
  return result;
}

double input_edge_check_bytes(const graph::Distribution& d, int threads, int64_t local_edges, int64_t global_edges) {
  const int64_t chunk = std::min(local_edges, check_chunk_edges(local_edges));
  return std::min(edge_check::replicated_bytes(d, chunk, global_edges),
                  edge_check::owner_queries_bytes(d, threads, chunk));
}

}  // namespace g500::validate
