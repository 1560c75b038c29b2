// The heavy phase of a settled bucket of delta-stepping (Meyer and Sanders 2003): every vertex
// settled in the bucket relaxes, once, its remaining edges, by pushing from the settled vertices
// or by pulling into the unsettled ones (pull.cpp), whichever the work estimate says is cheaper
// (direction optimisation as in Chakaravarthy et al. 2014 and Beamer et al. 2012).
#include <omp.h>

#include <algorithm>

#include "sssp/sssp.hpp"
#include "sssp/state_words.hpp"

namespace g500::sssp {
using namespace sssp_words;

void DistributedSssp::heavy_phase(int64_t k, double push_work, ThreadState& ts, SsspRun& run) {
  const bool master = omp_get_thread_num() == 0;
  const double heavy_start = master ? omp_get_wtime() : 0;
  const double total_directed_edges = static_cast<double>(graph_.global_directed_edges);
  // Pull costs at least a pass over the row or column sets: no estimate below that.
  const double pull_pass_floor = static_cast<double>(pull_pass_size()) * grid_.size();
  bool pull = false;
  if (options_.pull_factor > 0 && push_work * 1024 >= total_directed_edges &&
      push_work > options_.pull_factor * pull_pass_floor)
    pull = pull_work_estimate(k, run) * options_.pull_factor < push_work;
  if (pull) {
    column_pull_ ? pull_by_columns(k, run) : pull_heavy(k, run);
    if (master) ++run.pull_phases;
  } else {
    push_heavy(k, run);
  }
  if (master) ++run.phases;
    // Every candidate of the phase must be in before a vertex is put into a bucket by its distance.
#pragma omp barrier
  place_improved(kNoBucket, ts);  // all beyond bucket k: into their sub-buckets
  if (master) (pull ? run.pull_seconds : run.push_seconds) += omp_get_wtime() - heavy_start;
}

// Pull work of the heavy phase of bucket k: every unsettled vertex u with tentative distance t(u)
// scans its edges lighter than t(u) - k*delta (about deg(u) * min(1, t(u) - k*delta) with weights
// uniform in [0, 1)), plus a pass over the row set. Collective.
double DistributedSssp::pull_work_estimate(int64_t k, SsspRun& run) {
  const graph::Distribution& d = dist_of_;
  const double lower = static_cast<double>(k) * options_.delta;
  const int64_t bucket_end = (k + 1) * sub_buckets_;
  // The first kExact vertices exactly (with the degree-order renumbering, the busiest ones), then
  // a sample: one run of kRun vertices in every kSampleEvery, scaled up (degrees vary slowly along
  // a degree-ordered block; without renumbering the generator has scrambled the ids). The whole
  // block when it is small. Only a decision depends on it.
  constexpr int64_t kExact = 8192, kRun = 64, kSampleEvery = 8;
  const int64_t every = d.block >= 64 * kExact ? kSampleEvery : 1;
  const int64_t exact_end = every == 1 ? d.block : kExact;
  auto pull_of = [&](int64_t x) {
    const double t = distance(static_cast<graph::LocalId>(x));
    return degree_[x] == 0 || bucket_of(t) < bucket_end ? 0.0
                                                        : static_cast<double>(degree_[x]) * std::min(1.0, t - lower);
  };
  double exact = 0, sampled = 0;
#pragma omp for schedule(static) nowait
  for (int64_t x = 0; x < exact_end; ++x) exact += pull_of(x);
  const int64_t runs = (d.block - exact_end + kRun - 1) / kRun;
#pragma omp for schedule(static) nowait
  for (int64_t run_index = 0; run_index < runs; run_index += every) {
    const int64_t begin = exact_end + run_index * kRun, end = std::min(d.block, begin + kRun);
    for (int64_t x = begin; x < end; ++x) sampled += pull_of(x);
  }
  double pull = exact + sampled * static_cast<double>(every);
  if (omp_get_thread_num() == 0) pull += static_cast<double>(pull_pass_size());
  reduce_all(&pull, 1, MPI_SUM, run);
  return pull;
}

}  // namespace g500::sssp
