// Kernel 1: distributed graph construction (Nakao et al. 2021: the data layout of section 3.2,
// Yoo's distribution of section 4.3).
//
// N, the number of vertices, is not given: a first read of every rank's share of the edge list
// finds the largest vertex id (graph/vertex_count.hpp), and the distribution is made from it.
//
// Every rank reads its share of the edge list in chunks and routes each edge {a, b} (self-loops
// dropped) as two directed entries: (v=a, u=b) to P(row(a), col(b)) and (v=b, u=a) to
// P(row(b), col(a)) (graph/edge_router.hpp). The edge list is never held whole. The receivers keep
// the entries of a slab of their rows, grouped by buckets of consecutive rows as each chunk
// arrives; pass 1 also counts the rows of the other slabs. The rows are then renumbered
// (`reorder`, Nakao et al. 2021, section 4.2) and filled bucket by bucket, each bucket sorted in
// cache so every row comes out in descending-degree order (`degree-sort`), into plain 32-bit
// neighbours or packed gaps (`compress`, graph/packed_rows.hpp); each further slab is one more
// pass over the input (the generator is random-access). One slab when the entries fit, so the
// edges are generated once; the number of slabs trades passes for memory. No access per entry
// lands at a random place of a whole-graph array except the lookup of the neighbour's sort key.
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <vector>

#include "comm/large_count.hpp"
#include "graph/column_blocks.hpp"
#include "graph/column_originals.hpp"
#include "graph/edge_router.hpp"
#include "graph/local_graph.hpp"
#include "graph/memory_plan.hpp"
#include "graph/owned_degrees.hpp"
#include "graph/packed_rows.hpp"
#include "graph/row_buckets.hpp"
#include "graph/set_map.hpp"
#include "graph/vertex_count.hpp"
#include "util/fast_divisor.hpp"
#include "util/huge_pages.hpp"
#include "util/large_array.hpp"
#include "util/line_scatter.hpp"
#include "util/memory.hpp"
#include "util/page_release.hpp"
#include "util/raw_buffer.hpp"

namespace g500 {
namespace {

// The sort keys of the columns with `degree-sort` (graph/column_keys.hpp): with `reorder` the
// renumbered blocks interleaved, from the ids alone; without it the order of the column set's
// degrees, gathered along the grid column (and over the world with the row-major layout).
ColumnKeys neighbor_order(const LocalGraph& g, const ProcessGrid& grid, const GraphOptions& options) {
  const Distribution& d = g.dist;
  if (options.reorder) return ColumnKeys::interleaved(d.R, d.block);
  std::vector<int64_t> column_degree(d.col_set_size());
  std::vector<int64_t> hosted(d.columns_aligned() ? 0 : d.block);
  comm::allgather(hosted_column_block(g.owned_degree.data(), hosted.data(), d.block, MPI_INT64_T, d, grid),
                  column_degree.data(), d.block, MPI_INT64_T, grid.col_comm(), grid.limits());
  return ColumnKeys::tabled(degree_order(column_degree));  // stable: ties keep ascending ids
}

// The fill's value of every column (original column-local id): sorted, its key; unsorted, its id
// in the graph; none where that is the original id. With `reorder` the renumbered ids come from
// the columns' owners a block at a time, kept on a grid of several rows for the columns pass 1 met
// only (graph/set_map.hpp); on a grid of one row the column set is the owned block, whose map
// is the renumbering's own. Without it, the degree order's keys, a table of the column set (the
// `--disable reorder` ablation).
std::optional<SetMap> fill_column_values(const LocalGraph& g, const ProcessGrid& grid, const GraphOptions& options,
                                         const ColumnKeys& order, const Bitmap& columns_met) {
  const Distribution& d = g.dist;
  if (options.reorder) {
    if (d.R == 1) return SetMap::whole(g.renumbering.owned_new);  // the keys are the ids with R = 1
    const int64_t B = d.block;
    const bool keyed = options.degree_sort;
    auto value = [&](int position, LocalId offset) {
      const LocalId column = static_cast<LocalId>(position * B + offset);
      return keyed ? order.key(column) : column;
    };
    return SetMap::from_blocks(columns_met, g.renumbering.owned_new.data(), VertexSet::kColumns, d, grid, value);
  }
  if (!options.degree_sort) return std::nullopt;
  LargeArray<LocalId> keys;
  resize_huge_unwritten(keys, static_cast<size_t>(d.col_set_size()));  // read at random
#pragma omp parallel for schedule(static)
  for (int64_t u = 0; u < d.col_set_size(); ++u) keys[u] = order.key(static_cast<LocalId>(u));
  return SetMap::whole(IdTable(std::move(keys)));
}

// Slabs: runs of whole row buckets whose entries are kept and filled together. Pass s over the
// input keeps slab s's entries only, so the kept entries of one slab, not of the whole block, are
// in memory at a time; one slab is the whole block when it fits.
struct RowSlabs {
  int64_t count = 1;
  int64_t buckets_per_slab = 0;
  int64_t total_buckets = 0;

  RowSlabs(const RowBuckets& buckets, int64_t slabs)
      : count(std::max<int64_t>(1, slabs)),
        buckets_per_slab((buckets.count + count - 1) / count),
        total_buckets(buckets.count) {}
  int64_t first_bucket(int64_t s) const { return std::min(total_buckets, s * buckets_per_slab); }
  int64_t end_bucket(int64_t s) const { return std::min(total_buckets, (s + 1) * buckets_per_slab); }
};

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

  void put(uint64_t entry, uint8_t* out) const {
    const uint64_t row_offset = entry_row(entry) & ((uint64_t{1} << shift_) - 1);
    const uint64_t packed = (row_offset << col_bits_) | static_cast<LocalId>(entry);
    switch (width_) {  // fixed sizes: each a plain store
      case 1: std::memcpy(out, &packed, 1); break;
      case 2: std::memcpy(out, &packed, 2); break;
      case 3: std::memcpy(out, &packed, 3); break;
      case 4: std::memcpy(out, &packed, 4); break;
      case 5: std::memcpy(out, &packed, 5); break;
      case 6: std::memcpy(out, &packed, 6); break;
      case 7: std::memcpy(out, &packed, 7); break;
      default: std::memcpy(out, &packed, 8); break;
    }
  }
  // Reads 8 bytes: the array is padded at its end.
  uint64_t get(const uint8_t* in, int64_t first_row) const {
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
      : buckets_(buckets),
        codec_(buckets, ncols),
        first_(first_bucket),
        count_(end_bucket - first_bucket),
        direct_write_buckets_(direct_write_buckets > 0 ? direct_write_buckets : kDirectWriteBuckets) {
    // Reserved address space only: pages count in memory once written.
    bytes_.reserve(static_cast<size_t>(std::max<int64_t>(0, expected_entries)) * codec_.width() + kPadding);
    segment_starts_.push_back(0);
  }

  // Appends the chunk's entries of this slab; with `other_lengths`, counts every other entry there
  // (indexed by row), the flagged mirrors (graph/edge_router.hpp) among them; with `columns`, marks
  // every entry's column.
  void append_chunk(const uint64_t* in, int64_t n, int64_t* other_lengths, Bitmap* columns = nullptr) {
    append_chunk_picked(in, n, other_lengths, columns, [](uint64_t e) { return e; });
  }
  // Appends pick(e) of the chunk's entries e, those in this slab's buckets (kNotPicked never is).
  template <class Pick>
  void append_chunk_picked(const uint64_t* in, int64_t n, int64_t* other_lengths, Bitmap* columns, Pick pick) {
    const int T = omp_get_max_threads();
    append(T, [&](int t) { return std::pair{in + n * t / T, in + n * (t + 1) / T}; }, other_lengths, columns, pick);
  }
  // Appends entries made by the threads, thread t's in parts[t] (one per thread).
  void append_per_thread(const std::vector<LargeArray<uint64_t>>& parts) {
    append(static_cast<int>(parts.size()), [&](int t) { return std::pair{parts[t].data(), parts[t].data() + parts[t].size()}; },
           nullptr, nullptr, [](uint64_t e) { return e; });
  }
  // An entry no slab's buckets hold: its row is in the last bucket of 32-bit row ids, which no
  // row set reaches where it is used (graph/row_lengths.hpp).
  static constexpr uint64_t kNotPicked = ~uint64_t{0};

  // Calls f(entries, count) with bucket b's entries (b counted from the slab's first) in chunk
  // order, a batch at a time.
  template <class F>
  void for_each_segment(int64_t b, F f) const {
    constexpr int64_t kBatch = 256;
    uint64_t batch[kBatch];
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
      if (end > from) release_pages(bytes_.data() + from, static_cast<size_t>(end - from));
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
  template <class Slice, class Pick>
  void append(int T, Slice slice, int64_t* other_lengths, Bitmap* columns, Pick pick) {
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
    uint64_t* staged = nullptr;
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
      for (const uint64_t* in = lo; in < hi; ++in) {
        if (other_lengths && in + kAhead < hi) __builtin_prefetch(other_lengths + entry_row_unflagged(in[kAhead]), 1);
        // Wraps when below the slab; beyond it with kMirrorFlag (the row ids are below 2^31).
        const uint64_t e = pick(*in);
        const uint64_t b = static_cast<uint64_t>(buckets_.of(e)) - first;
        if (b < span)
          ++my_counts[b];
        else if (other_lengths)
          std::atomic_ref<int64_t>(other_lengths[entry_row_unflagged(e)]).fetch_add(1, std::memory_order_relaxed);
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
        for (const uint64_t* in = lo; in < hi; ++in) {
          const uint64_t e = pick(*in);
          const uint64_t b = static_cast<uint64_t>(buckets_.of(e)) - first;
          if (b < span) codec_.put(e, out + mine[b]++ * width);
        }
      } else {
        for (const uint64_t* in = lo; in < hi; ++in) {
          const uint64_t e = pick(*in);
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
  RawBuffer<uint64_t> staged_;  // a chunk's entries dealt to groups of buckets
  const RowBuckets& buckets_;
  CompactEntries codec_;
  int64_t first_, count_;
  int64_t direct_write_buckets_;
  LargeArray<uint8_t> bytes_;
  int64_t entries_ = 0;
  // Chunk c's bucket b begins at [c * count_ + b] and ends at [c * count_ + b + 1]: a chunk's end
  // is the next chunk's start.
  std::vector<int64_t> segment_starts_;
  std::vector<uint32_t> counts_;
  std::vector<int64_t> next_;
  int64_t chunks_ = 0;
  std::vector<int64_t> released_;  // per chunk: where its bytes given back end
  int64_t chunk_segment_start(int64_t c, int64_t b) const { return segment_starts_[static_cast<size_t>(c) * count_ + b]; }
};

// Releases a slab's kept entries as the fill finishes their buckets (in any order): once every
// bucket below some b is done, [0, b) goes back to the system, every step_ buckets (a
// kReleasesPerSlab-th of the slab), so the slab's entries and the rows they become do not count
// in memory at once. Few, large releases: each one walks every chunk's segments and makes a
// madvise call per chunk, which interrupts the other cores to flush their TLBs.
class ReleaseBehindFill {
 public:
  explicit ReleaseBehindFill(BucketedEntries& kept)
      : kept_(kept), done_(static_cast<size_t>(kept.buckets())), step_(std::max<int64_t>(1, kept.buckets() / kReleasesPerSlab)) {}

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

// Row lengths (original row ids) of the slab's entries; each bucket's rows are its own.
void count_rows(const BucketedEntries& kept, int64_t* lengths) {
#pragma omp parallel for schedule(dynamic, 8)
  for (int64_t b = 0; b < kept.buckets(); ++b)
    kept.for_each_segment(b, [&](const uint64_t* entries, int64_t n) {
      for (int64_t k = 0; k < n; ++k) ++lengths[entry_row(entries[k])];
    });
}

// count_rows on one process, where pass 1 did not route the mirrors of the slab's kept entries:
// their rows, the kept entries' columns that fall in the slab's rows [first, first + span), are
// counted too. Those columns spread over the whole row array, where an increment per entry would
// miss the cache nearly every time (about 7 ns an entry at SCALE 26). Instead a radix partition,
// a block of buckets at a time: while its entries' rows are counted, their columns are dealt to
// ranges of rows (into chunks of a shared pool, a list of chunks per thread and range), and then
// each range, whose counters stay in cache, is counted by one thread.
class RowAndMirrorCount {
 public:
  RowAndMirrorCount(int64_t first, int64_t span)
      : first_(static_cast<uint64_t>(first)),
        span_(static_cast<uint64_t>(std::max<int64_t>(0, span))),  // none: only the rows are counted
        shift_(std::max(0, static_cast<int>(std::bit_width(std::max<uint64_t>(1, span_) - 1)) - kRangeBits)),
        ranges_(static_cast<int64_t>(((std::max<uint64_t>(1, span_) - 1) >> shift_) + 1)) {}

  void count(const BucketedEntries& kept, int64_t* lengths) {
    const int threads = omp_get_max_threads();
    std::vector<int64_t> sizes(kept.buckets());
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < kept.buckets(); ++b) sizes[b] = kept.bucket_size(b);
    // Blocks of whole buckets of about block_target entries, 4 bytes each once dealt: at most an
    // eighth of the kept entries' 5 bytes or more.
    const int64_t block_target = mirror_count_block(kept.entries());
    std::vector<int64_t> block_first{0};
    int64_t largest = 0;
    for (int64_t b = 0, in_block = 0; b < kept.buckets(); ++b) {
      if (in_block > 0 && in_block + sizes[b] > block_target) {
        block_first.push_back(b);
        in_block = 0;
      }
      in_block += sizes[b];
      largest = std::max(largest, in_block);
    }
    block_first.push_back(kept.buckets());
    // Every chunk of a block is full but the last one per thread and range.
    const int64_t pool_chunks = mirror_count_chunks(largest, threads);
    RawBuffer<uint32_t> pool_memory;  // line-aligned
    uint32_t* pool = pool_memory.get(static_cast<size_t>(pool_chunks * kChunk));
    std::vector<uint32_t> chunk_fill(static_cast<size_t>(pool_chunks));
    std::vector<std::vector<int64_t>> lists(static_cast<size_t>(threads * ranges_));  // [thread][range]: its chunks
    for (size_t block = 0; block + 1 < block_first.size(); ++block) {
      for (auto& list : lists) list.clear();
      std::atomic<int64_t> next_chunk{0};
#pragma omp parallel num_threads(threads)
      {
        const int t = omp_get_thread_num();
        std::vector<int64_t>* my_lists = &lists[static_cast<size_t>(t * ranges_)];
        std::vector<int64_t> open(ranges_);  // per range: the chunk being filled
        LineScatter<uint32_t> dealt(pool, ranges_);
        for (int64_t r = 0; r < ranges_; ++r) {
          open[r] = next_chunk.fetch_add(1, std::memory_order_relaxed);
          dealt.start(r, open[r] * kChunk);
        }
#pragma omp for schedule(dynamic, 8)
        for (int64_t b = block_first[block]; b < block_first[block + 1]; ++b)
          kept.for_each_segment(b, [&](const uint64_t* entries, int64_t n) {
            for (int64_t k = 0; k < n; ++k) {
              ++lengths[entry_row(entries[k])];
              const uint64_t u = static_cast<uint64_t>(entry_col(entries[k])) - first_;
              if (u >= span_) continue;
              const int64_t r = static_cast<int64_t>(u >> shift_);
              dealt.put(r, static_cast<uint32_t>(u));
              if (dealt.position(r) < (open[r] + 1) * kChunk) continue;
              chunk_fill[static_cast<size_t>(open[r])] = kChunk;
              my_lists[r].push_back(open[r]);
              open[r] = next_chunk.fetch_add(1, std::memory_order_relaxed);
              dealt.start(r, open[r] * kChunk);
            }
          });
        dealt.finish();
        for (int64_t r = 0; r < ranges_; ++r) {  // the partly filled chunks
          chunk_fill[static_cast<size_t>(open[r])] = static_cast<uint32_t>(dealt.position(r) - open[r] * kChunk);
          my_lists[r].push_back(open[r]);
        }
#pragma omp barrier
#pragma omp for schedule(dynamic, 1)
        for (int64_t r = 0; r < ranges_; ++r) {
          int64_t* counts = lengths + first_;
          for (int s = 0; s < threads; ++s)
            for (const int64_t chunk : lists[static_cast<size_t>(s * ranges_ + r)]) {
              const uint32_t* in = pool + chunk * kChunk;
              for (uint32_t k = 0; k < chunk_fill[static_cast<size_t>(chunk)]; ++k) ++counts[in[k]];
            }
        }
      }
    }
  }

 private:
  static constexpr int kRangeBits = kMirrorCountRangeBits;
  static constexpr int64_t kChunk = kMirrorCountChunk;  // whole cache lines
  uint64_t first_, span_;
  int shift_;
  int64_t ranges_;
};

// The mirror entries of one slab. An edge whose two rows are both in the slab was routed once,
// at its lower row (Router::mirror_rows), which halves the entries kept at a time; its other
// entry, the mirror, is made here from the kept one and routed to its process (every process,
// one grid: kept here, with the sort key of its column already in place of the column, looked up
// among the kept bucket's own rows instead of at random). The fill makes the mirrors of a group of
// buckets just before it fills that group: an edge is kept at the lower of its rows, so its
// mirror belongs to the same group or a later one, and at any time an edge is held once, as its
// kept entry, its mirror, or its filled rows. The groups hold about as many kept entries each (a
// group's mirrors need buffers that stay as large as the largest group's): equal runs of buckets
// would not, since the lower rows keep more of their edges and hub rows more entries (the largest
// group of 2-4 times the average at SCALE 20-24).
class SlabMirrors {
 public:
  // `expected`: the entries a rank expects in the slab (the same on every rank).
  SlabMirrors(const RowBuckets& buckets, int64_t first_bucket, int64_t end_bucket, int64_t expected, int64_t reserve,
              const Distribution& d, const ProcessGrid& grid, Router& router, const LocalId* key_of_column,
              int64_t direct_write_buckets, int64_t mirrors_per_group)
      : entries(buckets, first_bucket, end_bucket, reserve, d.col_set_size(), direct_write_buckets),
        groups(mirror_groups(end_bucket - first_bucket, expected, mirrors_per_group > 0 ? mirrors_per_group : kMirrorsPerGroup)),
        d_(d),
        grid_(grid),
        router_(router),
        one_process_(grid.size() == 1),
        keys_(key_of_column),
        slab_first_(static_cast<uint64_t>(buckets.first_row(first_bucket))),
        slab_span_(static_cast<uint64_t>(std::min(buckets.first_row(end_bucket), d.row_set_size())) - slab_first_) {}

  BucketedEntries entries;
  const int64_t groups;  // of buckets, each group's mirrors made before it is filled
  // Whether the mirrors' columns are already sort keys.
  bool keyed() const { return one_process_; }

  // Collective: where each group of kept buckets ends (counted from the slab's first), cut where
  // the kept entries of all ranks together reach each multiple of their total over `groups`. The
  // same ends on every rank, so a mirror never arrives after the group of its row was filled.
  std::vector<int64_t> group_ends(const BucketedEntries& kept) const {
    const int64_t nb = kept.buckets();
    std::vector<int64_t> sizes(static_cast<size_t>(nb));
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < nb; ++b) sizes[b] = kept.bucket_size(b);
    if (!one_process_) comm::allreduce(MPI_IN_PLACE, sizes.data(), nb, MPI_INT64_T, MPI_SUM, grid_.world(), grid_.limits());
    const int64_t total = std::accumulate(sizes.begin(), sizes.end(), int64_t{0});
    std::vector<int64_t> ends;
    int64_t below = 0;  // kept entries of the buckets before b
    for (int64_t b = 0; b < nb; ++b) {
      below += sizes[b];
      const int64_t group = static_cast<int64_t>(ends.size());
      if (total > 0 && group + 1 < groups && below * groups >= total * (group + 1)) ends.push_back(b + 1);
    }
    if (ends.empty() || ends.back() < nb) ends.push_back(nb);  // one group even for no buckets: make() is collective
    return ends;
  }

  // Collective: makes the mirrors of the kept entries of buckets [lo, hi) (counted from the slab's
  // first) and appends those this process stores.
  void make(const BucketedEntries& kept, int64_t lo, int64_t hi) {
    if (one_process_) {  // the mirrors stay here, (row, key of the column), appended as made
      make_per_thread(kept, lo, hi, made_entries_, [&](int64_t u, int64_t v) {  // the local ids are the vertex ids
        return make_entry(static_cast<LocalId>(u), keys_ ? keys_[v] : static_cast<LocalId>(v));
      });
      entries.append_per_thread(made_entries_);
      return;
    }
    make_per_thread(kept, lo, hi, made_edges_, [](int64_t u, int64_t v) { return gen::Edge{u, v}; });
    int64_t n = 0;
    const gen::Edge* edges = concatenate(made_edges_, edges_, n);
    int64_t rounds = (n + kChunkEdges - 1) / kChunkEdges;
    MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT64_T, MPI_MAX, grid_.world());
    for (int64_t r = 0; r < rounds; ++r) {
      const int64_t first = std::min(n, r * kChunkEdges), count = std::min(n - first, kChunkEdges);
      int64_t received = 0;
      const uint64_t* routed = router_.route_directed(edges + first, count, received);
      entries.append_chunk(routed, received, nullptr);
    }
  }

 private:
  // mirror(u, v) for every kept entry (v, u) of buckets [lo, hi) whose mirror row u is in the
  // slab (global ids), thread t's in made[t].
  template <class T, class F>
  void make_per_thread(const BucketedEntries& kept, int64_t lo, int64_t hi, std::vector<LargeArray<T>>& made, F mirror) {
    made.resize(omp_get_max_threads());
    for (auto& m : made) m.clear();  // keeps the capacity for the next group
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t b = lo; b < hi; ++b) {
      LargeArray<T>& mine = made[omp_get_thread_num()];
      kept.for_each_segment(b, [&](const uint64_t* in, int64_t n) {
        // Room for the whole batch (not zeroed), written through a pointer: push_back would
        // reload the array's end after every store.
        const size_t at = mine.size();
        mine.resize(at + static_cast<size_t>(n));
        T* out = mine.data() + at;
        if (one_process_) {
          for (int64_t k = 0; k < n; ++k)
            if (static_cast<uint64_t>(entry_col(in[k])) - slab_first_ < slab_span_) *out++ = mirror(entry_col(in[k]), entry_row(in[k]));
        } else {
          for (int64_t k = 0; k < n; ++k) {
            const int64_t u = d_.global_from_col_local(entry_col(in[k]), d_.col);
            if (static_cast<uint64_t>(d_.row_local(u)) - slab_first_ < slab_span_)
              *out++ = mirror(u, d_.global_from_row_local(entry_row(in[k]), d_.row));
          }
        }
        mine.resize(static_cast<size_t>(out - mine.data()));
      });
    }
  }
  // The threads' parts together in `out`: returns them and sets n to how many.
  template <class T>
  static const T* concatenate(const std::vector<LargeArray<T>>& made, RawBuffer<T>& out, int64_t& n) {
    const int threads = static_cast<int>(made.size());
    std::vector<int64_t> starts(threads + 1, 0);
    for (int t = 0; t < threads; ++t) starts[t + 1] = starts[t] + static_cast<int64_t>(made[t].size());
    T* all = out.get(static_cast<size_t>(std::max<int64_t>(1, starts[threads])));
#pragma omp parallel for schedule(static, 1)
    for (int t = 0; t < threads; ++t) std::copy(made[t].begin(), made[t].end(), all + starts[t]);
    n = starts[threads];
    return all;
  }

  const Distribution& d_;
  const ProcessGrid& grid_;
  Router& router_;
  bool one_process_;     // row-local and column-local ids are the vertex ids
  const LocalId* keys_;  // one process: original column-local id -> sort key (null: the id)
  uint64_t slab_first_, slab_span_;
  std::vector<LargeArray<uint64_t>> made_entries_;
  std::vector<LargeArray<gen::Edge>> made_edges_;
  RawBuffer<gen::Edge> edges_;
};

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
  std::vector<LocalId>& first_neighbors;
  std::atomic<int64_t>& stream_end;
  struct Pending {
    std::vector<uint8_t> bytes;
    std::vector<std::pair<int64_t, int64_t>> offsets;  // (row slot, offset in bytes)
  };
  std::vector<Pending> pending;

  void start(int threads) { pending.resize(threads); }
  void row(int thread, int64_t v, const LocalId* keys, int64_t n) {
    const int64_t slot = rows.compressed() ? rows.rank(v) : v;
    first_neighbors[slot] = packed.column(keys[0]);
    if (PackedRows::is_short(n)) {
      LocalId* ids = packed.short_row(slot);
      for (int64_t i = 1; i < n; ++i) ids[i - 1] = packed.column(keys[i]);
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
    for (const auto& [slot, offset] : p.offsets) packed.long_offset[packed.packed_index(slot)] = static_cast<uint64_t>(base + offset);
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
  const RowBuckets& buckets;
  int64_t nrows;
  const RowIndex& rows;
  const SetMap* row_new;     // original row-local id -> graph's, of the rows with entries (null: the same)
  const SetMap* columns;  // original column-local id -> sort key, or unsorted the graph's id (null: the id)
  bool sorted;               // by key, or else in input order
  int key_bits;
  int max_digit_bits;  // kMaxDigitBits, or fewer to test sorts of more passes

  // Adds the time spent making mirrors to mirror_seconds.
  template <class Sink>
  void run(BucketedEntries& kept, SlabMirrors* mirrors, Sink& sink, LocalId* plain_neighbors, double& mirror_seconds) const {
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
      release_free_heap();  // the group's freed scratch: glibc would keep it, counted in memory
      lo = hi;
    }
  }

 private:
  // (row offset, column) -> (key, row offset) for items [0, n). The keys are read at random:
  // prefetching ahead over the whole bucket overlaps the misses (better than the compiler's vector
  // gather, which waits for each of them). Kept for the columns in use only, a column's key takes
  // two reads, each prefetched in a pass of its own: the slot among the present columns, then the key.
  void look_up_keys(uint64_t* items, int64_t n) const {
    constexpr int64_t kAhead = 64;
    constexpr uint64_t kLow = 0xffffffff;
    if (!columns) {
      for (int64_t k = 0; k < n; ++k) items[k] = (items[k] << 32) | (items[k] >> 32);
      return;
    }
    if (columns->is_whole()) {
      const LocalId* keys = columns->whole_table();
      for (int64_t k = 0; k < n; ++k) {
        if (k + kAhead < n) __builtin_prefetch(keys + static_cast<LocalId>(items[k + kAhead]));
        const uint64_t e = items[k];
        items[k] = (static_cast<uint64_t>(keys[static_cast<LocalId>(e)]) << 32) | (e >> 32);
      }
      return;
    }
    for (int64_t k = 0; k < n; ++k) {
      if (k + kAhead < n) __builtin_prefetch(columns->index_entry(static_cast<LocalId>(items[k + kAhead])));
      items[k] = (items[k] & ~kLow) | static_cast<uint64_t>(columns->slot(static_cast<LocalId>(items[k])));
    }
    const LocalId* keys = columns->values();
    for (int64_t k = 0; k < n; ++k) {
      if (k + kAhead < n) __builtin_prefetch(keys + (items[k + kAhead] & kLow));
      const uint64_t e = items[k];
      items[k] = (static_cast<uint64_t>(keys[e & kLow]) << 32) | (e >> 32);
    }
  }

  struct Scratch {
    std::vector<int64_t> cursor, digit_count;
    RawBuffer<uint64_t> items, spare;
    RawBuffer<LocalId> row_keys;
  };

  template <class Sink>
  void fill_bucket(int64_t local, const BucketedEntries& kept, const SlabMirrors* mirrors, Scratch& sc, int thread,
                   int digit_bits, int passes, Sink& sink, LocalId* plain_neighbors) const {
    std::vector<int64_t>& cursor = sc.cursor;
    const int64_t first = buckets.first_row(kept.first_bucket() + local);
    const int64_t nrows_here = std::max<int64_t>(0, std::min<int64_t>(int64_t{1} << buckets.shift, nrows - first));
    if (!sorted) {  // input order, plain rows only (and no mirrors: they have keys)
      for (int64_t r = 0; r < nrows_here; ++r) {  // a row without entries has no new id here, nor needs one
        const LocalId x = static_cast<LocalId>(first + r);
        cursor[r] = !row_new ? rows.begin(x) : row_new->contains(x) ? rows.begin((*row_new)[x]) : 0;
      }
      kept.for_each_segment(local, [&](const uint64_t* entries, int64_t n) {
        for (int64_t k = 0; k < n; ++k) {
          const LocalId u = static_cast<LocalId>(entries[k]);
          plain_neighbors[cursor[entry_row(entries[k]) - first]++] = columns ? (*columns)[u] : u;
        }
      });
      return;
    }
    const int64_t n = kept.bucket_size(local) + (mirrors ? mirrors->entries.bucket_size(local) : 0);
    uint64_t* items = sc.items.get(n);
    uint64_t* spare = sc.spare.get(n);
    int64_t filled = 0;
    auto gather = [&](const BucketedEntries& from) {  // (row offset, column)
      from.for_each_segment(local, [&](const uint64_t* entries, int64_t count) {
        for (int64_t k = 0; k < count; ++k) items[filled + k] = entries[k] - (static_cast<uint64_t>(first) << 32);
        filled += count;
      });
    };
    gather(kept);
    if (mirrors && !mirrors->keyed()) gather(mirrors->entries);
    const int64_t to_look_up = filled;
    if (mirrors && mirrors->keyed()) {  // (row offset, key) -> (key, row offset)
      const int64_t begin = filled;
      gather(mirrors->entries);
      for (int64_t k = begin; k < n; ++k) items[k] = (items[k] << 32) | (items[k] >> 32);
    }
    look_up_keys(items, to_look_up);
    // One read of the items counts the digits of every radix pass and the rows' lengths: the
    // counts do not depend on the order.
    const uint64_t mask = (uint64_t{1} << digit_bits) - 1;
    const int64_t digits = int64_t{1} << digit_bits;
    std::fill(sc.digit_count.begin(), sc.digit_count.end(), 0);
    std::fill(cursor.begin(), cursor.begin() + nrows_here, 0);
    int64_t* count0 = sc.digit_count.data();
    if (passes == 2) {  // keys of up to 26 bits: SCALE 26 on one process and below
      int64_t* count1 = count0 + digits;
      for (int64_t k = 0; k < n; ++k) {
        ++count0[(items[k] >> 32) & mask];
        ++count1[(items[k] >> (32 + digit_bits)) & mask];
        ++cursor[static_cast<uint32_t>(items[k])];
      }
    } else {
      for (int64_t k = 0; k < n; ++k) {
        for (int p = 0; p < passes; ++p) ++count0[p * digits + ((items[k] >> (32 + p * digit_bits)) & mask)];
        ++cursor[static_cast<uint32_t>(items[k])];
      }
    }
    for (int p = 0; p < passes; ++p) {
      const int low = 32 + p * digit_bits;
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
    // Deal the sorted keys to their rows (a bucket-local CSR), then hand each row to the sink.
    int64_t total = 0;
    for (int64_t r = 0; r < nrows_here; ++r) {
      const int64_t here = cursor[r];
      cursor[r] = total;
      total += here;
    }
    LocalId* keys = sc.row_keys.get(n);
    for (int64_t k = 0; k < n; ++k) keys[cursor[static_cast<uint32_t>(items[k])]++] = static_cast<LocalId>(items[k] >> 32);
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

// The first neighbour of every row the row index addresses (empty rows of plain CSR get 0).
std::vector<LocalId> first_neighbors_of(const LocalGraph& g) {
  const int64_t* starts = g.rows.starts();
  const int64_t count = g.rows.compressed() ? g.rows.nonempty_rows() : g.rows.num_rows();
  std::vector<LocalId> first(count);
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < count; ++r) first[r] = starts[r + 1] > starts[r] ? g.neighbors[starts[r]] : 0;
  return first;
}

// The number of slabs, the same on every rank (every pass routes collectively): the run's plan
// (run/run_plan.hpp) sets `passes` from the node's memory; tests set it or `slab_entries`.
int64_t slabs_needed(const EdgeSource& source, const Distribution& d, const GraphOptions& options) {
  const GraphShape shape{source.global_edges, source.kronecker_scale, source.local_count};
  return std::max<int64_t>(1, given_slabs(shape, d, options));
}

// Original row-local id -> the graph's, for the rows with edges: with `reorder` kept as the
// columns' values are (graph/set_map.hpp), the owned map itself on a grid of one column; none
// without it (the ids stay).
using RowMap = std::optional<SetMap>;

// The row index from the rows' lengths, in the graph's order.
RowIndex index_rows(const RowLengths& lengths, const GraphOptions& options) {
  if (!lengths.is_whole()) return RowIndex::from_lengths(lengths.size(), [&](int64_t x) { return lengths[x]; }, options.bcsr);
  const int64_t* whole = lengths.whole_data();
  return RowIndex::from_lengths(lengths.size(), [whole](int64_t x) { return whole[x]; }, options.bcsr);
}

// With `reorder` on several grid columns: the row lengths put in the graph's order and the row
// index made from them, then the original id of each row slot; both a block of the row set at a
// time from its owner (no table of the whole row set).
void index_renumbered_rows(LocalGraph& g, RowLengths lengths, const ProcessGrid& grid, const GraphOptions& options) {
  const Distribution& d = g.dist;
  const int64_t B = d.block;
  Renumbering& ids = g.renumbering;
  lengths = std::move(lengths).renumbered(ids.owned_new.data(), d, grid);
  g.rows = index_rows(lengths, options);
  lengths = RowLengths();
  // From here on only the rows with edges need their original ids: kept by slot.
  const RowIndex& rows = g.rows;
  ids.row_original_by_slot.resize(static_cast<size_t>(rows.num_slots()));
  LocalId* by_slot = ids.row_original_by_slot.data();
  auto take_block = [&](int position, const LocalId* owned_original) {
    const int64_t first = position * B;
#pragma omp parallel for schedule(static)
    for (int64_t x = first; x < first + B; ++x) {
      const RowIndex::Extent e = rows.extent(x);
      if (e.end > e.begin || !rows.compressed()) by_slot[e.slot] = static_cast<LocalId>(first + owned_original[x - first]);
    }
  };
  for_each_block_table(ids.owned_original.data(), VertexSet::kRows, d, grid, take_block);
}

// From the row lengths of pass 1 (original row ids): the owned degrees, the renumbering with
// `reorder`, and the row index in the graph's ids. Returns the rows' map for placing the entries.
RowMap plan_rows(LocalGraph& g, RowLengths lengths, const ProcessGrid& grid, const GraphOptions& options) {
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  g.owned_degree = owned_degrees(lengths, d, grid);
  const int64_t* degree = g.owned_degree.data();  // on a grid of one column, the row lengths (the row set is the owned block)
  if (!options.reorder) {
    g.rows = d.C == 1 ? RowIndex::from_lengths(nrows, [degree](int64_t x) { return degree[x]; }, options.bcsr)
                      : index_rows(lengths, options);
    return std::nullopt;
  }
  Renumbering& ids = g.renumbering = build_renumbering(g.owned_degree);
  if (d.C == 1) {
    ids.row_original = ids.owned_original;
    const LocalId* original = ids.owned_original.data();
    g.rows = RowIndex::from_lengths(nrows, [&](int64_t x) { return degree[original[x]]; }, options.bcsr);
    return SetMap::whole(ids.owned_new);
  }
  const int64_t B = d.block;
  auto value = [B](int position, LocalId offset) { return static_cast<LocalId>(position * B + offset); };
  RowMap row_new = SetMap::from_blocks(lengths.rows_met(), ids.owned_new.data(), VertexSet::kRows, d, grid, value);
  index_renumbered_rows(g, std::move(lengths), grid, options);
  return row_new;
}

// Kernel 1 in slabs: pass 1 keeps slab 0's entries and counts the others' rows; the rows are then
// renumbered and ordered, and each slab is filled bucket by bucket (pass s + 1 keeps slab s + 1's
// entries). With one slab this is one pass over the input.
void build_in_slabs(LocalGraph& g, const EdgeSource& source, const ProcessGrid& grid, const GraphOptions& options) {
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  const int64_t expected = expected_entries_per_rank(source.global_edges, grid.size());
  const RowBuckets buckets(nrows, expected);
  const RowSlabs slabs(buckets, slabs_needed(source, d, options));
  // Reserved address space, so room for slabs somewhat above the average costs nothing.
  constexpr double kSlabSizeHeadroom = 1.25;
  const int64_t expected_per_slab = static_cast<int64_t>(kSlabSizeHeadroom * static_cast<double>(expected) / slabs.count) + 1;
  Router router(d, grid);
  RawBuffer<gen::Edge> buffer;
  // Edges inside one slab kept once, their mirrors made by the fill (SlabMirrors): only when the
  // rows are sorted by key (in input order the mirrors would change the order) and the row ids
  // leave the flag bit free.
  const bool mirror = options.mirror && (options.degree_sort || options.compress) && nrows <= int64_t{1} << 31;
  auto slab_rows = [&](int64_t s) {
    return std::pair{buckets.first_row(slabs.first_bucket(s)), std::min(nrows, buckets.first_row(slabs.end_bucket(s)))};
  };

  // Pass 1 routes the mirrors of slab 0 only to count their rows; one process has them at hand
  // (they are its kept entries' columns) and counts them after the pass instead (RowAndMirrorCount).
  const bool mirrors_counted_after_pass = grid.size() == 1;
  const int64_t chunk_edges = options.chunk_edges > 0 ? options.chunk_edges : kChunkEdges;
  Kernel1Steps& seconds = g.kernel1_seconds;
  // Of pass 1's entries, the rows of those it does not keep, to be counted (the column left out):
  // the entries beyond slab 0 and the mirrors routed only to be counted.
  const int64_t slab0_end_bucket = slabs.end_bucket(0);
  auto not_kept = [&buckets, slab0_end_bucket, mirror](uint64_t e) {
    constexpr uint64_t kRowPart = ~uint64_t{0} << 32;
    if (mirror && (e & kMirrorFlag)) return e & ~kMirrorFlag & kRowPart;  // with mirrors the rows are below 2^31
    return buckets.of(e) < slab0_end_bucket ? BucketedEntries::kNotPicked : e & kRowPart;
  };
  // `others`: the rows of the entries pass 1 does not keep, when it counts the rows met only.
  auto keep_slab = [&](int64_t s, int64_t* other_lengths, Bitmap* columns, BucketedEntries* others) {
    if (mirror) router.mirror_rows(slab_rows(s).first, slab_rows(s).second, s == 0 && !mirrors_counted_after_pass);
    auto kept = std::make_unique<BucketedEntries>(buckets, slabs.first_bucket(s), slabs.end_bucket(s), expected_per_slab,
                                                  d.col_set_size(), options.direct_write_buckets);
    RoutingSeconds routing;
    for_each_routed_chunk(
        source, grid.world(), router, buffer, routing,
        [&](const uint64_t* entries, int64_t n) {
          const double start = MPI_Wtime();
          kept->append_chunk(entries, n, other_lengths, columns);
          if (others) others->append_chunk_picked(entries, n, nullptr, nullptr, not_kept);
          seconds[Kernel1Steps::kBucket] += MPI_Wtime() - start;
        },
        chunk_edges);
    kept->appended_all();
    seconds[Kernel1Steps::kGenerate] += routing.read;
    seconds[Kernel1Steps::kRoute] += routing.route;
    return kept;
  };
  // Pass 1 counts every row: a word per row, counted at random places (the other slabs' entries,
  // the routed mirrors), on huge pages; or, where that is smaller, the rows met only, from the rows
  // of the entries it does not keep (graph/row_lengths.hpp).
  const bool rows_met_only =
      lengths_of_rows_met(GraphShape{source.global_edges, source.kronecker_scale, source.local_count}, d, options);
  const bool counts_others = slabs.count > 1 || (mirror && !mirrors_counted_after_pass);
  std::vector<int64_t> lengths;
  if (!rows_met_only) assign_huge(lengths, static_cast<size_t>(nrows), int64_t{0});
  std::unique_ptr<BucketedEntries> others;
  if (rows_met_only && counts_others)
    others = std::make_unique<BucketedEntries>(buckets, 0, buckets.count, expected, 1, options.direct_write_buckets);
  // The columns pass 1 meets: with `reorder` on a grid of several rows the fill's column values are
  // kept for those only (fill_column_values).
  Bitmap columns_met(options.reorder && d.R > 1 ? d.col_set_size() : 0);
  std::unique_ptr<BucketedEntries> kept = keep_slab(0, counts_others && !rows_met_only ? lengths.data() : nullptr,
                                                    columns_met.size() > 0 ? &columns_met : nullptr, others.get());
  const double plan_start = MPI_Wtime();
  RowLengths row_lengths;
  if (rows_met_only) {
    if (others) others->appended_all();
    row_lengths = RowLengths::of_rows_met(nrows, buckets.shift, [&](int64_t b, int64_t* counts) {
      const int64_t first = buckets.first_row(b);
      auto add = [&](const uint64_t* entries, int64_t n) {
        for (int64_t k = 0; k < n; ++k) ++counts[entry_row(entries[k]) - first];
      };
      if (b >= kept->first_bucket() && b < kept->first_bucket() + kept->buckets()) kept->for_each_segment(b - kept->first_bucket(), add);
      if (others) others->for_each_segment(b, add);
    });
    others.reset();
  } else {
    if (mirror && mirrors_counted_after_pass)
      RowAndMirrorCount(slab_rows(0).first, slab_rows(0).second - slab_rows(0).first).count(*kept, lengths.data());
    else
      count_rows(*kept, lengths.data());
    row_lengths = RowLengths::whole(std::move(lengths));
  }
  const RowMap row_new = plan_rows(g, std::move(row_lengths), grid, options);
  const int64_t entries = g.rows.num_entries();

  ColumnKeys order;  // the ids unless the degree order says otherwise
  if (options.degree_sort) order = neighbor_order(g, grid, options);
  const bool sorted = options.degree_sort || options.compress;  // packed rows without the degree order: by column id
  const std::optional<SetMap> column_values = fill_column_values(g, grid, options, order, columns_met);
  columns_met = Bitmap();
  const int64_t ncols = d.col_set_size();
  const BucketFill fill{buckets,
                        nrows,
                        g.rows,
                        row_new ? &*row_new : nullptr,
                        column_values ? &*column_values : nullptr,
                        sorted,
                        static_cast<int>(std::bit_width(static_cast<uint64_t>(std::max<int64_t>(1, ncols - 1)))),
                        options.radix_digit_bits > 0 ? options.radix_digit_bits : BucketFill::kMaxDigitBits};
  const int64_t slots = g.rows.compressed() ? g.rows.nonempty_rows() : g.rows.num_rows();
  std::atomic<int64_t> stream_end{0};
  std::optional<PlainRowSink> plain;
  std::optional<PackedRowSink> packed;
  if (options.compress) {
    if (options.degree_sort) g.packed.keys = std::move(order);
    g.packed.in_use = true;
    const int64_t* starts = g.rows.starts();
    g.packed.place_rows(slots, [starts](int64_t r) { return starts[r + 1] - starts[r]; }, omp_get_max_threads());
    // Reserved, not touched: only the bytes written count in memory.
    g.packed.bytes.resize(static_cast<size_t>(entries) * varint::size(static_cast<uint32_t>(std::max<int64_t>(0, ncols - 1))));
    g.first_neighbors.assign(slots, 0);
    packed.emplace(PackedRowSink{g.rows, g.packed, g.first_neighbors, stream_end, {}});
  } else {
    g.neighbors.resize(entries);
    plain.emplace(PlainRowSink{g.rows, g.neighbors.data(), options.degree_sort ? &order : nullptr});
  }
  seconds[Kernel1Steps::kPlan] += MPI_Wtime() - plan_start;
  for (int64_t s = 0; s < slabs.count; ++s) {
    if (s > 0) {  // only this slab's entries are routed
      router.keep_rows(slab_rows(s).first, slab_rows(s).second);
      kept = keep_slab(s, nullptr, nullptr, nullptr);
    }
    std::optional<SlabMirrors> mirrors;
    if (mirror)
      mirrors.emplace(buckets, slabs.first_bucket(s), slabs.end_bucket(s), expected_per_slab,
                      std::max(expected_per_slab, kept->entries()), d, grid, router,
                      column_values ? column_values->whole_table() : nullptr,
                      options.direct_write_buckets, options.mirrors_per_group);
    SlabMirrors* made = mirrors ? &*mirrors : nullptr;
    const double fill_start = MPI_Wtime(), mirror_before = seconds[Kernel1Steps::kMirror];
    if (packed)
      fill.run(*kept, made, *packed, nullptr, seconds[Kernel1Steps::kMirror]);
    else
      fill.run(*kept, made, *plain, g.neighbors.data(), seconds[Kernel1Steps::kMirror]);
    kept.reset();
    seconds[Kernel1Steps::kFill] += MPI_Wtime() - fill_start - (seconds[Kernel1Steps::kMirror] - mirror_before);
  }
  if (packed) g.packed.bytes.resize(static_cast<size_t>(stream_end.load()));
  else g.first_neighbors = first_neighbors_of(g);
  g.local_entries = entries;
  g.kernel1_slabs = slabs.count;
}

}  // namespace

LocalGraph build_local_graph(const EdgeSource& source, const ProcessGrid& grid, const GraphOptions& options) {
  LocalGraph g;
  const VertexCount n = count_vertices(source, grid.world(), options.chunk_edges > 0 ? options.chunk_edges : kChunkEdges);
  g.kernel1_seconds[Kernel1Steps::kGenerate] += n.seconds;
  g.dist = Distribution(n.nvertices, grid.rows(), grid.cols(), grid.row(), grid.col(), options.layout);
  build_in_slabs(g, source, grid, options);
  make_column_originals(g, grid);
  make_search_tables(g);
  release_free_heap();  // kernel 1's freed scratch: glibc would keep it, counted in the search's memory
  int64_t local = g.local_edges();
  MPI_Allreduce(&local, &g.global_directed_edges, 1, MPI_INT64_T, MPI_SUM, grid.world());
  return g;
}

}  // namespace g500
