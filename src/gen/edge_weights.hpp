// Weights for a graph file that has none (g500 sssp --input): edge number `index` (0-based, in
// file order) gets a float uniform in [0, 1) as the reference generator's weights are, from
// splitmix64(seed, index), so the weights do not depend on the rank count.
#pragma once
#include <cstdint>

#include "util/splitmix64.hpp"

namespace g500::gen {

// Every generated weight, these and the Kronecker generator's, is below this.
inline constexpr double kGeneratedWeightBound = 1.0;

inline float generated_edge_weight(uint64_t seed, int64_t index) {
  constexpr uint64_t kWeightStream = 0x5EED5EED5EED5EEDULL;  // keeps this stream apart from other uses of the seed
  // 24 random bits: a float in [0, 1) with every value equally likely, never rounded up to 1.
  const uint64_t bits = util::splitmix64(util::splitmix64(seed ^ kWeightStream) + static_cast<uint64_t>(index)) >> 40;
  return static_cast<float>(bits) * 0x1p-24f;
}

}  // namespace g500::gen
