// Tree depths from a parent array. On several processes the tree is walked down from the root
// one level per round (validate/tree_levels.hpp); on one process each vertex follows its parent
// chain up to a vertex of known depth.
#include "validate/tree_depths.hpp"

#include <omp.h>

#include <atomic>

#include "util/agree.hpp"
#include "util/atomic_ref.hpp"
#include "validate/tree_levels.hpp"

namespace g500::validate {
namespace {

// One process (it owns every vertex, offsets are the ids): each vertex walks up its
// parent chain to the first vertex whose depth is known, then walks it again writing the depths.
// A chain that ends at an unreached vertex or at one already known to fail, or that runs into a
// cycle (Brent's detection: at most a few times tail + cycle steps), marks its vertices failed.
// Threads may walk the same chain; they write the same values, so the races are benign.
std::string walk_chains(const graph::Distribution& d, int64_t root, const std::vector<int64_t>& parents,
                        std::vector<int32_t>& depth) {
  constexpr int32_t kUnknown = -2, kFailed = -3;
  const int64_t n = d.block;
  depth.resize(n);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) depth[v] = parents[v] < 0 ? kUnreachedDepth : kUnknown;
  depth[root] = 0;
  auto load = [&](int64_t x) { return util::AtomicRef<int32_t>(depth[x]).load(std::memory_order_relaxed); };
  auto store = [&](int64_t x, int32_t value) {
    util::AtomicRef<int32_t>(depth[x]).store(value, std::memory_order_relaxed);
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

std::string tree_depths(const graph::Distribution& d, const graph::ProcessGrid& grid, int64_t root,
                        const std::vector<int64_t>& parents, std::vector<int32_t>& depth, TreeWalk walk) {
  std::string error;
  if (walk == TreeWalk::kDefault && grid.size() == 1)
    error = walk_chains(d, root, parents, depth);
  else
    error = walk_tree_levels(d, grid, root, parents, depth, walk == TreeWalk::kChildLists);
  return util::first_error(error, grid.world());
}

double tree_depths_bytes(const graph::Distribution& d, int nranks) {
  const double depths = static_cast<double>(d.block) * sizeof(int32_t);
  return depths + (nranks == 1 ? 0.0 : tree_levels_bytes(d));
}

}  // namespace g500::validate
