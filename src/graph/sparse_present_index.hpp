// Which vertices of a row or column set are present, and each present one's place among them, for
// sets where few are: the vertex range cut into buckets of 256, each present vertex kept as its
// offset in its bucket (one byte), and the count of present vertices before each bucket (16 bits,
// relative to a super-bucket of 256 buckets, whose own count is a word). That is the bucketed form
// of Elias and Fano's split of a sorted sequence into low bits kept verbatim and high bits kept as
// counts (Vigna 2013, "Quasi-succinct indices", section 3, with the high bits' unary code replaced
// by counts so that a lookup needs no select): 1/128 byte per vertex of the set and a byte per
// present one, against rank9's 1.25 bits per vertex (graph/present_index.hpp).
//
// On Fugaku-sized grids a process's entries touch about 2 % of its N/R rows and N/C columns (at
// SCALE 42 on 256 x 256, 3.5e8 of 1.7e10): rank9 takes 2.5 GiB there, this 0.5. A lookup reads the
// bucket's count, then searches the bucket's bytes: two dependent reads where rank9 takes one, so
// the maps use it only where it is the smaller (bytes_for).
#pragma once
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "graph/present_index.hpp"
#include "util/bitmap.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

class SparsePresentIndex {
 public:
  static constexpr int kBucketBits = 8;  // a present vertex's offset in its bucket is one byte
  static constexpr int64_t kBucket = int64_t{1} << kBucketBits;
  static constexpr int kSuperBits = 8;  // buckets per super-bucket: their counts below 2^16
  static constexpr int64_t kSuper = int64_t{1} << kSuperBits;
  static_assert(kBucket * (kSuper - 1) < (int64_t{1} << 16), "a relative count fits 16 bits");

  // Bytes an index of `present` of `size` vertices holds.
  static double bytes_for(double size, double present) {
    const double buckets = size / static_cast<double>(kBucket) + 1;
    return buckets * sizeof(uint16_t) + (buckets / static_cast<double>(kSuper) + 1) * sizeof(uint64_t) + present;
  }

  SparsePresentIndex() = default;
  // Of the vertices marked in `present`.
  explicit SparsePresentIndex(const util::Bitmap& present)
      : SparsePresentIndex(from_words(present.size(), [bits = present.data()](int64_t w) { return bits[w]; })) {}
  // Of `size` vertices whose presence bits come a word of 64 at a time, word_of(w) (called twice
  // per word, from several threads): no bitmap of the set is made.
  template <class WordOf>
  static SparsePresentIndex from_words(int64_t size, WordOf word_of);

  int64_t size() const { return size_; }
  int64_t present() const { return present_; }
  int64_t buckets() const { return static_cast<int64_t>(relative_.size()) - 1; }
  // Present vertices before bucket b (b <= buckets()).
  int64_t begin(int64_t b) const { return static_cast<int64_t>(super_[b >> kSuperBits]) + relative_[b]; }
  // The present vertex at `slot` of bucket b.
  int64_t vertex(int64_t b, int64_t slot) const { return b * kBucket + offsets_[slot]; }
  // Word w of the set's bitmap (vertices 64 w ..), made from its bucket's offsets, and the present
  // vertices before it.
  struct Word {
    uint64_t bits;
    int64_t before;
  };
  Word word(int64_t w) const {
    constexpr int64_t kWordsPerBucket = kBucket / util::kBitsPerWord;
    const int64_t b = w / kWordsPerBucket;
    const int quarter = static_cast<int>(w % kWordsPerBucket);
    int64_t at = begin(b);
    const int64_t end = begin(b + 1);
    while (at < end && offsets_[at] / util::kBitsPerWord < quarter) ++at;
    const int64_t before = at;
    uint64_t bits = 0;
    for (; at < end && offsets_[at] / util::kBitsPerWord == quarter; ++at)
      bits |= uint64_t{1} << (offsets_[at] % util::kBitsPerWord);
    return Word{bits, before};
  }
  bool contains(int64_t u) const {
    const int64_t at = place(u);
    return at < begin(u / kBucket + 1) && offsets_[at] == static_cast<uint8_t>(u % kBucket);
  }
  // The place of present vertex u among the present ones (for an absent one, of the first present
  // one after it).
  int64_t slot(int64_t u) const { return place(u); }
  // Fetches what slot(u) reads first into the cache ahead of use.
  void prefetch(int64_t u) const { __builtin_prefetch(&relative_[u / kBucket]); }
  size_t memory_bytes() const {
    return relative_.size() * sizeof(uint16_t) + super_.size() * sizeof(uint64_t) + offsets_.size();
  }

 private:
  int64_t place(int64_t u) const {
    const int64_t b = u / kBucket;
    const uint8_t* first = offsets_.data() + begin(b);
    const uint8_t* end = offsets_.data() + begin(b + 1);
    return static_cast<int64_t>(std::lower_bound(first, end, static_cast<uint8_t>(u % kBucket)) - offsets_.data());
  }

  int64_t size_ = 0, present_ = 0;
  std::vector<uint16_t> relative_;     // per bucket and one past the last: present before it in its super-bucket
  std::vector<uint64_t> super_;        // per super-bucket and one past the last: present before it
  util::LargeArray<uint8_t> offsets_;  // the present vertices' offsets in their buckets, in order
};

template <class WordOf>
SparsePresentIndex SparsePresentIndex::from_words(int64_t size, WordOf word_of) {
  SparsePresentIndex index;
  index.size_ = size;
  const int64_t buckets = (size + kBucket - 1) / kBucket;
  constexpr int64_t kWordsPerBucket = kBucket / util::kBitsPerWord;
  const int64_t words = util::words_for_bits(size);
  auto bucket_count = [&](int64_t b) {
    int64_t n = 0;
    for (int64_t w = b * kWordsPerBucket; w < std::min(words, (b + 1) * kWordsPerBucket); ++w)
      n += std::popcount(word_of(w));
    return n;
  };
  // Counts in two passes over the super-buckets (each thread's in order), then the offsets.
  index.relative_.assign(static_cast<size_t>(buckets + 1), 0);
  index.super_.assign(static_cast<size_t>(buckets / kSuper + 2), 0);
  const int64_t supers = buckets / kSuper + 1;
#pragma omp parallel for schedule(static)
  for (int64_t s = 0; s < supers; ++s) {
    int64_t before = 0;
    for (int64_t b = s * kSuper; b < std::min(buckets, (s + 1) * kSuper); ++b) {
      index.relative_[b] = static_cast<uint16_t>(before);
      before += bucket_count(b);
    }
    index.super_[s + 1] = static_cast<uint64_t>(before);
  }
  for (int64_t s = 0; s < supers; ++s) index.super_[s + 1] += index.super_[s];
  index.relative_[buckets] = static_cast<uint16_t>(index.super_[supers] - index.super_[buckets / kSuper]);
  index.present_ = static_cast<int64_t>(index.super_[supers]);
  index.offsets_.resize(static_cast<size_t>(index.present_));
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < buckets; ++b) {
    int64_t at = index.begin(b);
    for (int64_t w = b * kWordsPerBucket; w < std::min(words, (b + 1) * kWordsPerBucket); ++w)
      for (uint64_t word = word_of(w); word != 0; word &= word - 1)
        index.offsets_[at++] =
            static_cast<uint8_t>((w - b * kWordsPerBucket) * util::kBitsPerWord + std::countr_zero(word));
  }
  return index;
}

// Which of the two indexes a set of `set_size` vertices, `in_use` of them present, takes: the
// bucketed offsets where they are the smaller, else rank9.
inline bool sparse_index_smaller(double in_use, double set_size) {
  return SparsePresentIndex::bytes_for(set_size, in_use) < PresentIndex::bytes_for(set_size);
}
// Its bytes: those that grow with the set (rank9, or the bucketed offsets' counts), and those
// that grow with the vertices present (the offsets, a byte each).
struct PresentIndexBytes {
  double of_set = 0, of_present = 0;
  double total() const { return of_set + of_present; }
};
inline PresentIndexBytes present_index_bytes(double in_use, double set_size) {
  if (sparse_index_smaller(in_use, set_size))
    return {SparsePresentIndex::bytes_for(set_size, 0),
            SparsePresentIndex::bytes_for(set_size, in_use) - SparsePresentIndex::bytes_for(set_size, 0)};
  return {PresentIndex::bytes_for(set_size), 0};
}

}  // namespace g500::graph
