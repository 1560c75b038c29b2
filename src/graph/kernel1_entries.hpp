// Kernel 1's kept entries (graph/build_graph.cpp): a slab's routed entries grouped by buckets of
// rows as each chunk arrives, in as few bytes as a bucket allows, one copy only, and given back to
// the system as the fill finishes their buckets.
#pragma once
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "graph/edge_router.hpp"
#include "graph/row_buckets.hpp"
#include "util/atomic_ref.hpp"
#include "util/bitmap.hpp"
#include "util/large_array.hpp"
#include "util/page_release.hpp"
#include "util/raw_buffer.hpp"

namespace g500::graph::kernel1 {

// A kept entry in as few bytes as its bucket allows: the bucket (kept apart) gives the row's high
// bits, so an entry needs the row's offset in its bucket and the column id, e.g. 11 + 26 bits in
// 5 bytes at SCALE 26 on one process instead of 8.
class CompactEntries {
 public:
  CompactEntries(const RowBuckets& buckets, int64_t ncols)
      : shift_(buckets.shift),
        col_bits_(std::bit_width(static_cast<uint64_t>(std::max<int64_t>(0, ncols - 1)))),  // none: rows only
        width_(compact_entry_bytes(buckets, ncols)) {}
  int width() const { return width_; }

  void put(Entry entry, uint8_t* out) const {
    const uint64_t row_offset = entry_row(entry) & ((uint64_t{1} << shift_) - 1);
    const uint64_t packed = (row_offset << col_bits_) | static_cast<uint64_t>(entry_col(entry));
    switch (width_) {  // fixed sizes: each a plain store
      case 1:
        std::memcpy(out, &packed, 1);
        break;
      case 2:
        std::memcpy(out, &packed, 2);
        break;
      case 3:
        std::memcpy(out, &packed, 3);
        break;
      case 4:
        std::memcpy(out, &packed, 4);
        break;
      case 5:
        std::memcpy(out, &packed, 5);
        break;
      case 6:
        std::memcpy(out, &packed, 6);
        break;
      case 7:
        std::memcpy(out, &packed, 7);
        break;
      default:
        std::memcpy(out, &packed, 8);
        break;
    }
  }
  // Reads 8 bytes: the array is padded at its end.
  Entry get(const uint8_t* in, int64_t first_row) const {
    uint64_t packed;
    std::memcpy(&packed, in, sizeof packed);
    if (width_ < 8) packed &= (uint64_t{1} << (8 * width_)) - 1;
    return make_entry(static_cast<LocalId>(first_row + static_cast<int64_t>(packed >> col_bits_)),
                      static_cast<LocalId>(packed & ((uint64_t{1} << col_bits_) - 1)));
  }

 private:
  int shift_, col_bits_, width_;
};

// One slab's entries, kept with one copy only: each routed chunk's entries of the slab are
// appended already grouped by row bucket (a stable counting sort while the chunk is still in
// cache), so bucket b's entries are one segment per chunk, and reading the segments in chunk
// order gives them in arrival order. Entries of other slabs are skipped, or only counted into
// their rows' lengths during the first pass.
class BucketedEntries {
 public:
  // Beyond `direct_write_buckets` buckets (0: kDirectWriteBuckets) the entries go through groups.
  BucketedEntries(const RowBuckets& buckets, int64_t first_bucket, int64_t end_bucket, int64_t expected_entries,
                  int64_t ncols, int64_t direct_write_buckets)
      : buckets_(buckets), codec_(buckets, ncols), first_(first_bucket), count_(end_bucket - first_bucket),
        direct_write_buckets_(direct_write_buckets > 0 ? direct_write_buckets : kDirectWriteBuckets) {
    // Reserved address space only: pages count in memory once written.
    bytes_.reserve(static_cast<size_t>(std::max<int64_t>(0, expected_entries)) * codec_.width() + kPadding);
    segment_starts_.push_back(0);
  }

  // Appends the chunk's entries of this slab; with `other_lengths`, counts every other entry there
  // (indexed by row), the flagged mirrors (graph/edge_router.hpp) among them; with `columns`, marks
  // every entry's column.
  void append_chunk(const Entry* in, int64_t n, int64_t* other_lengths, util::Bitmap* columns = nullptr) {
    append_chunk_picked(in, n, other_lengths, columns, [](Entry e) { return e; });
  }
  // Appends pick(e) of the chunk's entries e, those in this slab's buckets (kNotPicked never is).
  template <class Pick>
  void append_chunk_picked(const Entry* in, int64_t n, int64_t* other_lengths, util::Bitmap* columns, Pick pick) {
    const int T = omp_get_max_threads();
    append(
        T,
        [&](int t) {
          return std::pair{in + n * t / T, in + n * (t + 1) / T};
        },
        other_lengths, columns, pick);
  }
  // Appends entries made by the threads, thread t's in parts[t] (one per thread).
  void append_per_thread(const std::vector<util::LargeArray<Entry>>& parts) {
    append(
        static_cast<int>(parts.size()),
        [&](int t) {
          return std::pair{parts[t].data(), parts[t].data() + parts[t].size()};
        },
        nullptr, nullptr, [](Entry e) { return e; });
  }
  // An entry no slab's buckets hold: its row is in the last bucket of the row ids, which no row
  // set reaches where it is used (graph/row_lengths.hpp).
  static constexpr Entry kNotPicked = ~Entry{0};

  // Calls f(entries, count) with bucket b's entries (b counted from the slab's first) in chunk
  // order, a batch at a time.
  template <class F>
  void for_each_segment(int64_t b, F f) const {
    constexpr int64_t kBatch = 256;
    Entry batch[kBatch];
    const int width = codec_.width();
    const int64_t first_row = buckets_.first_row(first_ + b);
    for (int64_t c = 0; c < chunks_; ++c) {
      const int64_t* starts = &segment_starts_[static_cast<size_t>(c) * count_];
      for (int64_t k = starts[b]; k < starts[b + 1]; k += kBatch) {
        const int64_t n = std::min(kBatch, starts[b + 1] - k);
        const uint8_t* in = bytes_.data() + k * width;
        for (int64_t i = 0; i < n; ++i) batch[i] = codec_.get(in + i * width, first_row);
        f(batch, n);
      }
    }
  }
  int64_t bucket_size(int64_t b) const {
    int64_t n = 0;
    for (int64_t c = 0; c < chunks_; ++c) {
      const int64_t* starts = &segment_starts_[static_cast<size_t>(c) * count_];
      n += starts[b + 1] - starts[b];
    }
    return n;
  }
  // Frees what appending needs once the last chunk is in.
  void appended_all() { staged_.release(); }
  int64_t first_bucket() const { return first_; }
  int64_t buckets() const { return count_; }
  int64_t entries() const { return entries_; }

  // Gives the memory of buckets [0, b) back to the system: in every chunk, its segments of them
  // (from the chunk's start to its bucket b) are read and not read again. Pages shared with
  // entries still to be read (the chunk's bucket b, the previous chunk's last buckets) stay.
  void release_below(int64_t b) {
    const int width = codec_.width();
    for (int64_t c = static_cast<int64_t>(released_.size()); c < chunks_; ++c)  // chunks appended since
      released_.push_back(chunk_segment_start(c, 0) * width);
    for (int64_t c = 0; c < chunks_; ++c) {
      const int64_t end = chunk_segment_start(c, b) * width;
      int64_t& from = released_[static_cast<size_t>(c)];
      if (end > from) util::release_pages(bytes_.data() + from, static_cast<size_t>(end - from));
      from = std::max(from, end);
    }
  }

 private:
  // Thread t of T appends the entries [slice(t).first, slice(t).second). A counting
  // sort by bucket: the threads count, then write. Tens of thousands of buckets would be as many
  // write streams, far more cache lines than a core keeps, and nearly every write would miss: so
  // with many buckets the entries are first dealt to groups of buckets (a few hundred streams),
  // then each group to its buckets (a few hundred more), two passes that stay in cache (a radix
  // partition in two digits).
  // One function of about 90 lines on purpose: one OpenMP parallel region per chunk whose threads
  // count, meet at a barrier while one of them lays out the buckets, then write, each keeping its
  // slice and its counters from the first half to the second; split into functions, the parts
  // would share a dozen locals or fork the threads twice per chunk.
  template <class Slice, class Pick>
  void append(int T, Slice slice, int64_t* other_lengths, util::Bitmap* columns, Pick pick) {
    const int64_t nb = count_;
    const int width = codec_.width();
    const uint64_t first = static_cast<uint64_t>(first_), span = static_cast<uint64_t>(nb);
    const int group_shift = nb > direct_write_buckets_ ? (std::bit_width(static_cast<uint64_t>(nb - 1)) + 1) / 2 : 64;
    const int64_t groups = group_shift < 64 ? ((nb - 1) >> group_shift) + 1 : 1;
    // Counted in 32 bits (a thread's slice of a chunk is far below 2^32 entries): the counting
    // pass increments at random among the buckets, and half the bytes keep more of them in cache
    // (65,536 buckets at SCALE 26 on one process: 256 KiB per thread instead of 512).
    for (int t = 0; t < T; ++t)
      if (slice(t).second - slice(t).first > int64_t{UINT32_MAX})
        throw std::length_error("kernel 1: more than 2^32 entries of one chunk for one thread");
    counts_.assign(static_cast<size_t>(T) * nb, 0);  // [thread][bucket]
    next_.resize(static_cast<size_t>(T) * nb);       // [thread][bucket]: where its next entry goes
    // Thread t's kept entries are staged in [region[t], region[t + 1]), group g's from group_next[t][g].
    std::vector<int64_t> region(T + 1, 0), group_next(static_cast<size_t>(T) * groups);
    Entry* staged = nullptr;
    const size_t starts_at = segment_starts_.size() - 1;  // the previous chunk's end: this chunk's start
    segment_starts_.resize(starts_at + nb + 1);
    int64_t* starts = &segment_starts_[starts_at];
    int64_t total = entries_;
#pragma omp parallel num_threads(T)
    {
      const int t = omp_get_thread_num();
      const auto [lo, hi] = slice(t);
      uint32_t* my_counts = &counts_[static_cast<size_t>(t) * nb];
      int64_t* mine = &next_[static_cast<size_t>(t) * nb];
      // Other slabs' rows are counted at random places: prefetching a few entries ahead keeps
      // several of those misses in flight.
      constexpr int64_t kAhead = 32;
      for (const Entry* in = lo; in < hi; ++in) {
        if (other_lengths && in + kAhead < hi) __builtin_prefetch(other_lengths + entry_row_unflagged(in[kAhead]), 1);
        // Wraps when below the slab; beyond it with kMirrorFlag (the row ids are below half their range).
        const Entry e = pick(*in);
        const uint64_t b = static_cast<uint64_t>(buckets_.of(e)) - first;
        if (b < span)
          ++my_counts[b];
        else if (other_lengths)
          util::AtomicRef<int64_t>(other_lengths[entry_row_unflagged(e)]).fetch_add(1, std::memory_order_relaxed);
        // Most entries' columns are marked already (the hubs recur): a plain read first.
        if (columns && !columns->test(entry_col(e))) columns->set_atomic(entry_col(e));
      }
      int64_t* my_groups = &group_next[static_cast<size_t>(t) * groups];
      if (groups > 1) {  // where each group's entries go in this thread's region, from its start
        int64_t at = 0;
        for (int64_t g = 0; g < groups; ++g) {
          my_groups[g] = at;
          for (int64_t b = g << group_shift; b < std::min(nb, (g + 1) << group_shift); ++b) at += my_counts[b];
        }
        region[t + 1] = at;
      }
#pragma omp barrier
#pragma omp single
      {
        for (int64_t b = 0; b < nb; ++b) {
          starts[b] = total;
          for (int s = 0; s < T; ++s) {
            const size_t at = static_cast<size_t>(s) * nb + b;
            next_[at] = total;
            total += counts_[at];
          }
        }
        starts[nb] = total;
        bytes_.resize(static_cast<size_t>(total) * width + kPadding);  // uninitialised
        entries_ = total;
        if (groups > 1) {
          for (int s = 0; s < T; ++s) region[s + 1] += region[s];
          staged = staged_.get(static_cast<size_t>(std::max<int64_t>(1, region[T])));
        }
      }
      if (groups > 1)
        for (int64_t g = 0; g < groups; ++g) my_groups[g] += region[t];
      uint8_t* out = bytes_.data();
      if (groups == 1) {
        for (const Entry* in = lo; in < hi; ++in) {
          const Entry e = pick(*in);
          const uint64_t b = static_cast<uint64_t>(buckets_.of(e)) - first;
          if (b < span) codec_.put(e, out + mine[b]++ * width);
        }
      } else {
        for (const Entry* in = lo; in < hi; ++in) {
          const Entry e = pick(*in);
          const uint64_t b = static_cast<uint64_t>(buckets_.of(e)) - first;
          if (b < span) staged[my_groups[b >> group_shift]++] = e;
        }
        for (int64_t k = region[t]; k < my_groups[groups - 1]; ++k) {  // the groups' ends now
          const uint64_t b = static_cast<uint64_t>(buckets_.of(staged[k])) - first;
          codec_.put(staged[k], out + mine[b]++ * width);
        }
      }
    }
    ++chunks_;
  }
  static constexpr size_t kPadding = sizeof(uint64_t);  // get() reads 8 bytes
  // Up to 512 write streams, 32 KiB of cache lines: a core's L1 keeps them.
  static constexpr int64_t kDirectWriteBuckets = 512;
  util::RawBuffer<Entry> staged_;  // a chunk's entries dealt to groups of buckets
  const RowBuckets& buckets_;
  CompactEntries codec_;
  int64_t first_, count_;
  int64_t direct_write_buckets_;
  util::LargeArray<uint8_t> bytes_;
  int64_t entries_ = 0;
  // Chunk c's bucket b begins at [c * count_ + b] and ends at [c * count_ + b + 1]: a chunk's end
  // is the next chunk's start.
  std::vector<int64_t> segment_starts_;
  std::vector<uint32_t> counts_;
  std::vector<int64_t> next_;
  int64_t chunks_ = 0;
  std::vector<int64_t> released_;  // per chunk: where its bytes given back end
  int64_t chunk_segment_start(int64_t c, int64_t b) const {
    return segment_starts_[static_cast<size_t>(c) * count_ + b];
  }
};

// Releases a slab's kept entries as the fill finishes their buckets (in any order): once every
// bucket below some b is done, [0, b) goes back to the system, every step_ buckets (a
// kReleasesPerSlab-th of the slab), so the slab's entries and the rows they become do not count
// in memory at once. Few, large releases: each one walks every chunk's segments and makes a
// madvise call per chunk, which interrupts the other cores to flush their TLBs.
class ReleaseBehindFill {
 public:
  explicit ReleaseBehindFill(BucketedEntries& kept)
      : kept_(kept), done_(static_cast<size_t>(kept.buckets())),
        step_(std::max<int64_t>(1, kept.buckets() / kReleasesPerSlab)) {}

  void bucket_done(int64_t b) {
    done_[static_cast<size_t>(b)].store(true, std::memory_order_release);
    if (!lock_.try_lock()) return;  // another thread advances the mark
    int64_t mark = mark_;
    while (mark < kept_.buckets() && done_[static_cast<size_t>(mark)].load(std::memory_order_acquire)) ++mark;
    mark_ = mark;
    if (mark - released_ >= step_ || mark == kept_.buckets()) {
      kept_.release_below(mark);
      released_ = mark;
    }
    lock_.unlock();
  }

 private:
  static constexpr int64_t kReleasesPerSlab = 64;  // holds at most 1/64 of the slab's entries more
  BucketedEntries& kept_;
  std::vector<std::atomic<bool>> done_;
  int64_t step_;
  std::mutex lock_;
  int64_t mark_ = 0, released_ = 0;
};

}  // namespace g500::graph::kernel1
