// Kernel 1: distributed graph construction (001 section 3.2 data layout, Yoo's distribution 4.3).
//
// Every rank reads its share of the edge list in chunks and routes each edge {a, b} (self-loops
// dropped) as two directed entries: (v=a, u=b) to P(row(a), col(b)) and (v=b, u=a) to
// P(row(b), col(a)). Pass 1 sends only v so receivers can count row lengths; pass 2 re-reads the
// same chunks (the generator is random-access) and sends (v, u) to fill the CSR at cursors. The
// edge list is never held whole: memory is the CSR plus one chunk.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "graph/local_graph.hpp"
#include "util/fast_divisor.hpp"

namespace g500 {
namespace {

constexpr int64_t kChunkEdges = int64_t{1} << 22;

template <class T>
MPI_Datatype mpi_type_of();
template <>
MPI_Datatype mpi_type_of<uint32_t>() { return MPI_UINT32_T; }
template <>
MPI_Datatype mpi_type_of<uint64_t>() { return MPI_UINT64_T; }

// Routes the directed entries of `count` edges to the processes that store them and returns what
// this process receives. make(v_row_local, u_col_local) builds the payload of one entry.
template <class Payload, class Make>
std::vector<Payload> route_entries(const gen::Edge* edges, int64_t count, const Distribution& d,
                                   const ProcessGrid& grid, Make make) {
  const int nranks = grid.size();
  const int nthreads = omp_get_max_threads();
  std::vector<int64_t> counts(static_cast<size_t>(nthreads) * nranks, 0);
  auto dest_of = [&](int64_t v, int64_t u) { return grid.world_rank_of(d.grid_row_of(v), d.grid_col_of(u)); };

#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    const int64_t lo = count * t / nthreads, hi = count * (t + 1) / nthreads;
    int64_t* mine = &counts[static_cast<size_t>(t) * nranks];
    for (int64_t e = lo; e < hi; ++e) {
      const int64_t a = edges[e].v0, b = edges[e].v1;
      if (a == b) continue;
      ++mine[dest_of(a, b)];
      ++mine[dest_of(b, a)];
    }
  }
  std::vector<int> send_counts(nranks), send_displs(nranks);
  std::vector<int64_t> cursor(counts.size());
  int64_t total = 0;
  for (int r = 0; r < nranks; ++r) {
    send_displs[r] = static_cast<int>(total);
    for (int t = 0; t < nthreads; ++t) {
      cursor[static_cast<size_t>(t) * nranks + r] = total;
      total += counts[static_cast<size_t>(t) * nranks + r];
    }
    send_counts[r] = static_cast<int>(total - send_displs[r]);
  }
  std::vector<Payload> send(total);
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    const int64_t lo = count * t / nthreads, hi = count * (t + 1) / nthreads;
    int64_t* next = &cursor[static_cast<size_t>(t) * nranks];
    for (int64_t e = lo; e < hi; ++e) {
      const int64_t a = edges[e].v0, b = edges[e].v1;
      if (a == b) continue;
      send[next[dest_of(a, b)]++] = make(d.row_local(a), d.col_local(b));
      send[next[dest_of(b, a)]++] = make(d.row_local(b), d.col_local(a));
    }
  }
  std::vector<int> recv_counts(nranks), recv_displs(nranks);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, grid.world());
  int64_t received = 0;
  for (int r = 0; r < nranks; ++r) {
    recv_displs[r] = static_cast<int>(received);
    received += recv_counts[r];
  }
  std::vector<Payload> recv(received);
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), mpi_type_of<Payload>(), recv.data(),
                recv_counts.data(), recv_displs.data(), mpi_type_of<Payload>(), grid.world());
  return recv;
}

// Thread t owns rows [t * per_thread, (t + 1) * per_thread).
struct RowRanges {
  RowRanges(int64_t nrows, int nthreads)
      : threads(nthreads), per_thread(FastDivisor(std::max<int64_t>(1, (nrows + nthreads - 1) / nthreads))) {}
  int threads;
  FastDivisor per_thread;
};

// Applies apply(entry) to every entry, each by the thread owning row_of(entry): a stable counting
// sort of the entries by owning thread, then every thread walks its own part in order.
template <class Entry, class RowOf, class Apply>
void for_each_by_row_range(const std::vector<Entry>& entries, const RowRanges& ranges, RowOf row_of, Apply apply) {
  const int T = ranges.threads;
  const int64_t n = static_cast<int64_t>(entries.size());
  std::vector<int64_t> counts(static_cast<size_t>(T) * T + 1, 0);  // [slice][owner]
  std::vector<Entry> sorted(n);
#pragma omp parallel num_threads(T)
  {
    const int t = omp_get_thread_num();
    const int64_t lo = n * t / T, hi = n * (t + 1) / T;
    int64_t* mine = &counts[static_cast<size_t>(t) * T];
    for (int64_t k = lo; k < hi; ++k) ++mine[ranges.per_thread.divide(row_of(entries[k]))];
#pragma omp barrier
#pragma omp single
    {
      int64_t total = 0;
      for (int owner = 0; owner < T; ++owner)
        for (int slice = 0; slice < T; ++slice) {
          int64_t& c = counts[static_cast<size_t>(slice) * T + owner];
          const int64_t here = c;
          c = total;
          total += here;
        }
    }
    for (int64_t k = lo; k < hi; ++k) sorted[mine[ranges.per_thread.divide(row_of(entries[k]))]++] = entries[k];
#pragma omp barrier
    const int64_t begin = t == 0 ? 0 : counts[static_cast<size_t>(T - 1) * T + (t - 1)];
    const int64_t end = counts[static_cast<size_t>(T - 1) * T + t];
    for (int64_t k = begin; k < end; ++k) apply(sorted[k]);
  }
}

// Calls body(chunk_edges, count) for every chunk of this rank's share; every rank makes the same
// number of calls (some with count 0) because each one is collective.
template <class Body>
void for_each_chunk(const EdgeSource& source, MPI_Comm comm, std::vector<gen::Edge>& buffer, Body body) {
  int64_t chunks = (source.local_count + kChunkEdges - 1) / kChunkEdges;
  MPI_Allreduce(MPI_IN_PLACE, &chunks, 1, MPI_INT64_T, MPI_MAX, comm);
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t offset = std::min(source.local_count, c * kChunkEdges);
    const int64_t count = std::min(source.local_count - offset, kChunkEdges);
    if (count > 0) source.read(offset, count, buffer.data());
    body(buffer.data(), count);
  }
}

}  // namespace

LocalGraph build_local_graph(const EdgeSource& source, const ProcessGrid& grid) {
  LocalGraph g;
  g.dist = Distribution(source.nvertices, grid.rows(), grid.cols(), grid.row(), grid.col());
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  std::vector<gen::Edge> buffer(std::min(source.local_count, kChunkEdges));

  // Pass 1: row lengths.
  std::vector<int64_t> lengths(nrows + 1, 0);
  const RowRanges ranges(nrows, omp_get_max_threads());
  for_each_chunk(source, grid.world(), buffer, [&](const gen::Edge* edges, int64_t count) {
    auto rows = route_entries<uint32_t>(edges, count, d, grid, [](LocalId v, LocalId) { return v; });
    for_each_by_row_range(rows, ranges, [](uint32_t entry) { return entry; },
                          [&](uint32_t entry) { ++lengths[entry]; });
  });
  g.row_starts.assign(nrows + 1, 0);
  for (int64_t v = 0; v < nrows; ++v) g.row_starts[v + 1] = g.row_starts[v] + lengths[v];
  g.neighbors.resize(g.row_starts[nrows]);

  // Pass 2: fill at per-row cursors (lengths is reused as the cursor array). Each thread fills
  // its own range of rows in arrival order, so the result is deterministic and needs no atomics.
  std::copy(g.row_starts.begin(), g.row_starts.end() - 1, lengths.begin());
  for_each_chunk(source, grid.world(), buffer, [&](const gen::Edge* edges, int64_t count) {
    auto entries = route_entries<uint64_t>(edges, count, d, grid, [](LocalId v, LocalId u) {
      return (static_cast<uint64_t>(v) << 32) | u;
    });
    for_each_by_row_range(entries, ranges, [](uint64_t entry) { return static_cast<uint32_t>(entry >> 32); },
                          [&](uint64_t entry) {
                            g.neighbors[lengths[entry >> 32]++] = static_cast<LocalId>(entry);
                          });
  });

  // Full degree of each owned vertex: sum of its row lengths over the processes of the grid row.
  std::vector<int64_t> row_degree(nrows);
  for (int64_t v = 0; v < nrows; ++v) row_degree[v] = g.row_starts[v + 1] - g.row_starts[v];
  g.owned_degree.assign(d.block, 0);
  MPI_Reduce_scatter_block(row_degree.data(), g.owned_degree.data(), static_cast<int>(d.block), MPI_INT64_T,
                           MPI_SUM, grid.row_comm());
  int64_t local = g.local_edges();
  MPI_Allreduce(&local, &g.global_directed_edges, 1, MPI_INT64_T, MPI_SUM, grid.world());
  return g;
}

}  // namespace g500
