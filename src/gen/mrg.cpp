// Splittable MRG stream of the Graph500 reference 3.0 generator: matrix powers and seeding.
// See mrg.hpp; this follows the reference 3.0 generator's stream definition exactly.
#include "gen/mrg.hpp"

#include <vector>

namespace g500::gen::mrg {

Matrix Matrix::identity() {
  Matrix r;
  for (int i = 0; i < 5; ++i) r.m[i][i] = 1;
  return r;
}

Matrix Matrix::step() {
  Matrix r;
  r.m[0][0] = kMulRecent;
  r.m[0][4] = kMulOldest;
  for (int i = 1; i < 5; ++i) r.m[i][i - 1] = 1;  // history shifts down by one
  return r;
}

Matrix Matrix::operator*(const Matrix& o) const {
  Matrix r;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      uint64_t acc = 0;
      for (int k = 0; k < 5; ++k) acc += reduce(uint64_t{m[i][k]} * o.m[k][j]);
      r.m[i][j] = reduce(acc);
    }
  return r;
}

State Matrix::apply(const State& s) const {
  State r;
  for (int i = 0; i < 5; ++i) {
    uint64_t acc = 0;
    for (int k = 0; k < 5; ++k) acc += reduce(uint64_t{m[i][k]} * s.z[k]);
    r.z[i] = reduce(acc);
  }
  return r;
}

Matrix power(Matrix base, uint64_t exponent) {
  Matrix result = Matrix::identity();
  while (exponent) {
    if (exponent & 1) result = result * base;
    base = base * base;
    exponent >>= 1;
  }
  return result;
}

const Matrix& step_pow2(int k) {
  static const std::vector<Matrix> table = [] {
    std::vector<Matrix> t(192);
    t[0] = Matrix::step();
    for (int i = 1; i < 192; ++i) t[i] = t[i - 1] * t[i - 1];
    return t;
  }();
  return table[k];
}

State skip(State s, uint64_t hi, uint64_t mid, uint64_t lo) {
  const uint64_t words[3] = {lo, mid, hi};
  for (int w = 0; w < 3; ++w)
    for (int b = 0; b < 64; ++b)
      if ((words[w] >> b) & 1) s = step_pow2(64 * w + b).apply(s);
  return s;
}

State seed_state(uint64_t seed1, uint64_t seed2) {
  // Thirty bits of each seed at a time, plus one so no entry is zero; the top nibbles of both
  // seeds share the last entry.
  State s;
  s.z[0] = static_cast<uint32_t>(seed1 & 0x3FFFFFFFu) + 1;
  s.z[1] = static_cast<uint32_t>((seed1 >> 30) & 0x3FFFFFFFu) + 1;
  s.z[2] = static_cast<uint32_t>(seed2 & 0x3FFFFFFFu) + 1;
  s.z[3] = static_cast<uint32_t>((seed2 >> 30) & 0x3FFFFFFFu) + 1;
  s.z[4] = static_cast<uint32_t>((seed2 >> 60) << 4) + static_cast<uint32_t>(seed1 >> 60) + 1;
  return s;
}

}  // namespace g500::gen::mrg
