// A bitmap of `size` bits each set with probability 1/one_in, from a seeded generator: the sets
// the present-vertex indexes are checked on (graph/present_index.hpp, graph/sparse_present_index.hpp).
#pragma once
#include <cstdint>
#include <random>

#include "util/bitmap.hpp"

namespace g500::testing {

inline util::Bitmap random_bitmap(int64_t size, int one_in, uint64_t seed) {
  util::Bitmap b(size);
  std::mt19937_64 rng(seed);
  for (int64_t u = 0; u < size; ++u)
    if (rng() % one_in == 0) b.set(u);
  return b;
}

}  // namespace g500::testing
