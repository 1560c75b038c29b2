// The pull heavy phases of delta-stepping (Meyer and Sanders 2003; pull as in Chakaravarthy et al.
// 2014): the unsettled vertices look, along their edges light enough to improve them, for the
// best candidate from the vertices settled in the bucket. pull_heavy() passes over the row set of
// Yoo's distribution (Nakao et al. 2021, section 4.3); pull_by_columns(), on grids with more
// columns than rows, over the smaller column set, by kernel 1's column index.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "sssp/select_lists.hpp"
#include "sssp/sssp.hpp"
#include "sssp/state_words.hpp"

namespace g500::sssp {
using namespace sssp_words;
namespace {

// The bits of the smallest float t >= 0 with holds(t), for a predicate that stays true for every
// larger t once true; above every float's bits when it holds for none.
template <class Predicate>
uint32_t first_bits_where(Predicate holds) {
  if (!holds(kInfinity)) return std::numeric_limits<uint32_t>::max();
  uint32_t low = 0, high = bits_of(kInfinity);  // the answer is in [low, high]
  while (low < high) {
    const uint32_t mid = low + (high - low) / 2;
    if (holds(float_of(mid)))
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

// The largest float <= x (x >= 0).
inline float float_at_most(double x) {
  const float f = static_cast<float>(x);
  return static_cast<double>(f) > x ? std::nextafter(f, 0.0F) : f;
}

// Which vertices the pull heavy phase of a bucket scans: the unsettled ones (bucket_of(t) >=
// bucket_end, i.e. t * inverse_width >= bucket_end, as floor(x) >= n iff x >= n) with an edge
// lighter than t - lower, by the lightest-weight byte of their list (light_bound_). Most vertices
// have none, and this test reads a byte instead of the list. Both conditions hold from some
// distance up, and distances order as their bits: the test is one integer comparison of t's bits
// with a threshold per byte value (in doubles, with its two conditions, it took 5 ns per vertex,
// half of a pull).
class PullSelection {
 public:
  PullSelection(double lower, double inverse_width, int64_t bucket_end) {
    const double end_scaled = static_cast<double>(bucket_end);
    const uint32_t unsettled = first_bits_where([&](float t) { return t * inverse_width >= end_scaled; });
    // The lowest candidate a list with this byte can give (settled distances are >= lower, and
    // the float sum rounds monotonically).
    const float settled_floor = float_at_most(lower);
    for (int b = 0; b < 256; ++b) {
      const float lightest =
          candidate(settled_floor, static_cast<float>(graph::lightest_weight_bound(static_cast<uint8_t>(b))));
      scanned_from_[b] = std::max(unsettled, first_bits_where([&](float t) { return lightest < t; }));
    }
  }
  bool operator()(uint32_t distance_bits, uint8_t bound) const { return distance_bits >= scanned_from_[bound]; }

 private:
  uint32_t scanned_from_[256];
};

// A lower bound of the distances settled in bucket k: k * delta, less a margin for its rounding.
inline double settled_lower_bound(int64_t k, double delta) { return static_cast<double>(k) * delta * (1 - 1e-12); }

// What a pull finds along list u of `lists` for a vertex at tentative distance t: the lowest
// candidate below t from the list's targets (at distances target_dist) and that target
// (kUnknownSource if none is below t), and where the scan stopped. Settled distances are >= lower.
struct Pulled {
  float best;
  graph::LocalId from;
  int64_t stop;
};
inline Pulled best_pulled(float t, float lower, const EdgeLists& lists, int64_t u, DistanceView target_dist) {
  Pulled p{t, DistributedSssp::kUnknownSource, lists.starts[u]};
  for (const int64_t end = lists.starts[u + 1]; p.stop < end; ++p.stop) {
    const float w = lists.weights[p.stop];
    // No target at distance >= lower gives less than best through this or a heavier edge (the
    // float sum rounds monotonically).
    if (candidate(lower, w) >= p.best) break;
    const float nd = candidate(target_dist[lists.targets[p.stop]], w);
    if (nd < p.best) {
      p.best = nd;
      p.from = lists.targets[p.stop];
    }
  }
  return p;
}

}  // namespace

int64_t DistributedSssp::pull_pass_size() const {
  return column_pull_ ? dist_of_.col_set_size() : dist_of_.row_set_size();
}

// Heavy phase by pulling: every unsettled vertex u of the row set looks, among its edges lighter
// than t(u) - k*delta (a prefix), for neighbours settled in bucket k and keeps the best candidate;
// candidates go to the owners along the grid row. Covers exactly the useful relaxations of the
// push heavy phase (settled targets need none; inner edges were relaxed by the light phases).
void DistributedSssp::pull_heavy(int64_t k, SsspRun& run) {
  const graph::Distribution& d = dist_of_;
  const int t = omp_get_thread_num();
  ThreadState& ts = threads_[t];
  const int nrows_grid = grid_.rows(), ncols = grid_.cols();
  // Distances of the column set: with one grid row the owned block itself; otherwise the settled
  // vertices of the column are gathered with their distances into col_dist_ (reset to infinity
  // at the start of the search). A neighbour's candidate is taken whatever its bucket: any
  // tentative distance is the length of a path, so relaxing from it is safe, and no mark is read
  // (one random access per scanned edge instead of two).
  if (nrows_grid > 1) {
    const int64_t n = gather_records(&ThreadState::settled, static_cast<uint64_t>(d.row) * d.block, grid_.col_comm(),
                                     nrows_grid, run);
    const uint64_t* rec = gathered_view_->data();
#pragma omp for schedule(static)
    for (int64_t r = 0; r < n; ++r) col_dist_[record_id(rec[r])] = record_distance(rec[r]);
  }
  // Tentative distances of the row set (with one grid column: the owned block itself).
  if (ncols > 1) gather_distances(row_dist_, d.col, grid_.row_comm(), run);
  const DistanceView row_dist = row_distances(), col_dist = column_distances();
  const double lower = settled_lower_bound(k, options_.delta);
  const uint64_t block = static_cast<uint64_t>(d.block);
  const int64_t bucket_end = (k + 1) * sub_buckets_;
  int64_t scanned = 0;
  const PullSelection selected(lower, inverse_width_, bucket_end);
  const float settled_floor = float_at_most(lower);
  auto scans = [&](int64_t u) { return selected(row_dist.bits(u), light_bound_[u]); };
  const EdgeLists rows = row_lists();
  auto scan = [&](int64_t u) {
    const float tu = row_dist[u];
    // The best neighbour (column-local) and its candidate.
    const auto [best, from, e] = best_pulled(tu, settled_floor, rows, u, col_dist);
    scanned += e - rows.starts[u];
    if (!(best < tu)) return;
    const uint64_t owner = ncols > 1 ? d.by_block.divide(static_cast<uint64_t>(u)) : 0;
    const graph::LocalId offset = static_cast<graph::LocalId>(u - owner * block);
    const graph::LocalId source = from == kUnknownSource ? from : pull_source_base_ + from;
    if (static_cast<int>(owner) == d.col) {
      improve(offset, best, source, ts);
    } else {
      auto& out = out_row_[t][owner];
      out.push_back(candidate_word(offset, source));
      out.push_back(bits_of(best));
    }
  };
  for_selected(rows, col_dist, scans, scan);
  ts.relaxations += scanned;
  ts.pull_scans += scanned;
  if (ncols > 1) exchange_candidates(out_row_, grid_.row_comm(), run);
}

// Heavy phase by pulling into the column set (grids with more columns than rows, which have the
// column index): every unsettled vertex v of the column set looks, among its edges lighter than
// t(v) - k*delta, for the best candidate from its row-set neighbours, whose tentative distances
// are gathered along the grid row; the candidates go to their owners along the grid column, as
// those of a push. The relaxations of pull_heavy(), from the other side of the block: a pass over
// N / C vertices instead of N / R.
void DistributedSssp::pull_by_columns(int64_t k, SsspRun& run) {
  const graph::Distribution& d = dist_of_;
  const int t = omp_get_thread_num();
  ThreadState& ts = threads_[t];
  if (grid_.cols() > 1) gather_distances(row_dist_, d.col, grid_.row_comm(), run);
  if (grid_.rows() > 1) gather_distances(col_dist_, d.row, grid_.col_comm(), run);
  const DistanceView row_dist = row_distances(), col_dist = column_distances();
  const double lower = settled_lower_bound(k, options_.delta);
  const PullSelection selected(lower, inverse_width_, (k + 1) * sub_buckets_);
  const float settled_floor = float_at_most(lower);
  auto scans = [&](int64_t v) { return selected(col_dist.bits(v), column_light_bound_[v]); };
  const EdgeLists columns = column_lists();
  int64_t scanned = 0;
  auto scan = [&](int64_t v) {
    const float tv = col_dist[v];
    const auto [best, from, e] = best_pulled(tv, settled_floor, columns, v, row_dist);  // from: row-local
    scanned += e - columns.starts[v];
    if (!(best < tv)) return;
    ts.candidates.push_back(
        {static_cast<graph::LocalId>(v), from == kUnknownSource ? from : source_base_ + from, best});
    if (ts.candidates.size() >= kCandidateBatch) apply_candidates(ts, t);
  };
  for_selected(columns, row_dist, scans, scan);
  apply_candidates(ts, t);
  ts.relaxations += scanned;
  ts.pull_scans += scanned;
  if (grid_.rows() > 1) exchange_candidates(out_col_, grid_.col_comm(), run);
}

}  // namespace g500::sssp
