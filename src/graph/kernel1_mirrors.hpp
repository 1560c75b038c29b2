// Kernel 1's mirror entries (graph/build_graph.cpp): an edge inside one slab is kept once and its
// other entry made by the fill, a group of buckets at a time.
#pragma once
#include <mpi.h>
#include <omp.h>

#include <cstdint>
#include <vector>

#include "comm/large_count.hpp"
#include "comm/typed.hpp"
#include "graph/distribution.hpp"
#include "graph/edge_router.hpp"
#include "graph/grid.hpp"
#include "graph/kernel1_entries.hpp"
#include "graph/row_buckets.hpp"
#include "util/large_array.hpp"
#include "util/raw_buffer.hpp"

namespace g500::graph::kernel1 {

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
        groups(mirror_groups(end_bucket - first_bucket, expected,
                             mirrors_per_group > 0 ? mirrors_per_group : kMirrorsPerGroup)),
        d_(d), grid_(grid), router_(router), one_process_(grid.size() == 1), keys_(key_of_column),
        slab_first_(static_cast<uint64_t>(buckets.first_row(first_bucket))),
        slab_span_(static_cast<uint64_t>(std::min(buckets.first_row(end_bucket), d.row_set_size())) - slab_first_) {}

  BucketedEntries entries;
  const int64_t groups;  // of buckets, each group's mirrors made before it is filled
  // Whether the mirrors' columns are already sort keys.
  bool keyed() const { return one_process_; }

  // Collective: where each group of kept buckets ends (counted from the slab's first), cut where
  // the most any rank keeps in each bucket, added up, reaches each multiple of its total over
  // `groups`: then no rank's group holds more than that share (and a bucket). Ranks keep their
  // entries in different rows (a grid column whose column set comes last keeps nearly all, spread
  // evenly; the first only those of its low rows), so cuts by all ranks' entries together would
  // give the evenly spread ranks a last group of several times their share. The same ends on
  // every rank, so a mirror never arrives after the group of its row was filled.
  std::vector<int64_t> group_ends(const BucketedEntries& kept) const {
    const int64_t nb = kept.buckets();
    std::vector<int64_t> sizes(static_cast<size_t>(nb));
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < nb; ++b) sizes[b] = kept.bucket_size(b);
    if (!one_process_) comm::Communicator(grid_.world(), grid_.limits()).max_in_place(sizes);
    return equal_share_ends(sizes, groups);  // one group even for no buckets: make() is collective
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
    const int64_t round_edges = router_.directed_chunk_edges();  // within the buffers the input chunks sized
    const int64_t rounds = comm::Communicator(grid_.world()).max((n + round_edges - 1) / round_edges);
    for (int64_t r = 0; r < rounds; ++r) {
      const int64_t first = std::min(n, r * round_edges), count = std::min(n - first, round_edges);
      int64_t received = 0;
      const Entry* routed = router_.route_directed(edges + first, count, received);
      entries.append_chunk(routed, received, nullptr);
    }
  }

 private:
  // mirror(u, v) for every kept entry (v, u) of buckets [lo, hi) whose mirror row u is in the
  // slab (global ids), thread t's in made[t].
  template <class T, class F>
  void make_per_thread(const BucketedEntries& kept, int64_t lo, int64_t hi, std::vector<util::LargeArray<T>>& made,
                       F mirror) {
    made.resize(omp_get_max_threads());
    for (auto& m : made) m.clear();  // keeps the capacity for the next group
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t b = lo; b < hi; ++b) {
      util::LargeArray<T>& mine = made[omp_get_thread_num()];
      kept.for_each_segment(b, [&](const Entry* in, int64_t n) {
        // Room for the whole batch (not zeroed), written through a pointer: push_back would
        // reload the array's end after every store.
        const size_t at = mine.size();
        mine.resize(at + static_cast<size_t>(n));
        T* out = mine.data() + at;
        if (one_process_) {
          for (int64_t k = 0; k < n; ++k)
            if (static_cast<uint64_t>(entry_col(in[k])) - slab_first_ < slab_span_)
              *out++ = mirror(entry_col(in[k]), entry_row(in[k]));
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
  static const T* concatenate(const std::vector<util::LargeArray<T>>& made, util::RawBuffer<T>& out, int64_t& n) {
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
  std::vector<util::LargeArray<Entry>> made_entries_;
  std::vector<util::LargeArray<gen::Edge>> made_edges_;
  util::RawBuffer<gen::Edge> edges_;
};

}  // namespace g500::graph::kernel1
