#include "validate/validate_bfs.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "comm/exchange.hpp"
#include "graph/column_blocks.hpp"
#include "util/agree.hpp"
#include "util/bitmap.hpp"
#include "util/splitmix64.hpp"

namespace g500 {

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
  // Children lists at each parent's owner: one record (parent's owned offset << 32 | child's owned
  // offset) per child; the child's owner is the rank the record came from. Offsets fit in 32 bits
  // (B <= 2^32, checked at start).
  comm::ThreadBuckets out = comm::make_thread_buckets(nthreads, nranks);
#pragma omp parallel num_threads(nthreads)
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
  comm::Received in = comm::exchange(out, grid.world(), alltoallv, unused);
  const int64_t nrecords = static_cast<int64_t>(in.records.size());
  std::vector<int64_t> child_start(d.block + 1, 0);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < nrecords; ++r)
    std::atomic_ref<int64_t>(child_start[(in.records[r] >> 32) + 1]).fetch_add(1, std::memory_order_relaxed);
  for (int64_t k = 0; k < d.block; ++k) child_start[k + 1] += child_start[k];
  // children: (child's owner rank << 32 | child's owned offset) by parent.
  std::vector<uint64_t> children(nrecords);
  {
    std::vector<int64_t> cursor(child_start.begin(), child_start.end() - 1);
#pragma omp parallel num_threads(nthreads)
    for (int source = 0; source < nranks; ++source) {
      const int64_t begin = in.displs[source], end = begin + in.counts[source];
#pragma omp for schedule(static)
      for (int64_t r = begin; r < end; ++r) {
        const int64_t at =
            std::atomic_ref<int64_t>(cursor[in.records[r] >> 32]).fetch_add(1, std::memory_order_relaxed);
        children[at] = (static_cast<uint64_t>(source) << 32) | (in.records[r] & 0xffffffffU);
      }
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
        const uint32_t child_depth = static_cast<uint32_t>(depth[p] + 1);
        for (int64_t c = child_start[p]; c < child_start[p + 1]; ++c)
          mine[children[c] >> 32].push_back((children[c] << 32) | child_depth);
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

// Rule 2 on one process (it owns every vertex, offsets are the ids): each vertex walks up its
// parent chain to the first vertex whose depth is known, then walks it again writing the depths.
// A chain that ends at an unreached vertex or at one already known to fail, or that runs into a
// cycle (Brent's detection: at most a few times tail + cycle steps), marks its vertices failed.
// Threads may walk the same chain; they write the same values, so the races are benign.
std::string compute_tree_depths_local(const Distribution& d, int64_t root, const std::vector<int64_t>& parents,
                                      std::vector<int32_t>& depth) {
  constexpr int32_t kUnknown = -2, kFailed = -3;
  const int64_t n = d.block;
  depth.resize(n);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) depth[v] = parents[v] < 0 ? kUnreached : kUnknown;
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

// Depths as stored for the edge check: 0 for unreached, depth + 2 for reached. With depths up to
// max(T) - 3, (T)(du - dv + 1) <= 2 holds exactly when both are unreached or both are reached
// with depths at most one apart: differences are taken modulo 2^bits, and no stored reached value
// is within one (cyclically) of 0.
template <typename T>
T stored_depth(int32_t depth) {
  return depth == kUnreached ? T{0} : static_cast<T>(depth + 2);
}
template <typename T>
int64_t unstored_depth(T stored) {
  return stored == 0 ? -1 : static_cast<int64_t>(stored) - 2;
}
template <typename T>
bool depths_bad(T du, T dv) {
  return static_cast<T>(du - dv + 1) > T{2};
}

struct EdgeCheck {
  int64_t reached_entries = 0;
  int64_t bad_v = -1, bad_u = -1, bad_dv = 0, bad_du = 0;
};

// Rules 3 and 4 over this process's edges (v in the row set, u in the column set): the depth rule
// on every entry, and per row whether the row's parent (as a column-local id of this process's
// column set, -1 when it is elsewhere) is among its neighbours.
template <typename T>
EdgeCheck check_edges(const LocalGraph& graph, const std::vector<T>& row_depth, const std::vector<T>& col_depth,
                      const std::vector<int64_t>& row_target, Bitmap& tree_edge_seen) {
  EdgeCheck result;
  const RowIndex& rows = graph.rows;
  const bool compressed = rows.compressed();
  const int64_t* starts = rows.starts();
  const int64_t* word_offsets = rows.word_offsets();
  const uint64_t* has_edges = rows.has_edges().data();
  const int64_t nwords = rows.has_edges().num_words();
  const LocalId* neighbors = graph.neighbors.data();
  const int64_t nentries = graph.local_edges();
  constexpr int64_t kPrefetchDistance = 32;
  const T* cdepth = col_depth.data();
  uint64_t* seen = tree_edge_seen.data();
  int64_t reached_entries = 0;
  int64_t bad_v = std::numeric_limits<int64_t>::max();  // the lowest row with a bad entry
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : reached_entries) reduction(min : bad_v)
  for (int64_t w = 0; w < nwords; ++w) {
    uint64_t bits = has_edges[w];
    int64_t r = compressed ? word_offsets[w] : 0;
    uint64_t seen_word = 0;
    while (bits) {
      const int bit = std::countr_zero(bits);
      bits &= bits - 1;
      const int64_t v = w * kBitsPerWord + bit;
      const int64_t begin = compressed ? starts[r] : starts[v];
      const int64_t end = compressed ? starts[r + 1] : starts[v + 1];
      ++r;
      const T dv = row_depth[v];
      const int64_t target = row_target[v];
      bool bad = false, found = false;
      for (int64_t e = begin; e < end; ++e) {
        if (e + kPrefetchDistance < nentries) __builtin_prefetch(cdepth + neighbors[e + kPrefetchDistance]);
        const LocalId u = neighbors[e];
        bad |= depths_bad(cdepth[u], dv);
        found |= static_cast<int64_t>(u) == target;
      }
      if (dv != 0) reached_entries += end - begin;
      if (found) seen_word |= uint64_t{1} << bit;
      if (bad && v < bad_v) bad_v = v;
    }
    seen[w] = seen_word;
  }
  result.reached_entries = reached_entries;
  if (bad_v != std::numeric_limits<int64_t>::max()) {
    result.bad_v = bad_v;
    result.bad_dv = unstored_depth(row_depth[bad_v]);
    for (int64_t e = graph.row_begin(bad_v); e < graph.row_end(bad_v); ++e)
      if (depths_bad(cdepth[neighbors[e]], row_depth[bad_v])) {
        result.bad_u = neighbors[e];
        result.bad_du = unstored_depth(cdepth[neighbors[e]]);
        break;
      }
  }
  return result;
}

// Depths (stored as T) of the row set and the column set in the graph's ids, gathered from the
// owners' depths (original offsets).
template <typename T>
void gather_depths(const LocalGraph& graph, const ProcessGrid& grid, const std::vector<int32_t>& depth,
                   std::vector<T>& row_depth, std::vector<T>& col_depth) {
  const Distribution& d = graph.dist;
  row_depth.resize(d.row_set_size());
  col_depth.resize(d.col_set_size());
  T* row_mine = row_depth.data() + static_cast<int64_t>(d.col) * d.block;  // the communicators' orders
  T* col_mine = col_depth.data() + static_cast<int64_t>(d.row) * d.block;
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < d.block; ++k) row_mine[k] = stored_depth<T>(depth[graph.owned_original(k)]);
  const int count = static_cast<int>(d.block * sizeof(T));
  // The column set's block at our position: ours with Yoo's layout, else from its owner.
  const void* hosted = hosted_column_block(row_mine, col_mine, count, MPI_BYTE, d, grid);
  if (hosted != col_mine) std::memcpy(col_mine, hosted, count);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, row_depth.data(), count, MPI_BYTE, grid.row_comm());
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, col_depth.data(), count, MPI_BYTE, grid.col_comm());
}

template <typename T>
EdgeCheck gather_and_check_edges(const LocalGraph& graph, const ProcessGrid& grid, const std::vector<int32_t>& depth,
                                 const std::vector<int64_t>& row_target, Bitmap& tree_edge_seen) {
  std::vector<T> row_depth, col_depth;
  gather_depths(graph, grid, depth, row_depth, col_depth);
  return check_edges(graph, row_depth, col_depth, row_target, tree_edge_seen);
}

}  // namespace

ValidationResult validate_bfs(const LocalGraph& graph, const ProcessGrid& grid, int64_t root,
                              const std::vector<int64_t>& parents, const ValidateOptions& options) {
  const Distribution& d = graph.dist;
  ValidationResult result;
  result.error = first_error(check_parent_values(d, root, parents), grid.world());
  if (!result.error.empty()) return result;
  std::vector<int32_t> depth;
  const bool local_tree = grid.size() == 1 && options.local_tree_walk;
  result.error = first_error(local_tree ? compute_tree_depths_local(d, root, parents, depth)
                                        : compute_tree_depths(d, grid, root, parents, depth),
                             grid.world());
  if (!result.error.empty()) return result;
  int32_t max_depth = 0;
#pragma omp parallel for schedule(static) reduction(max : max_depth)
  for (int64_t k = 0; k < d.block; ++k) max_depth = std::max(max_depth, depth[k]);
  int32_t global_max_depth = 0;
  MPI_Allreduce(&max_depth, &global_max_depth, 1, MPI_INT32_T, MPI_MAX, grid.world());

  // Per row of the row set, its parent as a column-local id in the graph's ids of this process's
  // column set (-1 when unreached or in another column set): the only neighbour that can be the
  // tree edge (ids differ from the original ones when the graph is renumbered, Nakao et al. 2021, section 4.2).
  std::vector<int64_t> row_target(d.row_set_size());
  {
    int64_t* mine = row_target.data() + static_cast<int64_t>(d.col) * d.block;  // the row communicator's order
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < d.block; ++k) mine[k] = parents[graph.owned_original(k)];
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, row_target.data(), static_cast<int>(d.block), MPI_INT64_T,
                  grid.row_comm());
  }
  {
    // Original column-local id x = position * B + offset -> the graph's: position * B plus the new
    // offset in that position's block, from its owner's owned_new (the column set's blocks are
    // those hosted by P(0..R-1, j), in the column communicator's order).
    std::vector<LocalId> gathered_new;
    const LocalId* new_offset = nullptr;
    if (graph.renumbering.active()) {
      if (d.R == 1) {  // one block, ours (in both layouts)
        new_offset = graph.renumbering.owned_new.data();
      } else {
        gathered_new.resize(d.col_set_size());
        std::vector<LocalId> hosted(d.columns_aligned() ? 0 : d.block);
        MPI_Allgather(hosted_column_block(graph.renumbering.owned_new.data(), hosted.data(), static_cast<int>(d.block),
                                          MPI_UINT32_T, d, grid),
                      static_cast<int>(d.block), MPI_UINT32_T, gathered_new.data(), static_cast<int>(d.block),
                      MPI_UINT32_T, grid.col_comm());
        new_offset = gathered_new.data();
      }
    }
    const int64_t nrows = d.row_set_size();
#pragma omp parallel for schedule(static)
    for (int64_t v = 0; v < nrows; ++v) {
      const int64_t p = row_target[v];
      if (p < 0 || d.col_set_of(p) != d.col) {
        row_target[v] = -1;
        continue;
      }
      const LocalId x = d.col_local(p);
      row_target[v] = new_offset ? x - static_cast<LocalId>(d.by_block.remainder(x)) + new_offset[x] : x;
    }
  }
  Bitmap tree_edge_seen(d.row_set_size());
  EdgeCheck edges;
  if (options.narrow_depths && global_max_depth <= 252)
    edges = gather_and_check_edges<uint8_t>(graph, grid, depth, row_target, tree_edge_seen);
  else
    edges = gather_and_check_edges<uint32_t>(graph, grid, depth, row_target, tree_edge_seen);
  std::vector<int64_t>().swap(row_target);
  std::string local_error;
  if (edges.bad_v >= 0) {
    const int64_t v = d.global_from_row_local(graph.original_row_local(static_cast<LocalId>(edges.bad_v)), d.row);
    const int64_t u = d.global_from_col_local(graph.original_col_local(static_cast<LocalId>(edges.bad_u)), d.col);
    local_error = "edge (" + std::to_string(v) + ", " + std::to_string(u) + ") joins depths " +
                  std::to_string(edges.bad_dv) + " and " + std::to_string(edges.bad_du) +
                  " (-1 = unreached): levels must differ by at most one and the tree must span the component";
  }
  result.error = first_error(local_error, grid.world());
  if (!result.error.empty()) return result;

  std::vector<uint64_t> owned_seen(d.block / kBitsPerWord);
  MPI_Reduce_scatter_block(tree_edge_seen.data(), owned_seen.data(), static_cast<int>(d.block / kBitsPerWord),
                           MPI_UINT64_T, MPI_BOR, grid.row_comm());
  const int64_t first = d.owned_begin();
  int64_t degree_sum = 0;
  for (int64_t k = 0; k < d.block; ++k) {
    if (depth[k] == kUnreached) continue;
    const int64_t v = first + k;
    degree_sum += graph.owned_degree[k];
    const int64_t local = graph.owned_local(k);
    if (v != root && !((owned_seen[local / kBitsPerWord] >> (local % kBitsPerWord)) & 1U) && local_error.empty())
      local_error = "the parent " + std::to_string(parents[k]) + " of vertex " + std::to_string(v) +
                    " is not one of its neighbours";
  }
  result.error = first_error(local_error, grid.world());
  if (!result.error.empty()) return result;

  std::vector<int64_t> levels(global_max_depth + 1, 0);
  uint64_t hash = 0;
  for (int64_t k = 0; k < d.block; ++k) {
    if (depth[k] == kUnreached) continue;
    ++levels[depth[k]];
    hash += splitmix64(static_cast<uint64_t>(first + k) * 64 + static_cast<uint64_t>(depth[k]));
  }
  MPI_Allreduce(MPI_IN_PLACE, levels.data(), static_cast<int>(levels.size()), MPI_INT64_T, MPI_SUM, grid.world());
  MPI_Allreduce(MPI_IN_PLACE, &hash, 1, MPI_UINT64_T, MPI_SUM, grid.world());
  int64_t counts[2] = {edges.reached_entries, degree_sum};
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
