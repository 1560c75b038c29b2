// Level loop of the hybrid BFS (Nakao et al. 2021, Algorithm 1) over the 2D grid: each level
// either expands the frontier top-down or searches parents bottom-up, chosen by Beamer's rule
// (Beamer et al. 2012) from global counts gathered at the end of the previous level.
#include "bfs/bfs.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "bfs/sparse_switch.hpp"
#include "comm/typed.hpp"
#include "graph/column_blocks.hpp"
#include "run/run_plan.hpp"
#include "util/error.hpp"
#include "util/page_release.hpp"

namespace g500::bfs {

DistributedBfs::DistributedBfs(const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                               const BfsOptions& options)
    : graph_(graph), grid_(grid), dist_(graph.dist), pair_(graph.dist), options_(options),
      allgatherv_(comm::find_allgatherv(options.allgatherv)), nthreads_(omp_get_max_threads()),
      row_exchange_(grid.row_comm(), nthreads_, comm::find_alltoallv(options.alltoallv), grid.limits()),
      candidate_exchange_(graph.dist.columns_aligned() ? grid.col_comm() : grid.world(), nthreads_,
                          comm::find_alltoallv(options.alltoallv), grid.limits()),
      parent_(dist_.block, -1),
      original_of_(graph.renumbering.active() ? graph.renumbering.owned_original.data() : nullptr),
      degree_(graph.owned_degrees_in_graph_order()), visited_(dist_.block), frontier_bits_(dist_.block),
      next_bits_(dist_.block), found_(nthreads_), thread_pieces_(nthreads_), thread_listed_edges_(nthreads_, 0),
      candidates_per_round_(options.candidates_per_round > 0
                                ? options.candidates_per_round
                                : run::top_down_candidates_per_round(graph.global_directed_edges, grid.size())),
      column_frontier_(dist_.R > 1 && !options.level_buffers_by_direction
                           ? sparse_switch::gathered_buffer_words(dist_.R, dist_.block / util::kBitsPerWord)
                           : 0),
      rotating_(dist_.C > 1 ? dist_.block / util::kBitsPerWord : 0), visited_before_(dist_.block / util::kBitsPerWord) {
  // The top-down step's bitmap of the row set shares the column frontier's words when they suffice
  // (kept; by direction each is made when its direction needs it).
  const size_t row_set_words = static_cast<size_t>(dist_.row_set_size() / util::kBitsPerWord);
  const size_t column_set_words = sparse_switch::gathered_buffer_words(dist_.R, dist_.block / util::kBitsPerWord);
  if (!options.level_buffers_by_direction && dist_.C > 1 && (dist_.R == 1 || column_set_words < row_set_words))
    row_frontier_words_.resize(row_set_words);
  const graph::Distribution& d = dist_;
  for (int t = 0; t < d.R; ++t) {
    const int64_t k = d.column_block(d.col, t);
    const int owner_row = d.owner_row_of_block(k), owner_col = d.owner_col_of_block(k);
    candidate_dest_.push_back(d.columns_aligned() ? t : grid.world_rank_of(owner_row, owner_col));
    if (owner_row == d.row && owner_col == d.col) own_column_position_ = t;
  }
  if (d.columns_aligned()) {
    for (int t = 0; t < d.R; ++t) source_row_.push_back(t);
  } else {
    for (int r = 0; r < grid.size(); ++r) source_row_.push_back(grid.row_of_rank(r));
    hosted_frontier_.resize(d.block / util::kBitsPerWord);
    transpose_leaves_rank_ = graph::host_of_owned_block(d, grid) != grid.world_rank();
  }
  if (!comm::find_alltoallv(options.alltoallv))
    throw util::UsageError("unknown --alltoallv algorithm '" + options.alltoallv + "'");
  if (!allgatherv_) throw util::UsageError("unknown --allgatherv algorithm '" + options.allgatherv + "'");
}

// The reference clears its parent array before its timer starts (clean_pred); so do we.
void DistributedBfs::prepare() {
  int64_t* const parent = parent_.data();
  const int64_t n = static_cast<int64_t>(parent_.size());
#pragma omp parallel for num_threads(nthreads_) schedule(static)
  for (int64_t k = 0; k < n; ++k) parent[k] = -1;
  if (held_.released()) {  // by direction they are made as their levels need them
    if (!options_.level_buffers_by_direction) for_each_level_buffer([&](auto& buffer) { held_.restore(buffer); });
    held_.restored();
  }
}

void DistributedBfs::release_level_buffers() {
  if (held_.released()) return;
  candidate_exchange_.start();  // empty buckets, made again empty
  row_exchange_.start();
  for_each_level_buffer([&](auto& buffer) { held_.release(buffer); });
  // Freed blocks below glibc's mapping threshold (which rises as large blocks are freed) would
  // stay in its heap, resident beside the validation's arrays.
  util::release_free_heap();
}

void DistributedBfs::free_other_direction_buffers(Direction next) {
  if (!options_.level_buffers_by_direction) return;
  size_t freed = 0;
  auto free = [&](auto& buffer) {
    freed += buffer.capacity() * sizeof(buffer[0]);
    std::remove_reference_t<decltype(buffer)>().swap(buffer);
  };
  if (next == Direction::kTopDown) {
    free(column_frontier_);
    free(frontier_message_);
  } else {
    for (std::vector<RowPiece>& pieces : thread_pieces_) free(pieces);
    free(gathered_);
    free(first_piece_);
    free(row_frontier_words_);
    freed += candidate_exchange_.free_buffers();
  }
  // Blocks below glibc's mapping threshold would stay in its heap, resident beside the other
  // direction's buffers; giving them back takes a pass over the heap, worth it where they are many.
  if (freed >= kHeapTrimBytes) util::release_free_heap();
}

void DistributedBfs::advance_frontier(Direction previous, Direction next) {
  // Every step starts with next_bits_ clear; only bottom-up steps write it.
  if (previous == Direction::kBottomUp) {
    std::swap(frontier_bits_, next_bits_);
    next_bits_.clear();
  }
  uint64_t* bits = frontier_bits_.data();
  const int64_t words = frontier_bits_.num_words();
  if (previous == Direction::kTopDown && next == Direction::kBottomUp) {
    // The top-down step's discoveries: many are the bits it set in visited_, found in one pass over
    // the words (setting them from the lists costs a random access and an atomic per vertex); a
    // few are set from the lists.
    const uint64_t* visited = visited_.data();
    const uint64_t* before = visited_before_.data();
    if (snapshot_taken_) {
#pragma omp parallel for num_threads(nthreads_) schedule(static)
      for (int64_t w = 0; w < words; ++w) bits[w] = visited[w] ^ before[w];
    } else {
      frontier_bits_.clear();
      for (const Discoveries& found : found_)
        for (const graph::LocalId v : found.vertices) frontier_bits_.set(v);
    }
  }
  if (next == Direction::kTopDown) {
    if (previous == Direction::kBottomUp) {  // list each thread's range of the bitmap
#pragma omp parallel num_threads(nthreads_)
      {
        const int t = omp_get_thread_num();
        std::vector<graph::LocalId>& mine = found_[t].vertices;
        for (int64_t w = words * t / nthreads_; w < words * (t + 1) / nthreads_; ++w)
          for (uint64_t word = bits[w]; word; word &= word - 1)
            mine.push_back(static_cast<graph::LocalId>(w * util::kBitsPerWord + std::countr_zero(word)));
      }
    }
    std::vector<size_t> offsets(nthreads_ + 1, 0);
    for (int t = 0; t < nthreads_; ++t) offsets[t + 1] = offsets[t] + found_[t].vertices.size();
    frontier_.resize(offsets[nthreads_]);
#pragma omp parallel num_threads(nthreads_)
    {
      const int t = omp_get_thread_num();
      std::copy(found_[t].vertices.begin(), found_[t].vertices.end(), frontier_.begin() + offsets[t]);
    }
  }
  // A top-down step followed by another leaves the bitmap behind the lists.
  frontier_bits_current_ = !(previous == Direction::kTopDown && next == Direction::kTopDown);
  for (Discoveries& found : found_) found.clear();
}

void DistributedBfs::record_discoveries(int t) {
  Discoveries& found = found_[t];
  const int64_t count = static_cast<int64_t>(found.vertices.size());
  const graph::LocalId* vertices = found.vertices.data();
  const int64_t* parents = found.parents.data();
  int64_t* const parent_of = parent_.data();
  const uint32_t* const degree = degree_.data();
  const graph::LocalId* const original = original_of_;
  // Two stages ahead: a discovery's original offset, then (once it has arrived) its parent slot.
  constexpr int64_t kPrefetchDistance = 16;
  int64_t edges = 0;
  if (original) {
    for (int64_t k = 0; k < count; ++k) {
      if (k + 2 * kPrefetchDistance < count) {
        __builtin_prefetch(original + vertices[k + 2 * kPrefetchDistance]);
        __builtin_prefetch(degree + vertices[k + 2 * kPrefetchDistance]);
      }
      if (k + kPrefetchDistance < count) __builtin_prefetch(parent_of + original[vertices[k + kPrefetchDistance]], 1);
      parent_of[original[vertices[k]]] = parents[k];
      edges += degree[vertices[k]];
    }
  } else {
    for (int64_t k = 0; k < count; ++k) {
      if (k + kPrefetchDistance < count) {
        __builtin_prefetch(parent_of + vertices[k + kPrefetchDistance], 1);
        __builtin_prefetch(degree + vertices[k + kPrefetchDistance]);
      }
      parent_of[vertices[k]] = parents[k];
      edges += degree[vertices[k]];
    }
  }
  found.edges += edges;
  found.parents.clear();
}

int64_t DistributedBfs::degree_sum(const uint64_t* bits, int64_t words, bool clear_bits) const {
  const uint64_t flip = clear_bits ? ~uint64_t{0} : 0;
  int64_t sum = 0;
#pragma omp parallel for num_threads(nthreads_) reduction(+ : sum) schedule(static)
  for (int64_t w = 0; w < words; ++w)
    for (uint64_t word = bits[w] ^ flip; word; word &= word - 1)
      sum += degree_[w * util::kBitsPerWord + std::countr_zero(word)];
  return sum;
}

int64_t DistributedBfs::small_discoveries_degrees() const {
  int64_t found = 0;
  for (const Discoveries& mine : found_) found += mine.counted;
  if (static_cast<double>(found) * options_.beta > static_cast<double>(dist_.block)) return -1;
  return degree_sum(next_bits_.data(), next_bits_.num_words(), false);
}

int64_t DistributedBfs::local_unvisited_edges() const {
  return degree_sum(visited_.data(), visited_.num_words(), true);  // vertices without edges start visited
}

namespace {

// Beamer's direction rule (Beamer et al. 2012; Nakao et al. 2021, Algorithm 1, next-direction).
Direction next_direction(Direction current, int64_t frontier_vertices, int64_t frontier_edges, int64_t unvisited_edges,
                         int64_t nvertices, const BfsOptions& options) {
  if (current == Direction::kTopDown)
    return static_cast<double>(frontier_edges) > static_cast<double>(unvisited_edges) / options.alpha
               ? Direction::kBottomUp
               : Direction::kTopDown;
  return static_cast<double>(frontier_vertices) < static_cast<double>(nvertices) / options.beta ? Direction::kTopDown
                                                                                                : Direction::kBottomUp;
}

}  // namespace

int64_t DistributedBfs::start_from(int64_t root) {
  // Vertices without edges cannot be reached (unless they are the root): visited from the start,
  // they stay out of every bottom-up search and out of the unvisited lists of sparse-switch.
  std::memcpy(visited_.data(), graph_.without_edges.data(), graph_.without_edges.size() * sizeof(uint64_t));
  frontier_bits_.clear();
  frontier_bits_current_ = true;
  next_bits_.clear();
  frontier_.clear();
  root_local_ = -1;
  const int64_t owned_begin = dist_.owned_begin();
  if (root < owned_begin || root >= owned_begin + dist_.block) return 0;
  const graph::LocalId r = static_cast<graph::LocalId>(graph_.owned_local(root - owned_begin));
  *parent_slot(r) = root;
  root_local_ = r;
  visited_.set(r);
  frontier_bits_.set(r);
  frontier_.push_back(r);
  return degree_[r];
}

BfsRun DistributedBfs::run(int64_t root) {
  using util::Phase;
  BfsRun result;
  result.root = root;
  MPI_Barrier(grid_.world());
  const double start = MPI_Wtime();
  util::PhaseProfile& profile = result.profile;
  const graph::Distribution& d = dist_;

  int64_t root_degree = 0;
  {
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
    root_degree = start_from(root);
  }
  root_degree = comm::Communicator(grid_.world()).sum(root_degree);
  LevelCounts c{1, root_degree, graph_.global_directed_edges - root_degree, false};
  result.level_sizes.push_back(1);
  result.levels.reserve(kLevelsReserved);
  Direction direction = next_direction(Direction::kTopDown, c.frontier_vertices, c.frontier_edges, c.unvisited_edges,
                                       d.nvertices, options_);
  while (c.frontier_vertices > 0) {
    const double level_start = MPI_Wtime();
    const util::PhaseBytes sent_before = profile.bytes_sent;
    {
      util::ScopedPhase timed(profile, Phase::kCalculation);
      free_other_direction_buffers(direction);
    }
    const StepResult step =
        direction == Direction::kTopDown
            ? top_down_step(c.frontier_vertices, c.frontier_edges_known ? c.frontier_edges : kUnknownEdges, profile)
            : bottom_up_step(profile);
    close_level(direction, step, level_start, sent_before, c, result);
    if (c.frontier_vertices == 0) break;
    result.level_sizes.push_back(c.frontier_vertices);
    util::ScopedPhase timed(profile, Phase::kCalculation);
    const Direction previous = direction;
    direction =
        next_direction(direction, c.frontier_vertices, c.frontier_edges, c.unvisited_edges, d.nvertices, options_);
    advance_frontier(previous, direction);
  }
  for (Discoveries& found : found_) found.clear();
  result.seconds = MPI_Wtime() - start;
  return result;
}

void DistributedBfs::close_level(Direction direction, const StepResult& step, double level_start,
                                 const util::PhaseBytes& sent_before, LevelCounts& c, BfsRun& result) {
  util::PhaseProfile& profile = result.profile;
  const bool recount = direction == Direction::kTopDown && c.unvisited_edges_stale;
  // Discoveries, their degrees, edges examined, unvisited edges, ranks whose discoveries' degrees
  // were not summed.
  int64_t counts[5] = {0, 0, step.edges_examined, 0, 0};
  if (recount) {
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
    counts[3] = local_unvisited_edges();
  }
  if (direction == Direction::kBottomUp) {
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
    const int64_t degrees = small_discoveries_degrees();
    counts[1] = std::max<int64_t>(0, degrees);
    counts[4] = degrees < 0 ? 1 : 0;
  }
  util::ScopedPhase timed(profile, util::Phase::kImbalance);
  MPI_Barrier(grid_.world());
  for (const Discoveries& found : found_) {
    counts[0] += found.size();
    counts[1] += found.edges;
  }
  comm::Communicator(grid_.world()).sum_in_place(counts);
  c.frontier_vertices = counts[0];
  c.frontier_edges = counts[1];
  c.frontier_edges_known = direction == Direction::kTopDown || counts[4] == 0;
  if (direction == Direction::kBottomUp) {
    c.unvisited_edges_stale = true;
  } else if (recount) {
    c.unvisited_edges = counts[3];
    c.unvisited_edges_stale = false;
  } else {
    c.unvisited_edges -= c.frontier_edges;
  }
  result.levels.push_back(LevelTrace{direction, result.level_sizes.back(), counts[2], MPI_Wtime() - level_start,
                                     util::bytes_since(sent_before, profile.bytes_sent)});
}

}  // namespace g500::bfs
