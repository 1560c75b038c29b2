// Kernel 1's count of the rows of a slab's kept entries after its first pass (graph/build_graph.cpp),
// and on one process of the mirrors' rows too.
#pragma once
#include <omp.h>

#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

#include "graph/kernel1_entries.hpp"
#include "graph/row_buckets.hpp"
#include "util/line_scatter.hpp"
#include "util/raw_buffer.hpp"

namespace g500::graph::kernel1 {

// Row lengths (original row ids) of the slab's entries; each bucket's rows are its own.
void count_rows(const BucketedEntries& kept, int64_t* lengths) {
#pragma omp parallel for schedule(dynamic, 8)
  for (int64_t b = 0; b < kept.buckets(); ++b)
    kept.for_each_segment(b, [&](const Entry* entries, int64_t n) {
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
    const Blocks blocks = blocks_of(kept);
    const std::vector<int64_t>& block_first = blocks.first;
    // Every chunk of a block is full but the last one per thread and range.
    const int64_t pool_chunks = mirror_count_chunks(blocks.largest, threads);
    util::RawBuffer<LocalId> pool_memory;  // line-aligned
    LocalId* pool = pool_memory.get(static_cast<size_t>(pool_chunks * kChunk));
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
        util::LineScatter<LocalId> dealt(pool, ranges_);
        for (int64_t r = 0; r < ranges_; ++r) {
          open[r] = next_chunk.fetch_add(1, std::memory_order_relaxed);
          dealt.start(r, open[r] * kChunk);
        }
#pragma omp for schedule(dynamic, 8)
        for (int64_t b = block_first[block]; b < block_first[block + 1]; ++b)
          kept.for_each_segment(b, [&](const Entry* entries, int64_t n) {
            for (int64_t k = 0; k < n; ++k) {
              ++lengths[entry_row(entries[k])];
              const uint64_t u = static_cast<uint64_t>(entry_col(entries[k])) - first_;
              if (u >= span_) continue;
              const int64_t r = static_cast<int64_t>(u >> shift_);
              dealt.put(r, static_cast<LocalId>(u));
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
              const LocalId* in = pool + chunk * kChunk;
              for (uint32_t k = 0; k < chunk_fill[static_cast<size_t>(chunk)]; ++k) ++counts[in[k]];
            }
        }
      }
    }
  }

 private:
  struct Blocks {
    std::vector<int64_t> first;  // each block's first bucket, then the number of buckets
    int64_t largest = 0;         // entries of the largest block
  };
  // Blocks of whole buckets of about mirror_count_block entries, 4 bytes each once dealt: at most an
  // eighth of the kept entries' 5 bytes or more.
  static Blocks blocks_of(const BucketedEntries& kept) {
    std::vector<int64_t> sizes(kept.buckets());
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < kept.buckets(); ++b) sizes[b] = kept.bucket_size(b);
    const int64_t block_target = mirror_count_block(kept.entries());
    Blocks blocks{{0}, 0};
    for (int64_t b = 0, in_block = 0; b < kept.buckets(); ++b) {
      if (in_block > 0 && in_block + sizes[b] > block_target) {
        blocks.first.push_back(b);
        in_block = 0;
      }
      in_block += sizes[b];
      blocks.largest = std::max(blocks.largest, in_block);
    }
    blocks.first.push_back(kept.buckets());
    return blocks;
  }

  static constexpr int kRangeBits = kMirrorCountRangeBits;
  static constexpr int64_t kChunk = kMirrorCountChunk;  // whole cache lines
  uint64_t first_, span_;
  int shift_;
  int64_t ranges_;
};

}  // namespace g500::graph::kernel1
