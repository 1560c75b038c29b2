#include "graph/owned_degrees.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "comm/collectives.hpp"
#include "comm/large_count.hpp"
#include "util/bitmap.hpp"

namespace g500::graph {

std::vector<int64_t> owned_degrees(RowLengths& lengths, const Distribution& d, const ProcessGrid& grid) {
  std::vector<int64_t> degree;
  if (grid.cols() == 1) {
    degree = lengths.take_whole();
    degree.resize(d.block);  // the lengths may have room beyond the rows
    return degree;
  }
  degree.assign(d.block, 0);
  if (lengths.is_whole()) {
    comm::reduce_scatter_block(lengths.whole_data(), degree.data(), d.block, MPI_INT64_T, MPI_SUM, grid.row_comm(),
                               grid.limits());
    return degree;
  }
  // Kept for the rows met: each sent to its block's owner as (offset in the block, length), 8
  // bytes per row met instead of a word per row of the set.
  comm::AlltoallvLayout layout;
  layout.send_counts.assign(static_cast<size_t>(grid.cols()), 0);
  lengths.for_each_row_met([&](int64_t x, uint32_t) { ++layout.send_counts[static_cast<size_t>(x / d.block)]; });
  std::vector<uint64_t> send;
  send.reserve(static_cast<size_t>(std::accumulate(layout.send_counts.begin(), layout.send_counts.end(), int64_t{0})));
  lengths.for_each_row_met(
      [&](int64_t x, uint32_t n) { send.push_back(static_cast<uint64_t>(x % d.block) << 32 | n); });
  comm::exchange_counts(layout, grid.row_comm());
  std::vector<uint64_t> received(static_cast<size_t>(layout.recv_total));
  comm::alltoallv(send.data(), received.data(), MPI_UINT64_T, layout, grid.row_comm(), comm::find_alltoallv("mpi"),
                  grid.limits());
  for (const uint64_t r : received) degree[static_cast<size_t>(r >> 32)] += static_cast<uint32_t>(r);
  return degree;
}

void make_search_tables(LocalGraph& g) {
  const int64_t n = static_cast<int64_t>(g.owned_degree.size());
  const LocalId* original = g.renumbering.active() ? g.renumbering.owned_original.data() : nullptr;
  g.degree_in_graph_order.resize(n);
  g.without_edges.assign(util::words_for_bits(n), 0);
  const int64_t words = static_cast<int64_t>(g.without_edges.size());
  constexpr int64_t kSaturated = std::numeric_limits<uint32_t>::max();
#pragma omp parallel for schedule(static)
  for (int64_t w = 0; w < words; ++w) {  // a word's 64 vertices in one thread: no shared words
    uint64_t empty = 0;
    for (int64_t k = w * util::kBitsPerWord; k < std::min(n, (w + 1) * util::kBitsPerWord); ++k) {
      const int64_t degree = g.owned_degree[original ? original[k] : k];
      g.degree_in_graph_order[k] = static_cast<uint32_t>(std::min(degree, kSaturated));
      if (degree == 0) empty |= uint64_t{1} << (k % util::kBitsPerWord);
    }
    g.without_edges[w] = empty;
  }
}

}  // namespace g500::graph
