#include "graph/renumbering.hpp"

#include <omp.h>

#include <algorithm>

#include "comm/large_count.hpp"
#include "graph/column_blocks.hpp"
#include "util/huge_pages.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

namespace {

// Degrees below this are counted per thread (a histogram of this many counters each); the few
// vertices of higher degree are sorted by comparison.
constexpr int64_t kCountedDegrees = int64_t{1} << 12;

}  // namespace

std::vector<LocalId> degree_order(const std::vector<int64_t>& degree) {
  std::vector<LocalId> order(degree.size());
  degree_order(degree, order.data());
  return order;
}

void degree_order(const std::vector<int64_t>& degree, LocalId* order) {
  const int64_t n = static_cast<int64_t>(degree.size());
  const int threads = omp_get_max_threads();
  // Thread t takes the offsets [n t / T, n (t + 1) / T): its counts per degree, its high-degree
  // vertices in ascending offsets.
  std::vector<std::vector<int64_t>> count(threads, std::vector<int64_t>(kCountedDegrees, 0));
  std::vector<std::vector<LocalId>> high(threads);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    std::vector<int64_t>& mine = count[t];
    for (int64_t k = n * t / threads; k < n * (t + 1) / threads; ++k) {
      if (degree[k] < kCountedDegrees)
        ++mine[degree[k]];
      else
        high[t].push_back(static_cast<LocalId>(k));
    }
  }
  // The high degrees first (descending, ties by offset), then degree kCountedDegrees - 1 down to
  // 0, each degree's offsets thread by thread: ascending.
  int64_t at = 0;
  for (const std::vector<LocalId>& h : high) {
    std::copy(h.begin(), h.end(), order + at);
    at += static_cast<int64_t>(h.size());
  }
  std::sort(order, order + at,
            [&](LocalId a, LocalId b) { return degree[a] > degree[b] || (degree[a] == degree[b] && a < b); });
  for (int64_t x = kCountedDegrees - 1; x >= 0; --x)
    for (int t = 0; t < threads; ++t) {
      const int64_t here = count[t][x];
      count[t][x] = at;
      at += here;
    }
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    std::vector<int64_t>& next = count[t];
    for (int64_t k = n * t / threads; k < n * (t + 1) / threads; ++k)
      if (degree[k] < kCountedDegrees) order[next[degree[k]]++] = static_cast<LocalId>(k);
  }
}

namespace {

// The map of a set of `positions` blocks along `comm` (ordered by block position), from every
// process's table of its block: id = position * B + table[position][offset]. A set of one block
// whose table is this process's own `owned` is that table, shared.
IdTable gather_set_map(const IdTable& owned, const void* block_table, int64_t block, int positions, MPI_Comm comm,
                       const util::MessageLimits& limits) {
  if (positions == 1 && block_table == owned.data()) return owned;
  util::LargeArray<LocalId> set_map;
  set_map.resize(static_cast<size_t>(block) * positions);
  comm::allgather(block_table, set_map.data(), block, local_id_datatype(), comm, limits);
#pragma omp parallel for schedule(static)
  for (int64_t x = 0; x < block * positions; ++x) set_map[x] += static_cast<LocalId>(x / block * block);
  return IdTable(std::move(set_map));
}

}  // namespace

Renumbering build_renumbering(const std::vector<int64_t>& owned_degree) {
  Renumbering r;
  const int64_t n = static_cast<int64_t>(owned_degree.size());
  // Kernel 1 looks up a column's new id (its sort key) for every entry, at random: huge pages for
  // the column map spare a page walk per lookup (5 % of kernel 1 at SCALE 26,
  // util/huge_pages.hpp). On a grid of one row the column map is this table.
  util::LargeArray<LocalId> owned_new, owned_original;
  util::resize_huge_unwritten(owned_new, static_cast<size_t>(n));
  owned_original.resize(static_cast<size_t>(n));
  degree_order(owned_degree, owned_original.data());
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < n; ++k) owned_new[owned_original[k]] = static_cast<LocalId>(k);
  r.owned_new = IdTable(std::move(owned_new));
  r.owned_original = IdTable(std::move(owned_original));
  return r;
}

void gather_set_maps(Renumbering& r, const Distribution& d, const ProcessGrid& grid, ForwardMaps& forward) {
  // The row set of grid row i is the blocks of P(i, 0..C-1) by grid column, the column set of grid
  // column j the blocks hosted by P(0..R-1, j) by grid row: the communicators' rank orders. With
  // the row-major layout the hosted blocks first come from their owners (a transpose).
  const util::MessageLimits& limits = grid.limits();
  forward.row_new = gather_set_map(r.owned_new, r.owned_new.data(), d.block, d.C, grid.row_comm(), limits);
  r.row_original = gather_set_map(r.owned_original, r.owned_original.data(), d.block, d.C, grid.row_comm(), limits);
  std::vector<LocalId> hosted(d.block);
  auto hosted_table = [&](const IdTable& owned) {
    return hosted_column_block(owned.data(), hosted.data(), d.block, local_id_datatype(), d, grid);
  };
  forward.col_new = gather_set_map(r.owned_new, hosted_table(r.owned_new), d.block, d.R, grid.col_comm(), limits);
  r.col_original =
      gather_set_map(r.owned_original, hosted_table(r.owned_original), d.block, d.R, grid.col_comm(), limits);
}

}  // namespace g500::graph
