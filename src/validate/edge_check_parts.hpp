// The pieces the two ways of checking the input edges share (validate/edge_check.hpp): how depths
// are stored and compared, what a vertex holds for the check (its depth and its parent's
// fingerprint in one word), and the lowest failing edge. Internal to validate/.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "comm/typed.hpp"
#include "graph/distribution.hpp"
#include "graph/edge_source.hpp"
#include "graph/grid.hpp"
#include "util/bitmap.hpp"
#include "util/raw_buffer.hpp"
#include "validate/edge_check.hpp"
#include "validate/tree_depths.hpp"

namespace g500::validate::edge_check {

// Depths as stored for the check: 0 for unreached, depth + 2 for reached. With depths up to
// max(T) - 3, (T)(du - dv + 1) <= 2 holds exactly when both are unreached or both are reached
// with depths at most one apart: differences are taken modulo 2^bits, and no stored reached value
// is within one (cyclically) of 0.
template <typename T>
T stored_depth(int32_t depth) {
  return depth == kUnreachedDepth ? T{0} : static_cast<T>(depth + 2);
}
template <typename T>
int64_t unstored_depth(T stored) {
  return stored == 0 ? -1 : static_cast<int64_t>(stored) - 2;
}
template <typename T>
bool depths_bad(T du, T dv) {
  return static_cast<T>(du - dv + 1) > T{2};
}
// u can be v's parent only one level above it: stored(du) + 1 == stored(dv) (never true when
// either is unreached, as no reached value is stored as 1).
template <typename T>
bool one_level_up(T du, T dv) {
  return static_cast<T>(du + 1) == dv;
}

// What a row (or a vertex) holds for the check. Narrow: the 8-bit stored depth in the low byte
// and the low byte of the parent's id (in the ids the check compares) above it. Wide (trees
// deeper than kNarrowMaxDepth): the 32-bit stored depth, no fingerprint.
struct NarrowRows {
  using Depth = uint8_t;
  using Row = uint16_t;
  static Depth depth(Row r) { return static_cast<Depth>(r); }
  static Row with_fingerprint(Row r, uint64_t parent) { return static_cast<Row>(r | (parent & 0xffU) << 8); }
  static Row word(int32_t depth, uint64_t parent) { return with_fingerprint(stored_depth<Depth>(depth), parent); }
  // v's word when u, at stored depth du, is v's parent: one compare does the level and the
  // fingerprint, leaving about one candidate per reached row plus one in 256 of the entries one
  // level up.
  static bool candidate(Row row_v, Depth du, uint64_t u) {
    return row_v == static_cast<Row>(static_cast<Depth>(du + 1) | (u & 0xffU) << 8);
  }
  // Whether u may be the parent of a vertex with this word (its fingerprint matches).
  static bool parent_may_be(Row r, uint64_t u) { return (r >> 8) == (u & 0xffU); }
};
struct WideRows {
  using Depth = uint32_t;
  using Row = uint32_t;
  static Depth depth(Row r) { return r; }
  static Row with_fingerprint(Row r, uint64_t) { return r; }
  static Row word(int32_t depth, uint64_t) { return stored_depth<Depth>(depth); }
  static bool candidate(Row row_v, Depth du, uint64_t) { return one_level_up(du, row_v); }  // every entry one level up
  static bool parent_may_be(Row, uint64_t) { return true; }
};

// The failing edge with the lowest (lower id, higher id) in global ids, with those vertices'
// depths; the check reports the lowest over all ranks, so every way of checking names the same.
struct BadEdge {
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = 0, dlo = 0, dhi = 0;
  bool found() const { return lo != std::numeric_limits<int64_t>::max(); }
  void consider(int64_t v, int64_t dv, int64_t u, int64_t du) {
    if (v > u) {
      std::swap(v, u);
      std::swap(dv, du);
    }
    if (v < lo || (v == lo && u < hi)) *this = BadEdge{v, u, dv, du};
  }
  void merge(const BadEdge& other) {
    if (other.found()) consider(other.lo, other.dlo, other.hi, other.dhi);
  }
};

// The two ways (edge_check.hpp). Each fills tree_edge_seen (owned vertices, by owned offset),
// the reached entries and this rank's lowest failing edge.
EdgeCheck check_by_owners(const graph::EdgeSource& source, const graph::Distribution& d, const graph::ProcessGrid& grid,
                          const std::vector<int64_t>& parents, const std::vector<int32_t>& depth, int32_t max_depth,
                          bool narrow, const EdgeCheckOptions& options, util::Bitmap& tree_edge_seen);
EdgeCheck check_replicated(const graph::EdgeSource& source, const graph::Distribution& d,
                           const graph::ProcessGrid& grid, const std::vector<int64_t>& parents,
                           const std::vector<int32_t>& depth, bool narrow, const EdgeCheckOptions& options,
                           util::Bitmap& tree_edge_seen);
// Their peak bytes on one process (narrow words, chunks of `chunk_edges`, `threads` OpenMP threads,
// `global_edges` input edges in all).
double owner_queries_bytes(const graph::Distribution& d, int threads, int64_t chunk_edges);
double replicated_bytes(const graph::Distribution& d, int64_t chunk_edges, int64_t global_edges);

// Sets the result's failing edge from `bad`.
inline void report(const BadEdge& bad, EdgeCheck& result) {
  result.bad = bad.found();
  if (!result.bad) return;
  result.bad_v = bad.lo;
  result.bad_u = bad.hi;
  result.bad_dv = bad.dlo;
  result.bad_du = bad.dhi;
}

// Collective over `comm`: reads this rank's share of the input edges a chunk at a time and calls
// f(edges, count) once per round; every rank makes as many rounds as the longest share (with
// count 0 after its own), so that f may take part in collective exchanges.
template <class F>
void for_each_input_chunk(const graph::EdgeSource& source, int64_t chunk_edges, MPI_Comm comm, F f) {
  const int64_t chunk = std::max<int64_t>(1, std::min(source.local_count, chunk_edges));
  const int64_t chunks = comm::Communicator(comm).max((source.local_count + chunk - 1) / chunk);
  util::RawBuffer<gen::Edge> buffer;
  gen::Edge* edges = buffer.get(chunk);
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t offset = std::min(source.local_count, c * chunk);
    const int64_t count = std::min(chunk, source.local_count - offset);
    if (count > 0) source.read(offset, count, edges);
    f(edges, count);
  }
}

}  // namespace g500::validate::edge_check
