// Column-local ids as the graph stores them in its per-row arrays, the first neighbours and the
// short rows' ids (graph/packed_rows.hpp): 32-bit ids as they are; 64-bit ones (G500_WIDE_IDS) in
// the fewest bytes, 4 to 6, that hold every id of the process's column set: 4 up to 2^32 columns,
// 5 up to 2^40, 6 beyond (Distribution::kMostIdBits, the Graph500 rule's least, is 48). On a
// large grid a process's rows are short, and these arrays hold one id per row with edges and a
// quarter of its entries (SCALE 42 on 256x256, 2^34 columns: 5 bytes): eight bytes each would
// be an eighth more of the search's memory than five. SCALE 41 on 552x288 (7.6e9 columns per
// process) takes 5, the K computer's SCALE 40 on 288x288 (3.8e9) 4.
//
// An id is read with one unaligned 8-byte load, masked: the array keeps the bytes that load reads
// past its last id as slack. Written bytewise, so threads writing neighbouring ids never touch
// each other's bytes.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>

#include "graph/local_id.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

inline constexpr size_t kWidestStoredId = kWideIds ? 6 : sizeof(LocalId);
inline constexpr size_t kNarrowestStoredId = sizeof(uint32_t);
static_assert(!kWideIds || std::endian::native == std::endian::little, "stored ids are read as a masked word");

// The bytes of a stored id for a column set of `ids` column-local ids.
constexpr size_t stored_id_bytes(int64_t ids) {
  if (!kWideIds) return sizeof(LocalId);
  constexpr int kByteBits = 8;
  const auto most = static_cast<uint64_t>(ids > 0 ? ids - 1 : 0);
  size_t bytes = kNarrowestStoredId;
  while (bytes < kWidestStoredId && (most >> (kByteBits * bytes)) != 0) ++bytes;
  return bytes;
}

// How wide an array's ids are: with 32-bit ids always 4 bytes, the mask unused.
class StoredIdWidth {
 public:
  constexpr StoredIdWidth() : StoredIdWidth(kWidestStoredId) {}
  explicit constexpr StoredIdWidth(size_t bytes)
      : bytes_(static_cast<int64_t>(kWideIds ? bytes : sizeof(LocalId))),
        mask_(bytes_ >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes_)) - 1) {}
  constexpr size_t bytes() const { return static_cast<size_t>(bytes_); }
  constexpr LocalId most() const { return kWideIds ? static_cast<LocalId>(mask_) : ~LocalId{0}; }
  // The bytes an array of n ids takes, with the slack the last id's masked load reads.
  constexpr size_t array_bytes(int64_t n) const {
    if (n <= 0) return 0;
    return static_cast<size_t>(n) * bytes() + (kWideIds ? sizeof(uint64_t) - bytes() : 0);
  }

  LocalId get(const uint8_t* base, int64_t i) const {
    if constexpr (!kWideIds) {
      LocalId id;
      std::memcpy(&id, base + i * static_cast<int64_t>(sizeof(LocalId)), sizeof(LocalId));
      return id;
    } else {
      uint64_t word;
      std::memcpy(&word, base + i * bytes_, sizeof(word));
      return word & mask_;
    }
  }
  // Little-endian: an id's low bytes. Constant sizes, so the copies stay inline.
  void set(uint8_t* base, int64_t i, LocalId id) const {
    if constexpr (!kWideIds) {
      std::memcpy(base + i * static_cast<int64_t>(sizeof(LocalId)), &id, sizeof(LocalId));
    } else {
      uint8_t* at = base + i * bytes_;
      constexpr int64_t kFive = 5, kSix = 6;
      if (bytes_ == kSix)
        std::memcpy(at, &id, kSix);
      else if (bytes_ == kFive)
        std::memcpy(at, &id, kFive);
      else
        std::memcpy(at, &id, kNarrowestStoredId);
    }
  }

 private:
  int64_t bytes_;
  uint64_t mask_;
};

// Stored ids from `at` on, read-only (null: none).
class StoredIds {
 public:
  StoredIds() = default;
  StoredIds(const uint8_t* at, StoredIdWidth width) : at_(at), width_(width) {}
  LocalId operator[](int64_t i) const { return width_.get(at_, i); }
  explicit operator bool() const { return at_ != nullptr; }
  const void* address() const { return at_; }

 private:
  const uint8_t* at_ = nullptr;
  StoredIdWidth width_;
};

// Stored ids from `at` on, to write.
class StoredIdsOut {
 public:
  StoredIdsOut(uint8_t* at, StoredIdWidth width) : at_(at), width_(width) {}
  void set(int64_t i, LocalId id) const { width_.set(at_, i, id); }

 private:
  uint8_t* at_;
  StoredIdWidth width_;
};

// An array of stored ids of one width (the widest unless given). resize() leaves new ids
// unwritten (util/large_array.hpp); zeroed() zeroes.
class StoredIdArray {
 public:
  StoredIdArray() = default;
  explicit StoredIdArray(StoredIdWidth width) : width_(width) {}
  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  StoredIdWidth width() const { return width_; }
  size_t memory_bytes() const { return bytes_.size(); }
  void resize(int64_t n) {
    size_ = n;
    bytes_.resize(width_.array_bytes(n));
  }
  void zeroed(int64_t n) {
    resize(n);
    std::memset(bytes_.data(), 0, bytes_.size());
  }
  LocalId operator[](int64_t i) const { return width_.get(bytes_.data(), i); }
  void set(int64_t i, LocalId id) { width_.set(bytes_.data(), i, id); }
  StoredIds view(int64_t from = 0) const {
    return StoredIds(bytes_.data() + from * static_cast<int64_t>(width_.bytes()), width_);
  }
  StoredIdsOut out(int64_t from = 0) {
    return StoredIdsOut(bytes_.data() + from * static_cast<int64_t>(width_.bytes()), width_);
  }
  friend bool operator==(const StoredIdArray& a, const StoredIdArray& b) {
    if (a.size_ != b.size_) return false;
    for (int64_t i = 0; i < a.size_; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

 private:
  int64_t size_ = 0;
  StoredIdWidth width_;
  util::LargeArray<uint8_t> bytes_;
};

}  // namespace g500::graph
