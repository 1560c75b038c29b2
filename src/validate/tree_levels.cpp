// Tree depths on several processes, one level per round: frontier bitmaps of all vertices while
// they are small and the tree shallow, child lists otherwise (tree_levels.hpp).
#include "validate/tree_levels.hpp"

#include <omp.h>

#include <atomic>
#include <memory>

#include "comm/exchange.hpp"
#include "comm/large_count.hpp"
#include "comm/typed.hpp"
#include "util/atomic_ref.hpp"
#include "util/bitmap.hpp"
#include "validate/tree_depths.hpp"

namespace g500::validate {
namespace {

// The child lists' peak per owned vertex: a record received (8 bytes) and its place in the lists
// (8) per child (at most one per owned vertex, on average), and the lists' start (8).
constexpr double kChildListBytes = 3 * sizeof(uint64_t);
// Levels walked with frontier bitmaps before the rest of a deeper tree goes by child lists: a
// bitmap round reads every owned vertex and gathers N bits, a list round only its level.
constexpr int32_t kBitmapRounds = 32;

int owner_rank(const graph::Distribution& d, const graph::ProcessGrid& grid, int64_t v) {
  return grid.world_rank_of(d.owner_row(v), d.owner_col(v));
}

// The frontier bitmaps (all vertices, and the owned part of the next level) against the lists.
bool bitmaps_fit(const graph::Distribution& d) {
  const double ranks = static_cast<double>(d.R) * d.C;
  return (ranks + 1) / util::kBitsPerWord * sizeof(uint64_t) <= kChildListBytes;
}

// Rounds with frontier bitmaps from the root's level until no vertex joins a level (returns
// true) or kBitmapRounds levels are done (returns false; `level` is the last level reached).
// Vertex v's bit is at its owner's world rank * B + its owned offset: the allgather's order.
bool walk_with_bitmaps(const graph::Distribution& d, const graph::ProcessGrid& grid, int64_t root,
                       const std::vector<int64_t>& parents, std::vector<int32_t>& depth, int32_t& level) {
  const int nranks = grid.size();
  std::vector<int64_t> bit_base(static_cast<size_t>(d.R) * d.C);  // per block: its owner's first bit
  for (int i = 0; i < d.R; ++i)
    for (int j = 0; j < d.C; ++j)
      bit_base[d.block_owned_by(i, j)] = static_cast<int64_t>(grid.world_rank_of(i, j)) * d.block;
  auto bit_of = [&](int64_t v) {
    const int64_t k = d.block_of(v);
    return bit_base[k] + (v - k * d.block);
  };
  const int64_t words = d.block / util::kBitsPerWord;
  std::vector<uint64_t> frontier(static_cast<size_t>(words) * nranks, 0), next(words);
  frontier[bit_of(root) / util::kBitsPerWord] |= uint64_t{1} << (bit_of(root) % util::kBitsPerWord);
  for (level = 0; level < kBitmapRounds; ++level) {
    const int32_t next_depth = level + 1;
    int64_t joined = 0;
#pragma omp parallel for schedule(static) reduction(+ : joined)
    for (int64_t w = 0; w < words; ++w) {
      uint64_t bits = 0;
      for (int b = 0; b < util::kBitsPerWord; ++b) {
        const int64_t k = w * util::kBitsPerWord + b;
        const int64_t p = parents[k];
        if (p < 0 || depth[k] != kUnreachedDepth) continue;
        const int64_t bit = bit_of(p);
        if (!((frontier[bit / util::kBitsPerWord] >> (bit % util::kBitsPerWord)) & 1U)) continue;
        depth[k] = next_depth;
        bits |= uint64_t{1} << b;
        ++joined;
      }
      next[w] = bits;
    }
    if (comm::Communicator(grid.world()).sum(joined) == 0) return true;
    comm::allgather(next.data(), frontier.data(), words, MPI_UINT64_T, grid.world(), grid.limits());
  }
  return false;
}

// The children of owned vertices that have no depth yet, grouped by parent: children of owned
// offset k are children[start[k] .. start[k + 1]), each as (child's owner rank << 32 | child's
// owned offset).
struct ChildLists {
  std::vector<int64_t> start;
  std::vector<uint64_t> children;
};

// One record (parent's owned offset << 32 | child's owned offset) per owned vertex with a parent
// but no depth, in a send buffer of exactly their size ordered by the parent's owner; sets
// layout.send_counts.
std::unique_ptr<uint64_t[]> pack_child_records(const graph::Distribution& d, const graph::ProcessGrid& grid,
                                               const std::vector<int64_t>& parents, const std::vector<int32_t>& depth,
                                               comm::AlltoallvLayout& layout) {
  const int nranks = grid.size(), nthreads = omp_get_max_threads();
  auto waiting = [&](int64_t k) { return parents[k] >= 0 && depth[k] == kUnreachedDepth; };
  // Counts per thread and destination, then each thread's place in the destination-major buffer.
  std::vector<int64_t> cursor(static_cast<size_t>(nthreads) * nranks, 0);
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    int64_t* mine = &cursor[static_cast<size_t>(t) * nranks];
    for (int64_t k = d.block * t / nthreads; k < d.block * (t + 1) / nthreads; ++k)
      if (waiting(k)) ++mine[owner_rank(d, grid, parents[k])];
  }
  layout.send_counts.assign(nranks, 0);
  int64_t total = 0;
  for (int r = 0; r < nranks; ++r)
    for (int t = 0; t < nthreads; ++t) {
      int64_t& c = cursor[static_cast<size_t>(t) * nranks + r];
      const int64_t here = c;
      c = total;
      total += here;
      layout.send_counts[r] += here;
    }
  std::unique_ptr<uint64_t[]> send(new uint64_t[total]);
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    int64_t* next = &cursor[static_cast<size_t>(t) * nranks];
    for (int64_t k = d.block * t / nthreads; k < d.block * (t + 1) / nthreads; ++k)
      if (waiting(k))
        send[next[owner_rank(d, grid, parents[k])]++] =
            (static_cast<uint64_t>(parents[k] % d.block) << 32) | static_cast<uint64_t>(k);
  }
  return send;
}

// The received records grouped by parent into child lists. start[k] first counts k's children,
// then (inclusive prefix sums) marks where they end; each record is placed just before its
// parent's mark and moves it down, so the marks end as the lists' starts, with no cursor array.
ChildLists group_by_parent(const uint64_t* records, const comm::AlltoallvLayout& layout, int64_t block, int nranks) {
  ChildLists lists;
  lists.start.assign(block + 1, 0);
  const int64_t nrecords = layout.recv_total;
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < nrecords; ++r)
    util::AtomicRef<int64_t>(lists.start[records[r] >> 32]).fetch_add(1, std::memory_order_relaxed);
  for (int64_t k = 1; k < block; ++k) lists.start[k] += lists.start[k - 1];
  lists.start[block] = nrecords;
  lists.children.resize(nrecords);
#pragma omp parallel
  for (int source = 0; source < nranks; ++source) {
    const int64_t begin = layout.recv_displs[source], end = begin + layout.recv_counts[source];
#pragma omp for schedule(static)
    for (int64_t r = begin; r < end; ++r) {
      const int64_t at =
          util::AtomicRef<int64_t>(lists.start[records[r] >> 32]).fetch_sub(1, std::memory_order_relaxed) - 1;
      lists.children[at] = (static_cast<uint64_t>(source) << 32) | (records[r] & 0xffffffffU);
    }
  }
  return lists;
}

// Collective: one record (parent's owned offset << 32 | child's owned offset) per vertex with a
// parent but no depth goes to the parent's owner; the child's owner is the rank the record came
// from. Offsets fit in 32 bits (B <= 2^32, checked when the graph is built). The records go out
// of a send buffer of exactly their size, which is freed before the lists are made.
ChildLists exchange_child_lists(const graph::Distribution& d, const graph::ProcessGrid& grid,
                                const std::vector<int64_t>& parents, const std::vector<int32_t>& depth) {
  comm::AlltoallvLayout layout;
  std::unique_ptr<uint64_t[]> send = pack_child_records(d, grid, parents, depth, layout);
  comm::exchange_counts(layout, grid.world());
  std::unique_ptr<uint64_t[]> records(new uint64_t[layout.recv_total]);
  comm::alltoallv(send.get(), records.get(), MPI_UINT64_T, layout, grid.world(), comm::find_alltoallv("mpi"),
                  grid.limits());
  send.reset();
  return group_by_parent(records.get(), layout, d.block, grid.size());
}

// Rounds by child lists from `level` (the owned vertices at that depth form the frontier) until
// no vertex joins a level.
void walk_with_child_lists(const graph::Distribution& d, const graph::ProcessGrid& grid,
                           const std::vector<int64_t>& parents, std::vector<int32_t>& depth, int32_t level) {
  const ChildLists lists = exchange_child_lists(d, grid, parents, depth);
  std::vector<uint64_t> frontier;
  for (int64_t k = 0; k < d.block; ++k)
    if (depth[k] == level) frontier.push_back(static_cast<uint64_t>(k));
  comm::ThreadBuckets out = comm::make_thread_buckets(omp_get_max_threads(), grid.size());
  util::PhaseProfile unused;
  for (;; ++level) {
    comm::clear_thread_buckets(out);
    const int64_t nfrontier = static_cast<int64_t>(frontier.size());
#pragma omp parallel
    {
      auto& mine = out[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 256)
      for (int64_t f = 0; f < nfrontier; ++f) {
        const int64_t p = static_cast<int64_t>(frontier[f]);
        for (int64_t c = lists.start[p]; c < lists.start[p + 1]; ++c)
          mine[lists.children[c] >> 32].push_back(lists.children[c] & 0xffffffffU);
      }
    }
    comm::Received in = comm::exchange(out, grid.world(), comm::find_alltoallv("mpi"), unused, grid.limits());
    const int32_t next_depth = level + 1;
#pragma omp parallel for schedule(static)
    for (size_t r = 0; r < in.records.size(); ++r) depth[in.records[r]] = next_depth;
    frontier = std::move(in.records);
    if (comm::Communicator(grid.world()).sum(static_cast<int64_t>(frontier.size())) == 0) break;
  }
}

}  // namespace

std::string walk_tree_levels(const graph::Distribution& d, const graph::ProcessGrid& grid, int64_t root,
                             const std::vector<int64_t>& parents, std::vector<int32_t>& depth, bool lists_only) {
  const int64_t first = d.owned_begin();
  depth.assign(d.block, kUnreachedDepth);
  if (root >= first && root < first + d.block) depth[root - first] = 0;
  int32_t level = 0;
  const bool done = !lists_only && bitmaps_fit(d) && walk_with_bitmaps(d, grid, root, parents, depth, level);
  if (!done) walk_with_child_lists(d, grid, parents, depth, level);
  for (int64_t k = 0; k < d.block; ++k)
    if (parents[k] >= 0 && depth[k] == kUnreachedDepth)
      return "the parent chain of vertex " + std::to_string(first + k) +
             " does not reach the root (a cycle or an unreached parent)";
  return {};
}

double tree_levels_bytes(const graph::Distribution& d) {
  const double owned = static_cast<double>(d.block), ranks = static_cast<double>(d.R) * d.C;
  return bitmaps_fit(d) ? (ranks + 1) * owned / util::kBitsPerWord * sizeof(uint64_t) : kChildListBytes * owned;
}

}  // namespace g500::validate
