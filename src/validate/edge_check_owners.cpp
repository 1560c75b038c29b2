// The input edges checked by their endpoints' owners ("owner queries"): each rank reads its
// share of the input edges chunk by chunk and sends every edge {a, b} to a's owner, which looks
// up a's depth, marks a's tree edge when b is a's parent, and forwards the edge with a's depth to
// b's owner, which compares the depths and marks b's tree edge when a is b's parent. Every vertex's
// state is read where it is kept, so a process holds one chunk of edges and the two exchanges'
// buffers (some 16 bytes per edge each way) and nothing indexed by the row or column set: the way
// for large grids, where every rank holding every vertex's depth would not fit.
#include <omp.h>

#include "comm/exchange.hpp"
#include "util/raw_buffer.hpp"
#include "validate/edge_check_parts.hpp"

namespace g500::edge_check {
namespace {

// Two 64-bit words per record in both exchanges:
//  - to a's owner: a's owned offset, b's global id;
//  - to b's owner: b's owned offset << 32 | a's stored depth (32 bits), a's global id.
// Owned offsets fit in 32 bits (B <= 2^32, checked when the graph is built).
constexpr int kRecordWords = 2;
constexpr int kOffsetShift = 32;
constexpr uint64_t kLowHalf = 0xffffffffU;
// Records looked ahead of the one checked: their owned vertex's depth and parent are read at random.
constexpr int64_t kAhead = 16;

using Depth = uint32_t;  // stored depths (edge_check_parts.hpp): 0 unreached, depth + 2 reached

// World rank and owned offset of any vertex, from one world rank per block (R * C of them).
class Owners {
 public:
  Owners(const Distribution& d, const ProcessGrid& grid)
      : by_block_(d.by_block), block_(d.block), rank_(static_cast<size_t>(d.R) * d.C) {
    for (int i = 0; i < d.R; ++i)
      for (int j = 0; j < d.C; ++j) rank_[d.block_owned_by(i, j)] = grid.world_rank_of(i, j);
  }
  struct Place {
    int rank;
    uint64_t offset;
  };
  Place of(int64_t v) const {
    const uint64_t k = by_block_.divide(static_cast<uint64_t>(v));
    return Place{rank_[k], static_cast<uint64_t>(v) - k * static_cast<uint64_t>(block_)};
  }

 private:
  FastDivisor by_block_;
  int64_t block_;
  std::vector<int> rank_;
};

struct OwnerCheck {
  const Distribution& d;
  const Owners owners;
  const int64_t* parent;  // owned vertices' parents
  const int32_t* depth;   // owned vertices' depths
  uint64_t* seen;         // owned vertices' tree-edge marks
  comm::Exchanger to_first, to_second;
  int64_t reached_entries = 0;
  BadEdge bad{};

  void mark(int64_t k) {
    std::atomic_ref<uint64_t>(seen[k / kBitsPerWord]).fetch_or(uint64_t{1} << (k % kBitsPerWord),
                                                               std::memory_order_relaxed);
  }

  // Collective: one chunk's edges, both exchanges.
  void operator()(const gen::Edge* edges, int64_t n) {
    comm::ThreadBuckets& first = to_first.start();
#pragma omp parallel
    {
      std::vector<std::vector<uint64_t>>& out = first[omp_get_thread_num()];
#pragma omp for schedule(static)
      for (int64_t k = 0; k < n; ++k) {
        const int64_t a = edges[k].v0, b = edges[k].v1;
        if (a == b) continue;  // self-loops are not edges of the graph
        const Owners::Place at = owners.of(a);
        std::vector<uint64_t>& to = out[at.rank];
        to.push_back(at.offset);
        to.push_back(static_cast<uint64_t>(b));
      }
    }
    comm::PhaseProfile unused;
    answer_first(to_first.deliver(unused));
    answer_second(to_second.deliver(unused));
  }

  // At a's owner: a's tree edge, a's entry of the edge count, and the edge on to b's owner.
  void answer_first(const std::vector<comm::Exchanger::Piece>& pieces) {
    comm::ThreadBuckets& second = to_second.start();
    int64_t reached = 0;
#pragma omp parallel reduction(+ : reached)
    {
      std::vector<std::vector<uint64_t>>& out = second[omp_get_thread_num()];
      const int64_t first_owned = d.owned_begin();
      for (const comm::Exchanger::Piece& piece : pieces) {
        const uint64_t* records = piece.records;
        const int64_t count = static_cast<int64_t>(piece.count) / kRecordWords;
#pragma omp for schedule(static) nowait
        for (int64_t r = 0; r < count; ++r) {
          if (r + kAhead < count) {
            __builtin_prefetch(depth + records[kRecordWords * (r + kAhead)]);
            __builtin_prefetch(parent + records[kRecordWords * (r + kAhead)]);
          }
          const int64_t k = static_cast<int64_t>(records[kRecordWords * r]);
          const int64_t b = static_cast<int64_t>(records[kRecordWords * r + 1]);
          const Depth da = stored_depth<Depth>(depth[k]);
          reached += da != 0;
          if (parent[k] == b) mark(k);
          const Owners::Place at = owners.of(b);
          std::vector<uint64_t>& to = out[at.rank];
          to.push_back(at.offset << kOffsetShift | da);
          to.push_back(static_cast<uint64_t>(first_owned + k));
        }
      }
    }
    reached_entries += reached;
  }

  // At b's owner: the depth rule, b's tree edge and b's entry of the edge count.
  void answer_second(const std::vector<comm::Exchanger::Piece>& pieces) {
    int64_t reached = 0;
#pragma omp parallel reduction(+ : reached)
    {
      BadEdge my_bad;
      const int64_t first_owned = d.owned_begin();
      for (const comm::Exchanger::Piece& piece : pieces) {
        const uint64_t* records = piece.records;
        const int64_t count = static_cast<int64_t>(piece.count) / kRecordWords;
#pragma omp for schedule(static) nowait
        for (int64_t r = 0; r < count; ++r) {
          if (r + kAhead < count) {
            __builtin_prefetch(depth + (records[kRecordWords * (r + kAhead)] >> kOffsetShift));
            __builtin_prefetch(parent + (records[kRecordWords * (r + kAhead)] >> kOffsetShift));
          }
          const uint64_t head = records[kRecordWords * r];
          const int64_t k = static_cast<int64_t>(head >> kOffsetShift);
          const int64_t a = static_cast<int64_t>(records[kRecordWords * r + 1]);
          const Depth da = static_cast<Depth>(head & kLowHalf), db = stored_depth<Depth>(depth[k]);
          if (__builtin_expect(depths_bad(da, db), 0))
            my_bad.consider(a, unstored_depth(da), first_owned + k, unstored_depth(db));
          reached += db != 0;
          if (parent[k] == a) mark(k);
        }
      }
#pragma omp critical
      bad.merge(my_bad);
    }
    reached_entries += reached;
  }
};

}  // namespace

EdgeCheck check_by_owners(const EdgeSource& source, const Distribution& d, const ProcessGrid& grid,
                          const std::vector<int64_t>& parents, const std::vector<int32_t>& depth,
                          const EdgeCheckOptions& options, Bitmap& tree_edge_seen) {
  const int nthreads = omp_get_max_threads();
  const comm::AlltoallvFn alltoallv = comm::find_alltoallv("mpi");
  OwnerCheck check{d,
                   Owners(d, grid),
                   parents.data(),
                   depth.data(),
                   tree_edge_seen.data(),
                   comm::Exchanger(grid.world(), nthreads, alltoallv, grid.limits()),
                   comm::Exchanger(grid.world(), nthreads, alltoallv, grid.limits())};
  // Every rank takes part in every chunk's exchanges, so all make as many rounds as the longest share.
  const int64_t chunk = std::max<int64_t>(1, std::min(source.local_count, options.chunk_edges));
  int64_t chunks = (source.local_count + chunk - 1) / chunk;
  MPI_Allreduce(MPI_IN_PLACE, &chunks, 1, MPI_INT64_T, MPI_MAX, grid.world());
  RawBuffer<gen::Edge> buffer;
  gen::Edge* edges = buffer.get(chunk);
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t offset = std::min(source.local_count, c * chunk);
    const int64_t count = std::min(chunk, source.local_count - offset);
    if (count > 0) source.read(offset, count, edges);
    check(edges, count);
  }
  EdgeCheck result;
  result.reached_entries = check.reached_entries;
  report(check.bad, result);
  return result;
}

double owner_queries_bytes(const Distribution& d, int threads) {
  // One chunk of edges read; per exchange, its records in the threads' buckets (grown by doubling:
  // up to twice their size), packed to send and received (about one record per edge of the chunk
  // each, as edges go to owners at random), and the buckets' headers, one per thread and rank.
  const double chunk = static_cast<double>(kCheckChunkEdges);
  const double record = kRecordWords * sizeof(uint64_t);
  const double ranks = static_cast<double>(d.R) * d.C;
  const double per_exchange = chunk * record * (2 + 1 + 1) + threads * ranks * sizeof(std::vector<uint64_t>);
  return chunk * sizeof(gen::Edge) + 2 * per_exchange;
}

}  // namespace g500::edge_check
