// Rules 3 and 4 on the input edges (edge_check.hpp): the way that needs less memory, then the
// lowest failing edge agreed over the ranks.
#include "validate/edge_check.hpp"

#include <mpi.h>
#include <omp.h>

#include <limits>

#include "comm/typed.hpp"
#include "validate/edge_check_parts.hpp"

namespace g500::validate {
namespace {

// Collective: every rank must take the same way, even one started with another thread count.
bool replicated_way(const graph::Distribution& d, EdgeCheckWay way, MPI_Comm comm) {
  if (way != EdgeCheckWay::kFewerBytes) return way == EdgeCheckWay::kReplicated;
  return comm::Communicator(comm).all(edge_check::replicated_bytes(d) <=
                                      edge_check::owner_queries_bytes(d, omp_get_max_threads()));
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
                            const std::vector<int32_t>& depth, int32_t max_depth, const EdgeCheckOptions& options,
                            util::Bitmap& tree_edge_seen) {
  const bool narrow = options.narrow_depths && max_depth <= kNarrowMaxDepth;
  EdgeCheck result =
      replicated_way(d, options.way, grid.world())
          ? edge_check::check_replicated(source, d, grid, parents, depth, narrow, options, tree_edge_seen)
          : edge_check::check_by_owners(source, d, grid, parents, depth, max_depth, narrow, options, tree_edge_seen);
  keep_lowest_bad_edge(result, grid.world());
  return result;
}

double input_edge_check_bytes(const graph::Distribution& d, int threads) {
  return std::min(edge_check::replicated_bytes(d), edge_check::owner_queries_bytes(d, threads));
}

}  // namespace g500::validate
