// A fixed-size bit set stored in 64-bit words, with an atomic set for concurrent writers.
// Used for visited sets and frontier bitmaps (Nakao et al. 2021, section 3.2: frontier and visited as bitmaps).
#pragma once
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "util/atomic_ref.hpp"

namespace g500::util {

constexpr int64_t kBitsPerWord = 64;

inline int64_t words_for_bits(int64_t bits) { return (bits + kBitsPerWord - 1) / kBitsPerWord; }

class Bitmap {
 public:
  Bitmap() = default;
  explicit Bitmap(int64_t bits) : bits_(bits), words_(words_for_bits(bits), 0) {}

  int64_t size() const { return bits_; }
  int64_t num_words() const { return static_cast<int64_t>(words_.size()); }
  uint64_t* data() { return words_.data(); }
  const uint64_t* data() const { return words_.data(); }

  bool test(int64_t i) const { return (words_[i / kBitsPerWord] >> (i % kBitsPerWord)) & 1U; }
  void set(int64_t i) { words_[i / kBitsPerWord] |= uint64_t{1} << (i % kBitsPerWord); }
  // Sets bit i atomically; returns true if this call changed it from 0 to 1.
  bool test_and_set_atomic(int64_t i) {
    uint64_t mask = uint64_t{1} << (i % kBitsPerWord);
    AtomicRef<uint64_t> word(words_[i / kBitsPerWord]);
    if (word.load(std::memory_order_relaxed) & mask) return false;
    return (word.fetch_or(mask, std::memory_order_relaxed) & mask) == 0;
  }
  // Sets bit i atomically (other threads may be setting bits of the same word).
  void set_atomic(int64_t i) {
    AtomicRef<uint64_t>(words_[i / kBitsPerWord])
        .fetch_or(uint64_t{1} << (i % kBitsPerWord), std::memory_order_relaxed);
  }
  void clear() { std::memset(words_.data(), 0, words_.size() * sizeof(uint64_t)); }
  int64_t count() const {
    int64_t total = 0;
    for (uint64_t w : words_) total += std::popcount(w);
    return total;
  }

 private:
  int64_t bits_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace g500::util
