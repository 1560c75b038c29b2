// Kronecker (R-MAT style) edge generator following the Graph500 reference 3.0 generator
// bit for bit: same random stream, same per-level quadrant choice, same label scramble and the
// same float32 SSSP weight per edge.
//
// Edge i owns the stream position reached by jumping i * 2^64 steps from the seeded state. From
// there it draws one output per level (SCALE levels); each output picks a quadrant with
// probabilities A=0.57, B=C=0.19, D=0.05 (as integer fractions of 10000; outputs below
// (2^31-1) mod 10000 are redrawn to avoid modulo bias), with the upper-triangle "clip and flip"
// while source and target prefixes are equal. The next output after the last level is the
// weight. Both endpoints are then relabelled by a keyed hash / bit-reversal permutation.
//
// With AVX2 the work is done by kronecker_avx2.cpp. The portable path here processes kLanes
// consecutive edges side by side (structure-of-arrays, so the compiler can vectorise the modular
// arithmetic). Both hand the extremely rare edges that needed a redraw to the one-edge walk.
#include "gen/kronecker.hpp"

#include "gen/kronecker_detail.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace g500::gen {

namespace {

using namespace detail;

constexpr int kLanes = 1 << 4;
constexpr int kLog2Lanes = 4;

}  // namespace

KroneckerGenerator::KroneckerGenerator(const KroneckerSpec& spec) : spec_(spec) {
  if (spec.scale < 1 || spec.scale > 42 || spec.edgefactor < 1)
    throw std::invalid_argument("KroneckerGenerator: need 1 <= scale <= 42 and edgefactor >= 1 (got scale " +
                                std::to_string(spec.scale) + ", edgefactor " + std::to_string(spec.edgefactor) + ")");
  origin_ = mrg::seed_state(spec.seed1, spec.seed2);
  // The scramble keys come from a far-away part of the stream (50 * 2^128 + 7 * 2^64 steps).
  mrg::State keys = mrg::skip(origin_, 50, 7, 0);
  uint64_t a = mrg::next(keys), b = mrg::next(keys), c = mrg::next(keys), d = mrg::next(keys);
  scramble0_ = a * 0xFFFFFFFFULL + b;
  scramble1_ = c * 0xFFFFFFFFULL + d;
}

int64_t KroneckerGenerator::scramble(int64_t v) const {
  return permute_label(static_cast<uint64_t>(v), spec_.scale, scramble0_, scramble1_);
}

void KroneckerGenerator::generate_simple(int64_t begin, int64_t end, Edge* edges, float* weights) const {
  for (int64_t e = begin; e < end; ++e) {
    mrg::State st = mrg::skip(origin_, 0, static_cast<uint64_t>(e), 0);
    uint64_t s, t;
    float w;
    one_edge(st, spec_.scale, s, t, w);
    edges[e - begin] = Edge{scramble(static_cast<int64_t>(s)), scramble(static_cast<int64_t>(t))};
    if (weights) weights[e - begin] = w;
  }
}

void KroneckerGenerator::generate(int64_t begin, int64_t end, Edge* edges, float* weights) const {
  if (end <= begin) return;
  generate_block_range(begin, end, edges, weights);
}

void KroneckerGenerator::generate_parallel(int64_t begin, int64_t end, Edge* edges, float* weights) const {
  if (end <= begin) return;
  const int64_t n = end - begin;
  const int64_t chunk = 1 << 16;
  const int64_t nchunks = (n + chunk - 1) / chunk;
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < nchunks; ++c) {
    int64_t lo = begin + c * chunk, hi = std::min(end, lo + chunk);
    generate_block_range(lo, hi, edges + (lo - begin), weights ? weights + (lo - begin) : nullptr);
  }
}

void KroneckerGenerator::generate_block_range(int64_t begin, int64_t end, Edge* edges, float* weights) const {
#ifdef __AVX2__
  generate_avx2(mrg::skip(origin_, 0, static_cast<uint64_t>(begin), 0), spec_.scale, scramble0_, scramble1_,
                end - begin, edges, weights);
#else
  generate_portable(begin, end, edges, weights);
#endif
}

void KroneckerGenerator::generate_portable(int64_t begin, int64_t end, Edge* edges, float* weights) const {
  const int scale = spec_.scale;
  const uint64_t k0 = scramble0_, k1 = scramble1_;
  constexpr uint32_t P = mrg::kModulus;

  // Lane l starts at edge begin + l.
  alignas(32) uint32_t z[5][kLanes];  // z[0] most recent output ... z[4] oldest
  {
    mrg::State st = mrg::skip(origin_, 0, static_cast<uint64_t>(begin), 0);
    for (int l = 0; l < kLanes; ++l) {
      for (int i = 0; i < 5; ++i) z[i][l] = st.z[i];
      st = edge_jump_pow2(0).apply(st);
    }
  }
  const mrg::Matrix& jump = edge_jump_pow2(kLog2Lanes);  // advances every lane by kLanes edges

  alignas(32) uint32_t hist[5 + 64 + 1][kLanes];
  alignas(32) uint64_t src[kLanes], tgt[kLanes];
  alignas(32) uint32_t diverged[kLanes], redraw[kLanes];

  for (int64_t base = begin; base < end; base += kLanes) {
    // History rows 0..4 are the state, oldest first, so row n depends on rows n-1 and n-5.
    for (int l = 0; l < kLanes; ++l)
      for (int i = 0; i < 5; ++i) hist[i][l] = z[4 - i][l];
    for (int l = 0; l < kLanes; ++l) {
      src[l] = tgt[l] = 0;
      diverged[l] = 0;
      redraw[l] = 0;
    }
    for (int level = 0; level < scale; ++level) {
      const uint32_t* prev = hist[level + 4];
      const uint32_t* old = hist[level];
      uint32_t* out = hist[level + 5];
#pragma omp simd
      for (int l = 0; l < kLanes; ++l) {
        uint64_t acc = uint64_t{mrg::kMulRecent} * prev[l] + uint64_t{mrg::kMulOldest} * old[l];
        uint32_t v = static_cast<uint32_t>((acc & P) + (acc >> 31));  // < 2^31 + 2^28
        v = std::min(v, v - P);
        out[l] = v;
        redraw[l] |= v < kRedrawBelow;
        uint32_t q = v % kDenominator;
        uint32_t in_d = q >= kDenominator - kD;
        uint32_t sb = (q - kBC < kBC) | in_d;  // quadrant C or D
        uint32_t tb = (q < kBC) | in_d;        // quadrant B or D
        // Clip and flip: while on the diagonal, C becomes B.
        uint32_t on_diag = diverged[l] ^ 1u;
        uint32_t flip = on_diag & sb & (tb ^ 1u);
        sb ^= flip;
        tb |= flip;
        diverged[l] |= sb ^ tb;
        src[l] = (src[l] << 1) | sb;
        tgt[l] = (tgt[l] << 1) | tb;
      }
    }
    const int count = static_cast<int>(std::min<int64_t>(kLanes, end - base));
    const int64_t off = base - begin;
    uint32_t any_redraw = 0;
    for (int l = 0; l < kLanes; ++l) any_redraw |= redraw[l];
    if (any_redraw) {
      // A lane that hit the (probability ~2e-6) redraw consumed extra outputs: redo it one by one.
      for (int l = 0; l < count; ++l) {
        if (!redraw[l]) continue;
        mrg::State st;
        for (int i = 0; i < 5; ++i) st.z[i] = z[i][l];
        float w;
        one_edge(st, scale, src[l], tgt[l], w);
        if (weights) weights[off + l] = w;
      }
    }
    for (int l = 0; l < count; ++l) {
      edges[off + l].v0 = permute_label(src[l], scale, k0, k1);
      edges[off + l].v1 = permute_label(tgt[l], scale, k0, k1);
    }
    if (weights) {
      // The weight is the output right after the last level (weights are never redrawn).
      for (int l = 0; l < count; ++l) {
        if (redraw[l]) continue;
        uint64_t acc = uint64_t{mrg::kMulRecent} * hist[scale + 4][l] + uint64_t{mrg::kMulOldest} * hist[scale][l];
        weights[off + l] = mrg::to_weight(mrg::reduce(acc));
      }
    }
    if (base + kLanes >= end) break;
    // Jump every lane kLanes edges ahead.
    alignas(32) uint32_t nz[5][kLanes];
    for (int i = 0; i < 5; ++i) {
#pragma omp simd
      for (int l = 0; l < kLanes; ++l) {
        uint64_t acc = 0;
        for (int k = 0; k < 5; ++k) {
          uint64_t p = uint64_t{jump.m[i][k]} * z[k][l];
          acc += (p & P) + (p >> 31);
        }
        acc = (acc & P) + (acc >> 31);
        uint32_t v = static_cast<uint32_t>(acc);
        nz[i][l] = std::min(v, v - P);
      }
    }
    std::memcpy(z, nz, sizeof z);
  }
}

void make_random_numbers(int64_t count, uint64_t seed1, uint64_t seed2, int64_t position, double* out) {
  mrg::State st = mrg::seed_state(seed1, seed2);
  st = mrg::skip(st, 2, 0, 2 * static_cast<uint64_t>(position));  // two outputs per double
  for (int64_t i = 0; i < count; ++i) out[i] = mrg::next_double(st);
}

}  // namespace g500::gen
