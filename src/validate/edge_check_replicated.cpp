// The input edges checked where they are read, against every vertex's word (depth and parent
// fingerprint, validate/edge_check_parts.hpp) gathered to every rank: nothing of the edges moves.
// Each edge {a, b} is checked in both directions from its two endpoints' words, two random reads
// per edge (routing makes two entries of it, each read at a row and a column). A direction that
// may be the tree edge (the word's level and fingerprint match) goes to the owner of its row
// vertex, which compares it with the parent; on one process the parents are at hand.
// Memory: two bytes per vertex of the graph on every rank (P * 2 bytes per owned vertex on P
// ranks), one chunk of edges and its candidates. The check takes this way while that is less
// than the owner queries' exchange buffers (edge_check.cpp).
#include <omp.h>

#include <algorithm>
#include <atomic>

#include "comm/exchange.hpp"
#include "comm/large_count.hpp"
#include "util/atomic_ref.hpp"
#include "util/fast_divisor.hpp"
#include "util/huge_pages.hpp"
#include "validate/edge_check_parts.hpp"

namespace g500::validate::edge_check {
namespace {

// Where vertex v's word is: its owner's world rank * B + its owned offset, the allgather's order.
class WordIndex {
 public:
  WordIndex(const graph::Distribution& d, const graph::ProcessGrid& grid)
      : d_(d), base_(static_cast<size_t>(d.R) * d.C) {
    for (int i = 0; i < d.R; ++i)
      for (int j = 0; j < d.C; ++j)
        base_[d.block_owned_by(i, j)] = static_cast<int64_t>(grid.world_rank_of(i, j)) * d.block;
  }
  int owner(int64_t v) const { return static_cast<int>(base_[d_.block_of(v)] / d_.block); }

  // A copy for the hot loop, all in registers (members read through a reference would be loaded
  // again after every store the compiler cannot tell apart).
  struct Lookup {
    util::FastDivisor by_block;
    int64_t block;
    const int64_t* base;
    int64_t operator()(int64_t v) const {
      const int64_t k = static_cast<int64_t>(by_block.divide(static_cast<uint64_t>(v)));
      return base[k] + (v - k * block);
    }
  };
  Lookup lookup() const { return Lookup{d_.by_block, d_.block, base_.data()}; }

 private:
  const graph::Distribution& d_;
  std::vector<int64_t> base_;  // per block
};

// Entries (v, u) (graph/local_id.hpp's pairs) that may be v's tree edge on one process, found by one thread in its
// share of a chunk; the thread then reads their parents in order, prefetching ahead, and marks
// the vertices whose parent is u: a random read of the parent at every candidate would wait for
// memory each time (measured at SCALE 22: that wait cost as much as the rest of the check).
// Reused from chunk to chunk.
class Candidates {
 public:
  Candidates() : per_thread_(omp_get_max_threads()) {}
  std::vector<graph::IdPair>& mine() { return per_thread_[omp_get_thread_num()]; }
  // Each thread on its own list, in the parallel region that filled it.
  static void resolve(std::vector<graph::IdPair>& list, const int64_t* parent, uint64_t* seen) {
    constexpr int64_t kAhead = 16;
    const int64_t n = static_cast<int64_t>(list.size());
    for (int64_t i = 0; i < n; ++i) {
      if (i + kAhead < n) __builtin_prefetch(parent + graph::high_id(list[i + kAhead]));
      const uint64_t v = graph::high_id(list[i]), u = graph::low_id(list[i]);
      if (parent[v] == static_cast<int64_t>(u))
        util::AtomicRef<uint64_t>(seen[v / util::kBitsPerWord])
            .fetch_or(uint64_t{1} << (v % util::kBitsPerWord), std::memory_order_relaxed);
    }
    list.clear();
  }

 private:
  std::vector<std::vector<graph::IdPair>> per_thread_;
};

// The check of one chunk of edges. Candidates (a's tree edge may be b) are kept per thread: on
// one process resolved against the parents at once (ids are offsets there), else as two records
// (a's owned offset, b) in a bucket for a's owner.
template <class Rows>
struct PairCheck {
  using Row = typename Rows::Row;
  using Depth = typename Rows::Depth;
  const graph::Distribution& d;
  const WordIndex& index;
  const Row* word;
  const int64_t* parent;  // owned vertices' parents
  uint64_t* seen;         // the owned vertices' tree-edge marks
  bool one_process;
  Candidates candidates{};
  comm::ThreadBuckets buckets{};
  int64_t reached_entries = 0;
  BadEdge bad{};

  void operator()(const gen::Edge* edges, int64_t n) {
    constexpr int64_t kAhead = 16;  // two reads per edge: some 32 lines in flight
    int64_t reached = 0;
#pragma omp parallel reduction(+ : reached)
    {
      std::vector<graph::IdPair>& mine = candidates.mine();
      std::vector<std::vector<uint64_t>>* out = one_process ? nullptr : &buckets[omp_get_thread_num()];
      auto keep = [&](int64_t v, int64_t u) {
        if (one_process) {
          mine.push_back(graph::pack_ids(static_cast<graph::LocalId>(v), static_cast<graph::LocalId>(u)));
          return;
        }
        std::vector<uint64_t>& to = (*out)[index.owner(v)];
        to.push_back(static_cast<uint64_t>(v % d.block));
        to.push_back(static_cast<uint64_t>(u));
      };
      BadEdge my_bad;
      const WordIndex::Lookup at = index.lookup();
      const Row* const words = word;
#pragma omp for schedule(static) nowait
      for (int64_t k = 0; k < n; ++k) {
        if (k + kAhead < n) {
          __builtin_prefetch(words + at(edges[k + kAhead].v0));
          __builtin_prefetch(words + at(edges[k + kAhead].v1));
        }
        const int64_t a = edges[k].v0, b = edges[k].v1;
        if (a == b) continue;  // self-loops are not edges of the graph
        const Row wa = words[at(a)], wb = words[at(b)];
        const Depth da = Rows::depth(wa), db = Rows::depth(wb);
        if (__builtin_expect(depths_bad(da, db), 0)) my_bad.consider(a, unstored_depth(da), b, unstored_depth(db));
        reached += (da != 0) + (db != 0);
        if (__builtin_expect(Rows::candidate(wa, db, static_cast<uint64_t>(b)), 0)) keep(a, b);
        if (__builtin_expect(Rows::candidate(wb, da, static_cast<uint64_t>(a)), 0)) keep(b, a);
      }
      if (one_process) Candidates::resolve(mine, parent, seen);
#pragma omp critical
      bad.merge(my_bad);
    }
    reached_entries += reached;
  }

  // Collective over the world (several processes): the candidates go to their vertex's owner,
  // which marks the vertex when the parent matches.
  void deliver(const graph::ProcessGrid& grid) {
    util::PhaseProfile unused;
    const comm::Received in = comm::exchange(buckets, grid.world(), comm::find_alltoallv("mpi"), unused, grid.limits());
    comm::clear_thread_buckets(buckets);
    const int64_t pairs = static_cast<int64_t>(in.records.size()) / 2;
    constexpr int64_t kAhead = 16;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < pairs; ++i) {
      if (i + kAhead < pairs) __builtin_prefetch(parent + in.records[2 * (i + kAhead)]);
      const int64_t k = static_cast<int64_t>(in.records[2 * i]);
      if (parent[k] == static_cast<int64_t>(in.records[2 * i + 1])) {
        util::AtomicRef<uint64_t>(seen[k / util::kBitsPerWord])
            .fetch_or(uint64_t{1} << (k % util::kBitsPerWord), std::memory_order_relaxed);
      }
    }
  }
};

template <class Rows>
EdgeCheck check_pairs(const graph::EdgeSource& source, const graph::Distribution& d, const graph::ProcessGrid& grid,
                      const std::vector<int64_t>& parents, const std::vector<int32_t>& depth,
                      const EdgeCheckOptions& options, util::Bitmap& tree_edge_seen) {
  using Row = typename Rows::Row;
  const int nranks = grid.size();
  std::vector<Row> word;  // read at random: huge pages spare a page walk per read (util/huge_pages.hpp)
  util::assign_huge(word, static_cast<size_t>(d.block) * nranks, Row{0});
  Row* mine = word.data() + static_cast<int64_t>(grid.world_rank()) * d.block;
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < d.block; ++k) mine[k] = Rows::word(depth[k], static_cast<uint64_t>(parents[k]));
  if (nranks > 1)
    comm::allgather(MPI_IN_PLACE, word.data(), d.block * static_cast<int64_t>(sizeof(Row)), MPI_BYTE, grid.world(),
                    grid.limits());
  const WordIndex index(d, grid);
  PairCheck<Rows> check{d, index, word.data(), parents.data(), tree_edge_seen.data(), nranks == 1};
  if (nranks > 1) check.buckets = comm::make_thread_buckets(omp_get_max_threads(), nranks);
  for_each_input_chunk(source, options.chunk_edges, grid.world(), [&](const gen::Edge* edges, int64_t count) {
    check(edges, count);
    if (nranks > 1) check.deliver(grid);
  });
  EdgeCheck result;
  result.reached_entries = check.reached_entries;
  report(check.bad, result);
  return result;
}

}  // namespace

EdgeCheck check_replicated(const graph::EdgeSource& source, const graph::Distribution& d,
                           const graph::ProcessGrid& grid, const std::vector<int64_t>& parents,
                           const std::vector<int32_t>& depth, bool narrow, const EdgeCheckOptions& options,
                           util::Bitmap& tree_edge_seen) {
  if (narrow) return check_pairs<NarrowRows>(source, d, grid, parents, depth, options, tree_edge_seen);
  return check_pairs<WideRows>(source, d, grid, parents, depth, options, tree_edge_seen);
}

double replicated_bytes(const graph::Distribution& d, int64_t chunk_edges, int64_t global_edges) {
  const double vertices = static_cast<double>(d.block) * d.R * d.C;
  // One chunk of edges and its candidates, two records each, sent and received: a vertex's tree
  // edge is one (each of its copies in the input), and one in 256 of the other entries one level
  // up passes the fingerprint (NarrowRows::candidate), so a chunk holds about N / M of its edges'
  // worth of tree edges plus 1/128 of them; at most one per edge.
  const double chunk = static_cast<double>(chunk_edges);
  constexpr double kFingerprintPasses = 2.0 / 256;  // both directions of an edge
  const double per_edge =
      global_edges > 0 ? std::min(1.0, static_cast<double>(d.nvertices) / global_edges + kFingerprintPasses) : 1.0;
  return vertices * sizeof(NarrowRows::Row) + chunk * sizeof(gen::Edge) + chunk * per_edge * 4 * sizeof(uint64_t);
}

}  // namespace g500::validate::edge_check
