// The driver of the distributed delta-stepping search (Meyer and Sanders 2003): run() times one
// search; search(), executed by every thread of one OpenMP parallel region, takes the buckets in
// order, each as its sub-buckets' light phases (light_phases.cpp) and then one heavy phase
// (heavy_phase.cpp), and ends with the parents and the result in original order (parents.cpp).
#include <omp.h>

#include <algorithm>
#include <vector>

#include "sssp/sssp.hpp"
#include "sssp/state_words.hpp"
#include "util/timer.hpp"

namespace g500::sssp {
using namespace sssp_words;

SsspRun DistributedSssp::run(int64_t root) {
  SsspRun run;
  run.root = root;
  MPI_Barrier(grid_.world());
  util::Timer timer;
#pragma omp parallel num_threads(nthreads_)
  search(root, run);
  run.seconds = timer.seconds();
  prepared_ = false;
  for (const ThreadState& ts : threads_) {
    run.relaxations += ts.relaxations;
    run.light_relaxations += ts.light_relaxations;
    run.pull_scans += ts.pull_scans;
    run.improvements += ts.improvements;
  }
  double communication = 0;
  for (size_t p = 0; p < run.profile.seconds.size(); ++p)
    if (p != static_cast<size_t>(util::Phase::kCalculation)) communication += run.profile.seconds[p];
  run.profile[util::Phase::kCalculation] = std::max(0.0, run.seconds - communication);
  return run;
}

void DistributedSssp::search(int64_t root, SsspRun& run) {
  ThreadState& ts = threads_[omp_get_thread_num()];
  const bool master = omp_get_thread_num() == 0;
  start_search(root, ts);
  // j: the sub-bucket being processed (every earlier one is done); k: the bucket whose light
  // phases are under way (kNoBucket between a heavy phase and the next bucket).
  int64_t j = 0, k = kNoBucket;
  double push_work = 0;  // of the heavy phase of bucket k: the degrees of its settled vertices
  for (;;) {
    const double next = next_sub_bucket(j, ts, run);
    if (k != kNoBucket && (next == kUnreachedDistance || static_cast<int64_t>(next) / sub_buckets_ != k)) {
      heavy_phase(k, push_work, ts, run);  // bucket k is settled
      j = (k + 1) * sub_buckets_;
      k = kNoBucket;
      continue;
    }
    if (next == kUnreachedDistance) break;
    j = static_cast<int64_t>(next);
    if (k == kNoBucket) {
      k = j / sub_buckets_;
      open_bucket(ts, run);
    }
    take_sub_bucket(j, ts);
    push_work = light_phases(j, k, ts, run);
    ++j;
  }
  const double parents_start = master ? omp_get_wtime() : 0;
  compute_parents(root, run);
#pragma omp barrier
  if (master) run.parents_seconds = omp_get_wtime() - parents_start;
#pragma omp master
  { bucket_epoch_ = ts.bucket_epoch; }
}

void DistributedSssp::start_search(int64_t root, ThreadState& ts) {
  const graph::Distribution& d = dist_of_;
  ts.bucket_epoch = bucket_epoch_;
  ts.relaxations = ts.light_relaxations = ts.pull_scans = ts.improvements = 0;
  ts.buckets.clear();
  ts.active.clear();
  ts.improved.clear();
  if (!prepared_) reset_arrays();
  const int64_t first = d.owned_begin();
  if (omp_get_thread_num() == 0 && root >= first && root < first + d.block) {
    const auto root_x = static_cast<graph::LocalId>(graph_.owned_local(root - first));
    state_[root_x] = state_of(0, kUnknownSource);
    ts.buckets.push(0, {root_x, kUnknownSource, 0.0F});
  }
}

double DistributedSssp::next_sub_bucket(int64_t j, ThreadState& ts, SsspRun& run) {
  // Smallest non-empty sub-bucket over all threads and processes (entries are valid while their
  // distance still falls in the sub-bucket; lists with stale entries only are emptied here).
  const int64_t first = ts.buckets.first_current(j, [&](const Improvement& i) { return is_current(i); });
  double next = first == SubBucketQueue<Improvement>::kNone ? kUnreachedDistance : static_cast<double>(first);
  reduce_all(&next, 1, MPI_MIN, run);  // also the barrier after which every root entry is visible
  return next;
}

void DistributedSssp::open_bucket(ThreadState& ts, SsspRun& run) {
  if (omp_get_thread_num() == 0) ++run.buckets;
  if (++ts.bucket_epoch == kNoEpoch) {
    // The one-byte marks wrapped: a mark left by a bucket 255 buckets ago would read as
    // settled in this one. Every thread is here in the same iteration.
    ts.bucket_epoch = kNoEpoch + 1;
#pragma omp for schedule(static)
    for (int64_t x = 0; x < dist_of_.block; ++x) settled_mark_[x] = kNoEpoch;
  }
  ts.settled.clear();
  ts.settled_degrees = 0;
}

}  // namespace g500::sssp
