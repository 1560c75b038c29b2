// Kernel 1 keeps its routed entries grouped by buckets of 2^shift consecutive (original) row ids,
// sized so that one bucket's entries, its rows' cursors and the scratch to sort it stay in a
// core's cache. Counting the rows and filling them then touch memory bucket by bucket instead of
// at a random place per entry (graph/build_graph.cpp).
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <vector>

#include "graph/local_id.hpp"

namespace g500::graph {

struct RowBuckets {
  int shift = 0;
  int64_t count = 0;

  RowBuckets(int64_t nrows, int64_t expected_entries) {
    constexpr int64_t kEntriesPerBucket = int64_t{1} << 16;  // 512 KiB of 8-byte entries
    const int64_t per_row = std::max<int64_t>(1, expected_entries / std::max<int64_t>(1, nrows));
    const int64_t rows = std::max<int64_t>(1, kEntriesPerBucket / per_row);
    shift = std::bit_width(static_cast<uint64_t>(rows)) - 1;
    count = (nrows + (int64_t{1} << shift) - 1) >> shift;
  }
  int64_t first_row(int64_t b) const { return b << shift; }
  // The bucket of an entry (its row in the high id, graph/edge_router.hpp; a flagged mirror's
  // bucket lies beyond every row's).
  int64_t of(IdPair entry) const { return static_cast<int64_t>(high_id(entry) >> shift); }
};

// Kernel 1 makes the mirrors of a slab's edges kept once (graph/build_graph.cpp) in groups of
// buckets, each group's just before it is filled: up to kMirrorGroups, so the mirrors of one group
// are a small share of the slab's, but each group expecting at least kMirrorsPerGroup entries, so
// the collective rounds routing them stay few on small graphs.
constexpr int64_t kMirrorGroups = 256;
constexpr int64_t kMirrorsPerGroup = int64_t{1} << 20;
// The same on every rank: from the buckets of the slab and the entries a rank expects in it.
inline int64_t mirror_groups(int64_t slab_buckets, int64_t expected_slab_entries,
                             int64_t mirrors_per_group = kMirrorsPerGroup) {
  return std::clamp<int64_t>(expected_slab_entries / std::max<int64_t>(1, mirrors_per_group), 1,
                             std::min(kMirrorGroups, std::max<int64_t>(1, slab_buckets)));
}

// Where each of at most `groups` groups of buckets ends (the end of the last: sizes.size()), cut
// where `sizes`, added up from the first bucket, reaches each multiple of their total over `groups`;
// at least one group, even for no buckets. A group holds at most that share of the total and one
// bucket more.
inline std::vector<int64_t> equal_share_ends(const std::vector<int64_t>& sizes, int64_t groups) {
  const int64_t nb = static_cast<int64_t>(sizes.size());
  const int64_t total = std::accumulate(sizes.begin(), sizes.end(), int64_t{0});
  std::vector<int64_t> ends;
  int64_t below = 0;  // the sizes of the buckets before b, added up
  for (int64_t b = 0; b < nb; ++b) {
    below += sizes[b];
    const int64_t group = static_cast<int64_t>(ends.size());
    if (total > 0 && group + 1 < groups && below * groups >= total * (group + 1)) ends.push_back(b + 1);
  }
  if (ends.empty() || ends.back() < nb) ends.push_back(nb);
  return ends;
}

// One process does not route the mirrors of the edges it keeps once; it counts their rows after
// pass 1 by dealing the kept entries' columns to ranges of rows, a block of buckets at a time
// (graph/build_graph.cpp): up to 2^kMirrorCountRangeBits ranges, the ids (4 bytes) in chunks of
// kMirrorCountChunk, about an eighth of the kept entries (5 bytes or more each) per block.
constexpr int kMirrorCountRangeBits = 7;
constexpr int64_t kMirrorCountChunk = 1024;
inline int64_t mirror_count_block(int64_t kept_entries) {
  constexpr int64_t kFewest = int64_t{1} << 12, kMost = int64_t{1} << 27;
  return std::clamp<int64_t>(kept_entries / 8, kFewest, kMost);
}
// The chunks for a block of `block` ids: full ones, and each thread's last one per range.
inline int64_t mirror_count_chunks(int64_t block, int threads) {
  return block / kMirrorCountChunk + int64_t{threads} * (int64_t{1} << kMirrorCountRangeBits) + 1;
}

// Edge entries a process expects to receive: two per input edge, over the processes, with room
// for the imbalance of the distribution (a few per cent).
inline int64_t expected_entries_per_rank(int64_t global_edges, int ranks) {
  constexpr double kImbalanceRoom = 1.05;
  return static_cast<int64_t>(kImbalanceRoom * 2.0 * static_cast<double>(global_edges) / std::max(1, ranks));
}

// Bytes of a kept entry: its row's offset in the bucket and its column id (the bucket gives the
// rest of the row id); with one column, the row's offset only.
inline int compact_entry_bytes(const RowBuckets& buckets, int64_t ncols) {
  const int col_bits = std::bit_width(static_cast<uint64_t>(std::max<int64_t>(0, ncols - 1)));
  return std::max(1, (buckets.shift + col_bits + 7) / 8);
}

}  // namespace g500::graph
