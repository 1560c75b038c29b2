// The words of the delta-stepping search (Meyer and Sanders 2003) of DistributedSssp: a vertex's
// search state (its float distance's bits above the id of the vertex whose candidate set it,
// lowered by one atomic minimum), the gathered records and the exchanged candidates, and the small
// member functions that read and lower a state.
// Internal to src/sssp: included by the files that define DistributedSssp's members.
#pragma once
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "graph/light_bounds.hpp"
#include "sssp/sssp.hpp"
#include "util/atomic_ref.hpp"

namespace g500::sssp {
namespace sssp_words {

// Non-negative floats order as their bits (as unsigned integers); infinity above every distance.
inline uint32_t bits_of(float d) { return std::bit_cast<uint32_t>(d); }
inline float float_of(uint32_t b) { return std::bit_cast<float>(b); }
inline constexpr float kInfinity = std::numeric_limits<float>::infinity();
// A vertex's search state: its tentative distance's bits above the id of the vertex whose candidate
// set it. One atomic minimum lowers both, so the final word names the source of the final
// distance, without a race between threads. The id takes 32 bits in every build (the search
// refuses grids whose ids need more: SsspConfig::kSourceIdBits).
inline uint64_t state_of(float d, graph::LocalId from) {
  return (uint64_t{bits_of(d)} << 32) | static_cast<uint32_t>(from);
}
inline float distance_of(uint64_t state) { return float_of(static_cast<uint32_t>(state >> 32)); }
inline graph::LocalId source_of(uint64_t state) { return static_cast<uint32_t>(state); }
// A gathered record: a row-local or column-local id above a distance's bits.
inline uint64_t record_of(uint64_t id, float d) { return (id << 32) | bits_of(d); }
inline int64_t record_id(uint64_t record) { return static_cast<int64_t>(record >> 32); }
inline float record_distance(uint64_t record) { return float_of(static_cast<uint32_t>(record)); }
// The first word of a candidate sent to its owner: the target's owned offset, and above it the
// source's id; the second word is the distance's bits.
inline uint64_t candidate_word(graph::LocalId offset, graph::LocalId from) {
  return (static_cast<uint64_t>(from) << 32) | offset;
}
inline graph::LocalId candidate_offset(uint64_t word) { return static_cast<uint32_t>(word); }
inline graph::LocalId candidate_source(uint64_t word) { return static_cast<graph::LocalId>(word >> 32); }
// The candidate an edge of weight w gives a vertex at distance d: a float sum, as the reference's.
inline float candidate(float d, float w) { return d + w; }

inline constexpr int kSlotStride = 8;  // doubles per thread in the reduction slots (one cache line)
inline constexpr uint8_t kNoEpoch = 0;
// The sub-bucket argument of place_improved() after a heavy phase (every improvement is beyond
// the bucket), and the bucket of search() between a heavy phase and the next bucket.
inline constexpr int64_t kNoBucket = -1;
// Candidates buffered before apply_candidates(): enough to overlap many misses, few enough to stay
// in the first-level cache.
inline constexpr size_t kCandidateBatch = 1024;

}  // namespace sssp_words

// A plain load, though other threads may be lowering the word: an aligned 64-bit load is atomic on
// the machines we build for, and a relaxed atomic load (__atomic_load_n) measured 8 % slower over
// the whole search (3 + 3 alternating runs), as it keeps the compiler from optimizing the loops
// that read many distances.
inline float DistributedSssp::distance(graph::LocalId x) const { return sssp_words::distance_of(state_[x]); }

inline bool DistributedSssp::is_current(const Improvement& i) const { return distance(i.x) == i.d; }

inline void DistributedSssp::improve(graph::LocalId x, float nd, graph::LocalId from, ThreadState& ts) {
  util::AtomicRef<uint64_t> slot(state_[x]);
  const uint64_t want = sssp_words::state_of(nd, from);
  uint64_t seen = slot.load(std::memory_order_relaxed);
  // Only a lower distance replaces the state (an equal one from another source does not).
  while ((want >> 32) < (seen >> 32))
    if (slot.compare_exchange_weak(seen, want, std::memory_order_relaxed, std::memory_order_relaxed)) {
      ts.improved.push_back({x, from, nd});
      ++ts.improvements;
      return;
    }
}

inline bool DistributedSssp::may_have_inner_edge(int64_t x, float dx, int64_t k) const {
  // The bound is <= the lightest weight, and the float sum rounds monotonically: when even the
  // bound's candidate is out of bucket k, every edge's is (the test of relax_row, on the same
  // float sum: with a distance far above the weights, the sum can round down to the distance).
  const float bound = static_cast<float>(graph::lightest_weight_bound(light_bound_[x]));
  return static_cast<double>(sssp_words::candidate(dx, bound)) * inverse_width_ <
         static_cast<double>((k + 1) * sub_buckets_);
}

}  // namespace g500::sssp
