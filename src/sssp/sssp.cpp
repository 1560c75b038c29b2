// Distributed delta-stepping (Meyer and Sanders 2003) with push/pull heavy phases and bucket
// fusion; see sssp.hpp for the algorithm and docs/sssp.md for the measurements behind it.
#include "sssp/sssp.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>

#include "util/huge_pages.hpp"
#include "util/timer.hpp"

namespace g500 {
namespace {

// Non-negative floats order as their bits (as unsigned integers); infinity above every distance.
inline uint32_t bits_of(float d) { return std::bit_cast<uint32_t>(d); }
inline float float_of(uint32_t b) { return std::bit_cast<float>(b); }
constexpr float kInfinity = std::numeric_limits<float>::infinity();
// A vertex's search state: its tentative distance's bits above the id of the vertex whose candidate
// set it. One atomic minimum lowers both, so the final word names the source of the final
// distance, without a race between threads.
inline uint64_t state_of(float d, LocalId from) { return (uint64_t{bits_of(d)} << 32) | from; }
inline float distance_of(uint64_t state) { return float_of(static_cast<uint32_t>(state >> 32)); }
inline LocalId source_of(uint64_t state) { return static_cast<LocalId>(state); }
// A gathered record: a row-local or column-local id above a distance's bits.
inline uint64_t record_of(uint64_t id, float d) { return (id << 32) | bits_of(d); }
inline int64_t record_id(uint64_t record) { return static_cast<int64_t>(record >> 32); }
inline float record_distance(uint64_t record) { return float_of(static_cast<uint32_t>(record)); }
// The first word of a candidate sent to its owner: the target's owned offset, and above it the
// source's id; the second word is the distance's bits.
inline uint64_t candidate_word(LocalId offset, LocalId from) { return (uint64_t{from} << 32) | offset; }
inline LocalId candidate_offset(uint64_t word) { return static_cast<LocalId>(word); }
inline LocalId candidate_source(uint64_t word) { return static_cast<LocalId>(word >> 32); }

constexpr int kSlotStride = 8;  // doubles per thread in the reduction slots (one cache line)
constexpr uint8_t kNoEpoch = 0;
// Candidates buffered before apply_candidates(): enough to overlap many misses, few enough to stay
// in the first-level cache.
constexpr size_t kCandidateBatch = 1024;
// light_bound_: lightest weight of a row rounded down to 1/256 (weights below 254/256 keep their
// value, heavier ones are bounded by 254/256); 255 marks a row without edges.
constexpr double kLightBoundScale = 256;
constexpr uint8_t kLightBoundMax = 254, kNoEdges = 255;
// What a light_bound_ byte says: a lower bound of the row's weights (infinity: no edges).
inline double lightest_weight_bound(uint8_t bound) {
  return bound == kNoEdges ? std::numeric_limits<double>::infinity() : static_cast<double>(bound) / kLightBoundScale;
}
// light_bound_ bytes of the n lists (rows or columns) of an index whose weights ascend.
std::vector<uint8_t> lightest_weight_bounds(const int64_t* starts, int64_t n, const float* weights) {
  std::vector<uint8_t> bounds(n);
#pragma omp parallel for schedule(static)
  for (int64_t x = 0; x < n; ++x) {
    if (starts[x] == starts[x + 1]) {
      bounds[x] = kNoEdges;
      continue;
    }
    const double scaled = std::floor(static_cast<double>(weights[starts[x]]) * kLightBoundScale);
    bounds[x] = static_cast<uint8_t>(std::min(scaled, static_cast<double>(kLightBoundMax)));
  }
  return bounds;
}
// The candidate an edge of weight w gives a vertex at distance d: a float sum, as the reference's.
inline float candidate(float d, float w) { return d + w; }

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
    for (int b = 0; b < 256; ++b) {
      const double lightest = lower + lightest_weight_bound(static_cast<uint8_t>(b));
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
  LocalId from;
  int64_t stop;
};
inline Pulled best_pulled(float t, double lower, const EdgeLists& lists, int64_t u, DistanceView target_dist) {
  Pulled p{t, DistributedSssp::kUnknownSource, lists.starts[u]};
  for (const int64_t end = lists.starts[u + 1]; p.stop < end; ++p.stop) {
    const float w = lists.weights[p.stop];
    // No target at distance >= lower gives less than best through this or a heavier edge (the
    // float sum rounds monotonically).
    if (lower + static_cast<double>(w) >= p.best) break;
    const float nd = candidate(target_dist[lists.targets[p.stop]], w);
    if (nd < p.best) {
      p.best = nd;
      p.from = lists.targets[p.stop];
    }
  }
  return p;
}

}  // namespace

DistributedSssp::DistributedSssp(const WeightedLocalGraph& graph, const ProcessGrid& grid, const SsspOptions& options)
    : wg_(graph),
      graph_(graph.graph),
      grid_(grid),
      dist_of_(graph.graph.dist),
      options_(options),
      sub_buckets_(std::max(1, options.sub_buckets)),
      inverse_width_(static_cast<double>(sub_buckets_) / options.delta),
      alltoallv_(comm::find_alltoallv("mpi")),
      nthreads_(omp_get_max_threads()),
      fusion_(grid.cols() == 1 && options.fusion_limit > 0),
      column_pull_(!graph.columns.empty()) {
  const int64_t block = dist_of_.block;
  renumbered_ = graph_.renumbering.active();
  assign_huge(state_, static_cast<size_t>(block), state_of(kInfinity, kUnknownSource));
  parent_.assign(block, -1);
  degree_ = graph_.owned_degrees_in_graph_order();
  dist_out_.assign(block, kUnreachedDistance);
  if (renumbered_) parent_graph_.assign(block, -1);
  if (grid.rows() > 1) sent_best_.assign(dist_of_.col_set_size(), bits_of(kInfinity));
  settled_mark_.assign(block, kNoEpoch);
  // The parents' sources need one id space: the row set on a one-row grid (every process of the
  // row has its tables), else the column set on a one-column grid.
  notes_by_row_ = grid.rows() == 1;
  parent_notes_ = (grid.rows() == 1 || grid.cols() == 1) && options.parent_notes;
  if (!notes_by_row_ && grid.cols() == 1) source_base_ = static_cast<LocalId>(dist_of_.row * block);
  if (notes_by_row_) pull_source_base_ = static_cast<LocalId>(dist_of_.col * block);
  threads_.resize(nthreads_);
  out_col_ = comm::make_thread_buckets(nthreads_, grid.rows());
  out_row_ = comm::make_thread_buckets(nthreads_, grid.cols());
  if (grid.rows() > 1) {
    col_dist_.resize(dist_of_.col_set_size());
  }
  if (grid.cols() > 1) {
    row_dist_.resize(dist_of_.row_set_size());
    proposal_.resize(dist_of_.row_set_size());
  }
  records_.resize(static_cast<size_t>(block));
  gather_counts_.assign(std::max(grid.rows(), grid.cols()), 0);
  gather_displs_.assign(std::max(grid.rows(), grid.cols()), 0);
  reduce_slots_.assign(static_cast<size_t>(nthreads_) * kSlotStride, 0.0);
  light_bound_ = lightest_weight_bounds(graph_.rows.starts(), dist_of_.row_set_size(), wg_.weights.data());
  if (column_pull_)
    column_light_bound_ = lightest_weight_bounds(wg_.columns.starts.data(), dist_of_.col_set_size(), wg_.columns.weights.data());
}

bool DistributedSssp::may_have_inner_edge(int64_t x, float dx, int64_t k) const {
  // The bound is <= the lightest weight, and rounding is monotonic: when even the bound takes the
  // candidate out of bucket k, every edge of the row does (the test of relax_row).
  return (dx + lightest_weight_bound(light_bound_[x])) * inverse_width_ < static_cast<double>((k + 1) * sub_buckets_);
}

// A plain load, though other threads may be lowering the word: an aligned 64-bit load is atomic on
// the machines we build for, and a relaxed atomic load (__atomic_load_n) measured 8 % slower over
// the whole search (3 + 3 alternating rounds), as it keeps the compiler from optimizing the loops
// that read many distances.
float DistributedSssp::distance(LocalId x) const { return distance_of(state_[x]); }

DistanceView DistributedSssp::row_distances() const {
  return grid_.cols() > 1 ? DistanceView::of_floats(row_dist_.data()) : DistanceView::of_states(state_.data());
}

DistanceView DistributedSssp::column_distances() const {
  return grid_.rows() > 1 ? DistanceView::of_floats(col_dist_.data()) : DistanceView::of_states(state_.data());
}

void DistributedSssp::gather_distances(std::vector<float>& out, int index, MPI_Comm comm, SsspRun& run) {
  float* mine = out.data() + static_cast<int64_t>(index) * dist_of_.block;
#pragma omp for schedule(static)
  for (int64_t x = 0; x < dist_of_.block; ++x) mine[x] = distance(static_cast<LocalId>(x));
#pragma omp master
  {
    comm::ScopedPhase timed(run.profile, comm::Phase::kAllgatherv);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out.data(), static_cast<int>(dist_of_.block), MPI_FLOAT, comm);
  }
#pragma omp barrier
}

void DistributedSssp::reduce_all(double* values, int count, MPI_Op op, SsspRun& run) {
  const int t = omp_get_thread_num();
  std::copy(values, values + count, &reduce_slots_[static_cast<size_t>(t) * kSlotStride]);
#pragma omp barrier
#pragma omp master
  {
    for (int i = 0; i < count; ++i) {
      double r = reduce_slots_[i];
      for (int other = 1; other < nthreads_; ++other) {
        const double v = reduce_slots_[static_cast<size_t>(other) * kSlotStride + i];
        r = op == MPI_MIN ? std::min(r, v) : r + v;
      }
      reduce_result_[i] = r;
    }
    if (grid_.size() > 1) {
      comm::ScopedPhase timed(run.profile, comm::Phase::kImbalance);
      MPI_Allreduce(MPI_IN_PLACE, reduce_result_, count, MPI_DOUBLE, op, grid_.world());
    }
  }
#pragma omp barrier
  std::copy(reduce_result_, reduce_result_ + count, values);
}

int64_t DistributedSssp::gather_records(std::vector<LocalId> ThreadState::*list, uint64_t id_base, MPI_Comm comm,
                                        int comm_size, SsspRun& run) {
  const int t = omp_get_thread_num();
  ThreadState& ts = threads_[t];
  std::vector<LocalId>& mine = ts.*list;
  reduce_slots_[static_cast<size_t>(t) * kSlotStride + 4] = static_cast<double>(mine.size());
#pragma omp barrier
  int64_t first = 0, total = 0;
  for (int other = 0; other < nthreads_; ++other) {
    const auto n = static_cast<int64_t>(reduce_slots_[static_cast<size_t>(other) * kSlotStride + 4]);
    if (other < t) first += n;
    total += n;
  }
  if (total > static_cast<int64_t>(records_.size())) {  // rare: a placing race can list a vertex twice
#pragma omp barrier
#pragma omp master
    records_.resize(static_cast<size_t>(total));
#pragma omp barrier
  }
  uint64_t* out = records_.data() + first;
  for (LocalId x : mine) *out++ = record_of(id_base + x, distance(x));
#pragma omp barrier
#pragma omp master
  {
    gathered_view_ = &records_;
    reduce_result_[3] = static_cast<double>(total);
    if (comm_size > 1) {
      comm::ScopedPhase timed(run.profile, comm::Phase::kAllgatherv);
      int count = static_cast<int>(total);
      MPI_Allgather(&count, 1, MPI_INT, gather_counts_.data(), 1, MPI_INT, comm);
      int all = 0;
      for (int r = 0; r < comm_size; ++r) {
        gather_displs_[r] = all;
        all += gather_counts_[r];
      }
      gathered_.resize(all);
      MPI_Allgatherv(records_.data(), count, MPI_UINT64_T, gathered_.data(), gather_counts_.data(),
                     gather_displs_.data(), MPI_UINT64_T, comm);
      gathered_view_ = &gathered_;
      reduce_result_[3] = static_cast<double>(all);
    }
  }
#pragma omp barrier
  return static_cast<int64_t>(reduce_result_[3]);
}

void DistributedSssp::improve(LocalId x, float nd, LocalId from, ThreadState& ts) {
  std::atomic_ref<uint64_t> slot(state_[x]);
  const uint64_t want = state_of(nd, from);
  uint64_t seen = slot.load(std::memory_order_relaxed);
  // Only a lower distance replaces the state (an equal one from another source does not).
  while ((want >> 32) < (seen >> 32))
    if (slot.compare_exchange_weak(seen, want, std::memory_order_relaxed, std::memory_order_relaxed)) {
      ts.improved.push_back({x, from, nd});
      ++ts.improvements;
      return;
    }
}

void DistributedSssp::apply_candidates(ThreadState& ts, int t) {
  constexpr size_t kCandidateAhead = 16;
  const size_t n = ts.candidates.size();
  const Improvement* c = ts.candidates.data();
  if (grid_.rows() == 1) {  // the column set is the owned block: every target is owned
    for (size_t i = 0; i < n; ++i) {
      if (i + kCandidateAhead < n) __builtin_prefetch(&state_[c[i + kCandidateAhead].x]);
      improve(c[i].x, c[i].d, c[i].from, ts);
    }
    ts.candidates.clear();
    return;
  }
  // Several grid rows: the target is a column-local id. Owned targets are improved here; the
  // others go to their owner unless a candidate at least as good was sent already (sent_best_).
  // Either way one random access, prefetched ahead.
  const Distribution& d = dist_of_;
  const uint64_t my_row = static_cast<uint64_t>(d.row), block = static_cast<uint64_t>(d.block);
  auto& buffers = out_col_[t];
  for (size_t i = 0; i < n; ++i) {
    if (i + kCandidateAhead < n) {
      const LocalId ahead = c[i + kCandidateAhead].x;
      const uint64_t owner = d.by_block.divide(ahead);
      if (owner == my_row)
        __builtin_prefetch(&state_[ahead - owner * block]);
      else
        __builtin_prefetch(&sent_best_[ahead]);
    }
    const LocalId u = c[i].x;
    const float nd = c[i].d;
    const uint64_t owner = d.by_block.divide(u);
    const LocalId offset = static_cast<LocalId>(u - owner * block);
    if (owner == my_row) {
      improve(offset, nd, c[i].from, ts);
      continue;
    }
    std::atomic_ref<uint32_t> best(sent_best_[u]);
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

template <DistributedSssp::Edges kEdges>
void DistributedSssp::relax_row(int64_t x, float dx, int64_t k, ThreadState& ts) {
  const float* weights = wg_.weights.data();
  const LocalId* neighbors = graph_.neighbors.data();
  const int64_t* starts = graph_.rows.starts();
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
    ts.candidates.push_back({neighbors[e], static_cast<LocalId>(source_base_ + x), nd});
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
      const LocalId x = ts.fused[i].x;
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
  const int64_t* starts = graph_.rows.starts();
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
    return kEdges == Edges::kOuter ? light_bound_[x] != kNoEdges : may_have_inner_edge(x, record_distance(record), k);
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

void DistributedSssp::exchange_candidates(comm::ThreadBuckets& buffers, MPI_Comm comm, SsspRun& run) {
#pragma omp barrier
#pragma omp master
  {
    received_ = comm::exchange(buffers, comm, alltoallv_, run.profile);
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
    improve(candidate_offset(rec[2 * r]), float_of(static_cast<uint32_t>(rec[2 * r + 1])), candidate_source(rec[2 * r]), ts);
  }
}

void DistributedSssp::place_improved(int64_t j, ThreadState& ts) {
  for (const Improvement& i : ts.improved) {
    if (!is_current(i)) continue;
    const int64_t b = bucket_of(i.d);
    if (b == j) {
      ts.active.push_back(i.x);
    } else {
      if (static_cast<size_t>(b) >= ts.buckets.size()) ts.buckets.resize(b + 1);
      ts.buckets[b].push_back(i);
    }
  }
  ts.improved.clear();
}

void DistributedSssp::settle_one(LocalId x, ThreadState& ts) {
  // A load and a store, not an atomic exchange (a locked instruction per vertex): two threads
  // settling x at once would both list it, which costs one redundant relaxation of its row.
  std::atomic_ref<uint8_t> settled(settled_mark_[x]);
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
    const LocalId x = ts.active[i];
    settle_one(x, ts);
  }
}

EdgeLists DistributedSssp::row_lists() const {
  return {graph_.rows.starts(), graph_.neighbors.data(), wg_.weights.data(), dist_of_.row_set_size()};
}

EdgeLists DistributedSssp::column_lists() const {
  const ColumnIndex& c = wg_.columns;
  return {c.starts.data(), c.rows.data(), c.weights.data(), dist_of_.col_set_size()};
}

int64_t DistributedSssp::pull_pass_size() const {
  return column_pull_ ? dist_of_.col_set_size() : dist_of_.row_set_size();
}

template <class Select, class Visit>
void DistributedSssp::for_selected(const EdgeLists& lists, DistanceView target_dist, Select select, Visit visit) {
  const int64_t nrows = lists.size;
  const float* weights = lists.weights;
  const LocalId* neighbors = lists.targets;
  const int64_t* starts = lists.starts;
  constexpr int64_t kChunk = 2048, kRowAhead = 12, kTargetAhead = 6;
  std::vector<int64_t>& rows = threads_[omp_get_thread_num()].selected_rows;
  rows.resize(kChunk);
  const int64_t nchunks = (nrows + kChunk - 1) / kChunk;
#pragma omp for schedule(dynamic, 1) nowait
  for (int64_t c = 0; c < nchunks; ++c) {
    // Without a branch: which lists are selected is not predictable.
    int64_t n = 0;
    const int64_t end = std::min(nrows, (c + 1) * kChunk);
    for (int64_t u = c * kChunk; u < end; ++u) {
      rows[n] = u;
      n += select(u) ? 1 : 0;
    }
    for (int64_t i = 0; i < n; ++i) {
      if (i + kRowAhead < n) {
        const int64_t s = starts[rows[i + kRowAhead]];
        __builtin_prefetch(&weights[s]);
        __builtin_prefetch(&neighbors[s]);
      }
      if (i + kTargetAhead < n) {
        const int64_t u = rows[i + kTargetAhead], s = starts[u], m = starts[u + 1] - s;
        if (m > 0) __builtin_prefetch(target_dist.address(neighbors[s]));
        if (m > 1) __builtin_prefetch(target_dist.address(neighbors[s + 1]));
      }
      visit(rows[i]);
    }
  }
}

// Pull work of the heavy phase of bucket k: every unsettled vertex u with tentative distance t(u)
// scans its edges lighter than t(u) - k*delta (about deg(u) * min(1, t(u) - k*delta) with weights
// uniform in [0, 1)), plus a pass over the row set. Collective.
double DistributedSssp::pull_work_estimate(int64_t k, SsspRun& run) {
  const Distribution& d = dist_of_;
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
    const double t = distance(static_cast<LocalId>(x));
    return degree_[x] == 0 || bucket_of(t) < bucket_end ? 0.0 : static_cast<double>(degree_[x]) * std::min(1.0, t - lower);
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

// Heavy phase by pulling: every unsettled vertex u of the row set looks, among its edges lighter
// than t(u) - k*delta (a prefix), for neighbours settled in bucket k and keeps the best candidate;
// candidates go to the owners along the grid row. Covers exactly the useful relaxations of the
// push heavy phase (settled targets need none; inner edges were relaxed by the light phases).
void DistributedSssp::pull_heavy(int64_t k, SsspRun& run) {
  const Distribution& d = dist_of_;
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
  auto scans = [&](int64_t u) { return selected(row_dist.bits(u), light_bound_[u]); };
  const EdgeLists rows = row_lists();
  auto scan = [&](int64_t u) {
    const float tu = row_dist[u];
    // The best neighbour (column-local) and its candidate.
    const auto [best, from, e] = best_pulled(tu, lower, rows, u, col_dist);
    scanned += e - rows.starts[u];
    if (!(best < tu)) return;
    const uint64_t owner = ncols > 1 ? d.by_block.divide(static_cast<uint64_t>(u)) : 0;
    const LocalId offset = static_cast<LocalId>(u - owner * block);
    const LocalId source = from == kUnknownSource ? from : pull_source_base_ + from;
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
  const Distribution& d = dist_of_;
  const int t = omp_get_thread_num();
  ThreadState& ts = threads_[t];
  if (grid_.cols() > 1) gather_distances(row_dist_, d.col, grid_.row_comm(), run);
  if (grid_.rows() > 1) gather_distances(col_dist_, d.row, grid_.col_comm(), run);
  const DistanceView row_dist = row_distances(), col_dist = column_distances();
  const double lower = settled_lower_bound(k, options_.delta);
  const PullSelection selected(lower, inverse_width_, (k + 1) * sub_buckets_);
  auto scans = [&](int64_t v) { return selected(col_dist.bits(v), column_light_bound_[v]); };
  const EdgeLists columns = column_lists();
  int64_t scanned = 0;
  auto scan = [&](int64_t v) {
    const float tv = col_dist[v];
    const auto [best, from, e] = best_pulled(tv, lower, columns, v, row_dist);  // from: row-local
    scanned += e - columns.starts[v];
    if (!(best < tv)) return;
    ts.candidates.push_back({static_cast<LocalId>(v), from == kUnknownSource ? from : source_base_ + from, best});
    if (ts.candidates.size() >= kCandidateBatch) apply_candidates(ts, t);
  };
  for_selected(columns, row_dist, scans, scan);
  apply_candidates(ts, t);
  ts.relaxations += scanned;
  ts.pull_scans += scanned;
  if (grid_.rows() > 1) exchange_candidates(out_col_, grid_.col_comm(), run);
}

// Parents. On one-row and one-column grids, from the sources kept in the final states: the
// candidate that set a vertex's final distance came from there. Otherwise from the final
// distances: for every reached v of the row set, a neighbour u of the column set with
// dist[u] + w == dist[v] and dist[u] < dist[v] (a zero-weight edge to an equal distance is taken
// only from a smaller vertex id, which keeps the tree acyclic); the processes of the grid row
// reduce their proposals (maximum id) to the owner.
void DistributedSssp::compute_parents(int64_t root, SsspRun& run) {
  const Distribution& d = dist_of_;
  const int block = static_cast<int>(d.block);
  const int ncols = grid_.cols();
  int64_t* owned_parent = renumbered_ ? parent_graph_.data() : parent_.data();
  const int64_t first = d.owned_begin();
  const int64_t root_local = root >= first && root < first + d.block ? graph_.owned_local(root - first) : -1;
  if (parent_notes_) {
    // Every reached vertex but the root was lowered last by a candidate carrying its source (a
    // vertex left without one keeps -1, which validation reports).
    const Renumbering& ids = graph_.renumbering;
    const LocalId* original = !ids.active() ? nullptr : notes_by_row_ ? ids.row_original.data() : ids.col_original.data();
    constexpr int64_t kSourceAhead = 16;
    const int64_t nowned = d.block;
#pragma omp for schedule(static)
    for (int64_t v = 0; v < nowned; ++v) {
      if (original && v + kSourceAhead < nowned) {
        const LocalId ahead = source_of(state_[v + kSourceAhead]);
        if (ahead != kUnknownSource) __builtin_prefetch(&original[ahead]);
      }
      const uint64_t state = state_[v];
      const LocalId from = source_of(state);
      if (distance_of(state) == kInfinity || v == root_local || from == kUnknownSource) continue;
      owned_parent[v] = notes_by_row_ ? global_of_row(from) : global_of_col(from);
    }
  } else {
    if (ncols > 1) gather_distances(row_dist_, d.col, grid_.row_comm(), run);
    if (grid_.rows() > 1) gather_distances(col_dist_, d.row, grid_.col_comm(), run);
    const DistanceView row_dist = row_distances(), col_dist = column_distances();
    int64_t* proposal = ncols > 1 ? proposal_.data() : owned_parent;
    const float* weights = wg_.weights.data();
    const LocalId* neighbors = graph_.neighbors.data();
    const int64_t* starts = graph_.rows.starts();
    // Every parent and proposal is -1 from prepare(); found parents overwrite it.
    auto reached = [&](int64_t v) { return row_dist[v] < kInfinity; };
    auto find_parent = [&](int64_t v) {
      const float dv = row_dist[v];
      if (dv == 0 && global_of_row(v) == root) return;
      for (int64_t e = starts[v]; e < starts[v + 1]; ++e) {
        const float w = weights[e];
        if (w > dv) break;  // weights ascend and du >= 0: no later edge gives du + w == dv
        const float du = col_dist[neighbors[e]];
        if (candidate(du, w) != dv) continue;
        const int64_t gu = global_of_col(neighbors[e]);
        if (du < dv || gu < global_of_row(v)) {
          proposal[v] = gu;
          return;
        }
      }
    };
    for_selected(row_lists(), col_dist, reached, find_parent);
  }
#pragma omp barrier
#pragma omp master
  {
    if (!parent_notes_ && ncols > 1) {
      comm::ScopedPhase timed(run.profile, comm::Phase::kAlltoallv);
      MPI_Reduce_scatter_block(proposal_.data(), owned_parent, block, MPI_INT64_T, MPI_MAX, grid_.row_comm());
    }
    if (root_local >= 0) owned_parent[root_local] = root;
  }
}

void DistributedSssp::publish() {
  if (published_) return;
  published_ = true;
  const LocalId* owned_new = renumbered_ ? graph_.renumbering.owned_new.data() : nullptr;
  const int64_t n = dist_of_.block;
#pragma omp parallel for num_threads(nthreads_) schedule(static)
  for (int64_t o = 0; o < n; ++o) {
    const float dv = distance(owned_new ? owned_new[o] : static_cast<LocalId>(o));
    dist_out_[o] = dv == kInfinity ? kUnreachedDistance : static_cast<double>(dv);
  }
  if (renumbered_) gather_in_original_order(parent_graph_.data(), owned_new, n, parent_.data(), nthreads_);
}

void DistributedSssp::reset_arrays() {
  const int64_t block = dist_of_.block;
#pragma omp for schedule(static) nowait
  for (int64_t x = 0; x < block; ++x) state_[x] = state_of(kInfinity, kUnknownSource);
  int64_t* const owned_parent = renumbered_ ? parent_graph_.data() : parent_.data();
#pragma omp for schedule(static) nowait
  for (int64_t x = 0; x < block; ++x) owned_parent[x] = -1;
  if (!proposal_.empty()) {
#pragma omp for schedule(static) nowait
    for (size_t v = 0; v < proposal_.size(); ++v) proposal_[v] = -1;
  }
  if (!sent_best_.empty()) {
#pragma omp for schedule(static) nowait
    for (size_t u = 0; u < sent_best_.size(); ++u) {
      sent_best_[u] = bits_of(kInfinity);
      col_dist_[u] = kInfinity;
    }
  }
#pragma omp barrier
}

void DistributedSssp::prepare() {
#pragma omp parallel num_threads(nthreads_)
  reset_arrays();
  prepared_ = true;
}

void DistributedSssp::search(int64_t root, SsspRun& run) {
  const Distribution& d = dist_of_;
  const int t = omp_get_thread_num();
  ThreadState& ts = threads_[t];
  const bool master = t == 0;
  ts.bucket_epoch = bucket_epoch_;
  ts.relaxations = ts.light_relaxations = ts.pull_scans = ts.improvements = 0;
  for (auto& b : ts.buckets) b.clear();
  ts.active.clear();
  ts.improved.clear();
  if (!prepared_) reset_arrays();
  const int64_t first = d.owned_begin();
  if (master && root >= first && root < first + d.block) {
    const auto root_x = static_cast<LocalId>(graph_.owned_local(root - first));
    state_[root_x] = state_of(0, kUnknownSource);
    if (ts.buckets.empty()) ts.buckets.resize(1);
    ts.buckets[0].push_back({root_x, kUnknownSource, 0.0F});
  }
  const uint64_t row_base = static_cast<uint64_t>(d.col) * static_cast<uint64_t>(d.block);
  const double total_directed_edges = static_cast<double>(graph_.global_directed_edges);
  const double pull_pass_floor = static_cast<double>(pull_pass_size()) * grid_.size();
  // j: the sub-bucket being processed (every earlier one is done); k: the bucket whose light
  // phases are under way (kNone between a heavy phase and the next bucket).
  constexpr int64_t kNone = -1;
  int64_t j = 0, k = kNone;
  double totals[2] = {0, 0};  // active vertices, push work of the heavy phase (settled so far)
  for (;;) {
    // Smallest non-empty sub-bucket over all threads and processes (entries are valid while their
    // distance still falls in the sub-bucket; lists with stale entries only are emptied here).
    double next = kUnreachedDistance;
    for (size_t b = static_cast<size_t>(j); b < ts.buckets.size(); ++b) {
      auto& list = ts.buckets[b];
      if (std::any_of(list.begin(), list.end(), [&](const Improvement& i) { return is_current(i); })) {
        next = static_cast<double>(b);
        break;
      }
      list.clear();
    }
    reduce_all(&next, 1, MPI_MIN, run);  // also the barrier after which every root entry is visible
    if (k != kNone && (next == kUnreachedDistance || static_cast<int64_t>(next) / sub_buckets_ != k)) {
      const double heavy_start = master ? omp_get_wtime() : 0;
      // Bucket k is settled. Heavy phase: push from the settled vertices or pull into the others.
      const double push_work = totals[1];
      bool pull = false;
      // Pull costs at least a pass over the row or column sets (pull_pass_floor): no estimate below that.
      if (options_.pull_factor > 0 && push_work * 1024 >= total_directed_edges &&
          push_work > options_.pull_factor * pull_pass_floor)
        pull = pull_work_estimate(k, run) * options_.pull_factor < push_work;
      if (pull) {
        column_pull_ ? pull_by_columns(k, run) : pull_heavy(k, run);
        if (master) ++run.pull_phases;
      } else {
        const int64_t n = gather_records(&ThreadState::settled, row_base, grid_.row_comm(), grid_.cols(), run);
        relax_records<Edges::kOuter>(n, k, j, run);
      }
      if (master) ++run.phases;
      // Every candidate of the phase must be in before a vertex is put into a bucket by its distance.
#pragma omp barrier
      place_improved(kNone, ts);  // all beyond bucket k: into their sub-buckets
      if (master) (pull ? run.pull_seconds : run.push_seconds) += omp_get_wtime() - heavy_start;
      j = (k + 1) * sub_buckets_;
      k = kNone;
      continue;
    }
    if (next == kUnreachedDistance) break;
    j = static_cast<int64_t>(next);
    if (k == kNone) {
      k = j / sub_buckets_;
      if (master) ++run.buckets;
      if (++ts.bucket_epoch == kNoEpoch) {
        // The one-byte marks wrapped: a mark left by a bucket 255 buckets ago would read as
        // settled in this one. Every thread is here in the same iteration.
        ts.bucket_epoch = kNoEpoch + 1;
#pragma omp for schedule(static)
        for (int64_t x = 0; x < d.block; ++x) settled_mark_[x] = kNoEpoch;
      }
      ts.settled.clear();
      ts.settled_degrees = 0;
    }
    if (static_cast<size_t>(j) < ts.buckets.size()) {
      const std::vector<Improvement>& entries = ts.buckets[j];
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i + 16 < entries.size()) __builtin_prefetch(&state_[entries[i + 16].x]);
        if (is_current(entries[i])) ts.active.push_back(entries[i].x);
      }
      ts.buckets[j].clear();
    }
    // Light phases until no process has an active vertex of sub-bucket j.
    const double light_start = master ? omp_get_wtime() : 0;
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
    ++j;
  }
  const double parents_start = master ? omp_get_wtime() : 0;
  compute_parents(root, run);
#pragma omp barrier
  if (master) run.parents_seconds = omp_get_wtime() - parents_start;
#pragma omp master
  {
    bucket_epoch_ = ts.bucket_epoch;
  }
}

SsspRun DistributedSssp::run(int64_t root) {
  SsspRun run;
  run.root = root;
  MPI_Barrier(grid_.world());
  Timer timer;
#pragma omp parallel num_threads(nthreads_)
  search(root, run);
  run.seconds = timer.seconds();
  prepared_ = false;
  published_ = false;
  for (const ThreadState& ts : threads_) {
    run.relaxations += ts.relaxations;
    run.light_relaxations += ts.light_relaxations;
    run.pull_scans += ts.pull_scans;
    run.improvements += ts.improvements;
  }
  double communication = 0;
  for (size_t p = 0; p < run.profile.seconds.size(); ++p)
    if (p != static_cast<size_t>(comm::Phase::kCalculation)) communication += run.profile.seconds[p];
  run.profile[comm::Phase::kCalculation] = std::max(0.0, run.seconds - communication);
  return run;
}

}  // namespace g500
