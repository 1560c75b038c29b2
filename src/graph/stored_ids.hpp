// Column-local ids as the graph stores them in its per-row arrays, the first neighbours and the
// short rows' ids (graph/packed_rows.hpp): 32-bit ids as they are; 64-bit ones (G500_WIDE_IDS) in
// the fewest bits that hold every id of the process's column set, at most 48
// (Distribution::kMostIdBits, the Graph500 rule's least). On a large grid a process's rows are
// short, and these arrays hold one id per row with edges and a quarter of its entries: SCALE 42
// on 256x256 (2^34 columns per process) takes 34 bits, SCALE 41 on 552x288 (7.6e9) 33, the K
// computer's SCALE 40 on 288x288 (3.8e9) 32; at SCALE 42 eight bytes each would be a sixth more
// of the search's memory, whole bytes (5) a thirtieth.
//
// An id is read with one unaligned 8-byte load from the byte its first bit is in, shifted and
// masked (48 bits and a shift of at most 7 fit the word): the array keeps the bytes that load
// reads past its last id as slack. Neighbouring ids share bytes, so with 64-bit ids a write ors
// the id into the zeroed aligned words it covers, atomically: threads writing neighbouring ids
// at once (kernel 1's fill) never lose each other's bits. Every id is written once.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "graph/local_id.hpp"
#include "util/atomic_ref.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

inline constexpr int kWidestStoredIdBits = kWideIds ? 48 : static_cast<int>(sizeof(LocalId) * 8);
static_assert(!kWideIds || std::endian::native == std::endian::little, "stored ids are read as a masked word");

// The bits of a stored id for a column set of `ids` column-local ids.
constexpr int stored_id_bits(int64_t ids) {
  if (!kWideIds) return kWidestStoredIdBits;
  const auto most = static_cast<uint64_t>(ids > 1 ? ids - 1 : 1);
  return std::min(kWidestStoredIdBits, static_cast<int>(std::bit_width(most)));
}
// Its bytes, for the memory plan.
constexpr double stored_id_bytes(int64_t ids) { return stored_id_bits(ids) / 8.0; }

// How wide an array's ids are: with 32-bit ids always 32 bits, the mask unused.
class StoredIdWidth {
 public:
  constexpr StoredIdWidth() : StoredIdWidth(kWidestStoredIdBits) {}
  explicit constexpr StoredIdWidth(int bits)
      : bits_(kWideIds ? bits : kWidestStoredIdBits),
        mask_(bits_ >= kWordBits ? ~uint64_t{0} : (uint64_t{1} << bits_) - 1) {}
  static constexpr StoredIdWidth for_ids(int64_t ids) { return StoredIdWidth(stored_id_bits(ids)); }
  constexpr int bits() const { return static_cast<int>(bits_); }
  constexpr LocalId most() const { return kWideIds ? static_cast<LocalId>(mask_) : ~LocalId{0}; }
  // The bytes an array of n ids takes, with the slack the last id's load reads.
  constexpr size_t array_bytes(int64_t n) const {
    if (n <= 0) return 0;
    if (!kWideIds) return static_cast<size_t>(n) * sizeof(LocalId);
    return static_cast<size_t>((n * bits_ + kByteBits - 1) / kByteBits) + sizeof(uint64_t);
  }
  // The first bit of id i of an array.
  constexpr int64_t first_bit(int64_t i) const { return i * bits_; }

  // Id i after `shift` bits from `at`.
  LocalId get(const uint8_t* at, int shift, int64_t i) const {
    if constexpr (!kWideIds) {
      LocalId id;
      std::memcpy(&id, at + i * static_cast<int64_t>(sizeof(LocalId)), sizeof(LocalId));
      return id;
    } else {
      const auto bit = static_cast<uint64_t>(shift + i * bits_);
      uint64_t word;
      std::memcpy(&word, at + bit / kByteBits, sizeof(word));
      return (word >> (bit % kByteBits)) & mask_;
    }
  }
  // Writes id i after `shift` bits from `at`, which lie in zeroed words of an 8-byte-aligned array.
  void set(uint8_t* at, int shift, int64_t i, LocalId id) const {
    if constexpr (!kWideIds) {
      std::memcpy(at + i * static_cast<int64_t>(sizeof(LocalId)), &id, sizeof(LocalId));
    } else {
      const auto address = reinterpret_cast<uintptr_t>(at);
      const uintptr_t aligned = address & ~uintptr_t{sizeof(uint64_t) - 1};
      const int64_t bit = static_cast<int64_t>(address - aligned) * kByteBits + shift + i * bits_;
      auto* words = reinterpret_cast<uint64_t*>(aligned) + bit / kWordBits;
      const int in_word = static_cast<int>(bit % kWordBits);
      const uint64_t value = static_cast<uint64_t>(id) & mask_;
      util::AtomicRef<uint64_t>(words[0]).fetch_or(value << in_word, std::memory_order_relaxed);
      if (in_word + bits_ > kWordBits)
        util::AtomicRef<uint64_t>(words[1]).fetch_or(value >> (kWordBits - in_word), std::memory_order_relaxed);
    }
  }

 private:
  static constexpr int64_t kByteBits = 8, kWordBits = 64;
  int64_t bits_;
  uint64_t mask_;
};

// Stored ids from `shift` bits after `at` on, read-only (null: none).
class StoredIds {
 public:
  StoredIds() = default;
  StoredIds(const uint8_t* at, int shift, StoredIdWidth width) : at_(at), shift_(shift), width_(width) {}
  LocalId operator[](int64_t i) const { return width_.get(at_, shift_, i); }
  explicit operator bool() const { return at_ != nullptr; }
  // The byte of the first id's first bit (for a prefetch), and that bit in it.
  const uint8_t* address() const { return at_; }
  int shift() const { return shift_; }

 private:
  const uint8_t* at_ = nullptr;
  int shift_ = 0;
  StoredIdWidth width_;
};

// Stored ids from `shift` bits after `at` on, to write.
class StoredIdsOut {
 public:
  StoredIdsOut(uint8_t* at, int shift, StoredIdWidth width) : at_(at), shift_(shift), width_(width) {}
  void set(int64_t i, LocalId id) const { width_.set(at_, shift_, i, id); }

 private:
  uint8_t* at_;
  int shift_;
  StoredIdWidth width_;
};

// An array of stored ids of one width (the widest unless given). With 32-bit ids resize() leaves
// new ids unwritten (util/large_array.hpp); with 64-bit ones it zeroes them, since writes or into
// their words. zeroed() zeroes.
class StoredIdArray {
 public:
  StoredIdArray() = default;
  explicit StoredIdArray(StoredIdWidth width) : width_(width) {}
  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  StoredIdWidth width() const { return width_; }
  size_t memory_bytes() const { return words_.size() * sizeof(uint64_t); }
  void resize(int64_t n) {
    allocate(n);
    if constexpr (kWideIds) zero_words();
  }
  void zeroed(int64_t n) {
    allocate(n);
    zero_words();
  }
  LocalId operator[](int64_t i) const { return width_.get(bytes(), 0, i); }
  void set(int64_t i, LocalId id) { width_.set(bytes(), 0, i, id); }
  StoredIds view(int64_t from = 0) const {
    if constexpr (!kWideIds) return StoredIds(bytes() + from * static_cast<int64_t>(sizeof(LocalId)), 0, width_);
    const auto bit = static_cast<uint64_t>(width_.first_bit(from));
    return StoredIds(bytes() + bit / kByteBits, static_cast<int>(bit % kByteBits), width_);
  }
  StoredIdsOut out(int64_t from = 0) {
    if constexpr (!kWideIds) return StoredIdsOut(bytes() + from * static_cast<int64_t>(sizeof(LocalId)), 0, width_);
    const auto bit = static_cast<uint64_t>(width_.first_bit(from));
    return StoredIdsOut(bytes() + bit / kByteBits, static_cast<int>(bit % kByteBits), width_);
  }
  friend bool operator==(const StoredIdArray& a, const StoredIdArray& b) {
    if (a.size_ != b.size_) return false;
    for (int64_t i = 0; i < a.size_; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

 private:
  static constexpr int64_t kByteBits = 8;
  void allocate(int64_t n) {
    size_ = n;
    words_.resize((width_.array_bytes(n) + sizeof(uint64_t) - 1) / sizeof(uint64_t));
  }
  void zero_words() {
    uint64_t* const words = words_.data();
    const auto count = static_cast<int64_t>(words_.size());
#pragma omp parallel for schedule(static)
    for (int64_t w = 0; w < count; ++w) words[w] = 0;
  }
  uint8_t* bytes() { return reinterpret_cast<uint8_t*>(words_.data()); }
  const uint8_t* bytes() const { return reinterpret_cast<const uint8_t*>(words_.data()); }

  int64_t size_ = 0;
  StoredIdWidth width_;
  util::LargeArray<uint64_t> words_;  // 8-byte aligned, for the writes' atomic words
};

}  // namespace g500::graph
