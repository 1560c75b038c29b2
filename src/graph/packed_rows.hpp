// Packed rows: each row's neighbours after the first as gaps in byte-aligned varints.
//
// After the degree sort (Nakao et al. 2021, section 4.2) every row lists its neighbours by
// ascending sort key (descending degree; graph/column_keys.hpp: with the degree-order renumbering
// the keys follow from the column ids by arithmetic). Consecutive keys of a row are close, above all in the long rows
// of the hubs that hold most entries, so their differences need one or two bytes instead of four.
// The first neighbour of a row stays dense (LocalGraph::first_neighbors), since the bottom-up
// search reads it for every unvisited row and usually needs no other; the stream holds, for each
// row of n >= 2 entries, the n - 1 gaps key[i] - key[i - 1] (0 for a duplicate edge), as LEB128
// varints: 7 bits per byte, low bits first, the high bit set on every byte but the last.
//
// A row's gaps may sit anywhere in the stream (kernel 1 writes rows as they are finished): the
// packed rows' places are kept in `long_offset`, one entry per packed row in slot order. The
// row's length comes from the row index, which the searches read anyway.
//
// Short rows, of at most kMaxShortRow entries, are not packed: their neighbours after the first
// are column ids in `short_ids`, the rows in slot order. Their places follow from the row lengths
// alone, so kernel 1 writes them where they belong; the stream's rows come in the order kernel 1
// finishes them, unrelated to the slots. A bottom-up scan goes through the slots in order and
// reads, for each row its first neighbour did not settle, the rest of the row: for the many short
// rows of a Kronecker graph that is now the next few words of one array instead of a random place
// in the stream (at SCALE 23, 60 % of the rows read past their first neighbour have at most 4
// entries), for 4 instead of about 2.5-2.8 bytes per entry on the tenth or so of the entries they
// hold (6 with 64-bit ids, graph/stored_ids.hpp).
//
// Where a row's neighbours after the first start is a two-level directory: per block of 64 row
// slots, the short rows' ids, the packed rows and the entries before the block (`slot_blocks`).
// In a block of short rows only (no packed or empty row), a row's short ids start where its
// entries do, less one first neighbour per row before it in the block: the place follows from the
// row's start, which the searches read anyway. The blocks with a packed or an empty row, which the
// degree order gathers where each block of the row set begins (its hubs) or where a row's
// entries pass kMaxShortRow, keep a 16-bit count per slot of the short ids or packed rows before
// it in the block (`in_block`); the stream offset is kept for the packed rows only. That is 0.5
// bytes per slot, 2.5 in a block with counts, and 8 per packed row where one 64-bit place per slot
// took 8.
#pragma once
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "graph/column_keys.hpp"
#include "graph/distribution.hpp"
#include "graph/stored_ids.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

namespace varint {

constexpr int kPayloadBits = 7;
constexpr uint32_t kPayloadMask = (1U << kPayloadBits) - 1;
constexpr uint32_t kContinues = 1U << kPayloadBits;  // set on every byte of a value but its last
constexpr int kMaxBytes = (kLocalIdBits + kPayloadBits - 1) / kPayloadBits;  // a LocalId

inline int size(LocalId value) {
  int n = 1;
  while (value >= kContinues) {
    value >>= kPayloadBits;
    ++n;
  }
  return n;
}

inline uint8_t* put(uint8_t* out, LocalId value) {
  while (value >= kContinues) {
    *out++ = static_cast<uint8_t>(value | kContinues);
    value >>= kPayloadBits;
  }
  *out++ = static_cast<uint8_t>(value);
  return out;
}

inline const uint8_t* get(const uint8_t* in, LocalId& value) {
  LocalId byte = *in++;
  value = byte;
  if (byte < kContinues) return in;  // most gaps of a sorted row: one byte
  value &= kPayloadMask;
  for (int shift = kPayloadBits; byte & kContinues; shift += kPayloadBits) {
    byte = *in++;
    value |= (byte & kPayloadMask) << shift;
  }
  return in;
}

// Skips `count` values, adding their sum to `sum`; returns where the next value starts. Eight
// bytes at a time while the values in them take one or two bytes each (the gaps of a hub row's
// sorted neighbours nearly always do): the word's values that end in it are counted by their last
// bytes and summed as two byte sums, the second bytes' weighted by 2^7. An 8-byte load never reads
// past the values while at least eight are left, since each of them takes at least one byte.
inline const uint8_t* skip(const uint8_t* in, int64_t count, LocalId& sum) {
  constexpr int64_t kWordBytes = sizeof(uint64_t);
  constexpr int kByteBits = 8;
  constexpr uint64_t kContinueBits = 0x8080808080808080ULL;
  constexpr uint64_t kPayloadBytes = 0x7f7f7f7f7f7f7f7fULL;
  constexpr uint64_t kEvenBytes = 0x00ff00ff00ff00ffULL;
  constexpr uint64_t kLaneSum = 0x0001000100010001ULL;  // multiplier adding four 16-bit lanes
  constexpr int kTopLane = 48;
  auto byte_sum = [&](uint64_t x) {  // bytes of at most 7 bits: four pair sums <= 254
    const uint64_t pairs = (x & kEvenBytes) + ((x >> kByteBits) & kEvenBytes);
    return static_cast<uint32_t>((pairs * kLaneSum) >> kTopLane);
  };
  while (count > 0) {
    if (count >= kWordBytes) {
      uint64_t word;
      std::memcpy(&word, in, sizeof(word));
      const uint64_t continues = word & kContinueBits;
      if (!continues) {  // eight one-byte values
        sum += byte_sum(word);
        in += kWordBytes;
        count -= kWordBytes;
        continue;
      }
      if (!(continues & (continues << kByteBits))) {   // no value of three bytes or more starts here
        const uint64_t ends = ~word & kContinueBits;   // the last byte of each value
        const int bits = 64 - std::countl_zero(ends);  // through the last value that ends in the word
        const uint64_t whole = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
        const uint64_t payload = word & whole & kPayloadBytes;
        constexpr uint64_t kWholeByte = 0xff;  // spreads bit 0 of each byte over the byte
        const uint64_t second_bytes = ((continues << kByteBits) >> (kByteBits - 1)) * kWholeByte;
        sum += byte_sum(payload & ~second_bytes) + (byte_sum(payload & second_bytes) << kPayloadBits);
        in += bits / kByteBits;
        count -= std::popcount(ends);
        continue;
      }
    }
    LocalId value;
    in = get(in, value);
    sum += value;
    --count;
  }
  return in;
}

}  // namespace varint

struct PackedRows {
  static constexpr int64_t kMaxShortRow = 32;  // entries of the longest row kept in short_ids
  static bool is_short(int64_t entries) { return entries <= kMaxShortRow; }
  static constexpr int kSlotBlockBits = 6;  // 64 row slots per block of the directory
  static constexpr int64_t kSlotsPerBlock = int64_t{1} << kSlotBlockBits;
  static_assert((kSlotsPerBlock - 1) * (kMaxShortRow - 1) <= UINT16_MAX, "a block's short ids count in 16 bits");
  // What comes before a block of row slots: the short rows' ids after their first, the packed
  // rows, the entries; and where the block's counts are in `in_block`, or kShortRowsOnly.
  struct SlotBlock {
    uint64_t short_ids;
    uint64_t packed_rows;
    uint64_t entries;
    int64_t counts;
  };
  static constexpr int64_t kShortRowsOnly = -1;

  bool in_use = false;                      // the graph's neighbours are these (LocalGraph::neighbors is empty)
  util::LargeArray<uint8_t> bytes;          // the gaps of every row that is not short, rows in any order
  StoredIdArray short_ids;                  // short rows' neighbours after the first, rows in slot order
  util::LargeArray<uint64_t> long_offset;   // per packed row, in slot order: where its gaps start in `bytes`
  util::LargeArray<SlotBlock> slot_blocks;  // per block of kSlotsPerBlock row slots
  util::LargeArray<uint16_t> in_block;      // per slot of the blocks with counts: short ids, or packed rows, before it
  // The sort keys of the columns (graph/column_keys.hpp): the ids, the blocks interleaved, or
  // (without the renumbering) tables.
  ColumnKeys keys;

  bool active() const { return in_use; }
  LocalId column(LocalId key) const { return keys.column(key); }
  LocalId key(LocalId column) const { return keys.key(column); }

  // A cursor over one row's gaps: next() gives the following neighbour's column id.
  class Reader {
   public:
    Reader(const ColumnKeys& keys, const uint8_t* in, LocalId key) : keys_(&keys), in_(in), key_(key) {}
    LocalId next() {
      LocalId gap;
      in_ = varint::get(in_, gap);
      key_ += gap;
      return keys_->column(key_);
    }
    // Passes over `count` neighbours without looking them up.
    void skip(int64_t count) { in_ = varint::skip(in_, count, key_); }
    const uint8_t* position() const { return in_; }
    LocalId key() const { return key_; }

   private:
    const ColumnKeys* keys_;
    const uint8_t* in_;
    LocalId key_;
  };
  // Where row slot r's neighbours after the first are, from the directory and its start `begin`
  // (the entries before it, as in the row index): in short_ids for a short row, in long_offset
  // (the place of its gaps) for a packed one.
  uint64_t short_place(int64_t r, int64_t begin) const {
    const SlotBlock& block = slot_blocks[r >> kSlotBlockBits];
    const int64_t in = r & (kSlotsPerBlock - 1);
    if (block.counts == kShortRowsOnly) [[likely]]
      return block.short_ids + (static_cast<uint64_t>(begin) - block.entries) - static_cast<uint64_t>(in);
    return block.short_ids + in_block[block.counts + in];
  }
  uint64_t packed_index(int64_t r) const {  // a packed row's block has counts
    const SlotBlock& block = slot_blocks[r >> kSlotBlockBits];
    return block.packed_rows + in_block[block.counts + (r & (kSlotsPerBlock - 1))];
  }
  // The neighbours after the first of short row slot r.
  StoredIds short_row(int64_t r, int64_t begin) const {
    return short_ids.view(static_cast<int64_t>(short_place(r, begin)));
  }
  StoredIdsOut short_row_out(int64_t r, int64_t begin) {
    return short_ids.out(static_cast<int64_t>(short_place(r, begin)));
  }
  // The gaps of packed row slot r.
  const uint8_t* gaps(int64_t r) const { return bytes.data() + long_offset[packed_index(r)]; }
  // Where the neighbours after the first of row slot r, of n >= 2 entries from `begin`, start: in
  // short_ids or in the stream. One address for one prefetch: given a prefetch in each arm of a
  // branch, GCC 12 at -O2 and -O3 emits neither.
  const void* after_first_start(int64_t r, int64_t begin, int64_t n) const {
    return is_short(n) ? short_row(r, begin).address() : static_cast<const void*>(gaps(r));
  }

  // Makes the directory from the row lengths: every row slot r of length(r) >= 2 entries gets its
  // place among the short rows or the packed ones, in slot order; sizes short_ids and long_offset
  // (left unwritten), the short ids `width` wide. `threads` share the blocks in equal ranges: each
  // counts its range's short ids, packed rows, entries and blocks with counts, then writes their
  // places after the ranges before it.
  template <class LengthOf>
  void place_rows(int64_t slots, LengthOf length, int threads, StoredIdWidth width) {
    const int64_t blocks = (slots + kSlotsPerBlock - 1) / kSlotsPerBlock;
    slot_blocks.resize(blocks);
    auto block_end = [slots](int64_t b) { return std::min(slots, (b + 1) * kSlotsPerBlock); };
    const SlotBlock none{0, 0, 0, 0};  // here `counts` counts the blocks with counts
    std::vector<SlotBlock> range_start(static_cast<size_t>(threads) + 1, none);
    SlotBlock total = none;
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num(), nt = omp_get_num_threads();
      const int64_t begin = blocks * t / nt, end = blocks * (t + 1) / nt;
      SlotBlock count = none;
      for (int64_t b = begin; b < end; ++b) {  // each block's totals, and the range's
        SlotBlock within = none;
        for (int64_t r = b * kSlotsPerBlock; r < block_end(b); ++r) {
          const int64_t n = length(r);
          within.entries += static_cast<uint64_t>(n);
          if (n == 0 || !is_short(n)) within.counts = 1;
          if (n >= 2)
            (is_short(n) ? within.short_ids : within.packed_rows) += static_cast<uint64_t>(is_short(n) ? n - 1 : 1);
        }
        slot_blocks[b] = within;
        add(count, within);
      }
      range_start[t + 1] = count;
#pragma omp barrier
#pragma omp single
      {
        for (int u = 0; u < nt; ++u) add(range_start[u + 1], range_start[u]);
        total = range_start[nt];  // the team may have fewer than `threads`
        in_block.resize(static_cast<size_t>(total.counts * kSlotsPerBlock));
      }
      SlotBlock next = range_start[t];
      for (int64_t b = begin; b < end; ++b) {
        const SlotBlock within = slot_blocks[b];
        slot_blocks[b] = next;
        slot_blocks[b].counts = within.counts ? next.counts * kSlotsPerBlock : kShortRowsOnly;
        if (within.counts) count_in_block(b * kSlotsPerBlock, block_end(b), length, &in_block[slot_blocks[b].counts]);
        add(next, within);
      }
    }
    short_ids = StoredIdArray(width);
    short_ids.resize(static_cast<int64_t>(total.short_ids));
    long_offset.resize(total.packed_rows);
  }
  // Reader of row slot r's neighbours after its first one, `first` (a column id); r is not short.
  Reader after_first(int64_t r, LocalId first) const { return Reader(keys, gaps(r), key(first)); }

  // Calls f(column) for `count` neighbours whose gaps start at `in`, after the entry of sort key
  // `key`, until f returns true; returns how many came before that one (count if none did). The
  // kind of keys is tested once, not per neighbour.
  template <class F>
  int64_t visit(const uint8_t* in, LocalId key, int64_t count, F f) const {
    switch (keys.kind()) {
      case ColumnKeys::Kind::kIds:
        return visit_keys(in, key, count, f, [](LocalId k) { return k; });
      case ColumnKeys::Kind::kInterleaved:
        return visit_keys(in, key, count, f, [this](LocalId k) { return keys.interleaved_column(k); });
      default: {
        const LocalId* table = keys.column_table();
        return visit_keys(in, key, count, f, [table](LocalId k) { return table[k]; });
      }
    }
  }

  // Calls f(column) for the n - 1 neighbours after the first of row slot r, which has n entries
  // from `begin` and first neighbour `first` (a column id), until f returns true; returns how many
  // came before that one (n - 1 if none did). Short rows or packed ones alike.
  template <class F>
  int64_t visit_after_first(int64_t r, int64_t begin, int64_t n, LocalId first, F f) const {
    if (n < 2) return 0;
    if (is_short(n)) {
      const StoredIds ids = short_row(r, begin);
      for (int64_t i = 0; i < n - 1; ++i)
        if (f(ids[i])) return i;
      return n - 1;
    }
    return visit(gaps(r), key(first), n - 1, f);
  }

  // Calls f(column) for the neighbours after the first of row slot r, which has n >= 1 entries
  // from `begin` and first neighbour `first` (a column id); stops early when f returns true.
  // Returns the number of neighbours visited.
  template <class F>
  int64_t for_each_after_first(int64_t r, int64_t begin, int64_t n, LocalId first, F f) const {
    const int64_t before = visit_after_first(r, begin, n, first, f);
    return before == n - 1 ? n - 1 : before + 1;
  }

  // Writes all n >= 1 neighbours of row slot r (from `begin`; column ids, `first` included) to
  // out[0, n).
  void decode_row(int64_t r, int64_t begin, int64_t n, LocalId first, LocalId* out) const {
    *out++ = first;
    visit_after_first(r, begin, n, first, [&out](LocalId u) {
      *out++ = u;
      return false;
    });
  }

  template <class F, class ColumnOf>
  static int64_t visit_keys(const uint8_t* in, LocalId key, int64_t count, F& f, ColumnOf column_of) {
    LocalId gap;
    for (int64_t i = 0; i < count; ++i) {
      in = varint::get(in, gap);
      key += gap;
      if (f(column_of(key))) return i;
    }
    return count;
  }

  static void add(SlotBlock& to, const SlotBlock& more) {
    to.short_ids += more.short_ids;
    to.packed_rows += more.packed_rows;
    to.entries += more.entries;
    to.counts += more.counts;
  }
  // The counts of the slots [first, end) of one block: the short ids, or packed rows, before each.
  template <class LengthOf>
  static void count_in_block(int64_t first, int64_t end, LengthOf& length, uint16_t* out) {
    uint16_t short_ids = 0, packed_rows = 0;
    for (int64_t r = first; r < end; ++r) {
      const int64_t n = length(r);
      out[r - first] = 0;
      if (n < 2) continue;
      uint16_t& before = is_short(n) ? short_ids : packed_rows;
      out[r - first] = before;
      before = static_cast<uint16_t>(before + (is_short(n) ? n - 1 : 1));
    }
  }

  // Bytes of each part, as stored.
  size_t directory_bytes() const {
    return long_offset.size() * sizeof(uint64_t) + slot_blocks.size() * sizeof(SlotBlock) +
           in_block.size() * sizeof(uint16_t);
  }
  size_t short_row_bytes() const { return short_ids.memory_bytes(); }
  size_t key_table_bytes() const { return keys.table_bytes(); }
  size_t memory_bytes() const { return bytes.size() + short_row_bytes() + directory_bytes() + key_table_bytes(); }
};

// Appends the gaps of one row whose n >= 1 entries, key_of(at[i]), ascend; returns the end of what
// it wrote (nothing for a row of one entry). At most (n - 1) * varint::kMaxBytes bytes.
template <class T, class KeyOf>
uint8_t* pack_row_gaps(const T* at, int64_t n, KeyOf key_of, uint8_t* out) {
  LocalId previous = n > 0 ? key_of(at[0]) : 0;
  for (int64_t i = 1; i < n; ++i) {
    const LocalId key = key_of(at[i]);
    out = varint::put(out, key - previous);
    previous = key;
  }
  return out;
}

template <class T, class KeyOf>
int64_t packed_row_bytes(const T* at, int64_t n, KeyOf key_of) {
  int64_t total = 0;
  LocalId previous = n > 0 ? key_of(at[0]) : 0;
  for (int64_t i = 1; i < n; ++i) {
    const LocalId key = key_of(at[i]);
    total += varint::size(key - previous);
    previous = key;
  }
  return total;
}

// The same for rows given as their keys.
inline uint8_t* pack_row_gaps(const LocalId* keys, int64_t n, uint8_t* out) {
  return pack_row_gaps(
      keys, n, [](LocalId key) { return key; }, out);
}
inline int64_t packed_row_bytes(const LocalId* keys, int64_t n) {
  return packed_row_bytes(keys, n, [](LocalId key) { return key; });
}

}  // namespace g500::graph
