#include "sssp/sssp.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>

#include "util/timer.hpp"

namespace g500 {
namespace {

inline uint64_t bits_of(double d) { return std::bit_cast<uint64_t>(d); }
inline double double_of(uint64_t b) { return std::bit_cast<double>(b); }

}  // namespace

DistributedSssp::DistributedSssp(const WeightedLocalGraph& graph, const ProcessGrid& grid, const SsspOptions& options)
    : wg_(graph),
      graph_(graph.graph),
      grid_(grid),
      dist_of_(graph.graph.dist),
      options_(options),
      inverse_delta_(1.0 / options.delta),
      alltoallv_(comm::find_alltoallv("mpi")),
      nthreads_(omp_get_max_threads()) {
  const int64_t block = dist_of_.block;
  dist_.assign(block, kUnreachedDistance);
  parent_.assign(block, -1);
  sent_best_.assign(dist_of_.col_set_size(), bits_of(kUnreachedDistance));
  mark_.assign(block, 0);
  settled_mark_.assign(block, 0);
  out_ = comm::make_thread_buckets(nthreads_, grid.rows());
  gather_counts_.assign(grid.cols(), 0);
  gather_displs_.assign(grid.cols(), 0);
}

void DistributedSssp::apply(const comm::Received& in, int64_t k) {
  const auto& rec = in.records;
  for (size_t r = 0; r < rec.size(); r += 3) {
    const LocalId x = static_cast<LocalId>(rec[r]);
    const double nd = double_of(rec[r + 1]);
    if (!(nd < dist_[x])) continue;
    dist_[x] = nd;
    parent_[x] = static_cast<int64_t>(rec[r + 2]);
    const int64_t b = bucket_of(nd);
    if (b == k) {
      if (mark_[x] != epoch_) {
        mark_[x] = epoch_;
        next_.push_back(x);
      }
    } else {
      if (static_cast<size_t>(b) >= buckets_.size()) buckets_.resize(b + 1);
      buckets_[b].push_back(x);
    }
  }
}

void DistributedSssp::relax(const std::vector<LocalId>& vertices, int64_t k, bool heavy, SsspRun& run) {
  const Distribution& d = dist_of_;
  // Expand: (row-local id, distance) of the vertices, gathered along the grid row.
  std::vector<uint64_t> mine(vertices.size() * 2);
  {
    comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
    const uint64_t base = static_cast<uint64_t>(d.col) * static_cast<uint64_t>(d.block);
    for (size_t n = 0; n < vertices.size(); ++n) {
      mine[2 * n] = base + vertices[n];
      mine[2 * n + 1] = bits_of(dist_[vertices[n]]);
    }
  }
  {
    comm::ScopedPhase timed(run.profile, comm::Phase::kAllgatherv);
    int count = static_cast<int>(mine.size());
    MPI_Allgather(&count, 1, MPI_INT, gather_counts_.data(), 1, MPI_INT, grid_.row_comm());
    int total = 0;
    for (int r = 0; r < grid_.cols(); ++r) {
      gather_displs_[r] = total;
      total += gather_counts_[r];
    }
    gathered_.resize(total);
    MPI_Allgatherv(mine.data(), count, MPI_UINT64_T, gathered_.data(), gather_counts_.data(), gather_displs_.data(),
                   MPI_UINT64_T, grid_.row_comm());
  }
  // Relax: candidates for column-set vertices, kept only when better than what was already sent.
  int64_t relaxed = 0;
  {
    comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
    comm::clear_thread_buckets(out_);
    const int64_t n = static_cast<int64_t>(gathered_.size() / 2);
    const float* weights = wg_.weights.data();
    const LocalId* neighbors = graph_.neighbors.data();
    const int64_t* starts = graph_.row_starts.data();
    const double limit = static_cast<double>(k + 1) * options_.delta;
    (void)limit;
#pragma omp parallel num_threads(nthreads_) reduction(+ : relaxed)
    {
      auto& buckets = out_[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 16)
      for (int64_t r = 0; r < n; ++r) {
        const int64_t x = static_cast<int64_t>(gathered_[2 * r]);
        const double dx = double_of(gathered_[2 * r + 1]);
        const uint64_t parent = static_cast<uint64_t>(d.global_from_row_local(x, d.row));
        int64_t e = starts[x], end = starts[x + 1];
        // First edge whose candidate leaves bucket k (weights ascending).
        int64_t lo = e, hi = end;
        while (lo < hi) {
          const int64_t mid = (lo + hi) / 2;
          if (bucket_of(dx + static_cast<double>(weights[mid])) <= k) lo = mid + 1;
          else hi = mid;
        }
        if (heavy) e = lo;
        else end = lo;
        relaxed += end - e;
        for (; e < end; ++e) {
          const double nd = dx + static_cast<double>(weights[e]);
          const LocalId u = neighbors[e];
          std::atomic_ref<uint64_t> best(sent_best_[u]);
          uint64_t seen = best.load(std::memory_order_relaxed);
          bool improved = false;
          while (nd < double_of(seen)) {
            if (best.compare_exchange_weak(seen, bits_of(nd), std::memory_order_relaxed)) {
              improved = true;
              break;
            }
          }
          if (!improved) continue;
          const uint64_t owner = d.by_block.divide(u);
          auto& out = buckets[owner];
          out.push_back(u - owner * static_cast<uint64_t>(d.block));
          out.push_back(bits_of(nd));
          out.push_back(parent);
        }
      }
    }
  }
  run.relaxations += relaxed;
  comm::Received in = comm::exchange(out_, grid_.col_comm(), alltoallv_, run.profile);
  comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
  apply(in, k);
}

SsspRun DistributedSssp::run(int64_t root) {
  SsspRun run;
  run.root = root;
  MPI_Barrier(grid_.world());
  Timer timer;
  const Distribution& d = dist_of_;
  std::fill(dist_.begin(), dist_.end(), kUnreachedDistance);
  std::fill(parent_.begin(), parent_.end(), int64_t{-1});
  std::fill(sent_best_.begin(), sent_best_.end(), bits_of(kUnreachedDistance));
  for (auto& b : buckets_) b.clear();
  if (buckets_.empty()) buckets_.resize(1);
  const int64_t first = d.owned_begin();
  if (root >= first && root < first + d.block) {
    dist_[root - first] = 0;
    parent_[root - first] = root;
    buckets_[0].push_back(static_cast<LocalId>(root - first));
  }
  std::vector<LocalId> active, settled;
  int64_t k = 0;
  for (;;) {
    // Smallest non-empty bucket over all processes (entries are valid while their distance still
    // falls in the bucket; stale ones are dropped here).
    int64_t local = std::numeric_limits<int64_t>::max();
    {
      comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
      for (size_t b = static_cast<size_t>(k); b < buckets_.size(); ++b) {
        auto& list = buckets_[b];
        bool any = false;
        for (LocalId x : list)
          if (bucket_of(dist_[x]) == static_cast<int64_t>(b)) {
            any = true;
            break;
          }
        if (any) {
          local = static_cast<int64_t>(b);
          break;
        }
        list.clear();
      }
    }
    {
      comm::ScopedPhase timed(run.profile, comm::Phase::kImbalance);
      MPI_Allreduce(&local, &k, 1, MPI_INT64_T, MPI_MIN, grid_.world());
    }
    if (k == std::numeric_limits<int64_t>::max()) break;
    ++run.buckets;
    ++bucket_epoch_;
    ++epoch_;
    active.clear();
    settled.clear();
    if (static_cast<size_t>(k) < buckets_.size()) {
      for (LocalId x : buckets_[k])
        if (bucket_of(dist_[x]) == k && mark_[x] != epoch_) {
          mark_[x] = epoch_;
          active.push_back(x);
        }
      buckets_[k].clear();
    }
    for (;;) {
      int64_t count = static_cast<int64_t>(active.size());
      {
        comm::ScopedPhase timed(run.profile, comm::Phase::kImbalance);
        MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, grid_.world());
      }
      if (count == 0) break;
      for (LocalId x : active)
        if (settled_mark_[x] != bucket_epoch_) {
          settled_mark_[x] = bucket_epoch_;
          settled.push_back(x);
        }
      ++epoch_;
      next_.clear();
      relax(active, k, false, run);
      ++run.phases;
      std::swap(active, next_);
    }
    relax(settled, k, true, run);
    ++run.phases;
    ++k;
  }
  run.seconds = timer.seconds();
  return run;
}

}  // namespace g500
