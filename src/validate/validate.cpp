#include "validate/validate.hpp"

#include <omp.h>

#include <atomic>
#include <cstdlib>

#include "comm/exchange.hpp"
#include "graph/column_blocks.hpp"
#include "util/agree.hpp"
#include "util/bitmap.hpp"

namespace g500 {

uint64_t splitmix64_finalizer(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

namespace {

constexpr int32_t kUnreached = -1;

int owner_rank(const Distribution& d, const ProcessGrid& grid, int64_t v) {
  return grid.world_rank_of(d.owner_row(v), d.owner_col(v));
}
int64_t owned_offset(const Distribution& d, int64_t v) { return v % d.block; }

// Rule 1: parent values are vertex ids or -1, padding vertices unreached, the root its own parent.
std::string check_parent_values(const Distribution& d, int64_t root, const std::vector<int64_t>& parents) {
  const int64_t first = d.owned_begin();
  for (int64_t k = 0; k < d.block; ++k) {
    const int64_t v = first + k, p = parents[k];
    if (p < -1 || p >= d.nvertices || (v >= d.nvertices && p != -1))
      return "vertex " + std::to_string(v) + " has an invalid parent " + std::to_string(p);
    if (v == root && p != root) return "the root " + std::to_string(root) + " is not its own parent";
    if (v != root && p == v) return "vertex " + std::to_string(v) + " is its own parent but is not the root";
  }
  return {};
}

// Rule 2: depths by walking the tree down from the root, one level per round. A vertex with a
// parent but no depth afterwards sits on a cycle or below an unreached vertex. (Each vertex names
// one parent, so it is in one child list and gets its depth at most once.)
std::string compute_tree_depths(const Distribution& d, const ProcessGrid& grid, int64_t root,
                                const std::vector<int64_t>& parents, std::vector<int32_t>& depth) {
  const int nranks = grid.size();
  const int nthreads = omp_get_max_threads();
  comm::PhaseProfile unused;
  comm::AlltoallvFn alltoallv = comm::find_alltoallv("mpi");
  const int64_t first = d.owned_begin();
  // Children lists at each parent's owner.
  comm::ThreadBuckets out = comm::make_thread_buckets(nthreads, nranks);
#pragma omp parallel num_threads(nthreads)
  {
    auto& mine = out[omp_get_thread_num()];
#pragma omp for schedule(static)
    for (int64_t k = 0; k < d.block; ++k) {
      const int64_t p = parents[k], v = first + k;
      if (p < 0 || v == root) continue;
      auto& bucket = mine[owner_rank(d, grid, p)];
      bucket.push_back(static_cast<uint64_t>(owned_offset(d, p)));
      bucket.push_back(static_cast<uint64_t>(v));
    }
  }
  comm::Received in = comm::exchange(out, grid.world(), alltoallv, unused);
  const int64_t nrecords = static_cast<int64_t>(in.records.size());
  std::vector<int64_t> child_start(d.block + 1, 0);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < nrecords; k += 2)
    std::atomic_ref<int64_t>(child_start[in.records[k] + 1]).fetch_add(1, std::memory_order_relaxed);
  for (int64_t k = 0; k < d.block; ++k) child_start[k + 1] += child_start[k];
  std::vector<int64_t> children(nrecords / 2);
  {
    std::vector<int64_t> cursor(child_start.begin(), child_start.end() - 1);
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < nrecords; k += 2) {
      const int64_t at = std::atomic_ref<int64_t>(cursor[in.records[k]]).fetch_add(1, std::memory_order_relaxed);
      children[at] = static_cast<int64_t>(in.records[k + 1]);
    }
  }

  depth.assign(d.block, kUnreached);
  std::vector<int64_t> frontier;
  if (root >= first && root < first + d.block) {
    depth[owned_offset(d, root)] = 0;
    frontier.push_back(owned_offset(d, root));
  }
  for (;;) {
    comm::clear_thread_buckets(out);
    const int64_t nfrontier = static_cast<int64_t>(frontier.size());
#pragma omp parallel num_threads(nthreads)
    {
      auto& mine = out[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 256)
      for (int64_t f = 0; f < nfrontier; ++f) {
        const int64_t p = frontier[f];
        for (int64_t c = child_start[p]; c < child_start[p + 1]; ++c) {
          const int64_t child = children[c];
          mine[owner_rank(d, grid, child)].push_back((static_cast<uint64_t>(owned_offset(d, child)) << 32) |
                                                     static_cast<uint32_t>(depth[p] + 1));
        }
      }
    }
    in = comm::exchange(out, grid.world(), alltoallv, unused);
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
    if (parents[k] >= 0 && depth[k] == kUnreached)
      return "the parent chain of vertex " + std::to_string(first + k) +
             " does not reach the root (a cycle or an unreached parent)";
  return {};
}

}  // namespace

ValidationResult validate_bfs(const LocalGraph& graph, const ProcessGrid& grid, int64_t root,
                              const std::vector<int64_t>& parents) {
  const Distribution& d = graph.dist;
  ValidationResult result;
  result.error = first_error(check_parent_values(d, root, parents), grid.world());
  if (!result.error.empty()) return result;
  std::vector<int32_t> depth;
  result.error = first_error(compute_tree_depths(d, grid, root, parents, depth), grid.world());
  if (!result.error.empty()) return result;

  // Depths of the row set and column set, parents of the row set, in the graph's ids (which differ
  // from the original ones when the graph is renumbered, 001 4.2).
  std::vector<int32_t> local_depth(d.block);
  std::vector<int64_t> local_parent(d.block);
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < d.block; ++k) {
    local_depth[k] = depth[graph.owned_original(k)];
    local_parent[k] = parents[graph.owned_original(k)];
  }
  std::vector<int32_t> row_depth(d.row_set_size()), col_depth(d.col_set_size());
  std::vector<int64_t> row_parent(d.row_set_size());
  const int block = static_cast<int>(d.block);
  MPI_Allgather(local_depth.data(), block, MPI_INT32_T, row_depth.data(), block, MPI_INT32_T, grid.row_comm());
  std::vector<int32_t> hosted_depth(d.columns_aligned() ? 0 : d.block);
  MPI_Allgather(hosted_column_block(local_depth.data(), hosted_depth.data(), block, MPI_INT32_T, d, grid), block,
                MPI_INT32_T, col_depth.data(), block, MPI_INT32_T, grid.col_comm());
  MPI_Allgather(local_parent.data(), block, MPI_INT64_T, row_parent.data(), block, MPI_INT64_T, grid.row_comm());

  // Rules 3 and 4 over this process's edges (v in the row set, u in the column set).
  Bitmap tree_edge_seen(d.row_set_size());
  int64_t reached_entries = 0;
  int64_t bad_v = -1, bad_u = -1;
  const int64_t nrows = d.row_set_size();
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : reached_entries)
  for (int64_t v = 0; v < nrows; ++v) {
    const int32_t dv = row_depth[v];
    const int64_t parent = row_parent[v];
    for (int64_t e = graph.row_begin(v); e < graph.row_end(v); ++e) {
      const LocalId u = graph.neighbors[e];
      const int32_t du = col_depth[u];
      if ((dv == kUnreached) != (du == kUnreached) || (dv != kUnreached && std::abs(dv - du) > 1)) {
#pragma omp critical(validate_bad_edge)
        if (bad_v < 0) {
          bad_v = v;
          bad_u = u;
        }
      }
      if (dv != kUnreached) ++reached_entries;
      if (parent >= 0 && parent == d.global_from_col_local(graph.original_col_local(u), d.col))
        tree_edge_seen.test_and_set_atomic(v);
    }
  }
  std::string local_error;
  if (bad_v >= 0) {
    const int64_t v = d.global_from_row_local(graph.original_row_local(static_cast<LocalId>(bad_v)), d.row);
    const int64_t u = d.global_from_col_local(graph.original_col_local(static_cast<LocalId>(bad_u)), d.col);
    local_error = "edge (" + std::to_string(v) + ", " + std::to_string(u) + ") joins depths " +
                  std::to_string(row_depth[bad_v]) + " and " + std::to_string(col_depth[bad_u]) +
                  " (-1 = unreached): levels must differ by at most one and the tree must span the component";
  }
  result.error = first_error(local_error, grid.world());
  if (!result.error.empty()) return result;

  std::vector<uint64_t> owned_seen(d.block / kBitsPerWord);
  MPI_Reduce_scatter_block(tree_edge_seen.data(), owned_seen.data(), static_cast<int>(d.block / kBitsPerWord),
                           MPI_UINT64_T, MPI_BOR, grid.row_comm());
  const int64_t first = d.owned_begin();
  int64_t degree_sum = 0;
  int32_t max_depth = 0;
  for (int64_t k = 0; k < d.block; ++k) {
    if (depth[k] == kUnreached) continue;
    const int64_t v = first + k;
    degree_sum += graph.owned_degree[k];
    max_depth = std::max(max_depth, depth[k]);
    const int64_t local = graph.owned_local(k);
    if (v != root && !((owned_seen[local / kBitsPerWord] >> (local % kBitsPerWord)) & 1U) && local_error.empty())
      local_error = "the parent " + std::to_string(parents[k]) + " of vertex " + std::to_string(v) +
                    " is not one of its neighbours";
  }
  result.error = first_error(local_error, grid.world());
  if (!result.error.empty()) return result;

  int32_t global_max_depth = 0;
  MPI_Allreduce(&max_depth, &global_max_depth, 1, MPI_INT32_T, MPI_MAX, grid.world());
  std::vector<int64_t> levels(global_max_depth + 1, 0);
  uint64_t hash = 0;
  for (int64_t k = 0; k < d.block; ++k) {
    if (depth[k] == kUnreached) continue;
    ++levels[depth[k]];
    hash += splitmix64_finalizer(static_cast<uint64_t>(first + k) * 64 + static_cast<uint64_t>(depth[k]));
  }
  MPI_Allreduce(MPI_IN_PLACE, levels.data(), static_cast<int>(levels.size()), MPI_INT64_T, MPI_SUM, grid.world());
  MPI_Allreduce(MPI_IN_PLACE, &hash, 1, MPI_UINT64_T, MPI_SUM, grid.world());
  int64_t counts[2] = {reached_entries, degree_sum};
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, grid.world());
  if (counts[0] != counts[1]) {
    result.error = "TEPS edge count mismatch: " + std::to_string(counts[0]) + " edge entries with reached endpoints but " +
                   std::to_string(counts[1]) + " by the reached vertices' degrees";
    return result;
  }
  result.level_sizes = levels;
  for (int64_t size : levels) result.reached += size;
  result.nedge = counts[0] / 2;
  result.depth_hash = hash;
  result.ok = true;
  return result;
}

}  // namespace g500
