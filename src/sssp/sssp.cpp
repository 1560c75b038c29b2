// DistributedSssp's set-up: the constructor (the per-vertex arrays; everything derived from the
// graph comes from kernel 1) and prepare()'s resets before a search. The search itself, a
// distributed delta-stepping (Meyer and Sanders 2003), is in search.cpp; sssp.hpp explains the
// algorithm and docs/sssp.md the measurements behind it.
#include "sssp/sssp.hpp"

#include <omp.h>

#include <algorithm>

#include "sssp/state_words.hpp"
#include "util/huge_pages.hpp"

namespace g500::sssp {
using namespace sssp_words;

double least_bucket_width(int64_t nvertices, double max_weight, int sub_buckets) {
  const double longest = static_cast<double>(std::max<int64_t>(0, nvertices - 1)) * max_weight;
  constexpr double kRoundingRoom = 2;
  return kRoundingRoom * longest * std::max(1, sub_buckets) / kMaxSubBucketIndex;
}

DistributedSssp::DistributedSssp(const graph::WeightedLocalGraph& graph, const graph::ProcessGrid& grid,
                                 const SsspOptions& options)
    : wg_(graph), graph_(graph.graph), grid_(grid), dist_of_(graph.graph.dist), options_(options),
      sub_buckets_(std::max(1, options.sub_buckets)), inverse_width_(static_cast<double>(sub_buckets_) / options.delta),
      alltoallv_(comm::find_alltoallv("mpi")), allgatherv_(comm::find_allgatherv("mpi")),
      nthreads_(omp_get_max_threads()), fusion_(grid.cols() == 1 && options.fusion_limit > 0),
      column_pull_(!graph.columns.empty()), light_bound_(graph.row_light_bounds),
      column_light_bound_(graph.column_light_bounds), degree_(graph.graph.owned_degrees_in_graph_order()) {
  const int64_t block = dist_of_.block;
  renumbered_ = graph_.renumbering.active();
  util::assign_huge(state_, static_cast<size_t>(block), state_of(kInfinity, kUnknownSource));
  parent_.assign(block, -1);
  dist_out_.assign(block, kUnreachedDistance);
  if (grid.rows() > 1) sent_best_.assign(dist_of_.col_set_size(), bits_of(kInfinity));
  settled_mark_.assign(block, kNoEpoch);
  // The parents' sources need one id space: the row set on a one-row grid (every process of the
  // row has its tables), else the column set on a one-column grid.
  notes_by_row_ = grid.rows() == 1;
  parent_notes_ = (grid.rows() == 1 || grid.cols() == 1) && options.parent_notes;
  if (!notes_by_row_ && grid.cols() == 1) source_base_ = static_cast<graph::LocalId>(dist_of_.row * block);
  if (notes_by_row_) pull_source_base_ = static_cast<graph::LocalId>(dist_of_.col * block);
  if (renumbered_ && !parent_notes_) parent_graph_.assign(block, -1);
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
  reduce_slots_.assign(static_cast<size_t>(nthreads_) * kSlotStride, 0.0);
}

void DistributedSssp::reset_arrays() {
  const int64_t block = dist_of_.block;
#pragma omp for schedule(static) nowait
  for (int64_t x = 0; x < block; ++x) state_[x] = state_of(kInfinity, kUnknownSource);
  // Parents read from the notes are written for every vertex; proposed ones only when found.
  if (!parent_notes_) {
    int64_t* const owned_parent = renumbered_ ? parent_graph_.data() : parent_.data();
#pragma omp for schedule(static) nowait
    for (int64_t x = 0; x < block; ++x) owned_parent[x] = -1;
  }
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

}  // namespace g500::sssp
