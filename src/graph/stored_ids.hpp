// Column-local ids as the graph stores them in its per-row arrays, the first neighbours and the
// short rows' ids (graph/packed_rows.hpp): 32-bit ids as they are; 64-bit ones (G500_WIDE_IDS) in
// six bytes, their low 48 bits, which hold any id a grid row or column has
// (Distribution::kMostIdBits, the Graph500 rule's least). On a large grid a process's rows are
// short, and these arrays hold one id per row with edges and a quarter of its entries (SCALE 42
// on 256x256): eight bytes each would be a quarter more of the search's memory than six.
//
// An id is read with one unaligned 8-byte load, masked: the array keeps two bytes of slack at its
// end for the last one. Written bytewise, so threads writing neighbouring ids never touch each
// other's bytes.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>

#include "graph/local_id.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

inline constexpr size_t kStoredIdBytes = kWideIds ? 6 : sizeof(LocalId);
inline constexpr LocalId kMostStoredId = kWideIds ? (LocalId{1} << (8 * kStoredIdBytes)) - 1 : ~LocalId{0};
static_assert(!kWideIds || std::endian::native == std::endian::little, "six-byte ids are read as a masked word");

namespace stored_id {

inline LocalId get(const uint8_t* at) {
  if constexpr (kStoredIdBytes == sizeof(LocalId)) {
    LocalId id;
    std::memcpy(&id, at, sizeof(LocalId));
    return id;
  } else {
    uint64_t word;
    std::memcpy(&word, at, sizeof(word));
    return word & ((uint64_t{1} << (8 * kStoredIdBytes)) - 1);
  }
}

inline void set(uint8_t* at, LocalId id) { std::memcpy(at, &id, kStoredIdBytes); }  // little-endian: the low bytes

}  // namespace stored_id

// Stored ids from `at` on, read-only (null: none).
class StoredIds {
 public:
  StoredIds() = default;
  explicit StoredIds(const uint8_t* at) : at_(at) {}
  LocalId operator[](int64_t i) const { return stored_id::get(at_ + i * static_cast<int64_t>(kStoredIdBytes)); }
  explicit operator bool() const { return at_ != nullptr; }
  const void* address() const { return at_; }

 private:
  const uint8_t* at_ = nullptr;
};

// Stored ids from `at` on, to write.
class StoredIdsOut {
 public:
  explicit StoredIdsOut(uint8_t* at) : at_(at) {}
  void set(int64_t i, LocalId id) const { stored_id::set(at_ + i * static_cast<int64_t>(kStoredIdBytes), id); }

 private:
  uint8_t* at_;
};

// An array of stored ids. resize() leaves new ids unwritten (util/large_array.hpp); zeroed() zeroes.
class StoredIdArray {
 public:
  StoredIdArray() = default;
  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t memory_bytes() const { return bytes_.size(); }
  void resize(int64_t n) {
    size_ = n;
    bytes_.resize(n > 0 ? static_cast<size_t>(n) * kStoredIdBytes + kSlack : 0);
  }
  void zeroed(int64_t n) {
    resize(n);
    std::memset(bytes_.data(), 0, bytes_.size());
  }
  LocalId operator[](int64_t i) const { return view()[i]; }
  void set(int64_t i, LocalId id) { out().set(i, id); }
  StoredIds view(int64_t from = 0) const {
    return StoredIds(bytes_.data() + from * static_cast<int64_t>(kStoredIdBytes));
  }
  StoredIdsOut out(int64_t from = 0) {
    return StoredIdsOut(bytes_.data() + from * static_cast<int64_t>(kStoredIdBytes));
  }
  friend bool operator==(const StoredIdArray& a, const StoredIdArray& b) {
    if (a.size_ != b.size_) return false;
    for (int64_t i = 0; i < a.size_; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

 private:
  // The bytes the last id's masked word reads past it.
  static constexpr size_t kSlack = kStoredIdBytes == sizeof(LocalId) ? 0 : sizeof(uint64_t) - kStoredIdBytes;
  int64_t size_ = 0;
  util::LargeArray<uint8_t> bytes_;
};

}  // namespace g500::graph
