// A compressed adjacency: each row's neighbours after the first as gaps in byte-aligned varints.
//
// After the degree sort (Nakao et al. 2021, section 4.2) every row lists its neighbours by
// ascending sort key (descending degree); with the degree-order renumbering and R == 1 the keys
// are the column ids themselves. Consecutive keys of a row are close, above all in the long rows
// of the hubs that hold most entries, so their differences need one or two bytes instead of four.
// The first neighbour of a row stays dense (LocalGraph::first_neighbors), since the bottom-up
// search reads it for every unvisited row and usually needs no other; the stream holds, for each
// row of n >= 2 entries, the n - 1 gaps key[i] - key[i - 1] (0 for a duplicate edge), as LEB128
// varints: 7 bits per byte, low bits first, the high bit set on every byte but the last.
//
// A row's gaps may sit anywhere in the stream (kernel 1 writes rows as they are finished):
// `offset` has one entry per row slot of the row index (the same slots as first_neighbors).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/distribution.hpp"
#include "util/large_array.hpp"

namespace g500 {

namespace varint {

constexpr int kMaxBytes = 5;  // a 32-bit value

inline int size(uint32_t value) {
  int n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

inline uint8_t* put(uint8_t* out, uint32_t value) {
  while (value >= 0x80) {
    *out++ = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  *out++ = static_cast<uint8_t>(value);
  return out;
}

inline const uint8_t* get(const uint8_t* in, uint32_t& value) {
  uint32_t byte = *in++;
  value = byte & 0x7f;
  for (int shift = 7; byte & 0x80; shift += 7) {
    byte = *in++;
    value |= (byte & 0x7f) << shift;
  }
  return in;
}

}  // namespace varint

struct PackedRows {
  LargeArray<uint8_t> bytes;      // the gaps of every row, rows in any order
  LargeArray<uint64_t> offset;    // per row slot: where its gaps start in `bytes`
  // Sort key -> column id when the keys are not the ids (R > 1); empty when they are.
  std::vector<LocalId> column_of_key, key_of_column;

  bool active() const { return !offset.empty(); }
  LocalId column(LocalId key) const { return column_of_key.empty() ? key : column_of_key[key]; }
  LocalId key(LocalId column) const { return key_of_column.empty() ? column : key_of_column[column]; }

  // Calls f(column) for the neighbours after the first of row slot r, which has n >= 1 entries
  // and first neighbour `first` (a column id); stops early when f returns true. Returns the
  // number of neighbours visited.
  template <class F>
  int64_t for_each_after_first(int64_t r, int64_t n, LocalId first, F f) const {
    const uint8_t* in = bytes.data() + offset[r];
    uint32_t k = key(first);
    for (int64_t i = 1; i < n; ++i) {
      uint32_t gap;
      in = varint::get(in, gap);
      k += gap;
      if (f(column(k))) return i;
    }
    return n - 1;
  }

  size_t memory_bytes() const {
    return bytes.size() + offset.size() * sizeof(uint64_t) + (column_of_key.size() + key_of_column.size()) * sizeof(LocalId);
  }
};

// Appends the gaps of one row whose n >= 1 keys are ascending; returns the end of what it wrote
// (nothing for a row of one entry). At most (n - 1) * varint::kMaxBytes bytes.
inline uint8_t* pack_row_gaps(const LocalId* keys, int64_t n, uint8_t* out) {
  for (int64_t i = 1; i < n; ++i) out = varint::put(out, keys[i] - keys[i - 1]);
  return out;
}

inline int64_t packed_row_bytes(const LocalId* keys, int64_t n) {
  int64_t total = 0;
  for (int64_t i = 1; i < n; ++i) total += varint::size(keys[i] - keys[i - 1]);
  return total;
}

}  // namespace g500
