// Which vertices of a row or column set are present, and each present one's place among them, as
// BCSR finds its rows (Nakao et al. 2021, section 4.1): for every 64 vertices a word of their bits
// and the count of present vertices before it, side by side so that a lookup reads one cache line.
// Two bits per vertex of the set: the maps of graph/set_map.hpp and the row lengths of
// graph/row_lengths.hpp keep their values for the present vertices only, in this order.
#pragma once
#include <bit>
#include <cstdint>

#include "util/atomic_ref.hpp"
#include "util/bitmap.hpp"
#include "util/large_array.hpp"

namespace g500 {

class PresentIndex {
 public:
  PresentIndex() = default;
  // Of the vertices marked in `present`.
  explicit PresentIndex(const Bitmap& present) : size_(present.size()) {
    const int64_t words = present.num_words();
    words_.resize(static_cast<size_t>(2 * words));
    for (int64_t w = 0; w < words; ++w) words_[2 * w] = present.data()[w];
    count_from(0);
  }
  // Of none of `size` vertices yet: mark them (mark_atomic), then count_from(0).
  static PresentIndex none_of(int64_t size) {
    PresentIndex index;
    index.size_ = size;
    index.words_.assign(static_cast<size_t>(2 * words_for_bits(size)), 0);
    return index;
  }

  int64_t size() const { return size_; }
  int64_t words() const { return static_cast<int64_t>(words_.size() / 2); }
  // Present vertices in all (after counting).
  int64_t present() const { return words() == 0 ? 0 : static_cast<int64_t>(count(words() - 1)) + std::popcount(bits(words() - 1)); }
  bool contains(int64_t u) const { return (words_[2 * (u / kBitsPerWord)] >> (u % kBitsPerWord)) & 1; }
  // The place of present vertex u among the present ones.
  int64_t slot(int64_t u) const {
    const uint64_t* entry = &words_[2 * (u / kBitsPerWord)];
    const uint64_t below = (uint64_t{1} << (u % kBitsPerWord)) - 1;
    return static_cast<int64_t>(entry[1]) + std::popcount(entry[0] & below);
  }
  const void* entry(int64_t u) const { return &words_[2 * (u / kBitsPerWord)]; }
  uint64_t bits(int64_t w) const { return words_[2 * w]; }
  uint64_t count(int64_t w) const { return words_[2 * w + 1]; }

  // Marks u present; other threads may mark vertices of the same word.
  void mark_atomic(int64_t u) {
    AtomicRef<uint64_t>(words_[2 * (u / kBitsPerWord)]).fetch_or(uint64_t{1} << (u % kBitsPerWord), std::memory_order_relaxed);
  }
  // Counts the words [first, end), those before `first` counted and final: one can count a set a
  // range at a time as its vertices are marked in order.
  void count_from(int64_t first, int64_t end = -1) {
    if (end < 0) end = words();
    uint64_t before = first == 0 ? 0 : count(first - 1) + std::popcount(bits(first - 1));
    for (int64_t w = first; w < end; ++w) {
      words_[2 * w + 1] = before;
      before += std::popcount(words_[2 * w]);
    }
  }
  // The present vertices as a plain bitmap.
  Bitmap bitmap() const {
    Bitmap b(size_);
    for (int64_t w = 0; w < words(); ++w) b.data()[w] = bits(w);
    return b;
  }
  size_t memory_bytes() const { return words_.size() * sizeof(uint64_t); }

 private:
  int64_t size_ = 0;
  LargeArray<uint64_t> words_;  // per 64 vertices: their bits, then the count of present ones before them
};

}  // namespace g500
