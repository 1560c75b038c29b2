// AVX2 fast path of the Kronecker generator (follows the Graph500 reference 3.0 generator bit for
// bit; the portable path and the one-edge reference walk live in kronecker.cpp/kronecker_detail.hpp).
//
// Eight consecutive edges are generated together, as two groups of four 64-bit lanes:
//  * the MRG recurrence z_n = x z_{n-1} + y z_{n-5} (mod 2^31-1) runs per lane on a five-entry
//    register ring (the level loop is unrolled five times, so the ring rotates by renaming);
//  * the quadrant of each draw v is found without a division: with m = ceil(2^45 / 10000),
//    (v * m) mod 2^45 is an exact fixed-point image of (v mod 10000) / 10000 for every
//    v < 2^31 - 1 (checked exhaustively), so comparing it with ceil(k 2^45 / 10000) decides
//    "v mod 10000 >= k";
//  * the clip-and-flip rule is applied once per edge afterwards: it only ever turns the first
//    level where source and target bits differ into (0, 1);
//  * a lane whose draws included a value the reference would redraw (probability ~4e-5 per edge)
//    is recomputed with the one-edge walk;
//  * the scramble uses byte shuffles for the bit reversal.
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "gen/kronecker_detail.hpp"

// Every function here is compiled for AVX2, and only these: the rest of g500 keeps the build's
// instruction set (G500_ARCH_FLAGS), and generate_avx2 runs only where avx2_supported() says so.
// A per-function target rather than -mavx2 for the file, so no inline function of a header this
// file includes is compiled for AVX2 and then picked by the linker for the whole program.
#define G500_AVX2 __attribute__((target("avx2")))

namespace g500::gen::detail {
namespace {

using V = __m256i;

G500_AVX2 inline V splat(uint64_t x) { return _mm256_set1_epi64x(static_cast<long long>(x)); }

constexpr uint64_t kFracMagic = 3518437209ULL;  // ceil(2^45 / 10000)
constexpr uint64_t kFracMask = (uint64_t{1} << 45) - 1;
constexpr uint64_t frac_threshold(uint64_t k) { return (k * (uint64_t{1} << 45) + kDenominator - 1) / kDenominator; }

struct Constants {
  V x, y, p, magic, mask45, ge1900, ge3800, ge9500;  // ge*: threshold - 1 (for cmpgt)
  V redraw_below;
  V bswap, rev_lo, rev_hi, nibble;
  V key_sum, key0_lo, key0_hi, key1_lo, key1_hi;
  __m128i drop;
  V low_mask;
  V jump[5][5];
  __m256d weight_scale;
};

G500_AVX2 inline V mrg_next(V recent, V oldest, const Constants& c) {
  V s = _mm256_add_epi64(_mm256_mul_epu32(recent, c.x), _mm256_mul_epu32(oldest, c.y));
  V v = _mm256_add_epi64(_mm256_and_si256(s, c.p), _mm256_srli_epi64(s, 31));  // < 2^31 + 2^28
  return _mm256_min_epu32(v, _mm256_sub_epi32(v, c.p));                        // canonical
}

G500_AVX2 inline V fold(V s, const Constants& c) {
  return _mm256_add_epi64(_mm256_and_si256(s, c.p), _mm256_srli_epi64(s, 31));
}

// Lane-wise 64-bit product with a constant split into 32-bit halves.
G500_AVX2 inline V mul64(V a, V b_lo, V b_hi) {
  V lo = _mm256_mul_epu32(a, b_lo);
  V cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b_lo), _mm256_mul_epu32(a, b_hi));
  return _mm256_add_epi64(lo, _mm256_slli_epi64(cross, 32));
}

G500_AVX2 inline V reverse64(V x, const Constants& c) {
  x = _mm256_shuffle_epi8(x, c.bswap);
  V lo = _mm256_and_si256(x, c.nibble);
  V hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), c.nibble);
  return _mm256_or_si256(_mm256_shuffle_epi8(c.rev_lo, lo), _mm256_shuffle_epi8(c.rev_hi, hi));
}

G500_AVX2 inline V scramble(V v, const Constants& c) {
  v = _mm256_add_epi64(v, c.key_sum);
  v = mul64(v, c.key0_lo, c.key0_hi);
  v = _mm256_srl_epi64(reverse64(v, c), c.drop);
  v = mul64(v, c.key1_lo, c.key1_hi);
  return _mm256_srl_epi64(reverse64(v, c), c.drop);
}

// The highest set bit of each lane (0 stays 0).
G500_AVX2 inline V top_bit(V d) {
  d = _mm256_or_si256(d, _mm256_srli_epi64(d, 1));
  d = _mm256_or_si256(d, _mm256_srli_epi64(d, 2));
  d = _mm256_or_si256(d, _mm256_srli_epi64(d, 4));
  d = _mm256_or_si256(d, _mm256_srli_epi64(d, 8));
  d = _mm256_or_si256(d, _mm256_srli_epi64(d, 16));
  d = _mm256_or_si256(d, _mm256_srli_epi64(d, 32));
  return _mm256_xor_si256(d, _mm256_srli_epi64(d, 1));
}

G500_AVX2 inline void jump(V z[5], const Constants& c) {
  V nz[5];
  for (int i = 0; i < 5; ++i) {
    // Four products of values below 2^31 - 1 sum to less than 2^64.
    V acc =
        _mm256_add_epi64(_mm256_add_epi64(_mm256_mul_epu32(c.jump[i][0], z[0]), _mm256_mul_epu32(c.jump[i][1], z[1])),
                         _mm256_add_epi64(_mm256_mul_epu32(c.jump[i][2], z[2]), _mm256_mul_epu32(c.jump[i][3], z[3])));
    acc = fold(acc, c);
    acc = _mm256_add_epi64(acc, _mm256_mul_epu32(c.jump[i][4], z[4]));
    acc = fold(fold(acc, c), c);  // < 2^31 + 2
    nz[i] = _mm256_min_epu32(acc, _mm256_sub_epi32(acc, c.p));
  }
  for (int i = 0; i < 5; ++i) z[i] = nz[i];
}

struct GroupOut {
  V src, tgt, weight_draw, min_draw;
};

// Per-group walk state: r[n % 5] holds the stream output z_n (z_0 = oldest state entry).
struct Walker {
  V r[5];
  V src, not_tgt, lowest;
};

#define G500_INLINE G500_AVX2 inline __attribute__((always_inline))

G500_INLINE void start(Walker& w, const V z[5]) {
  for (int i = 0; i < 5; ++i) w.r[i] = z[4 - i];
  w.src = _mm256_setzero_si256();
  w.not_tgt = _mm256_setzero_si256();
  w.lowest = _mm256_set1_epi64x(-1);
}

// One level: the draw replaces the oldest ring entry O (the most recent one is O - 1 mod 5).
template <int O>
G500_INLINE void level(Walker& w, const Constants& c) {
  V v = mrg_next(w.r[(O + 4) % 5], w.r[O], c);
  w.r[O] = v;
  w.lowest = _mm256_min_epu32(w.lowest, v);
  V frac = _mm256_and_si256(_mm256_mul_epu32(v, c.magic), c.mask45);
  V ge1900 = _mm256_cmpgt_epi64(frac, c.ge1900);
  V ge3800 = _mm256_cmpgt_epi64(frac, c.ge3800);
  V ge9500 = _mm256_cmpgt_epi64(frac, c.ge9500);
  V src_bit = _mm256_or_si256(_mm256_xor_si256(ge1900, ge3800), ge9500);  // quadrant C or D
  V tgt_zero = _mm256_andnot_si256(ge9500, ge1900);                       // quadrant A or C
  w.src = _mm256_sub_epi64(_mm256_add_epi64(w.src, w.src), src_bit);      // masks are 0 / -1
  w.not_tgt = _mm256_sub_epi64(_mm256_add_epi64(w.not_tgt, w.not_tgt), tgt_zero);
}

template <int O>
G500_INLINE void level2(Walker& a, Walker& b, const Constants& c) {
  level<O>(a, c);
  level<O>(b, c);
}

G500_INLINE GroupOut finish(Walker& w, V weight_draw, const Constants& c) {
  GroupOut out;
  out.weight_draw = weight_draw;
  V tgt = _mm256_xor_si256(w.not_tgt, c.low_mask);
  V first_diff = top_bit(_mm256_xor_si256(w.src, tgt));
  out.src = _mm256_andnot_si256(first_diff, w.src);
  out.tgt = _mm256_or_si256(tgt, first_diff);
  out.min_draw = w.lowest;
  return out;
}

// All levels for two groups of four lanes (states za, zb; z[0] most recent), interleaved so the
// two recurrence chains overlap. The level loop is unrolled five times: the ring rotates by
// renaming only.
G500_AVX2 void walk2(const V za[5], const V zb[5], int scale, const Constants& c, GroupOut& out_a, GroupOut& out_b) {
  Walker a, b;
  start(a, za);
  start(b, zb);
  int left = scale;
  for (; left >= 5; left -= 5) {
    level2<0>(a, b, c);
    level2<1>(a, b, c);
    level2<2>(a, b, c);
    level2<3>(a, b, c);
    level2<4>(a, b, c);
  }
  // The remaining 0..4 levels, then the weight: the next output (weights are never redrawn).
  if (left > 0) level2<0>(a, b, c);
  if (left > 1) level2<1>(a, b, c);
  if (left > 2) level2<2>(a, b, c);
  if (left > 3) level2<3>(a, b, c);
  V wa, wb;
  switch (left) {
    case 0:
      wa = mrg_next(a.r[4], a.r[0], c);
      wb = mrg_next(b.r[4], b.r[0], c);
      break;
    case 1:
      wa = mrg_next(a.r[0], a.r[1], c);
      wb = mrg_next(b.r[0], b.r[1], c);
      break;
    case 2:
      wa = mrg_next(a.r[1], a.r[2], c);
      wb = mrg_next(b.r[1], b.r[2], c);
      break;
    case 3:
      wa = mrg_next(a.r[2], a.r[3], c);
      wb = mrg_next(b.r[2], b.r[3], c);
      break;
    default:
      wa = mrg_next(a.r[3], a.r[4], c);
      wb = mrg_next(b.r[3], b.r[4], c);
      break;
  }
  out_a = finish(a, wa, c);
  out_b = finish(b, wb, c);
}

G500_AVX2 inline void store_edges(Edge* e, V s, V t) {
  V lo = _mm256_unpacklo_epi64(s, t);  // s0 t0 | s2 t2
  V hi = _mm256_unpackhi_epi64(s, t);  // s1 t1 | s3 t3
  _mm256_storeu_si256(reinterpret_cast<V*>(e), _mm256_permute2x128_si256(lo, hi, 0x20));
  _mm256_storeu_si256(reinterpret_cast<V*>(e + 2), _mm256_permute2x128_si256(lo, hi, 0x31));
}

G500_AVX2 inline void store_weights(float* w, V draws, const Constants& c) {
  // Same roundings as the scalar conversion: int -> float, float -> double, * 1/p, -> float.
  const V pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  __m128i d = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(draws, pick));
  __m256d x = _mm256_mul_pd(_mm256_cvtps_pd(_mm_cvtepi32_ps(d)), c.weight_scale);
  _mm_storeu_ps(w, _mm256_cvtpd_ps(x));
}

G500_AVX2 Constants make_constants(int scale, uint64_t k0, uint64_t k1) {
  Constants c;
  c.x = splat(mrg::kMulRecent);
  c.y = splat(mrg::kMulOldest);
  c.p = splat(mrg::kModulus);
  c.magic = splat(kFracMagic);
  c.mask45 = splat(kFracMask);
  c.ge1900 = splat(frac_threshold(kBC) - 1);
  c.ge3800 = splat(frac_threshold(2 * kBC) - 1);
  c.ge9500 = splat(frac_threshold(kDenominator - kD) - 1);
  c.redraw_below = splat(kRedrawBelow);
  c.bswap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13,
                             12, 11, 10, 9, 8);
  alignas(32) uint8_t lo_tab[32], hi_tab[32];
  for (int i = 0; i < 32; ++i) {
    int n = i & 15;
    int r = ((n & 1) << 3) | ((n & 2) << 1) | ((n & 4) >> 1) | ((n & 8) >> 3);
    lo_tab[i] = static_cast<uint8_t>(r << 4);  // low nibble moves to the high nibble, reversed
    hi_tab[i] = static_cast<uint8_t>(r);
  }
  c.rev_lo = _mm256_load_si256(reinterpret_cast<const V*>(lo_tab));
  c.rev_hi = _mm256_load_si256(reinterpret_cast<const V*>(hi_tab));
  c.nibble = _mm256_set1_epi8(0x0F);
  c.key_sum = splat(k0 + k1);
  const uint64_t m0 = k0 | kScrambleMix0, m1 = k1 | kScrambleMix1;
  c.key0_lo = splat(m0);
  c.key0_hi = splat(m0 >> 32);
  c.key1_lo = splat(m1);
  c.key1_hi = splat(m1 >> 32);
  c.drop = _mm_cvtsi32_si128(64 - scale);
  c.low_mask = splat((uint64_t{1} << scale) - 1);
  const mrg::Matrix& j8 = edge_jump_pow2(3);  // every lane advances eight edges per block
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 5; ++k) c.jump[i][k] = splat(j8.m[i][k]);
  c.weight_scale = _mm256_set1_pd(0.000000000465661287524579692);
  return c;
}

G500_AVX2 void run(const mrg::State& first, const int S, uint64_t k0, uint64_t k1, int64_t count, Edge* edges,
                   float* weights) {
  const Constants c = make_constants(S, k0, k1);
  // Lane l (group l / 4, slot l % 4) starts at edge l.
  alignas(32) uint64_t init[2][5][4];
  mrg::State st = first;
  for (int l = 0; l < 8; ++l) {
    for (int i = 0; i < 5; ++i) init[l / 4][i][l % 4] = st.z[i];
    st = edge_jump_pow2(0).apply(st);
  }
  V za[5], zb[5];
  for (int i = 0; i < 5; ++i) {
    za[i] = _mm256_load_si256(reinterpret_cast<const V*>(init[0][i]));
    zb[i] = _mm256_load_si256(reinterpret_cast<const V*>(init[1][i]));
  }
  alignas(32) Edge tmp_edges[8];
  alignas(32) float tmp_weights[8];
  for (int64_t base = 0; base < count; base += 8) {
    GroupOut a, b;
    walk2(za, zb, S, c, a, b);
    V redraw_a = _mm256_cmpgt_epi64(c.redraw_below, a.min_draw);
    V redraw_b = _mm256_cmpgt_epi64(c.redraw_below, b.min_draw);
    const bool any_redraw = !_mm256_testz_si256(_mm256_or_si256(redraw_a, redraw_b), _mm256_set1_epi64x(-1));
    V sa = scramble(a.src, c), ta = scramble(a.tgt, c), sb = scramble(b.src, c), tb = scramble(b.tgt, c);
    const bool full = count - base >= 8 && !any_redraw;
    Edge* e = full ? edges + base : tmp_edges;
    float* w = full ? (weights ? weights + base : nullptr) : tmp_weights;
    store_edges(e, sa, ta);
    store_edges(e + 4, sb, tb);
    if (w) {
      store_weights(w, a.weight_draw, c);
      store_weights(w + 4, b.weight_draw, c);
    }
    if (!full) {
      if (any_redraw) {
        alignas(32) uint64_t flag[8], lanes[2][5][4];
        _mm256_store_si256(reinterpret_cast<V*>(flag), redraw_a);
        _mm256_store_si256(reinterpret_cast<V*>(flag + 4), redraw_b);
        for (int i = 0; i < 5; ++i) {
          _mm256_store_si256(reinterpret_cast<V*>(lanes[0][i]), za[i]);
          _mm256_store_si256(reinterpret_cast<V*>(lanes[1][i]), zb[i]);
        }
        for (int l = 0; l < 8; ++l) {
          if (!flag[l]) continue;
          mrg::State s;
          for (int i = 0; i < 5; ++i) s.z[i] = static_cast<uint32_t>(lanes[l / 4][i][l % 4]);
          uint64_t u, v;
          one_edge(s, S, u, v, tmp_weights[l]);
          tmp_edges[l] = Edge{permute_label(u, S, k0, k1), permute_label(v, S, k0, k1)};
        }
      }
      const int64_t n = std::min<int64_t>(8, count - base);
      std::memcpy(edges + base, tmp_edges, n * sizeof(Edge));
      if (weights) std::memcpy(weights + base, tmp_weights, n * sizeof(float));
    }
    jump(za, c);
    jump(zb, c);
  }
}

}  // namespace

G500_AVX2 void generate_avx2(const mrg::State& first, int scale, uint64_t k0, uint64_t k1, int64_t count, Edge* edges,
                             float* weights) {
  if (count <= 0) return;
  run(first, scale, k0, k1, count, edges, weights);
}

bool avx2_supported() { return __builtin_cpu_supports("avx2"); }

}  // namespace g500::gen::detail
