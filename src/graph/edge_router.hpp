// Routing of input edges to the processes that store them (Nakao et al. 2021: the data layout of
// section 3.2, Yoo's distribution of section 4.3). Every edge {a, b} (self-loops dropped) becomes
// two directed entries: (v=a, u=b) for P(row(a), col(b)) and (v=b, u=a) for P(row(b), col(a)).
// Kernel 1 builds its blocks from the routed entries (routing only one entry of the edges it
// mirrors itself, mirror_rows); the BFS validator routes the same edges again to check every input
// edge against the search result without trusting the built graph.
#pragma once
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/exchange.hpp"
#include "comm/large_count.hpp"
#include "comm/typed.hpp"
#include "graph/distribution.hpp"
#include "graph/edge_source.hpp"
#include "graph/grid.hpp"
#include "util/raw_buffer.hpp"

namespace g500::graph {

constexpr int64_t kChunkEdges = int64_t{1} << 22;

// Entry (v, u): v's row-local id in the high half, u's column-local id in the low half.
using Entry = IdPair;
inline Entry make_entry(LocalId v, LocalId u) { return pack_ids(v, u); }
inline LocalId entry_row(Entry entry) { return high_id(entry); }
inline LocalId entry_col(Entry entry) { return low_id(entry); }

// A mirror entry routed only to be counted in its row's length (Router::mirror_rows): the top bit,
// free while row-local ids are below 2^(kLocalIdBits - 1).
constexpr Entry kMirrorFlag = Entry{1} << (2 * kLocalIdBits - 1);
inline LocalId entry_row_unflagged(Entry entry) { return high_id(entry & ~kMirrorFlag); }

// Where a vertex's edges live: the grid row whose row set holds it, the grid column whose column
// set holds it, and its ids inside those sets.
struct Placement {
  int row, col;
  LocalId row_local, col_local;
};

inline Placement place(const Distribution& d, int64_t v) {
  const uint64_t k = d.by_block.divide(static_cast<uint64_t>(v));
  const uint64_t offset = static_cast<uint64_t>(v) - k * d.block;
  const uint64_t col_set = d.by_rows.divide(k);
  const uint64_t col_position = k - col_set * d.R;
  if (d.yoo())  // the row set is the owner's row, the row-set position the owner's column
    return Placement{static_cast<int>(col_position), static_cast<int>(col_set),
                     static_cast<LocalId>(col_set * d.block + offset),
                     static_cast<LocalId>(col_position * d.block + offset)};
  const uint64_t row_set = d.by_cols.divide(k);
  const uint64_t row_position = k - row_set * d.C;
  return Placement{static_cast<int>(row_set), static_cast<int>(col_set),
                   static_cast<LocalId>(row_position * d.block + offset),
                   static_cast<LocalId>(col_position * d.block + offset)};
}

// Routes the entries of edge chunks to the processes that store them; buffers are reused, sized
// by the chunks: at most `chunk_edges` input edges per route(), twice that per route_directed().
class Router {
 public:
  Router(const Distribution& d, const ProcessGrid& grid, int64_t chunk_edges = kChunkEdges)
      : d_(d), grid_(grid), nranks_(grid.size()), chunk_edges_(chunk_edges) {}

  int64_t chunk_edges() const { return chunk_edges_; }
  // Edges per route_directed(): one entry each where an input edge gives two, so the same buffers.
  int64_t directed_chunk_edges() const { return 2 * chunk_edges_; }

  // Routes only the entries whose row-local id is in [first, end) (the same range on every rank,
  // whose row sets have the same size); by default all of them.
  void keep_rows(int64_t first, int64_t end) {
    first_row_ = static_cast<uint64_t>(first);
    row_span_ = static_cast<uint64_t>(end - first);
  }

  // An edge whose two rows are both in [first, end) gives one entry, the lower (by row-local id,
  // ties by vertex id); kernel 1 makes the other, its mirror, when it fills the rows. With
  // `flag_mirrors` the mirror is routed too, marked with kMirrorFlag, only to be counted. By default
  // no range: both entries of every edge.
  void mirror_rows(int64_t first, int64_t end, bool flag_mirrors) {
    mirror_first_ = static_cast<uint64_t>(first);
    mirror_span_ = static_cast<uint64_t>(end - first);
    flag_mirrors_ = flag_mirrors;
  }

  // Routes one entry per edge {a, b}, (v=a, u=b), whatever the ranges (the mirrors kernel 1
  // makes); the result is valid until the next call. Collective like route().
  const Entry* route_directed(const gen::Edge* edges, int64_t count, int64_t& received) {
    directed_ = true;
    const Entry* out = route(edges, count, received);
    directed_ = false;
    return out;
  }

  // Returns the entries this process receives for the chunk, valid until the next call.
  const Entry* route(const gen::Edge* edges, int64_t count, int64_t& received) {
    const int nthreads = omp_get_max_threads();
    if (nranks_ == 1) return keep_all(edges, count, nthreads, received);
    // Pass A: entries and destinations per thread slice, counts per destination.
    Entry* entries = entries_.get(2 * count);
    int* dest = dest_.get(2 * count);
    std::vector<int64_t> counts(static_cast<size_t>(nthreads) * nranks_, 0);
    std::vector<int64_t> kept(nthreads + 1, 0);
    make_entries(edges, count, nthreads, entries, dest, counts, kept);
    // Pass B: scatter by destination.
    std::vector<int64_t> cursor(counts.size());
    const int64_t total = plan_send_buffer(counts, nthreads, cursor);
    Entry* send = send_.get(total);
#pragma omp parallel num_threads(nthreads)
    {
      const int t = omp_get_thread_num();
      const int64_t lo = 2 * (count * t / nthreads), hi = kept[t + 1];
      int64_t* next = &cursor[static_cast<size_t>(t) * nranks_];
      for (int64_t k = lo; k < hi; ++k) send[next[dest[k]]++] = entries[k];
    }
    return exchange(send, received);
  }

 private:
  // One process: every entry stays here, so there is no bucketing and no copy through MPI. Its
  // grid is 1x1, where a vertex's row-local and column-local ids are the vertex id.
  const Entry* keep_all(const gen::Edge* edges, int64_t count, int nthreads, int64_t& received) {
    Entry* out = recv_.get(2 * count);
    std::vector<int64_t> ends(nthreads);
#pragma omp parallel num_threads(nthreads)
    {
      const int t = omp_get_thread_num();
      const int64_t lo = count * t / nthreads, hi = count * (t + 1) / nthreads;
      int64_t at = 2 * lo;
      for (int64_t e = lo; e < hi; ++e) {
        const int64_t a = edges[e].v0, b = edges[e].v1;
        if (a == b) continue;
        const LocalId la = static_cast<LocalId>(a), lb = static_cast<LocalId>(b);
        const Sides sides = sides_of(la, lb, a, b);
        out[at] = make_entry(la, lb) | sides.flag_a;
        at += sides.a;
        out[at] = make_entry(lb, la) | sides.flag_b;
        at += sides.b;
      }
      ends[t] = at;
    }
    // Close the gaps left by self-loops at the end of each slice.
    received = ends[0];
    for (int t = 1; t < nthreads; ++t) {
      const int64_t begin = 2 * (count * t / nthreads);
      std::memmove(out + received, out + begin, (ends[t] - begin) * sizeof(Entry));
      received += ends[t] - begin;
    }
    return out;
  }

  // Pass A: thread t writes the entries of its slice of the edges, with their destination
  // ranks, from position 2 * (its first edge) on; counts[t * nranks + r] counts its entries for
  // rank r, kept[t + 1] is where its entries end (self-loops leave gaps).
  void make_entries(const gen::Edge* edges, int64_t count, int nthreads, Entry* entries, int* dest,
                    std::vector<int64_t>& counts, std::vector<int64_t>& kept) const {
#pragma omp parallel num_threads(nthreads)
    {
      const int t = omp_get_thread_num();
      const int64_t lo = count * t / nthreads, hi = count * (t + 1) / nthreads;
      int64_t* mine = &counts[static_cast<size_t>(t) * nranks_];
      int64_t at = 2 * lo;
      for (int64_t e = lo; e < hi; ++e) {
        const int64_t a = edges[e].v0, b = edges[e].v1;
        if (a == b) continue;
        const Placement pa = place(d_, a), pb = place(d_, b);
        const Sides sides = sides_of(pa.row_local, pb.row_local, a, b);
        if (sides.a) {
          entries[at] = make_entry(pa.row_local, pb.col_local) | sides.flag_a;
          dest[at] = grid_.world_rank_of(pa.row, pb.col);
          ++mine[dest[at++]];
        }
        if (sides.b) {
          entries[at] = make_entry(pb.row_local, pa.col_local) | sides.flag_b;
          dest[at] = grid_.world_rank_of(pb.row, pa.col);
          ++mine[dest[at++]];
        }
      }
      kept[t + 1] = at;
    }
  }

  // The send buffer's layout: rank r's entries together, within them thread 0's first, so the
  // order does not depend on the scheduling. Sets each thread's cursor per rank and the layout's
  // send counts; returns the total.
  int64_t plan_send_buffer(const std::vector<int64_t>& counts, int nthreads, std::vector<int64_t>& cursor) {
    layout_.send_counts.assign(nranks_, 0);
    int64_t total = 0;
    for (int r = 0; r < nranks_; ++r) {
      const int64_t begin = total;
      for (int t = 0; t < nthreads; ++t) {
        cursor[static_cast<size_t>(t) * nranks_ + r] = total;
        total += counts[static_cast<size_t>(t) * nranks_ + r];
      }
      layout_.send_counts[r] = total - begin;
    }
    return total;
  }

  // Collective over the world: sends each rank its entries (in rounds beyond the grid's message
  // limit); returns what arrived.
  const Entry* exchange(const Entry* send, int64_t& received) {
    comm::exchange_counts(layout_, grid_.world());
    received = layout_.recv_total;
    Entry* recv = recv_.get(received);
    comm::alltoallv(send, recv, id_pair_datatype(), layout_, grid_.world(), comm::find_alltoallv("mpi"),
                    grid_.limits());
    return recv;
  }

  bool kept_row(LocalId row) const { return static_cast<uint64_t>(row) - first_row_ < row_span_; }
  bool mirrored_row(LocalId row) const { return static_cast<uint64_t>(row) - mirror_first_ < mirror_span_; }

  // Which entries of edge {a, b} (rows ra, rb) are routed, and with which flag.
  struct Sides {
    bool a, b;
    Entry flag_a, flag_b;
  };
  Sides sides_of(LocalId ra, LocalId rb, int64_t a, int64_t b) const {
    if (directed_) return {true, false, 0, 0};
    Sides s{kept_row(ra), kept_row(rb), 0, 0};
    if (mirrored_row(ra) && mirrored_row(rb)) {
      const bool a_is_lower = ra < rb || (ra == rb && a < b);
      bool& mirror = a_is_lower ? s.b : s.a;
      mirror = mirror && flag_mirrors_;
      (a_is_lower ? s.flag_b : s.flag_a) = kMirrorFlag;
    }
    return s;
  }

  const Distribution& d_;
  const ProcessGrid& grid_;
  int nranks_;
  int64_t chunk_edges_;
  uint64_t first_row_ = 0, row_span_ = ~uint64_t{0};
  uint64_t mirror_first_ = 0, mirror_span_ = 0;
  bool flag_mirrors_ = false;
  bool directed_ = false;
  util::RawBuffer<Entry> entries_, send_, recv_;
  util::RawBuffer<int> dest_;
  comm::AlltoallvLayout layout_;
};

// Where for_each_routed_chunk spent its time, added up over its calls.
struct RoutingSeconds {
  double read = 0;   // reading (generating) the input edges
  double route = 0;  // making the entries and sending them to their processes
};

// Calls body(entries, count) with the entries this process receives for every chunk of every
// rank's share (chunks of the router's chunk_edges input edges); every rank makes the same number
// of calls because routing is collective.
template <class Body>
void for_each_routed_chunk(const EdgeSource& source, MPI_Comm comm, Router& router, util::RawBuffer<gen::Edge>& buffer,
                           RoutingSeconds& seconds, Body body) {
  const int64_t chunk_edges = router.chunk_edges();
  const int64_t chunks = comm::Communicator(comm).max((source.local_count + chunk_edges - 1) / chunk_edges);
  gen::Edge* edges = buffer.get(std::min(source.local_count, chunk_edges));
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t offset = std::min(source.local_count, c * chunk_edges);
    const int64_t count = std::min(source.local_count - offset, chunk_edges);
    const double start = MPI_Wtime();
    if (count > 0) source.read(offset, count, edges);
    const double read = MPI_Wtime();
    int64_t received = 0;
    const Entry* entries = router.route(edges, count, received);
    const double routed = MPI_Wtime();
    body(entries, received);
    seconds.read += read - start;
    seconds.route += routed - read;
  }
}

}  // namespace g500::graph
