// Splittable multiple-recursive random stream used by the Graph500 reference 3.0 generator.
//
// The stream is the 5th-order MRG of L'Ecuyer, Blouin and Couture (modulus p = 2^31 - 1,
// z_n = 107374182 * z_{n-1} + 104480 * z_{n-5} mod p). Its state is five residues; one step is
// multiplication by a fixed 5x5 companion matrix, so jumping n steps ahead is multiplication by
// that matrix raised to n. The reference addresses the stream with 192-bit jump distances
// (hi * 2^128 + mid * 2^64 + lo); this file provides the same addressing from precomputed
// matrix powers, so results are bit-identical to the reference 3.0 generator.
#pragma once
#include <array>
#include <cstdint>

namespace g500::gen::mrg {

inline constexpr uint32_t kModulus = 0x7FFFFFFFu;   // 2^31 - 1
inline constexpr uint32_t kMulRecent = 107374182u;  // coefficient of z_{n-1}
inline constexpr uint32_t kMulOldest = 104480u;     // coefficient of z_{n-5}

// Reduce any 64-bit value modulo 2^31 - 1 (Mersenne folding).
inline uint32_t reduce(uint64_t x) {
  x = (x & kModulus) + (x >> 31);  // < 2^34
  x = (x & kModulus) + (x >> 31);  // < 2^31 + 8
  uint32_t r = static_cast<uint32_t>(x);
  return r >= kModulus ? r - kModulus : r;
}

// Stream state: z[0] is the most recent output, z[4] the oldest.
struct State {
  std::array<uint32_t, 5> z{};
};

// One step; returns the new output in [0, p).
inline uint32_t next(State& s) {
  uint64_t acc = uint64_t{kMulRecent} * s.z[0] + uint64_t{kMulOldest} * s.z[4];
  uint32_t v = reduce(acc);
  s.z[4] = s.z[3];
  s.z[3] = s.z[2];
  s.z[2] = s.z[1];
  s.z[1] = s.z[0];
  s.z[0] = v;
  return v;
}

// A general 5x5 matrix over Z/pZ acting on State::z (row i gives new z[i]).
struct Matrix {
  std::array<std::array<uint32_t, 5>, 5> m{};
  static Matrix identity();
  static Matrix step();  // the one-step companion matrix
  Matrix operator*(const Matrix& o) const;
  State apply(const State& s) const;
};

// Matrix power for a 64-bit exponent.
Matrix power(Matrix base, uint64_t exponent);

// step^(2^k) for k = 0..191 (computed once, thread-safe).
const Matrix& step_pow2(int k);

// Jump the stream by hi * 2^128 + mid * 2^64 + lo steps (the reference's addressing).
State skip(State s, uint64_t hi, uint64_t mid, uint64_t lo);

// The reference's mapping of two user seeds to a valid initial state (all entries nonzero).
State seed_state(uint64_t seed1, uint64_t seed2);

// The reference's conversions of stream outputs to floating point.
inline double next_double(State& s) {
  // Two outputs: the first scaled by 1/p, the second by 1/p^2 (in this order).
  double hi = static_cast<double>(next(s)) * 0.000000000465661287524579692;
  double lo = static_cast<double>(next(s)) * 0.0000000000000000002168404346990492787;
  return hi + lo;
}
inline float to_weight(uint32_t out) {
  // The output is first rounded to float, then scaled by 1/p in double, then rounded to float.
  return static_cast<float>(static_cast<double>(static_cast<float>(out)) * 0.000000000465661287524579692);
}

}  // namespace g500::gen::mrg
