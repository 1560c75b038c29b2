// Kernel 1's fill (graph/build_graph.cpp): each bucket of a slab's kept entries (and its mirrors)
// sorted in cache by the neighbours' keys and dealt to its rows, plain or packed.
#pragma once
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "graph/column_keys.hpp"
#include "graph/kernel1_entries.hpp"
#include "graph/kernel1_mirrors.hpp"
#include "graph/packed_rows.hpp"
#include "graph/row_buckets.hpp"
#include "graph/row_index.hpp"
#include "graph/set_map.hpp"
#include "util/page_release.hpp"
#include "util/raw_buffer.hpp"

namespace g500::graph::kernel1 {

// Where filled rows go: the plain neighbour array at the row starts...
struct PlainRowSink {
  const RowIndex& rows;
  LocalId* neighbors;
  const ColumnKeys* order;  // null: the keys are the graph's column ids

  void start(int /*threads*/) {}
  void row(int /*thread*/, int64_t v, const LocalId* keys, int64_t n) {
    LocalId* out = neighbors + rows.begin(v);
    if (order && !order->are_ids())
      for (int64_t i = 0; i < n; ++i) out[i] = order->column(keys[i]);
    else
      std::memcpy(out, keys, static_cast<size_t>(n) * sizeof(LocalId));
  }
  void bucket_done(int /*thread*/) {}
};

// ... or packed: the first neighbour into the dense stream; a short row's others straight to
// their place in short_ids; a longer row's others as gaps into a per-thread buffer, copied to the
// end of the packed stream when the bucket is done.
struct PackedRowSink {
  const RowIndex& rows;
  PackedRows& packed;
  StoredIdArray& first_neighbors;
  std::atomic<int64_t>& stream_end;
  struct Pending {
    std::vector<uint8_t> bytes;
    std::vector<std::pair<int64_t, int64_t>> offsets;  // (row slot, offset in bytes)
  };
  std::vector<Pending> pending;

  void start(int threads) { pending.resize(threads); }
  void row(int thread, int64_t v, const LocalId* keys, int64_t n) {
    const int64_t slot = rows.compressed() ? rows.rank(v) : v;
    first_neighbors.set(slot, packed.column(keys[0]));
    if (PackedRows::is_short(n)) {
      const StoredIdsOut ids = packed.short_row_out(slot, rows.slot_start(slot));
      for (int64_t i = 1; i < n; ++i) ids.set(i - 1, packed.column(keys[i]));
      return;
    }
    Pending& p = pending[thread];
    const size_t at = p.bytes.size();
    p.offsets.emplace_back(slot, static_cast<int64_t>(at));
    p.bytes.resize(at + static_cast<size_t>(n - 1) * varint::kMaxBytes);
    uint8_t* end = pack_row_gaps(keys, n, p.bytes.data() + at);
    p.bytes.resize(static_cast<size_t>(end - p.bytes.data()));
  }
  void bucket_done(int thread) {
    Pending& p = pending[thread];
    const int64_t base = stream_end.fetch_add(static_cast<int64_t>(p.bytes.size()), std::memory_order_relaxed);
    if (!p.bytes.empty()) std::memcpy(packed.bytes.data() + base, p.bytes.data(), p.bytes.size());
    for (const auto& [slot, offset] : p.offsets)
      packed.long_offset[packed.packed_index(slot)] = static_cast<uint64_t>(base + offset);
    p.bytes.clear();
    p.offsets.clear();
  }
};

// Fills one slab's rows, one bucket at a time per thread. Without keys the rows keep the entries'
// (input) order. With keys (the degree order, or the graph's column ids when rows are packed
// without it), each bucket's entries become (key, row) items, are sorted by key with an in-cache
// LSD radix sort and dealt to their rows in that order: every row comes out sorted by key, and the
// result does not depend on the input order.
struct BucketFill {
  // Radix digits of up to 13 bits: two passes sort keys of up to 26 bits (SCALE 26 on one
  // process), and a digit's 8192 counters and write positions still stay in a core's L2 cache.
  static constexpr int kMaxDigitBits = 13;
  // A bucket's entries are sorted as items, pairs in one word: first (row offset in the bucket,
  // column), then (key, row offset). With 32-bit ids each half is 32 bits; with 64-bit ids the row
  // offset (below 2^16, graph/row_buckets.hpp) takes 16 bits and the column or key 48
  // (Distribution::ids_fit).
  static constexpr int kItemRowBits = kWideIds ? 16 : 32;
  static constexpr int kItemColBits = 64 - kItemRowBits;
  static constexpr uint64_t kItemRowMask = (uint64_t{1} << kItemRowBits) - 1;
  static constexpr uint64_t kItemColMask = (uint64_t{1} << kItemColBits) - 1;
  // (row offset, column or key) -> (key, row offset)
  static uint64_t keyed(uint64_t item) { return ((item & kItemColMask) << kItemRowBits) | (item >> kItemColBits); }
  const RowBuckets& buckets;
  int64_t nrows;
  const RowIndex& rows;
  const SetMap* row_new;  // original row-local id -> graph's, of the rows with entries (null: the same)
  const SetMap* columns;  // original column-local id -> sort key, or unsorted the graph's id (null: the id)
  bool sorted;            // by key, or else in input order
  int key_bits;
  int max_digit_bits;  // kMaxDigitBits, or fewer to test sorts of more passes

  // Adds the time spent making mirrors to mirror_seconds.
  template <class Sink>
  void run(BucketedEntries& kept, SlabMirrors* mirrors, Sink& sink, LocalId* plain_neighbors,
           double& mirror_seconds) const {
    ReleaseBehindFill release(kept);
    std::optional<ReleaseBehindFill> release_mirrors;
    if (mirrors) release_mirrors.emplace(mirrors->entries);
    const int passes = std::max(1, (key_bits + max_digit_bits - 1) / max_digit_bits);
    const int digit_bits = (key_bits + passes - 1) / passes;
    const int threads = omp_get_max_threads();
    sink.start(threads);
    std::vector<Scratch> scratch(threads);
    for (Scratch& sc : scratch) {
      sc.cursor.resize(size_t{1} << buckets.shift);
      sc.digit_count.resize(static_cast<size_t>(passes) << digit_bits);
    }
    const std::vector<int64_t> ends = mirrors ? mirrors->group_ends(kept) : std::vector<int64_t>{kept.buckets()};
    int64_t lo = 0;
    for (const int64_t hi : ends) {
      if (mirrors) {
        const double start = MPI_Wtime();
        mirrors->make(kept, lo, hi);
        mirror_seconds += MPI_Wtime() - start;
      }
#pragma omp parallel for schedule(dynamic, 1)
      for (int64_t local = lo; local < hi; ++local) {
        const int thread = omp_get_thread_num();
        fill_bucket(local, kept, mirrors, scratch[thread], thread, digit_bits, passes, sink, plain_neighbors);
        release.bucket_done(local);
        if (release_mirrors) release_mirrors->bucket_done(local);
      }
      util::release_free_heap();  // the group's freed scratch: glibc would keep it, counted in memory
      lo = hi;
    }
  }

 private:
  // (row offset, column) -> (key, row offset) for items [0, n). The keys are read at random:
  // prefetching ahead over the whole bucket overlaps the misses (better than the compiler's vector
  // gather, which waits for each of them). Kept for the columns in use only, a column's key takes
  // two reads, each prefetched in a pass of its own: the slot among the present columns (into
  // `slots`), then the key.
  void look_up_keys(uint64_t* items, uint64_t* slots, int64_t n) const {
    constexpr int64_t kAhead = 64;
    if (!columns) {
      for (int64_t k = 0; k < n; ++k) items[k] = keyed(items[k]);
      return;
    }
    if (columns->is_whole()) {
      const LocalId* keys = columns->whole_table();
      for (int64_t k = 0; k < n; ++k) {
        if (k + kAhead < n) __builtin_prefetch(keys + (items[k + kAhead] & kItemColMask));
        const uint64_t e = items[k];
        items[k] = keyed((e & ~kItemColMask) | keys[e & kItemColMask]);
      }
      return;
    }
    for (int64_t k = 0; k < n; ++k) {
      if (k + kAhead < n) columns->prefetch(static_cast<LocalId>(items[k + kAhead] & kItemColMask));
      slots[k] = static_cast<uint64_t>(columns->slot(static_cast<LocalId>(items[k] & kItemColMask)));
    }
    const InBlockIdsView stored = columns->values();
    for (int64_t k = 0; k < n; ++k) {
      if (k + kAhead < n) stored.prefetch(static_cast<int64_t>(slots[k + kAhead]));
      const uint64_t e = items[k];
      items[k] = keyed((e & ~kItemColMask) |
                       columns->value_at(static_cast<int64_t>(slots[k]), static_cast<LocalId>(e & kItemColMask)));
    }
  }

  struct Scratch {
    std::vector<int64_t> cursor, digit_count;
    util::RawBuffer<uint64_t> items, spare;
    util::RawBuffer<LocalId> row_keys;
  };

  // A bucket's rows: its kept entries (and mirrors) as items, their keys looked up, radix-sorted by
  // key, dealt to their rows and handed to the sink.
  template <class Sink>
  void fill_bucket(int64_t local, const BucketedEntries& kept, const SlabMirrors* mirrors, Scratch& sc, int thread,
                   int digit_bits, int passes, Sink& sink, LocalId* plain_neighbors) const {
    const int64_t first = buckets.first_row(kept.first_bucket() + local);
    const int64_t nrows_here = std::max<int64_t>(0, std::min<int64_t>(int64_t{1} << buckets.shift, nrows - first));
    if (!sorted) {  // input order, plain rows only (and no mirrors: they have keys)
      fill_in_input_order(local, kept, first, nrows_here, sc.cursor, plain_neighbors);
      return;
    }
    const int64_t n = kept.bucket_size(local) + (mirrors ? mirrors->entries.bucket_size(local) : 0);
    uint64_t* items = sc.items.get(n);
    uint64_t* spare = sc.spare.get(n);
    gather_items(local, kept, mirrors, first, items, spare, n);
    sort_items(items, spare, n, nrows_here, digit_bits, passes, sc);
    deal_rows(items, n, first, nrows_here, sc, thread, sink);
  }

  void fill_in_input_order(int64_t local, const BucketedEntries& kept, int64_t first, int64_t nrows_here,
                           std::vector<int64_t>& cursor, LocalId* plain_neighbors) const {
    for (int64_t r = 0; r < nrows_here; ++r) {  // a row without entries has no new id here, nor needs one
      const LocalId x = static_cast<LocalId>(first + r);
      cursor[r] = !row_new ? rows.begin(x) : row_new->contains(x) ? rows.begin((*row_new)[x]) : 0;
    }
    kept.for_each_segment(local, [&](const Entry* entries, int64_t n) {
      for (int64_t k = 0; k < n; ++k) {
        const LocalId u = entry_col(entries[k]);
        plain_neighbors[cursor[entry_row(entries[k]) - first]++] = columns ? (*columns)[u] : u;
      }
    });
  }

  // The bucket's n entries as (key, row offset) items; `spare` is scratch.
  void gather_items(int64_t local, const BucketedEntries& kept, const SlabMirrors* mirrors, int64_t first,
                    uint64_t* items, uint64_t* spare, int64_t n) const {
    int64_t filled = 0;
    auto gather = [&](const BucketedEntries& from) {  // (row offset, column)
      from.for_each_segment(local, [&](const Entry* entries, int64_t count) {
        for (int64_t k = 0; k < count; ++k)
          items[filled + k] =
              (static_cast<uint64_t>(entry_row(entries[k]) - first) << kItemColBits) | entry_col(entries[k]);
        filled += count;
      });
    };
    gather(kept);
    if (mirrors && !mirrors->keyed()) gather(mirrors->entries);
    const int64_t to_look_up = filled;
    if (mirrors && mirrors->keyed()) {  // (row offset, key) -> (key, row offset)
      const int64_t begin = filled;
      gather(mirrors->entries);
      for (int64_t k = begin; k < n; ++k) items[k] = keyed(items[k]);
    }
    look_up_keys(items, spare, to_look_up);  // the sort's spare items hold the slots until it starts
  }

  // LSD radix sort of the items by key (the result in `items`), and each row's length in sc.cursor.
  // One read of the items counts the digits of every pass and the rows' lengths: the counts do not
  // depend on the order.
  void sort_items(uint64_t*& items, uint64_t*& spare, int64_t n, int64_t nrows_here, int digit_bits, int passes,
                  Scratch& sc) const {
    std::vector<int64_t>& cursor = sc.cursor;
    const uint64_t mask = (uint64_t{1} << digit_bits) - 1;
    const int64_t digits = int64_t{1} << digit_bits;
    std::fill(sc.digit_count.begin(), sc.digit_count.end(), 0);
    std::fill(cursor.begin(), cursor.begin() + nrows_here, 0);
    int64_t* count0 = sc.digit_count.data();
    if (passes == 2) {  // keys of up to 26 bits: SCALE 26 on one process and below
      int64_t* count1 = count0 + digits;
      for (int64_t k = 0; k < n; ++k) {
        ++count0[(items[k] >> kItemRowBits) & mask];
        ++count1[(items[k] >> (kItemRowBits + digit_bits)) & mask];
        ++cursor[items[k] & kItemRowMask];
      }
    } else {
      for (int64_t k = 0; k < n; ++k) {
        for (int p = 0; p < passes; ++p) ++count0[p * digits + ((items[k] >> (kItemRowBits + p * digit_bits)) & mask)];
        ++cursor[items[k] & kItemRowMask];
      }
    }
    for (int p = 0; p < passes; ++p) {
      const int low = kItemRowBits + p * digit_bits;
      int64_t* count = count0 + p * digits;
      int64_t total = 0;
      for (int64_t d = 0; d < digits; ++d) {
        const int64_t here = count[d];
        count[d] = total;
        total += here;
      }
      for (int64_t k = 0; k < n; ++k) spare[count[(items[k] >> low) & mask]++] = items[k];
      std::swap(items, spare);
    }
  }

  // Deals the sorted keys to their rows (a bucket-local CSR from the lengths in sc.cursor), then
  // hands each row to the sink.
  template <class Sink>
  void deal_rows(const uint64_t* items, int64_t n, int64_t first, int64_t nrows_here, Scratch& sc, int thread,
                 Sink& sink) const {
    std::vector<int64_t>& cursor = sc.cursor;
    int64_t total = 0;
    for (int64_t r = 0; r < nrows_here; ++r) {
      const int64_t here = cursor[r];
      cursor[r] = total;
      total += here;
    }
    LocalId* keys = sc.row_keys.get(n);
    for (int64_t k = 0; k < n; ++k)
      keys[cursor[items[k] & kItemRowMask]++] = static_cast<LocalId>(items[k] >> kItemRowBits);
    int64_t begin = 0;  // after dealing, cursor[r] is row r's end
    for (int64_t r = 0; r < nrows_here; ++r) {
      if (cursor[r] > begin) {
        const LocalId x = static_cast<LocalId>(first + r);
        sink.row(thread, row_new ? (*row_new)[x] : x, keys + begin, cursor[r] - begin);
      }
      begin = cursor[r];
    }
    sink.bucket_done(thread);
  }
};

}  // namespace g500::graph::kernel1
