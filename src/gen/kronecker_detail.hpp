// Internal pieces of the Kronecker generator shared by the portable and the AVX2 paths
// (the generator follows the Graph500 reference 3.0 generator; see kronecker.cpp).
#pragma once
#include <cstdint>
#include <utility>

#include "gen/kronecker.hpp"
#include "gen/mrg.hpp"

namespace g500::gen::detail {

inline constexpr uint32_t kDenominator = 10000;                         // initiator fractions in 1/10000
inline constexpr uint32_t kBC = 1900;                                   // B and C numerators
inline constexpr uint32_t kD = 500;                                     // D numerator (A = 5700)
inline constexpr uint32_t kRedrawBelow = mrg::kModulus % kDenominator;  // modulo-bias rejection
inline constexpr uint64_t kScrambleMix0 = 0x4519840211493211ULL;
inline constexpr uint64_t kScrambleMix1 = 0x3050852102C843A5ULL;

inline uint64_t reverse_bits(uint64_t x) {
  x = __builtin_bswap64(x);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  return x;
}

// The vertex-label permutation: keyed add/multiply, then bit reversal truncated to SCALE bits,
// twice.
inline int64_t permute_label(uint64_t v, int scale, uint64_t k0, uint64_t k1) {
  const int drop = 64 - scale;
  v += k0 + k1;
  v *= (k0 | kScrambleMix0);
  v = reverse_bits(v) >> drop;
  v *= (k1 | kScrambleMix1);
  v = reverse_bits(v) >> drop;
  return static_cast<int64_t>(v);
}

// Quadrant from one draw in [0, 10000): 0 = A (top-left), 1 = B, 2 = C, 3 = D.
inline int quadrant(uint32_t q) {
  if (q < kBC) return 1;
  if (q < 2 * kBC) return 2;
  if (q < kDenominator - kD) return 0;
  return 3;
}

// One edge (unscrambled endpoints) and its weight from the edge's stream state, walked exactly
// as the reference does, including redraws.
inline void one_edge(mrg::State st, int scale, uint64_t& src, uint64_t& tgt, float& weight) {
  uint64_t s = 0, t = 0;
  bool diverged = false;
  for (int level = 0; level < scale; ++level) {
    uint32_t v = mrg::next(st);
    while (v < kRedrawBelow) v = mrg::next(st);
    int quad = quadrant(v % kDenominator);
    uint64_t sb = quad >> 1, tb = quad & 1;
    if (!diverged && sb > tb) std::swap(sb, tb);  // clip and flip onto the upper triangle
    diverged = diverged || sb != tb;
    s = (s << 1) | sb;
    t = (t << 1) | tb;
  }
  src = s;
  tgt = t;
  weight = mrg::to_weight(mrg::next(st));
}

// Jump matrices between edges: edge i+1 starts 2^64 steps after edge i.
inline const mrg::Matrix& edge_jump_pow2(int k) { return mrg::step_pow2(64 + k); }

// The AVX2 path (gen/kronecker_avx2.cpp, x86-64 builds): whether this processor has AVX2, and the
// generator of `count` consecutive edges whose first edge has stream state `first`. Builds for
// other processors get gen/kronecker_no_avx2.cpp, where the processor never has it.
bool avx2_supported();
void generate_avx2(const mrg::State& first, int scale, uint64_t k0, uint64_t k1, int64_t count, Edge* edges,
                   float* weights);

}  // namespace g500::gen::detail
