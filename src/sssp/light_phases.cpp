// The buckets and the light phases of delta-stepping (Meyer and Sanders 2003), and the push
// relaxation of rows that the light phases and the push heavy phase share. A sub-bucket's active
// vertices are gathered along the grid row (Nakao et al. 2021, section 4.3, Yoo's distribution)
// and relax their "inner short" edges, those whose candidate stays in the bucket (Chakaravarthy et
// al. 2014); on one-column grids a thread relaxes its own few improvements at once ("bucket
// fusion", Zhang et al. 2020).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "sssp/sssp.hpp"
#include "sssp/state_words.hpp"
#include "util/atomic_ref.hpp"

namespace g500::sssp {
using namespace sssp_words;

void DistributedSssp::take_sub_bucket(int64_t j, ThreadState& ts) {
  const std::vector<Improvement>& entries = ts.buckets.take(j);
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i + 16 < entries.size()) __builtin_prefetch(&state_[entries[i + 16].x]);
    if (is_current(entries[i])) ts.active.push_back(entries[i].x);
  }
  ts.buckets.take_done(j);
}

double DistributedSssp::light_phases(int64_t j, int64_t k, ThreadState& ts, SsspRun& run) {
  const bool master = omp_get_thread_num() == 0;
  const uint64_t row_base = static_cast<uint64_t>(dist_of_.col) * static_cast<uint64_t>(dist_of_.block);
  const double light_start = master ? omp_get_wtime() : 0;
  double totals[2];  // active vertices, push work of the heavy phase (settled so far)
  for (;;) {
    settle(ts);
    const int64_t n = gather_records(&ThreadState::active, row_base, grid_.row_comm(), grid_.cols(), run);
    ts.active.clear();
    relax_records<Edges::kInner>(n, k, j, run);
    place_improved(j, ts);
    if (master) ++run.phases;
    totals[0] = static_cast<double>(ts.active.size());
    totals[1] = ts.settled_degrees;
    reduce_all(totals, 2, MPI_SUM, run);
    if (totals[0] == 0) break;
  }
  if (master) run.light_seconds += omp_get_wtime() - light_start;
  return totals[1];
}

template <DistributedSssp::Edges kEdges>
inline void DistributedSssp::relax_row(int64_t x, float dx, int64_t k, ThreadState& ts) {
  const float* weights = wg_.weights.data();
  const graph::LocalId* neighbors = graph_.neighbors.data();
  const int64_t* starts = graph_.rows.plain_starts();
  // A candidate c leaves bucket k when bucket_of(c) / sub_buckets > k, i.e.
  // c * inverse_width_ >= (k + 1) * sub_buckets.
  const double scale = inverse_width_, bucket_end = static_cast<double>((k + 1) * sub_buckets_);
  int64_t e = starts[x], end = starts[x + 1];
  // Weights ascend along the row: the inner edges are a prefix (short: w < delta), found by a
  // linear scan, which reads the row in order (a binary search costs dependent cache misses).
  if constexpr (kEdges == Edges::kOuter)
    while (e < end && candidate(dx, weights[e]) * scale < bucket_end) ++e;
  const int64_t first = e;
  for (; e < end; ++e) {
    const float nd = candidate(dx, weights[e]);
    if (kEdges == Edges::kInner && nd * scale >= bucket_end) break;
    ts.candidates.push_back({neighbors[e], static_cast<graph::LocalId>(source_base_ + x), nd});
  }
  ts.relaxations += e - first;
  if constexpr (kEdges == Edges::kInner) ts.light_relaxations += e - first;
}

void DistributedSssp::fuse_bucket(int64_t k, int64_t j, ThreadState& ts, int t) {
  // The thread's improvements of this light phase are all in bucket k (inner edges); those in
  // sub-bucket j are relaxed now, while they are few, instead of in another phase. Those in later
  // sub-buckets wait for theirs (deferred, placed afterwards). A stale entry (the vertex was
  // improved again, by whichever thread) is skipped: the later improvement has its own entry.
  constexpr int64_t kFusedAhead = 16;
  for (;;) {
    ts.fused.clear();
    for (const Improvement& i : ts.improved) (bucket_of(i.d) == j ? ts.fused : ts.deferred).push_back(i);
    ts.improved.clear();
    if (ts.fused.empty()) break;
    if (ts.fused.size() >= static_cast<size_t>(options_.fusion_limit)) {  // many: the next phase takes them
      ts.improved.swap(ts.fused);
      break;
    }
    // The current entries are settled, and those whose row may have an inner edge selected, before
    // any row is read (as in relax_records).
    const int64_t n = static_cast<int64_t>(ts.fused.size());
    std::vector<uint64_t>& selected = ts.selected_records;
    selected.resize(std::max<size_t>(selected.size(), ts.fused.size()));
    int64_t m = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (i + kFusedAhead < n) {
        __builtin_prefetch(&light_bound_[ts.fused[i + kFusedAhead].x]);
        __builtin_prefetch(&settled_mark_[ts.fused[i + kFusedAhead].x]);
      }
      if (!is_current(ts.fused[i])) continue;
      const graph::LocalId x = ts.fused[i].x;
      settle_one(x, ts);
      selected[m] = record_of(x, ts.fused[i].d);  // one column: row-local = owned
      m += may_have_inner_edge(x, ts.fused[i].d, k) ? 1 : 0;
    }
    relax_selected<Edges::kInner>(selected.data(), m, k, ts, t);
    apply_candidates(ts, t);
  }
  ts.fused.clear();
  ts.improved.insert(ts.improved.end(), ts.deferred.begin(), ts.deferred.end());
  ts.deferred.clear();
}

template <DistributedSssp::Edges kEdges>
void DistributedSssp::relax_selected(const uint64_t* records, int64_t n, int64_t k, ThreadState& ts, int t) {
  // The rows are random: prefetch the row start of a record kFar ahead and the row itself kNear
  // ahead, so that the misses of several records overlap instead of being paid one by one (the
  // targets' distances are prefetched by apply_candidates).
  constexpr int64_t kFar = 32, kNear = 12;
  const int64_t* starts = graph_.rows.plain_starts();
  for (int64_t r = 0; r < std::min(n, kFar); ++r) __builtin_prefetch(&starts[record_id(records[r])]);
  for (int64_t r = 0; r < n; ++r) {
    if (r + kFar < n) __builtin_prefetch(&starts[record_id(records[r + kFar])]);
    if (r + kNear < n) {
      const int64_t s = starts[record_id(records[r + kNear])];
      __builtin_prefetch(&wg_.weights[s]);
      __builtin_prefetch(&graph_.neighbors[s]);
    }
    relax_row<kEdges>(record_id(records[r]), record_distance(records[r]), k, ts);
    if (ts.candidates.size() >= kCandidateBatch) apply_candidates(ts, t);
  }
}

template <DistributedSssp::Edges kEdges>
void DistributedSssp::relax_records(int64_t nrecords, int64_t k, int64_t j, SsspRun& run) {
  const int t = omp_get_thread_num();
  ThreadState& ts = threads_[t];
  const uint64_t* rec = gathered_view_->data();
  // Many records' rows have nothing to relax: in a light phase most have no inner edge, and on
  // grids of several columns many rows have no edge in this process's columns. The records of a
  // chunk whose row may have an edge to relax (light_bound_, a byte per row, prefetched kBound
  // ahead) are selected first, so that the look-ahead of relax_selected() counts rows that are
  // read. The threads take chunks of kChunk records; the look-ahead stays inside the chunk (beyond
  // it the records may be another thread's, whose core would not have the lines).
  constexpr int64_t kChunk = 512, kBound = 48;
  auto wanted = [&](uint64_t record) {
    const int64_t x = record_id(record);
    return kEdges == Edges::kOuter ? light_bound_[x] != graph::kLightBoundNoEdges
                                   : may_have_inner_edge(x, record_distance(record), k);
  };
  std::vector<uint64_t>& selected = ts.selected_records;
  selected.resize(kChunk);
  const int64_t nchunks = (nrecords + kChunk - 1) / kChunk;
#pragma omp for schedule(dynamic, 1) nowait
  for (int64_t c = 0; c < nchunks; ++c) {
    const int64_t first = c * kChunk, n = std::min(nrecords, first + kChunk) - first;
    for (int64_t r = 0; r < std::min(n, kBound); ++r) __builtin_prefetch(&light_bound_[record_id(rec[first + r])]);
    int64_t m = 0;
    for (int64_t r = 0; r < n; ++r) {  // without a branch: which rows qualify is not predictable
      if (r + kBound < n) __builtin_prefetch(&light_bound_[record_id(rec[first + r + kBound])]);
      selected[m] = rec[first + r];
      m += wanted(rec[first + r]) ? 1 : 0;
    }
    relax_selected<kEdges>(selected.data(), m, k, ts, t);
  }
  apply_candidates(ts, t);
  if (kEdges == Edges::kInner && fusion_) fuse_bucket(k, j, ts, t);
  if (grid_.rows() > 1) exchange_candidates(out_col_, grid_.col_comm(), run);
}

// The push heavy phase: the vertices settled in bucket k, gathered along the grid row, relax their
// outer edges (the heavy ones and the light ones that leave the bucket) as a light phase relaxes
// the inner ones. Here rather than in heavy_phase.cpp so that the relaxation templates stay in
// one file.
void DistributedSssp::push_heavy(int64_t k, SsspRun& run) {
  const uint64_t row_base = static_cast<uint64_t>(dist_of_.col) * static_cast<uint64_t>(dist_of_.block);
  const int64_t n = gather_records(&ThreadState::settled, row_base, grid_.row_comm(), grid_.cols(), run);
  relax_records<Edges::kOuter>(n, k, kNoBucket, run);  // (the sub-bucket is only for bucket fusion)
}

void DistributedSssp::place_improved(int64_t j, ThreadState& ts) {
  for (const Improvement& i : ts.improved) {
    if (!is_current(i)) continue;
    const int64_t b = bucket_of(i.d);
    if (b == j) {
      ts.active.push_back(i.x);
    } else {
      ts.buckets.push(b, i);
    }
  }
  ts.improved.clear();
}

void DistributedSssp::settle_one(graph::LocalId x, ThreadState& ts) {
  // A load and a store, not an atomic exchange (a locked instruction per vertex): two threads
  // settling x at once would both list it, which costs one redundant relaxation of its row.
  util::AtomicRef<uint8_t> settled(settled_mark_[x]);
  if (settled.load(std::memory_order_relaxed) != ts.bucket_epoch) {
    settled.store(ts.bucket_epoch, std::memory_order_relaxed);
    ts.settled.push_back(x);
    ts.settled_degrees += static_cast<double>(degree_[x]);
  }
}

void DistributedSssp::settle(ThreadState& ts) {
  const int64_t n = static_cast<int64_t>(ts.active.size());
  for (int64_t i = 0; i < n; ++i) {
    if (i + 8 < n) {
      __builtin_prefetch(&settled_mark_[ts.active[i + 8]]);
      __builtin_prefetch(&degree_[ts.active[i + 8]]);
    }
    const graph::LocalId x = ts.active[i];
    settle_one(x, ts);
  }
}

}  // namespace g500::sssp
