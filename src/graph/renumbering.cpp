#include "graph/renumbering.hpp"

#include <algorithm>

#include "comm/large_count.hpp"
#include "graph/column_blocks.hpp"
#include "util/huge_pages.hpp"

namespace g500 {

std::vector<LocalId> degree_order(const std::vector<int64_t>& degree) {
  const int64_t n = static_cast<int64_t>(degree.size());
  int64_t max_degree = 0;
  for (int64_t x : degree) max_degree = std::max(max_degree, x);
  std::vector<LocalId> order(n);
  if (max_degree > 4 * n + 1024) {  // a huge hub (file input): buckets would cost more than sorting
    for (int64_t k = 0; k < n; ++k) order[k] = static_cast<LocalId>(k);
    std::stable_sort(order.begin(), order.end(), [&](LocalId a, LocalId b) { return degree[a] > degree[b]; });
    return order;
  }
  // Bucket b holds degree max_degree - b, so ascending buckets are descending degrees.
  std::vector<int64_t> start(max_degree + 2, 0);
  for (int64_t x : degree) ++start[max_degree - x + 1];
  for (int64_t b = 1; b < max_degree + 2; ++b) start[b] += start[b - 1];
  for (int64_t k = 0; k < n; ++k) order[start[max_degree - degree[k]]++] = static_cast<LocalId>(k);
  return order;
}

namespace {

// Gathers every process's per-block table along `comm` (ordered by block position) and turns the
// offsets into ids of the whole set: id = position * B + table[position][offset].
std::vector<LocalId> gather_set_map(const void* block_table, int64_t block, int positions, MPI_Comm comm,
                                    const MessageLimits& limits, bool huge_pages = false) {
  std::vector<LocalId> set_map;
  if (huge_pages)
    assign_huge(set_map, static_cast<size_t>(block) * positions, LocalId{0});
  else
    set_map.resize(static_cast<size_t>(block) * positions);
  comm::allgather(block_table, set_map.data(), block, MPI_UINT32_T, comm, limits);
#pragma omp parallel for schedule(static)
  for (int64_t x = 0; x < block * positions; ++x) set_map[x] += static_cast<LocalId>(x / block * block);
  return set_map;
}

}  // namespace

Renumbering build_renumbering(const std::vector<int64_t>& owned_degree, const Distribution& d, const ProcessGrid& grid,
                              ForwardMaps& forward) {
  Renumbering r;
  r.owned_original = degree_order(owned_degree);
  r.owned_new.resize(r.owned_original.size());
  const int64_t n = static_cast<int64_t>(r.owned_original.size());
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < n; ++k) r.owned_new[r.owned_original[k]] = static_cast<LocalId>(k);
  // The row set of grid row i is the blocks of P(i, 0..C-1) by grid column, the column set of grid
  // column j the blocks hosted by P(0..R-1, j) by grid row: the communicators' rank orders. With
  // the row-major layout the hosted blocks first come from their owners (a transpose).
  std::vector<LocalId> hosted(d.block);
  auto hosted_table = [&](const std::vector<LocalId>& owned) {
    return hosted_column_block(owned.data(), hosted.data(), d.block, MPI_UINT32_T, d, grid);
  };
  const MessageLimits& limits = grid.limits();
  forward.row_new = gather_set_map(r.owned_new.data(), d.block, d.C, grid.row_comm(), limits);
  // Kernel 1 looks up a column's new id (its sort key) for every entry, at random: huge pages
  // spare a page walk per lookup (5 % of kernel 1 at SCALE 26, util/huge_pages.hpp).
  forward.col_new = gather_set_map(hosted_table(r.owned_new), d.block, d.R, grid.col_comm(), limits, true);
  r.row_original = gather_set_map(r.owned_original.data(), d.block, d.C, grid.row_comm(), limits);
  r.col_original = gather_set_map(hosted_table(r.owned_original), d.block, d.R, grid.col_comm(), limits);
  return r;
}

}  // namespace g500
