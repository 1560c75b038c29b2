// splitmix64 (Steele, Lea and Flood 2014): a 64-bit mixing function whose outputs for consecutive
// inputs pass as independent random numbers. Used where a value must depend only on (seed, index),
// never on the rank count: weights of files without weights, sampled roots of files, and the
// validator's order-free hash of the BFS depths (the test vectors' depth_hash).
#pragma once
#include <cstdint>

namespace g500::util {

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace g500::util
