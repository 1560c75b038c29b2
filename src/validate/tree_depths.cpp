// Tree depths from a parent array. On several processes the children of every vertex are sent to
// the vertex's owner, then the tree is walked down from the root one level per round; on one
// process each vertex follows its parent chain up to a vertex of known depth.
#include "validate/tree_depths.hpp"

#include <omp.h>

#include <atomic>

#include "comm/exchange.hpp"
#include "util/agree.hpp"

namespace g500 {
namespace {

int owner_rank(const Distribution& d, const ProcessGrid& grid, int64_t v) {
  return grid.world_rank_of(d.owner_row(v), d.owner_col(v));
}
int64_t owned_offset(const Distribution& d, int64_t v) { return v % d.block; }

// The owned vertices' children, grouped by parent: children of owned offset k are
// children[start[k] .. start[k + 1]), each as (child's owner rank << 32 | child's owned offset).
struct ChildLists {
  std::vector<int64_t> start;
  std::vector<uint64_t> children;
};

// Collective: one record (parent's owned offset << 32 | child's owned offset) per child goes to
// the parent's owner; the child's owner is the rank the record came from. Offsets fit in 32 bits
// (B <= 2^32, checked when the graph is built).
ChildLists exchange_child_lists(const Distribution& d, const ProcessGrid& grid, int64_t root,
                                const std::vector<int64_t>& parents, comm::ThreadBuckets& out) {
  const int nranks = grid.size();
  const int64_t first = d.owned_begin();
  comm::PhaseProfile unused;
#pragma omp parallel
  {
    auto& mine = out[omp_get_thread_num()];
#pragma omp for schedule(static)
    for (int64_t k = 0; k < d.block; ++k) {
      const int64_t p = parents[k], v = first + k;
      if (p < 0 || v == root) continue;
      mine[owner_rank(d, grid, p)].push_back((static_cast<uint64_t>(owned_offset(d, p)) << 32) |
                                             static_cast<uint64_t>(k));
    }
  }
  const comm::Received in = comm::exchange(out, grid.world(), comm::find_alltoallv("mpi"), unused, grid.limits());
  const int64_t nrecords = static_cast<int64_t>(in.records.size());
  ChildLists lists;
  lists.start.assign(d.block + 1, 0);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < nrecords; ++r)
    std::atomic_ref<int64_t>(lists.start[(in.records[r] >> 32) + 1]).fetch_add(1, std::memory_order_relaxed);
  for (int64_t k = 0; k < d.block; ++k) lists.start[k + 1] += lists.start[k];
  lists.children.resize(nrecords);
  std::vector<int64_t> cursor(lists.start.begin(), lists.start.end() - 1);
#pragma omp parallel
  for (int source = 0; source < nranks; ++source) {
    const int64_t begin = in.displs[source], end = begin + in.counts[source];
#pragma omp for schedule(static)
    for (int64_t r = begin; r < end; ++r) {
      const int64_t at = std::atomic_ref<int64_t>(cursor[in.records[r] >> 32]).fetch_add(1, std::memory_order_relaxed);
      lists.children[at] = (static_cast<uint64_t>(source) << 32) | (in.records[r] & 0xffffffffU);
    }
  }
  return lists;
}

// Several processes: depths by walking the child lists down from the root, one level per round.
// A vertex with a parent but no depth afterwards sits on a cycle or below an unreached vertex.
// (Each vertex names one parent, so it is in one child list and gets its depth at most once.)
std::string walk_levels(const Distribution& d, const ProcessGrid& grid, int64_t root,
                        const std::vector<int64_t>& parents, std::vector<int32_t>& depth) {
  const int64_t first = d.owned_begin();
  comm::ThreadBuckets out = comm::make_thread_buckets(omp_get_max_threads(), grid.size());
  const ChildLists lists = exchange_child_lists(d, grid, root, parents, out);
  comm::PhaseProfile unused;
  depth.assign(d.block, kUnreachedDepth);
  std::vector<int64_t> frontier;
  if (root >= first && root < first + d.block) {
    depth[owned_offset(d, root)] = 0;
    frontier.push_back(owned_offset(d, root));
  }
  for (;;) {
    comm::clear_thread_buckets(out);
    const int64_t nfrontier = static_cast<int64_t>(frontier.size());
#pragma omp parallel
    {
      auto& mine = out[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 256)
      for (int64_t f = 0; f < nfrontier; ++f) {
        const int64_t p = frontier[f];
        const uint32_t child_depth = static_cast<uint32_t>(depth[p] + 1);
        for (int64_t c = lists.start[p]; c < lists.start[p + 1]; ++c)
          mine[lists.children[c] >> 32].push_back((lists.children[c] << 32) | child_depth);
      }
    }
    const comm::Received in = comm::exchange(out, grid.world(), comm::find_alltoallv("mpi"), unused, grid.limits());
    frontier.resize(in.records.size());
#pragma omp parallel for schedule(static)
    for (size_t r = 0; r < in.records.size(); ++r) {
      const int64_t k = static_cast<int64_t>(in.records[r] >> 32);
      depth[k] = static_cast<int32_t>(in.records[r] & 0xffffffffU);
      frontier[r] = k;
    }
    int64_t active = static_cast<int64_t>(frontier.size());
    MPI_Allreduce(MPI_IN_PLACE, &active, 1, MPI_INT64_T, MPI_SUM, grid.world());
    if (active == 0) break;
  }
  for (int64_t k = 0; k < d.block; ++k)
    if (parents[k] >= 0 && depth[k] == kUnreachedDepth)
      return "the parent chain of vertex " + std::to_string(first + k) +
             " does not reach the root (a cycle or an unreached parent)";
  return {};
}

// One process (it owns every vertex, offsets are the ids): each vertex walks up its
// parent chain to the first vertex whose depth is known, then walks it again writing the depths.
// A chain that ends at an unreached vertex or at one already known to fail, or that runs into a
// cycle (Brent's detection: at most a few times tail + cycle steps), marks its vertices failed.
// Threads may walk the same chain; they write the same values, so the races are benign.
std::string walk_chains(const Distribution& d, int64_t root, const std::vector<int64_t>& parents,
                        std::vector<int32_t>& depth) {
  constexpr int32_t kUnknown = -2, kFailed = -3;
  const int64_t n = d.block;
  depth.resize(n);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) depth[v] = parents[v] < 0 ? kUnreachedDepth : kUnknown;
  depth[root] = 0;
  auto load = [&](int64_t x) { return std::atomic_ref<int32_t>(depth[x]).load(std::memory_order_relaxed); };
  auto store = [&](int64_t x, int32_t value) {
    std::atomic_ref<int32_t>(depth[x]).store(value, std::memory_order_relaxed);
  };
#pragma omp parallel for schedule(dynamic, 4096)
  for (int64_t v = 0; v < n; ++v) {
    if (load(v) != kUnknown) continue;
    // Up to the first vertex that is not unknown, counting the steps.
    int64_t x = v, steps = 0, saved = v, power = 1, lambda = 0;
    int32_t end = kFailed;
    for (;;) {
      const int32_t dx = load(x);
      if (dx != kUnknown) {
        end = dx;
        break;
      }
      x = parents[x];
      ++steps;
      if (x == saved) break;  // a cycle: end stays kFailed
      if (++lambda == power) {
        saved = x;
        power *= 2;
        lambda = 0;
      }
    }
    const bool reached = end >= 0;
    x = v;
    for (int64_t s = 0; s < steps; ++s) {
      if (!reached && load(x) == kFailed) break;
      store(x, reached ? static_cast<int32_t>(end + steps - s) : kFailed);
      x = parents[x];
    }
  }
  for (int64_t k = 0; k < n; ++k)
    if (parents[k] >= 0 && depth[k] < 0)
      return "the parent chain of vertex " + std::to_string(k) +
             " does not reach the root (a cycle or an unreached parent)";
  return {};
}

}  // namespace

std::string tree_depths(const Distribution& d, const ProcessGrid& grid, int64_t root,
                        const std::vector<int64_t>& parents, std::vector<int32_t>& depth, bool local_walk) {
  const bool one_process = grid.size() == 1 && local_walk;
  return first_error(one_process ? walk_chains(d, root, parents, depth) : walk_levels(d, grid, root, parents, depth),
                     grid.world());
}

}  // namespace g500
