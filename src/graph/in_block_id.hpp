// A row- or column-local id kept in 32 bits as its offset inside its block, where the block is
// known from an id kept beside it.
//
// A row set is C blocks of B vertices and a column set R blocks (graph/distribution.hpp), and the
// degree-order renumbering moves a vertex only inside its block (graph/renumbering.hpp). So a table
// that keeps, for a vertex x of a set, another id of x's block (x's original id; the original id of
// a neighbour whose new id is kept too) needs only the offset inside the block: the block is x's.
// With 64-bit local ids (sets beyond 2^32 vertices, at the papers' largest runs) this halves the
// tables kept per row with edges and per column in use, which grow with m/P; with 32-bit ids the
// id itself fits the same 32 bits and is kept whole, with no arithmetic to read it.
//
// InBlockIds, an array of them, keeps each offset in the bits a block's offsets need with 64-bit
// ids (26 for the 2^26 vertices per process of SCALE 42 on 65,536 processes: a fifth less than 32
// bits, 0.75 GiB per process there), and 32 bits with 32-bit ids.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "graph/distribution.hpp"
#include "graph/local_id.hpp"
#include "util/atomic_ref.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

using InBlockId = uint32_t;

// The stored form of `id` (Distribution::ids_fit checks that an offset fits 32 bits).
inline InBlockId keep_in_block(LocalId id, const Distribution& d) {
  if constexpr (kWideIds)
    return static_cast<InBlockId>(d.by_block.remainder(id));
  else
    return id;
}

// The id kept as `stored` beside `beside`, an id of the same block.
inline LocalId read_in_block(InBlockId stored, LocalId beside, const Distribution& d) {
  if constexpr (kWideIds)
    return static_cast<LocalId>(beside - d.by_block.remainder(beside) + stored);
  else
    return stored;
}

// The bits an offset inside a block of `block` vertices takes in an InBlockIds array.
constexpr int in_block_id_bits(int64_t block) {
  if (!kWideIds) return static_cast<int>(sizeof(InBlockId) * 8);
  return std::max(1, static_cast<int>(std::bit_width(static_cast<uint64_t>(block > 1 ? block - 1 : 1))));
}
// Its bytes per id, for the memory plan.
constexpr double in_block_id_bytes(int64_t block) { return in_block_id_bits(block) / 8.0; }

// Stored ids read from `bytes` on, as InBlockIds keeps them (a view, held by value in the
// searches' loops).
class InBlockIdsView {
 public:
  InBlockIdsView() = default;
  InBlockIdsView(const uint8_t* bytes, int bits)
      : bytes_(bytes), bits_(bits), mask_(bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1) {}
  explicit operator bool() const { return bytes_ != nullptr; }
  InBlockId operator[](int64_t i) const {
    InBlockId id;
    if constexpr (!kWideIds) {
      std::memcpy(&id, bytes_ + i * static_cast<int64_t>(sizeof(InBlockId)), sizeof(id));
    } else {
      const auto bit = static_cast<uint64_t>(i * bits_);
      uint64_t word;
      std::memcpy(&word, bytes_ + bit / kByteBits, sizeof(word));
      id = static_cast<InBlockId>((word >> (bit % kByteBits)) & mask_);
    }
    return id;
  }
  void prefetch(int64_t i) const { __builtin_prefetch(bytes_ + i * bits_ / kByteBits); }

 private:
  static constexpr int64_t kByteBits = 8;
  const uint8_t* bytes_ = nullptr;
  int64_t bits_ = 0;
  uint64_t mask_ = 0;
};

// n stored ids of a block of `block` vertices, zero until set. set() from several threads at
// once is safe for distinct indices (with 64-bit ids neighbouring ids share words: they are
// or-ed in atomically, once each). An id is read with one unaligned 8-byte load, shifted and
// masked (an id and its shift are at most 39 bits): the array keeps a word of slack.
class InBlockIds {
 public:
  InBlockIds() = default;
  InBlockIds(int64_t n, int64_t block) { assign_zeros(n, block); }
  void assign_zeros(int64_t n, int64_t block) {
    size_ = n;
    bits_ = in_block_id_bits(block);
    mask_ = (uint64_t{1} << bits_) - 1;
    const int64_t words = n <= 0 ? 0 : kWideIds ? (n * bits_ + kWordBits - 1) / kWordBits + 1 : (n + 1) / 2;
    words_.resize(static_cast<size_t>(words));
    uint64_t* const at = words_.data();
#pragma omp parallel for schedule(static)
    for (int64_t w = 0; w < words; ++w) at[w] = 0;
  }
  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t memory_bytes() const { return words_.size() * sizeof(uint64_t); }
  InBlockIdsView view() const {
    return empty() ? InBlockIdsView() : InBlockIdsView(reinterpret_cast<const uint8_t*>(words_.data()), bits_);
  }
  InBlockId operator[](int64_t i) const { return view()[i]; }
  void set(int64_t i, InBlockId id) {
    if constexpr (!kWideIds) {
      std::memcpy(reinterpret_cast<uint8_t*>(words_.data()) + i * static_cast<int64_t>(sizeof(InBlockId)), &id,
                  sizeof(id));
    } else {
      const int64_t bit = i * bits_, w = bit / kWordBits;
      const int shift = static_cast<int>(bit % kWordBits);
      const uint64_t value = id & mask_;
      util::AtomicRef<uint64_t>(words_[w]).fetch_or(value << shift, std::memory_order_relaxed);
      if (shift + bits_ > kWordBits)
        util::AtomicRef<uint64_t>(words_[w + 1]).fetch_or(value >> (kWordBits - shift), std::memory_order_relaxed);
    }
  }
  friend bool operator==(const InBlockIds& a, const InBlockIds& b) {
    if (a.size_ != b.size_) return false;
    for (int64_t i = 0; i < a.size_; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

 private:
  static constexpr int64_t kWordBits = 64;
  int64_t size_ = 0;
  int bits_ = static_cast<int>(sizeof(InBlockId) * 8);
  uint64_t mask_ = 0xffffffffULL;
  util::LargeArray<uint64_t> words_;
};

}  // namespace g500::graph
