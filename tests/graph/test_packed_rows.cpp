// The packed-row format of graph/packed_rows.hpp on its own: varint gaps at every width, rows of
// one entry, short rows and their places, hub rows, duplicate neighbours, key tables, rows placed
// anywhere in the stream, skipping and the early stop of the bottom-up search.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "graph/packed_rows.hpp"

namespace g500::graph {
namespace {

constexpr LocalId kMaxGap = ~LocalId{0};

// 7 bits per byte.
int expected_width(LocalId gap) {
  int width = 1;
  for (LocalId rest = gap >> 7; rest != 0; rest >>= 7) ++width;
  return width;
}

// Where row k's entries start: the entries of the rows before it.
int64_t start_of(const std::vector<std::vector<LocalId>>& rows, size_t k) {
  int64_t start = 0;
  for (size_t r = 0; r < k; ++r) start += static_cast<int64_t>(rows[r].size());
  return start;
}

// Packs rows given as ascending keys (the keys are the column ids): short rows to short_ids, the
// others' gaps to the stream, written in reverse order, so nothing may assume that row r + 1's
// gaps follow row r's.
PackedRows pack(const std::vector<std::vector<LocalId>>& rows, StoredIdWidth width = StoredIdWidth()) {
  PackedRows packed;
  packed.in_use = true;
  const int64_t slots = static_cast<int64_t>(rows.size());
  packed.place_rows(
      slots, [&](int64_t r) { return static_cast<int64_t>(rows[r].size()); }, 2, width);
  int64_t total = 0;
  for (const auto& row : rows)
    if (!PackedRows::is_short(static_cast<int64_t>(row.size())))
      total += packed_row_bytes(row.data(), static_cast<int64_t>(row.size()));
  packed.bytes.resize(total);
  uint8_t* out = packed.bytes.data();
  for (size_t k = rows.size(); k-- > 0;) {
    const int64_t n = static_cast<int64_t>(rows[k].size());
    if (PackedRows::is_short(n)) {
      const StoredIdsOut ids = packed.short_row_out(static_cast<int64_t>(k), start_of(rows, k));
      for (int64_t i = 1; i < n; ++i) ids.set(i - 1, rows[k][i]);
      continue;
    }
    packed.long_offset[packed.packed_index(static_cast<int64_t>(k))] = static_cast<uint64_t>(out - packed.bytes.data());
    uint8_t* end = pack_row_gaps(rows[k].data(), n, out);
    EXPECT_EQ(end - out, packed_row_bytes(rows[k].data(), n));
    out = end;
  }
  EXPECT_EQ(out, packed.bytes.data() + total);
  return packed;
}

// A row of `gap` after key 0, as long as the shortest packed row: the other gaps are 0.
std::vector<LocalId> packed_row_of_gap(LocalId gap) {
  std::vector<LocalId> row(PackedRows::kMaxShortRow + 1, gap);
  row[0] = 0;
  return row;
}

std::vector<LocalId> decode(const PackedRows& packed, const std::vector<std::vector<LocalId>>& rows, size_t r) {
  const std::vector<LocalId>& row = rows[r];
  std::vector<LocalId> back(row.size());
  packed.decode_row(static_cast<int64_t>(r), start_of(rows, r), static_cast<int64_t>(row.size()), packed.column(row[0]),
                    back.data());
  return back;
}

TEST(Varint, EveryWidthRoundTrips) {
  std::vector<LocalId> gaps{
      0, 1, 127, 128, (1U << 14) - 1, 1U << 14, (1U << 21) - 1, 1U << 21, (1U << 28) - 1, 1U << 28, kMaxGap};
  if constexpr (kWideIds)  // 64-bit ids (graph/local_id.hpp): gaps of up to ten bytes
    for (const int bits : {32, 35, 42, 48, 56, 63}) {
      gaps.push_back(static_cast<LocalId>((uint64_t{1} << bits) - 1));
      gaps.push_back(static_cast<LocalId>(uint64_t{1} << bits));
    }
  for (const LocalId gap : gaps) {
    uint8_t buffer[varint::kMaxBytes + 1] = {};
    const uint8_t* end = varint::put(buffer, gap);
    EXPECT_EQ(end - buffer, expected_width(gap)) << gap;
    EXPECT_EQ(varint::size(gap), expected_width(gap)) << gap;
    LocalId back = 0;
    EXPECT_EQ(varint::get(buffer, back), end) << gap;
    EXPECT_EQ(back, gap);
    LocalId sum = 5;
    EXPECT_EQ(varint::skip(buffer, 1, sum), end);
    EXPECT_EQ(sum, static_cast<LocalId>(5 + gap));
    // As the first gap of a packed row from key 0, the others 0 (one byte each); and as the gap
    // of a short row, kept as it is where it is an id the row may hold (graph/stored_ids.hpp).
    const std::vector<std::vector<LocalId>> rows{packed_row_of_gap(gap), {0, std::min(gap, StoredIdWidth().most())}};
    const PackedRows packed = pack(rows);
    EXPECT_EQ(static_cast<int64_t>(packed.bytes.size()), expected_width(gap) + PackedRows::kMaxShortRow - 1);
    EXPECT_EQ(packed.short_ids.size(), 1u);
    EXPECT_EQ(decode(packed, rows, 0), rows[0]) << gap;
    EXPECT_EQ(decode(packed, rows, 1), rows[1]) << gap;
  }
}

TEST(Varint, RandomGapsOfEveryWidthRoundTrip) {
  std::mt19937_64 rng(20210);
  std::vector<LocalId> keys{static_cast<LocalId>(rng() % 1000)};
  std::vector<int> widths;
  int64_t expected_bytes = 0;
  while (keys.size() < 20000) {
    const int width = 1 + static_cast<int>(rng() % 4);  // one to four bytes: keys stay below 2^32
    const uint32_t limit = width == 4 ? (1U << 21) * 8 : 1U << (7 * width);
    const uint32_t low = width == 1 ? 0 : 1U << (7 * (width - 1));
    const uint32_t gap = low + static_cast<uint32_t>(rng() % (limit - low));
    if (static_cast<uint64_t>(keys.back()) + gap > kMaxGap) break;
    keys.push_back(keys.back() + gap);
    expected_bytes += expected_width(gap);
  }
  ASSERT_GT(keys.size(), 1000u);
  EXPECT_EQ(packed_row_bytes(keys.data(), static_cast<int64_t>(keys.size())), expected_bytes);
  const PackedRows packed = pack({keys});
  EXPECT_EQ(static_cast<int64_t>(packed.bytes.size()), expected_bytes);
  EXPECT_EQ(decode(packed, {keys}, 0), keys);
  // Skipping any number of gaps lands on the key after them.
  for (int64_t count : {0, 1, 7, 8, 9, 63, 64, 1000, static_cast<int>(keys.size()) - 1}) {
    PackedRows::Reader reader = packed.after_first(0, keys[0]);
    reader.skip(count);
    EXPECT_EQ(reader.key(), keys[count]) << count;
    if (count + 1 < static_cast<int64_t>(keys.size())) {
      EXPECT_EQ(reader.next(), keys[count + 1]) << count;
    }
  }
}

TEST(Varint, SkippingMixedWidthsLandsOnEveryValue) {
  // Runs of one- and two-byte gaps in any mix, with a three-byte one now and then: every word of
  // the fast skip (all one byte, one or two bytes with a value running over the word's end, or
  // the fallback) and every stopping place inside a word.
  std::mt19937_64 rng(2021);
  for (int mix : {0, 1, 2}) {
    std::vector<LocalId> keys{static_cast<LocalId>(rng() % 100)};
    while (keys.size() < 3000) {
      const uint64_t pick = rng() % 100;
      const uint32_t gap = pick < static_cast<uint64_t>(50 - 20 * mix) ? static_cast<uint32_t>(rng() % 128)
                           : pick < 98 ? 128 + static_cast<uint32_t>(rng() % ((1U << 14) - 128))
                                       : (1U << 14) + static_cast<uint32_t>(rng() % 1000);
      keys.push_back(keys.back() + gap);
    }
    const PackedRows packed = pack({keys});
    for (int64_t count = 0; count < static_cast<int64_t>(keys.size()); ++count) {
      PackedRows::Reader reader = packed.after_first(0, keys[0]);
      reader.skip(count);
      ASSERT_EQ(reader.key(), keys[count]) << mix << " " << count;
      if (count + 1 < static_cast<int64_t>(keys.size())) {
        ASSERT_EQ(reader.next(), keys[count + 1]) << mix << " " << count;
      }
    }
  }
}

TEST(PackedRows, RowsOfOneEntryTakeNoBytes) {
  const std::vector<std::vector<LocalId>> rows{{7}, {3, 9}, {kMaxGap}, {0}, {5, 5}};
  EXPECT_EQ(packed_row_bytes(rows[0].data(), 1), 0);
  uint8_t untouched = 0xab;
  EXPECT_EQ(pack_row_gaps(rows[0].data(), 1, &untouched), &untouched);
  EXPECT_EQ(untouched, 0xab);
  const PackedRows packed = pack(rows);
  EXPECT_EQ(packed.bytes.size(), 0u);      // all short
  EXPECT_EQ(packed.short_ids.size(), 2u);  // one neighbour after the first each in rows 1 and 4
  EXPECT_EQ(packed.short_place(1, 1), 0u);
  EXPECT_EQ(packed.short_place(4, 5), 1u);
  EXPECT_EQ(packed.long_offset.size(), 0u);
  for (size_t r = 0; r < rows.size(); ++r) EXPECT_EQ(decode(packed, rows, r), rows[r]) << r;
  int calls = 0;
  EXPECT_EQ(packed.for_each_after_first(0, 0, 1, 7, [&](LocalId) { return ++calls > 0; }), 0);
  EXPECT_EQ(calls, 0);
}

TEST(PackedRows, RowsArePlacedInSlotOrderAtAnyThreadCount) {
  // Lengths around the short-row bound and empty or one-entry rows, which take no place; over
  // many blocks of the directory, a block of packed rows only and a block of the longest short
  // rows only (the most a block's 16-bit counts hold, were it counted), blocks of short rows only,
  // whose places follow from the rows' starts, and the others, which keep counts.
  std::mt19937_64 rng(7);
  std::vector<int64_t> lengths(1000);
  for (int64_t& n : lengths) {
    const uint64_t pick = rng() % 6;
    n = pick == 0   ? 0
        : pick == 1 ? 1
        : pick == 2 ? PackedRows::kMaxShortRow
        : pick == 3 ? PackedRows::kMaxShortRow + 1
                    : 2 + static_cast<int64_t>(rng() % 40);
  }
  lengths.resize(
      (lengths.size() + PackedRows::kSlotsPerBlock - 1) / PackedRows::kSlotsPerBlock * PackedRows::kSlotsPerBlock, 1);
  for (int64_t k = 0; k < PackedRows::kSlotsPerBlock; ++k) lengths.push_back(PackedRows::kMaxShortRow + 1 + k);
  for (int64_t k = 0; k < PackedRows::kSlotsPerBlock; ++k) lengths.push_back(PackedRows::kMaxShortRow);
  for (int64_t k = 0; k < PackedRows::kSlotsPerBlock; ++k)  // a block of short rows only, of 1 to 32 entries
    lengths.push_back(1 + static_cast<int64_t>(rng() % PackedRows::kMaxShortRow));
  lengths.push_back(2);  // a block of one slot at the end
  std::vector<uint64_t> expected_short(lengths.size(), ~uint64_t{0}), expected_packed(lengths.size(), ~uint64_t{0});
  std::vector<int64_t> begin(lengths.size(), 0);
  for (size_t r = 1; r < lengths.size(); ++r) begin[r] = begin[r - 1] + lengths[r - 1];
  // The blocks with counts: those with an empty or a packed row.
  int64_t counted_blocks = 0;
  for (size_t first = 0; first < lengths.size(); first += PackedRows::kSlotsPerBlock)
    counted_blocks += std::any_of(
        lengths.begin() + static_cast<std::ptrdiff_t>(first),
        lengths.begin() + static_cast<std::ptrdiff_t>(std::min(lengths.size(), first + PackedRows::kSlotsPerBlock)),
        [](int64_t n) { return n == 0 || !PackedRows::is_short(n); });
  EXPECT_LT(counted_blocks, static_cast<int64_t>((lengths.size() + PackedRows::kSlotsPerBlock - 1) /
                                                 PackedRows::kSlotsPerBlock));  // some blocks are of short rows only
  uint64_t next_short = 0, next_packed = 0;
  for (size_t r = 0; r < lengths.size(); ++r) {
    if (lengths[r] < 2) continue;
    if (PackedRows::is_short(lengths[r])) {
      expected_short[r] = next_short;
      next_short += static_cast<uint64_t>(lengths[r] - 1);
    } else {
      expected_packed[r] = next_packed++;
    }
  }
  // 0: 4 threads asked for inside a parallel region, where (nested parallelism off) the team is
  // one thread.
  for (int threads : {1, 2, 3, 7, 0}) {
    PackedRows packed;
    if (threads > 0) {
      packed.place_rows(
          static_cast<int64_t>(lengths.size()), [&](int64_t r) { return lengths[r]; }, threads, StoredIdWidth());
    } else {
      const int levels = omp_get_max_active_levels();  // restored after: later tests keep theirs
      omp_set_max_active_levels(1);
#pragma omp parallel num_threads(2)
      {
#pragma omp single
        packed.place_rows(
            static_cast<int64_t>(lengths.size()), [&](int64_t r) { return lengths[r]; }, 4, StoredIdWidth());
      }
      omp_set_max_active_levels(levels);
    }
    std::vector<uint64_t> short_places(lengths.size(), ~uint64_t{0}), packed_indexes(lengths.size(), ~uint64_t{0});
    for (size_t r = 0; r < lengths.size(); ++r) {
      if (lengths[r] < 2) continue;
      if (PackedRows::is_short(lengths[r]))
        short_places[r] = packed.short_place(static_cast<int64_t>(r), begin[r]);
      else
        packed_indexes[r] = packed.packed_index(static_cast<int64_t>(r));
    }
    EXPECT_EQ(short_places, expected_short) << threads;
    EXPECT_EQ(packed_indexes, expected_packed) << threads;
    EXPECT_EQ(packed.short_ids.size(), next_short) << threads;
    EXPECT_EQ(packed.long_offset.size(), next_packed) << threads;
    const size_t blocks = (lengths.size() + PackedRows::kSlotsPerBlock - 1) / PackedRows::kSlotsPerBlock;
    EXPECT_EQ(packed.directory_bytes(),
              next_packed * sizeof(uint64_t) + blocks * sizeof(PackedRows::SlotBlock) +
                  static_cast<size_t>(counted_blocks * PackedRows::kSlotsPerBlock) * sizeof(uint16_t))
        << threads;
  }
}

TEST(PackedRows, HubRowsWithDuplicates) {
  constexpr int64_t kHubEntries = 100000;
  std::mt19937_64 rng(42);
  std::vector<LocalId> hub{3};
  while (static_cast<int64_t>(hub.size()) < kHubEntries) {
    const uint64_t pick = rng() % 100;
    const uint32_t gap = pick < 10   ? 0
                         : pick < 90 ? 1 + static_cast<uint32_t>(rng() % 4)
                                     : static_cast<uint32_t>(rng() % 5000);
    hub.push_back(hub.back() + gap);
  }
  const std::vector<std::vector<LocalId>> rows{{1, 2}, hub, {4, 4, 4, 4}};
  const PackedRows packed = pack(rows);
  EXPECT_LT(packed.bytes.size(), static_cast<size_t>(kHubEntries) * 5 / 4);  // mostly one byte per gap
  EXPECT_EQ(packed.short_ids.size(), 1u + 3u);
  for (size_t r = 0; r < rows.size(); ++r) EXPECT_EQ(decode(packed, rows, r), rows[r]) << r;
  // Duplicates are gaps of 0: the row of four equal neighbours is three zero bytes.
  EXPECT_EQ(packed_row_bytes(rows[2].data(), 4), 3);
  for (int64_t count = 0; count < kHubEntries; count += 997) {
    PackedRows::Reader reader = packed.after_first(1, hub[0]);
    reader.skip(count);
    ASSERT_EQ(reader.key(), hub[count]) << count;
  }
}

TEST(PackedRows, StopsEarlyAtTheFirstMatch) {
  // A short row, and a packed one that starts the same way.
  std::vector<LocalId> long_row{10, 11, 11, 20, 300, 70000, 70001};
  for (LocalId k = 0; static_cast<int64_t>(long_row.size()) <= PackedRows::kMaxShortRow; ++k)
    long_row.push_back(70100 + 3 * k);
  for (const std::vector<LocalId>& row : {std::vector<LocalId>(long_row.begin(), long_row.begin() + 7), long_row}) {
    const PackedRows packed = pack({row});
    EXPECT_EQ(packed.bytes.empty(), PackedRows::is_short(static_cast<int64_t>(row.size())));
    for (size_t target = 1; target < row.size(); ++target) {
      std::vector<LocalId> seen;
      const int64_t stopped =
          packed.for_each_after_first(0, 0, static_cast<int64_t>(row.size()), row[0], [&](LocalId u) {
            seen.push_back(u);
            return u == row[target];
          });
      // Stops at the first entry equal to the target (the duplicate 11 stops at position 1).
      const size_t first_equal = static_cast<size_t>(std::find(row.begin() + 1, row.end(), row[target]) - row.begin());
      EXPECT_EQ(stopped, static_cast<int64_t>(first_equal));
      EXPECT_EQ(seen, std::vector<LocalId>(row.begin() + 1, row.begin() + first_equal + 1));
    }
    const int64_t all =
        packed.for_each_after_first(0, 0, static_cast<int64_t>(row.size()), row[0], [](LocalId) { return false; });
    EXPECT_EQ(all, static_cast<int64_t>(row.size()) - 1);
  }
}

TEST(PackedRows, KeyTablesMapKeysToColumns) {
  // Columns 0..9 sorted by a key order; rows are ascending keys, read back as columns.
  const std::vector<LocalId> column_of_key{4, 9, 0, 7, 1, 8, 2, 6, 3, 5};
  std::vector<LocalId> key_of_column(column_of_key.size());
  for (size_t k = 0; k < column_of_key.size(); ++k) key_of_column[column_of_key[k]] = static_cast<LocalId>(k);
  // Keys 1, 3, 3, 5, 7, 9, then 9 again until the row is long enough to be packed.
  std::vector<LocalId> columns{9, 7, 7, 8, 6, 5};
  columns.resize(PackedRows::kMaxShortRow + 1, 5);
  std::vector<uint8_t> bytes(columns.size() * varint::kMaxBytes);
  auto key = [&](LocalId column) { return key_of_column[column]; };
  const int64_t size =
      pack_row_gaps(columns.data(), static_cast<int64_t>(columns.size()), key, bytes.data()) - bytes.data();
  EXPECT_EQ(size, packed_row_bytes(columns.data(), static_cast<int64_t>(columns.size()), key));
  EXPECT_EQ(size, static_cast<int64_t>(columns.size()) - 1);  // every gap one byte
  PackedRows packed;
  packed.in_use = true;
  packed.bytes.assign(bytes.begin(), bytes.begin() + size);
  packed.place_rows(
      1, [&](int64_t) { return static_cast<int64_t>(columns.size()); }, 1, StoredIdWidth());
  packed.long_offset[packed.packed_index(0)] = 0;
  packed.keys = ColumnKeys::tabled(column_of_key);
  std::vector<LocalId> back(columns.size());
  packed.decode_row(0, 0, static_cast<int64_t>(columns.size()), columns[0], back.data());
  EXPECT_EQ(back, columns);
  // The gaps, the directory (one block, with counts: a packed row) and the two key tables.
  EXPECT_EQ(packed.memory_bytes(), static_cast<size_t>(size) + sizeof(PackedRows::SlotBlock) +
                                       PackedRows::kSlotsPerBlock * sizeof(uint16_t) + sizeof(uint64_t) +
                                       20 * sizeof(LocalId));
}

TEST(PackedRows, InterleavedKeysMapKeysToColumns) {
  // A column set of 3 blocks of 64: column t * 64 + offset has key offset * 3 + t.
  const ColumnKeys keys = ColumnKeys::interleaved(3, 64);
  EXPECT_EQ(keys.kind(), ColumnKeys::Kind::kInterleaved);
  EXPECT_EQ(keys.table_bytes(), 0U);
  // The first vertices of the three blocks (their hubs) come first, then the second ones.
  const std::vector<LocalId> columns_by_key{0, 64, 128, 1, 65, 129, 2};
  for (LocalId k = 0; k < columns_by_key.size(); ++k) {
    EXPECT_EQ(keys.column(k), columns_by_key[k]) << k;
    EXPECT_EQ(keys.key(columns_by_key[k]), k) << k;
  }
  for (LocalId column = 0; column < 3 * 64; ++column) EXPECT_EQ(keys.column(keys.key(column)), column);
  EXPECT_EQ(keys.key(3 * 64 - 1), 3 * 64 - 1);  // the last offset of the last block
  EXPECT_TRUE(ColumnKeys::interleaved(1, 64).are_ids());

  // A packed row of ascending keys reads back as its columns.
  std::vector<LocalId> columns{64, 128, 1, 1, 130, 3, 67};
  columns.resize(PackedRows::kMaxShortRow + 1, 67);
  std::vector<uint8_t> bytes(columns.size() * varint::kMaxBytes);
  auto key = [&](LocalId column) { return keys.key(column); };
  const int64_t size =
      pack_row_gaps(columns.data(), static_cast<int64_t>(columns.size()), key, bytes.data()) - bytes.data();
  PackedRows packed;
  packed.in_use = true;
  packed.bytes.assign(bytes.begin(), bytes.begin() + size);
  packed.place_rows(
      1, [&](int64_t) { return static_cast<int64_t>(columns.size()); }, 1, StoredIdWidth());
  packed.long_offset[packed.packed_index(0)] = 0;
  packed.keys = keys;
  std::vector<LocalId> back(columns.size());
  packed.decode_row(0, 0, static_cast<int64_t>(columns.size()), columns[0], back.data());
  EXPECT_EQ(back, columns);
  PackedRows::Reader reader = packed.after_first(0, columns[0]);
  EXPECT_EQ(reader.next(), columns[1]);
  EXPECT_EQ(reader.next(), columns[2]);
  // No key tables: the gaps and the directory only.
  EXPECT_EQ(packed.memory_bytes(), static_cast<size_t>(size) + sizeof(PackedRows::SlotBlock) +
                                       PackedRows::kSlotsPerBlock * sizeof(uint16_t) + sizeof(uint64_t));
}

}  // namespace
}  // namespace g500::graph
