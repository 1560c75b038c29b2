// The exchange of candidate distances of delta-stepping (Meyer and Sanders 2003; its relax
// requests): a candidate for a vertex this process owns lowers the vertex's state at once (atomic
// minimum); the others go to their owners along the grid column (along the row for a pull), as
// Yoo's distribution places them (Nakao et al. 2021, section 4.3), unless a candidate at least as
// good was already sent.
#include <omp.h>

#include <atomic>
#include <cstdint>

#include "sssp/sssp.hpp"
#include "sssp/state_words.hpp"
#include "util/atomic_ref.hpp"

namespace g500::sssp {
using namespace sssp_words;

void DistributedSssp::improve_call(graph::LocalId x, float nd, graph::LocalId from, ThreadState& ts) {
  improve(x, nd, from, ts);
}

void DistributedSssp::apply_candidates(ThreadState& ts, int t) {
  constexpr size_t kCandidateAhead = 16;
  const size_t n = ts.candidates.size();
  const Improvement* c = ts.candidates.data();
  if (grid_.rows() == 1) {  // the column set is the owned block: every target is owned
    for (size_t i = 0; i < n; ++i) {
      if (i + kCandidateAhead < n) __builtin_prefetch(&state_[c[i + kCandidateAhead].x]);
      improve_call(c[i].x, c[i].d, c[i].from, ts);
    }
    ts.candidates.clear();
    return;
  }
  // Several grid rows: the target is a column-local id. Owned targets are improved here; the
  // others go to their owner unless a candidate at least as good was sent already (sent_best_).
  // Either way one random access, prefetched ahead.
  const graph::Distribution& d = dist_of_;
  const uint64_t my_row = static_cast<uint64_t>(d.row), block = static_cast<uint64_t>(d.block);
  auto& buffers = out_col_[t];
  for (size_t i = 0; i < n; ++i) {
    if (i + kCandidateAhead < n) {
      const graph::LocalId ahead = c[i + kCandidateAhead].x;
      const uint64_t owner = d.by_block.divide(ahead);
      if (owner == my_row)
        __builtin_prefetch(&state_[ahead - owner * block]);
      else
        __builtin_prefetch(&sent_best_[ahead]);
    }
    const graph::LocalId u = c[i].x;
    const float nd = c[i].d;
    const uint64_t owner = d.by_block.divide(u);
    const graph::LocalId offset = static_cast<graph::LocalId>(u - owner * block);
    if (owner == my_row) {
      improve_call(offset, nd, c[i].from, ts);
      continue;
    }
    util::AtomicRef<uint32_t> best(sent_best_[u]);
    uint32_t seen = best.load(std::memory_order_relaxed);
    bool better = false;
    while (bits_of(nd) < seen)
      if (best.compare_exchange_weak(seen, bits_of(nd), std::memory_order_relaxed)) {
        better = true;
        break;
      }
    if (!better) continue;
    auto& out = buffers[owner];
    out.push_back(candidate_word(offset, c[i].from));
    out.push_back(bits_of(nd));
  }
  ts.candidates.clear();
}

void DistributedSssp::exchange_candidates(comm::ThreadBuckets& buffers, MPI_Comm comm, SsspRun& run) {
#pragma omp barrier
#pragma omp master
  {
    received_ = comm::exchange(buffers, comm, alltoallv_, run.profile, grid_.limits());
    comm::clear_thread_buckets(buffers);
  }
#pragma omp barrier
  ThreadState& ts = threads_[omp_get_thread_num()];
  const int64_t n = static_cast<int64_t>(received_.records.size() / 2);
  const uint64_t* rec = received_.records.data();
  // Random targets: what improving one touches is prefetched kAhead records ahead.
  constexpr int64_t kAhead = 16;
#pragma omp for schedule(static) nowait
  for (int64_t r = 0; r < n; ++r) {
    if (r + kAhead < n) __builtin_prefetch(&state_[candidate_offset(rec[2 * (r + kAhead)])]);
    improve(candidate_offset(rec[2 * r]), float_of(static_cast<uint32_t>(rec[2 * r + 1])), candidate_source(rec[2 * r]),
            ts);
  }
}

}  // namespace g500::sssp
