// Which vertices of a row or column set are present, and each present one's place among them, as
// BCSR finds its rows (Nakao et al. 2021, section 4.1: a bitmap and the count of set bits before
// each word). The counts are laid out as Vigna's rank9 (Vigna 2008, "Broadword implementation of
// rank/select queries", section 3): per 512 vertices a block of ten words, the count of present
// vertices before the block, seven 9-bit counts of those before its words 1..7 relative to the
// block, then the block's eight words of bits. That is 1.25 bits per vertex of the set where a
// count word beside every word of bits took 2: on Fugaku-sized grids these indexes span N/R or N/C
// vertices (2^34 at SCALE 42 on 256 x 256), so the difference is gigabytes per process. A lookup
// reads the block's head and one word of its bits, both within 80 bytes.
// graph/row_index.hpp finds BCSR's rows with it; the maps of graph/set_map.hpp and the row lengths
// of graph/row_lengths.hpp keep their values for the present vertices only, in its order.
#pragma once
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "util/atomic_ref.hpp"
#include "util/bitmap.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

class PresentIndex {
 public:
  static constexpr int64_t kWordsPerBlock = 8;                // 512 vertices
  static constexpr int64_t kBlockWords = kWordsPerBlock + 2;  // the count, the relative counts, the bits
  static constexpr int kRelativeBits = 9;                     // a count below 512
  static constexpr uint64_t kRelativeMask = (uint64_t{1} << kRelativeBits) - 1;
  // Bytes per vertex of the set, for the memory plan.
  static constexpr double kBytesPerVertex =
      static_cast<double>(kBlockWords * sizeof(uint64_t)) / static_cast<double>(kWordsPerBlock * util::kBitsPerWord);

  PresentIndex() = default;
  // Of the vertices marked in `present`.
  explicit PresentIndex(const util::Bitmap& present) : PresentIndex(none_of(present.size())) {
    const uint64_t* bits = present.data();
#pragma omp parallel for schedule(static)
    for (int64_t w = 0; w < words_; ++w) data_[at(w)] = bits[w];
    count_all();
  }
  // Of none of `size` vertices yet: mark them (mark_atomic, or set_bits), then count them.
  static PresentIndex none_of(int64_t size) {
    PresentIndex index;
    index.size_ = size;
    index.words_ = util::words_for_bits(size);
    const int64_t blocks = (index.words_ + kWordsPerBlock - 1) / kWordsPerBlock;
    index.data_.assign(static_cast<size_t>(blocks * kBlockWords), 0);
    return index;
  }
  // Bytes an index of `size` vertices holds.
  static double bytes_for(double size) { return size * kBytesPerVertex; }

  int64_t size() const { return size_; }
  int64_t words() const { return words_; }
  // Present vertices in all (after counting).
  int64_t present() const {
    return words_ == 0 ? 0 : static_cast<int64_t>(count(words_ - 1)) + std::popcount(bits(words_ - 1));
  }
  bool contains(int64_t u) const { return (bits(u / util::kBitsPerWord) >> (u % util::kBitsPerWord)) & 1; }
  // The place of present vertex u among the present ones.
  int64_t slot(int64_t u) const {
    const int64_t w = u / util::kBitsPerWord;
    const uint64_t below = (uint64_t{1} << (u % util::kBitsPerWord)) - 1;
    return static_cast<int64_t>(count(w)) + std::popcount(bits(w) & below);
  }
  // Fetches what slot(u) reads into the cache ahead of use.
  void prefetch(int64_t u) const {
    const int64_t w = u / util::kBitsPerWord;
    __builtin_prefetch(&data_[head(w)]);
    __builtin_prefetch(&data_[at(w)]);
  }
  uint64_t bits(int64_t w) const { return data_[at(w)]; }
  // Present vertices before word w (after counting up to w).
  uint64_t count(int64_t w) const {
    const uint64_t* block = &data_[head(w)];
    // Word j of a block reads relative field j - 1; word 0 reads the always-zero bit 63 (rank9's
    // branch-free shift: for j = 0, t wraps and t + 8 is 7).
    const uint64_t t = static_cast<uint64_t>(w % kWordsPerBlock) - 1;
    return block[0] + ((block[1] >> ((t + ((t >> 60) & 8)) * kRelativeBits)) & kRelativeMask);
  }

  // Word w's bits (before counting); no other thread may write word w meanwhile.
  void set_bits(int64_t w, uint64_t bits) { data_[at(w)] = bits; }
  // Marks u present; other threads may mark vertices of the same word.
  void mark_atomic(int64_t u) {
    util::AtomicRef<uint64_t>(data_[at(u / util::kBitsPerWord)])
        .fetch_or(uint64_t{1} << (u % util::kBitsPerWord), std::memory_order_relaxed);
  }
  // Counts the words [first, end), those before `first` counted and final: one can count a set a
  // range at a time as its vertices are marked in order.
  void count_from(int64_t first, int64_t end = -1) {
    if (end < 0) end = words_;
    uint64_t before = first == 0 ? 0 : count(first - 1) + std::popcount(bits(first - 1));
    for (int64_t w = first; w < end; ++w) {
      set_count(w, before);
      before += std::popcount(bits(w));
    }
  }
  // Counts every word, in parallel: the threads count whole blocks.
  void count_all() {
    const int64_t blocks = (words_ + kWordsPerBlock - 1) / kWordsPerBlock;
    const int threads = static_cast<int>(std::min<int64_t>(omp_get_max_threads(), std::max<int64_t>(blocks, 1)));
    std::vector<uint64_t> totals(static_cast<size_t>(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      const int64_t first = std::min(words_, blocks * t / threads * kWordsPerBlock);
      const int64_t end = std::min(words_, blocks * (t + 1) / threads * kWordsPerBlock);
      uint64_t mine = 0;
      for (int64_t w = first; w < end; ++w) mine += std::popcount(bits(w));
      totals[t + 1] = mine;
#pragma omp barrier
      uint64_t before = 0;
      for (int s = 0; s <= t; ++s) before += totals[s];
      for (int64_t w = first; w < end; ++w) {
        set_count(w, before);
        before += std::popcount(bits(w));
      }
    }
  }
  // The present vertices as a plain bitmap.
  util::Bitmap bitmap() const {
    util::Bitmap b(size_);
    for (int64_t w = 0; w < words_; ++w) b.data()[w] = bits(w);
    return b;
  }
  size_t memory_bytes() const { return data_.size() * sizeof(uint64_t); }
  // Of which the words of bits, and the counts.
  size_t bits_bytes() const { return memory_bytes() / kBlockWords * kWordsPerBlock; }
  size_t counts_bytes() const { return memory_bytes() - bits_bytes(); }

 private:
  static int64_t head(int64_t w) { return w / kWordsPerBlock * kBlockWords; }
  static int64_t at(int64_t w) { return head(w) + 2 + w % kWordsPerBlock; }
  // Word w's count: the block's own at its first word, else relative to the block's.
  void set_count(int64_t w, uint64_t before) {
    uint64_t* block = &data_[head(w)];
    const int64_t j = w % kWordsPerBlock;
    if (j == 0) {
      block[0] = before;
      block[1] = 0;
      return;
    }
    const int shift = static_cast<int>(j - 1) * kRelativeBits;
    block[1] = (block[1] & ~(kRelativeMask << shift)) | ((before - block[0]) << shift);
  }

  int64_t size_ = 0;
  int64_t words_ = 0;                // words of bits
  util::LargeArray<uint64_t> data_;  // per 512 vertices: their count before, 7 relative counts, 8 words of bits
};

}  // namespace g500::graph
