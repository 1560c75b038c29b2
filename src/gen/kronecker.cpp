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
// On a processor with AVX2 the work is done by kronecker_avx2.cpp (chosen at run time). The portable path here
// processes kLanes consecutive edges side by side (structure-of-arrays, so the compiler can vectorise the modular
// arithmetic). Both hand the extremely rare edges that needed a redraw to the one-edge walk.
#include "gen/kronecker.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "gen/kronecker_detail.hpp"

namespace g500::gen {

namespace {

using namespace detail;

constexpr int kLanes = 1 << 4;
constexpr int kLog2Lanes = 4;

// The generator states of the lanes, lane by lane in the minor index so the lanes vectorise:
// z[0][l] is lane l's most recent output ... z[4][l] its oldest.
using LaneStates = uint32_t[5][kLanes];

// kLanes edges walked side by side through the levels.
struct LaneWalk {
  // The lanes' outputs: rows 0..4 the state, oldest first, then one row per level, so row n
  // depends on rows n-1 and n-5.
  alignas(32) uint32_t hist[5 + 64 + 1][kLanes];
  alignas(32) uint64_t src[kLanes], tgt[kLanes];  // endpoints before the label scramble
  alignas(32) uint32_t diverged[kLanes];          // source and target prefixes differ
  alignas(32) uint32_t redraw[kLanes];            // some output needed a redraw: walked again alone
};

// The hot helpers below are forced inline: generate_portable is their only caller, and inlined
// they compile as the one loop they were split from.

// Lane l starts at the edge `l` edges after `start`.
[[gnu::always_inline]] inline void start_lanes(mrg::State start, LaneStates& z) {
  for (int l = 0; l < kLanes; ++l) {
    for (int i = 0; i < 5; ++i) z[i][l] = start.z[i];
    start = edge_jump_pow2(0).apply(start);
  }
}

// Draws one output per level for every lane and picks its quadrant, building the endpoints bit by
// bit from the top.
[[gnu::always_inline]] inline void walk_levels(const LaneStates& z, int scale, LaneWalk& walk) {
  constexpr uint32_t P = mrg::kModulus;
  for (int l = 0; l < kLanes; ++l)
    for (int i = 0; i < 5; ++i) walk.hist[i][l] = z[4 - i][l];
  for (int l = 0; l < kLanes; ++l) {
    walk.src[l] = walk.tgt[l] = 0;
    walk.diverged[l] = 0;
    walk.redraw[l] = 0;
  }
  for (int level = 0; level < scale; ++level) {
    const uint32_t* prev = walk.hist[level + 4];
    const uint32_t* old = walk.hist[level];
    uint32_t* out = walk.hist[level + 5];
#pragma omp simd
    for (int l = 0; l < kLanes; ++l) {
      uint64_t acc = uint64_t{mrg::kMulRecent} * prev[l] + uint64_t{mrg::kMulOldest} * old[l];
      uint32_t v = static_cast<uint32_t>((acc & P) + (acc >> 31));  // < 2^31 + 2^28
      v = std::min(v, v - P);
      out[l] = v;
      walk.redraw[l] |= v < kRedrawBelow;
      uint32_t q = v % kDenominator;
      uint32_t in_d = q >= kDenominator - kD;
      uint32_t sb = (q - kBC < kBC) | in_d;  // quadrant C or D
      uint32_t tb = (q < kBC) | in_d;        // quadrant B or D
      // Clip and flip: while on the diagonal, C becomes B.
      uint32_t on_diag = walk.diverged[l] ^ 1u;
      uint32_t flip = on_diag & sb & (tb ^ 1u);
      sb ^= flip;
      tb |= flip;
      walk.diverged[l] |= sb ^ tb;
      walk.src[l] = (walk.src[l] << 1) | sb;
      walk.tgt[l] = (walk.tgt[l] << 1) | tb;
    }
  }
}

// A lane that hit the (probability ~2e-6) redraw consumed extra outputs: its edge, and its
// weight when `weights`, are redone by the one-edge walk. Lanes [0, count) are in range.
void redo_redrawn_lanes(const LaneStates& z, int scale, int count, LaneWalk& walk, float* weights) {
  for (int l = 0; l < count; ++l) {
    if (!walk.redraw[l]) continue;
    mrg::State st;
    for (int i = 0; i < 5; ++i) st.z[i] = z[i][l];
    float w;
    one_edge(st, scale, walk.src[l], walk.tgt[l], w);
    if (weights) weights[l] = w;
  }
}

// The weight of each lane not redrawn: the output right after the last level (weights are never
// redrawn themselves).
[[gnu::always_inline]] inline void store_weights(const LaneWalk& walk, int scale, int count, float* weights) {
  for (int l = 0; l < count; ++l) {
    if (walk.redraw[l]) continue;
    uint64_t acc =
        uint64_t{mrg::kMulRecent} * walk.hist[scale + 4][l] + uint64_t{mrg::kMulOldest} * walk.hist[scale][l];
    weights[l] = mrg::to_weight(mrg::reduce(acc));
  }
}

// Moves every lane `jump` ahead (kLanes edges).
[[gnu::always_inline]] inline void jump_lanes(const mrg::Matrix& jump, LaneStates& z) {
  constexpr uint32_t P = mrg::kModulus;
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
  std::memcpy(z, nz, sizeof nz);
}

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
  if (avx2_supported())
    generate_avx2(mrg::skip(origin_, 0, static_cast<uint64_t>(begin), 0), spec_.scale, scramble0_, scramble1_,
                  end - begin, edges, weights);
  else
    generate_portable(begin, end, edges, weights);
}

const char* generator_path() { return avx2_supported() ? "AVX2" : "portable"; }

void KroneckerGenerator::generate_portable(int64_t begin, int64_t end, Edge* edges, float* weights) const {
  const int scale = spec_.scale;
  const uint64_t k0 = scramble0_, k1 = scramble1_;  // locals: the edge stores could alias the members
  alignas(32) LaneStates z;
  start_lanes(mrg::skip(origin_, 0, static_cast<uint64_t>(begin), 0), z);
  const mrg::Matrix& jump = edge_jump_pow2(kLog2Lanes);  // advances every lane by kLanes edges
  LaneWalk walk;
  for (int64_t base = begin; base < end; base += kLanes) {
    walk_levels(z, scale, walk);
    const int count = static_cast<int>(std::min<int64_t>(kLanes, end - base));
    const int64_t off = base - begin;
    uint32_t any_redraw = 0;
    for (int l = 0; l < kLanes; ++l) any_redraw |= walk.redraw[l];
    if (any_redraw) redo_redrawn_lanes(z, scale, count, walk, weights ? weights + off : nullptr);
    for (int l = 0; l < count; ++l) {
      edges[off + l].v0 = permute_label(walk.src[l], scale, k0, k1);
      edges[off + l].v1 = permute_label(walk.tgt[l], scale, k0, k1);
    }
    if (weights) store_weights(walk, scale, count, weights + off);
    if (base + kLanes >= end) break;
    jump_lanes(jump, z);
  }
}

void make_random_numbers(int64_t count, uint64_t seed1, uint64_t seed2, int64_t position, double* out) {
  mrg::State st = mrg::seed_state(seed1, seed2);
  st = mrg::skip(st, 2, 0, 2 * static_cast<uint64_t>(position));  // two outputs per double
  for (int64_t i = 0; i < count; ++i) out[i] = mrg::next_double(st);
}

}  // namespace g500::gen
