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
  improved_.resize(nthreads_);
  out_row_ = comm::make_thread_buckets(nthreads_, grid.cols());
  col_stamp_.assign(dist_of_.col_set_size(), 0);
  row_dist_.resize(dist_of_.row_set_size());
  col_dist_.resize(dist_of_.col_set_size());
  proposal_.resize(dist_of_.row_set_size());
  gather_counts_.assign(grid.cols(), 0);
  gather_displs_.assign(grid.cols(), 0);
}

void DistributedSssp::improve(LocalId x, double nd, std::vector<LocalId>& improved) {
  std::atomic_ref<double> slot(dist_[x]);
  double seen = slot.load(std::memory_order_relaxed);
  while (nd < seen)
    if (slot.compare_exchange_weak(seen, nd, std::memory_order_relaxed)) {
      if (std::atomic_ref<uint32_t>(mark_[x]).exchange(epoch_, std::memory_order_relaxed) != epoch_) improved.push_back(x);
      return;
    }
}

void DistributedSssp::relax(const std::vector<LocalId>& vertices, int64_t k, bool heavy, SsspRun& run) {
  const Distribution& d = dist_of_;
  const int ncols = grid_.cols(), nrows_grid = grid_.rows();
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
  const std::vector<uint64_t>* records = &mine;
  if (ncols > 1) {
    comm::ScopedPhase timed(run.profile, comm::Phase::kAllgatherv);
    int count = static_cast<int>(mine.size());
    MPI_Allgather(&count, 1, MPI_INT, gather_counts_.data(), 1, MPI_INT, grid_.row_comm());
    int total = 0;
    for (int r = 0; r < ncols; ++r) {
      gather_displs_[r] = total;
      total += gather_counts_[r];
    }
    gathered_.resize(total);
    MPI_Allgatherv(mine.data(), count, MPI_UINT64_T, gathered_.data(), gather_counts_.data(), gather_displs_.data(),
                   MPI_UINT64_T, grid_.row_comm());
    records = &gathered_;
  }
  // Relax: candidates for owned vertices are applied at once; the others are sent to their owners
  // when better than what this process already sent.
  int64_t relaxed = 0;
  for (auto& list : improved_) list.clear();
  {
    comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
    if (nrows_grid > 1) comm::clear_thread_buckets(out_);
    const uint64_t* gathered = records->data();
    const int64_t n = static_cast<int64_t>(records->size() / 2);
    const float* weights = wg_.weights.data();
    const LocalId* neighbors = graph_.neighbors.data();
    const int64_t* starts = graph_.rows.starts();
    const uint64_t my_row = static_cast<uint64_t>(d.row);
    const uint64_t block = static_cast<uint64_t>(d.block);
#pragma omp parallel num_threads(nthreads_) reduction(+ : relaxed)
    {
      const int t = omp_get_thread_num();
      auto& improved = improved_[t];
#pragma omp for schedule(dynamic, 16)
      for (int64_t r = 0; r < n; ++r) {
        const int64_t x = static_cast<int64_t>(gathered[2 * r]);
        const double dx = double_of(gathered[2 * r + 1]);
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
        if (nrows_grid == 1) {
          for (; e < end; ++e) improve(neighbors[e], dx + static_cast<double>(weights[e]), improved);
          continue;
        }
        auto& buckets = out_[t];
        for (; e < end; ++e) {
          const double nd = dx + static_cast<double>(weights[e]);
          const LocalId u = neighbors[e];
          const uint64_t owner = d.by_block.divide(u);
          const LocalId offset = static_cast<LocalId>(u - owner * block);
          if (owner == my_row) {
            improve(offset, nd, improved);
            continue;
          }
          std::atomic_ref<uint64_t> best(sent_best_[u]);
          uint64_t seen = best.load(std::memory_order_relaxed);
          bool better = false;
          while (nd < double_of(seen))
            if (best.compare_exchange_weak(seen, bits_of(nd), std::memory_order_relaxed)) {
              better = true;
              break;
            }
          if (!better) continue;
          auto& out = buckets[owner];
          out.push_back(offset);
          out.push_back(bits_of(nd));
        }
      }
    }
  }
  run.relaxations += relaxed;
  if (nrows_grid > 1) {
    comm::Received in = comm::exchange(out_, grid_.col_comm(), alltoallv_, run.profile);
    comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
    const int64_t n = static_cast<int64_t>(in.records.size() / 2);
    const uint64_t* rec = in.records.data();
#pragma omp parallel num_threads(nthreads_)
    {
      auto& improved = improved_[omp_get_thread_num()];
#pragma omp for schedule(static)
      for (int64_t r = 0; r < n; ++r) improve(static_cast<LocalId>(rec[2 * r]), double_of(rec[2 * r + 1]), improved);
    }
  }
  place_improved(k, run);
}

void DistributedSssp::place_improved(int64_t k, SsspRun& run) {
  // Improved vertices: into the next active set (still in bucket k) or a later bucket.
  comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
  for (const auto& list : improved_)
    for (LocalId x : list) {
      const int64_t b = bucket_of(dist_[x]);
      if (b == k) {
        next_.push_back(x);
      } else {
        if (static_cast<size_t>(b) >= buckets_.size()) buckets_.resize(b + 1);
        buckets_[b].push_back(x);
      }
    }
}

// Should the heavy phase of bucket k pull? Push relaxes the remaining edges of every vertex
// settled in k (about their degrees); pull scans, for every unsettled vertex u with tentative
// distance t(u), the edges lighter than t(u) - k*delta (about deg(u) * min(1, t(u) - k*delta) with
// weights uniform in [0, 1)), plus a pass over the row set. Collective.
bool DistributedSssp::heavy_should_pull(const std::vector<LocalId>& settled, int64_t k, SsspRun& run) {
  if (options_.pull_factor <= 0) return false;
  comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
  const Distribution& d = dist_of_;
  double cost[2] = {0, 0};  // push, pull
  for (LocalId x : settled) cost[0] += static_cast<double>(graph_.owned_degree[x]);
  MPI_Allreduce(MPI_IN_PLACE, cost, 1, MPI_DOUBLE, MPI_SUM, grid_.world());
  if (cost[0] * 1024 < static_cast<double>(graph_.global_directed_edges)) return false;
  const double lower = static_cast<double>(k) * options_.delta;
  double pull = static_cast<double>(d.row_set_size());
#pragma omp parallel for reduction(+ : pull) schedule(static) num_threads(nthreads_)
  for (int64_t x = 0; x < d.block; ++x) {
    const double t = dist_[x];
    if (graph_.owned_degree[x] == 0 || bucket_of(t) <= k) continue;
    pull += static_cast<double>(graph_.owned_degree[x]) * std::min(1.0, t - lower);
  }
  cost[1] = pull;
  MPI_Allreduce(MPI_IN_PLACE, cost + 1, 1, MPI_DOUBLE, MPI_SUM, grid_.world());
  return cost[1] * options_.pull_factor < cost[0];
}

// Heavy phase by pulling: every unsettled vertex u of the row set looks, among its edges lighter
// than t(u) - k*delta (a prefix), for neighbours settled in bucket k and keeps the best candidate;
// candidates go to the owners along the grid row. Covers exactly the useful relaxations of the
// push heavy phase (settled targets need none; inner edges were relaxed by the light phases).
void DistributedSssp::pull_heavy(const std::vector<LocalId>& settled, int64_t k, SsspRun& run) {
  const Distribution& d = dist_of_;
  ++bucket_stamp_;
  // The settled vertices of bucket k with their distances over the column set.
  std::vector<uint64_t> mine(settled.size() * 2);
  const uint64_t base = static_cast<uint64_t>(d.row) * static_cast<uint64_t>(d.block);
  for (size_t n = 0; n < settled.size(); ++n) {
    mine[2 * n] = base + settled[n];
    mine[2 * n + 1] = bits_of(dist_[settled[n]]);
  }
  const std::vector<uint64_t>* records = &mine;
  {
    comm::ScopedPhase timed(run.profile, comm::Phase::kAllgatherv);
    if (grid_.rows() > 1) {
      std::vector<int> counts(grid_.rows()), displs(grid_.rows());
      int count = static_cast<int>(mine.size());
      MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, grid_.col_comm());
      int total = 0;
      for (int r = 0; r < grid_.rows(); ++r) {
        displs[r] = total;
        total += counts[r];
      }
      gathered_.resize(total);
      MPI_Allgatherv(mine.data(), count, MPI_UINT64_T, gathered_.data(), counts.data(), displs.data(), MPI_UINT64_T,
                     grid_.col_comm());
      records = &gathered_;
    }
    if (grid_.cols() > 1)
      MPI_Allgather(dist_.data(), static_cast<int>(d.block), MPI_DOUBLE, row_dist_.data(), static_cast<int>(d.block),
                    MPI_DOUBLE, grid_.row_comm());
    else
      std::copy(dist_.begin(), dist_.end(), row_dist_.begin());
  }
  for (auto& list : improved_) list.clear();
  int64_t scanned = 0;
  {
    comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
    const int64_t n = static_cast<int64_t>(records->size() / 2);
    const uint64_t* rec = records->data();
    for (int64_t r = 0; r < n; ++r) {
      col_stamp_[rec[2 * r]] = bucket_stamp_;
      col_dist_[rec[2 * r]] = double_of(rec[2 * r + 1]);
    }
    const int ncols = grid_.cols();
    if (ncols > 1) comm::clear_thread_buckets(out_row_);
    const float* weights = wg_.weights.data();
    const LocalId* neighbors = graph_.neighbors.data();
    const int64_t* starts = graph_.rows.starts();
    const int64_t nrows = d.row_set_size();
    // Settled distances are >= k * delta up to rounding.
    const double lower = static_cast<double>(k) * options_.delta * (1 - 1e-12);
    const uint32_t stamp = bucket_stamp_;
    const uint64_t block = static_cast<uint64_t>(d.block);
#pragma omp parallel num_threads(nthreads_) reduction(+ : scanned)
    {
      const int t = omp_get_thread_num();
      auto& improved = improved_[t];
#pragma omp for schedule(dynamic, 512)
      for (int64_t u = 0; u < nrows; ++u) {
        const double tu = row_dist_[u];
        if (bucket_of(tu) <= k) continue;
        double best = tu;
        int64_t e = starts[u];
        const int64_t end = starts[u + 1];
        for (; e < end; ++e) {
          const double w = static_cast<double>(weights[e]);
          if (lower + w >= best) break;
          const LocalId v = neighbors[e];
          if (col_stamp_[v] != stamp) continue;
          const double nd = col_dist_[v] + w;
          if (nd < best) best = nd;
        }
        scanned += e - starts[u];
        if (!(best < tu)) continue;
        const uint64_t owner = d.by_block.divide(static_cast<uint64_t>(u));
        const LocalId offset = static_cast<LocalId>(u - owner * block);
        if (static_cast<int>(owner) == d.col) {
          improve(offset, best, improved);
        } else {
          auto& out = out_row_[t][owner];
          out.push_back(offset);
          out.push_back(bits_of(best));
        }
      }
    }
  }
  run.relaxations += scanned;
  if (grid_.cols() > 1) {
    comm::Received in = comm::exchange(out_row_, grid_.row_comm(), alltoallv_, run.profile);
    comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
    const int64_t n = static_cast<int64_t>(in.records.size() / 2);
    const uint64_t* rec = in.records.data();
#pragma omp parallel num_threads(nthreads_)
    {
      auto& improved = improved_[omp_get_thread_num()];
#pragma omp for schedule(static)
      for (int64_t r = 0; r < n; ++r) improve(static_cast<LocalId>(rec[2 * r]), double_of(rec[2 * r + 1]), improved);
    }
  }
  place_improved(k, run);
}

// Parents from the final distances: for every reached v of the row set, a neighbour u of the
// column set with dist[u] + w == dist[v] and dist[u] < dist[v] (a zero-weight edge to an equal
// distance is taken only from a smaller vertex id, which keeps the tree acyclic); the processes of
// the grid row reduce their proposals (maximum id) to the owner.
void DistributedSssp::compute_parents(int64_t root, SsspRun& run) {
  const Distribution& d = dist_of_;
  const int block = static_cast<int>(d.block);
  {
    comm::ScopedPhase timed(run.profile, comm::Phase::kAllgatherv);
    if (grid_.cols() > 1) MPI_Allgather(dist_.data(), block, MPI_DOUBLE, row_dist_.data(), block, MPI_DOUBLE, grid_.row_comm());
    else std::copy(dist_.begin(), dist_.end(), row_dist_.begin());
    if (grid_.rows() > 1) MPI_Allgather(dist_.data(), block, MPI_DOUBLE, col_dist_.data(), block, MPI_DOUBLE, grid_.col_comm());
    else std::copy(dist_.begin(), dist_.end(), col_dist_.begin());
  }
  {
    comm::ScopedPhase timed(run.profile, comm::Phase::kCalculation);
    const int64_t nrows = d.row_set_size();
    const float* weights = wg_.weights.data();
    const LocalId* neighbors = graph_.neighbors.data();
    const int64_t* starts = graph_.rows.starts();
#pragma omp parallel for schedule(dynamic, 1024) num_threads(nthreads_)
    for (int64_t v = 0; v < nrows; ++v) {
      const double dv = row_dist_[v];
      int64_t found = -1;
      const int64_t gv = d.global_from_row_local(v, d.row);
      if (dv < kUnreachedDistance && gv != root) {
        for (int64_t e = starts[v]; e < starts[v + 1]; ++e) {
          const double du = col_dist_[neighbors[e]], w = static_cast<double>(weights[e]);
          if (du + w != dv) continue;
          const int64_t gu = d.global_from_col_local(neighbors[e], d.col);
          if (du < dv || gu < gv) {
            found = gu;
            break;
          }
        }
      }
      proposal_[v] = found;
    }
  }
  comm::ScopedPhase timed(run.profile, comm::Phase::kAlltoallv);
  if (grid_.cols() > 1)
    MPI_Reduce_scatter_block(proposal_.data(), parent_.data(), block, MPI_INT64_T, MPI_MAX, grid_.row_comm());
  else
    std::copy(proposal_.begin(), proposal_.end(), parent_.begin());
  const int64_t first = d.owned_begin();
  if (root >= first && root < first + d.block) parent_[root - first] = root;
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
    ++epoch_;
    if (heavy_should_pull(settled, k, run)) {
      pull_heavy(settled, k, run);
      ++run.pull_phases;
    } else {
      relax(settled, k, true, run);
    }
    ++run.phases;
    ++k;
  }
  compute_parents(root, run);
  run.seconds = timer.seconds();
  return run;
}

}  // namespace g500
