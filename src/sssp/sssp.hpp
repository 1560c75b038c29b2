// Kernel 3: distributed delta-stepping SSSP (Meyer and Sanders 2003) on the BFS's 2D process grid
// and Yoo distribution (graph/distribution.hpp), with the reference 3.0 float32 edge weights.
//
// Bulk-synchronous buckets of width delta. For the current bucket k:
//  - light phases, for each slice ("sub-bucket", width delta / sub_buckets) of bucket k in
//    distance order: the active vertices of the slice (owned, each with its tentative distance)
//    are gathered along the grid row, every process relaxes their light edges whose result stays
//    inside bucket k ("inner short" edges, Chakaravarthy et al. 2014) and sends the improved
//    candidates to the owners along the grid column; vertices improved into the slice are the next
//    active set; repeat until no process has an active vertex. Taking the slices in order means a
//    vertex is relaxed mostly once, with (nearly) its final distance. Rows whose lightest edge
//    cannot stay in the bucket are skipped from a byte per row. When the process holds every edge
//    of its vertices (a one-column grid), a thread relaxes the vertices it improved into the slice
//    at once while they are few ("bucket fusion", Zhang et al. 2020), which removes most phases;
//  - heavy phase: every vertex settled in bucket k relaxes, once, its remaining edges (the heavy
//    ones and the light ones that leave the bucket), by pushing from the settled vertices or by
//    pulling into the unsettled ones, whichever is estimated cheaper (direction optimisation as in
//    Chakaravarthy et al. 2014 and Beamer's BFS). A pull passes over the row set (N / R vertices);
//    on grids with more columns than rows it passes over the column set instead, by a column
//    index of the block that kernel 1 builds for them (graph/column_index.hpp).
// Rows are sorted by weight (graph/weighted_graph.hpp), so both edge sets are a prefix / suffix
// of a row. Candidates for vertices this process owns are applied at once (atomic minimum); the
// others go to their owners, each process remembering the best candidate it has already sent for
// every vertex of its column set and dropping those that are not better.
// The whole search runs inside one OpenMP parallel region: every thread keeps its own buckets,
// active lists and send buffers, the threads meet at barriers only, and the master thread makes
// the MPI calls (MPI_THREAD_FUNNELED). Per light phase that is one allreduce of (active count,
// push work) and the row gather / column exchange when the grid has more than one column / row.
// With the degree-order renumbering of the weighted graph (graph/weighted_graph.hpp) every
// per-vertex array is in the graph's ids; the search ends by writing its result, distances and
// parents, by original offset, inside its timed region, together with the parents' passes.
// Distances are float32, as the reference 3.0's: each vertex's search state is one 64-bit word,
// the distance's bits above the id of the vertex whose candidate set it, lowered by one atomic
// minimum. On a one-column or one-row grid that id is in the column or row set, which every source
// is in there, and the parents are read from the final words. On other grids every reached vertex
// afterwards takes as parent a neighbour u with dist[u] + w == dist[v] exactly (one exists, since
// every distance is such a sum of a final distance and a weight), found in one pass over the edges
// and reduced along the row (a tenth of the search's time).
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "comm/exchange.hpp"
#include "graph/weighted_graph.hpp"
#include "sssp/sub_bucket_queue.hpp"
#include "util/phase_profile.hpp"

namespace g500::sssp {

struct SsspOptions {
  // Bucket width. Tuned on SCALE 18..20 Kronecker graphs with uniform [0, 1) weights and average
  // degree 32 (docs/sssp.md).
  double delta = 0.05;
  // Light phases take the vertices of a bucket in sub_buckets narrower steps (width delta /
  // sub_buckets), in distance order, before the bucket's one heavy phase: the inner edges are
  // still those whose candidate stays in the bucket, but a vertex is relaxed mostly once, with a
  // distance close to its final one, instead of again at every improvement (1 = plain
  // delta-stepping). 16 measured 3-11 % faster than 8 on SCALE 20 (more phases, fewer
  // re-relaxations).
  int sub_buckets = 16;
  // The heavy phase of a bucket pulls (unsettled vertices look for settled neighbours along
  // their light-enough edges) instead of pushing when the estimated push work exceeds
  // pull_factor times the estimated pull work; 0 = always push.
  double pull_factor = 0.25;
  // Bucket fusion: a thread relaxes the vertices it improved into the current bucket at once
  // while it has fewer than this many (one-column grids only; 0 = off). 256 measured 0.95-0.98 of
  // 1024 on 2x1 and 0.975-0.99 on 1 rank x 2 threads.
  int fusion_limit = 256;
  // On one-row and one-column grids, read the parents from the source ids the search keeps with
  // the distances instead of searching every row afterwards (switch `parent-notes`).
  bool parent_notes = true;
};

inline constexpr double kUnreachedDistance = std::numeric_limits<double>::infinity();

// Sub-bucket indices (distance * sub_buckets / delta) are reduced over the ranks as doubles,
// exact below 2^53: a distance's index must stay below that.
inline constexpr double kMaxSubBucketIndex = 9007199254740992.0;  // 2^53
// The least delta for which every distance of a graph of n vertices with weights at most
// max_weight (a path of n - 1 of the heaviest edges at most, with a factor 2 of room for the
// rounding of the float sums) has a sub-bucket index below kMaxSubBucketIndex.
double least_bucket_width(int64_t nvertices, double max_weight, int sub_buckets);

// An index of a block's edges: the rows (graph) or the columns (column index), each list sorted
// by weight.
struct EdgeLists {
  const int64_t* starts;
  const graph::LocalId* targets;
  const float* weights;
  int64_t size;  // number of lists
};

// Float distances of a vertex set, read from a float array or from the distance halves of the
// search's 64-bit state words (byte copies: a float is never read through another type).
class DistanceView {
 public:
  static DistanceView of_floats(const float* f) { return {reinterpret_cast<const char*>(f), sizeof(float)}; }
  static DistanceView of_states(const uint64_t* s) {
    // The distance is the high half of a state word.
    constexpr int64_t kHighHalf = std::endian::native == std::endian::little ? 4 : 0;
    return {reinterpret_cast<const char*>(s) + kHighHalf, sizeof(uint64_t)};
  }
  float operator[](int64_t i) const {
    float d;
    std::memcpy(&d, address(i), sizeof d);
    return d;
  }
  uint32_t bits(int64_t i) const {  // the distance's bits, which order as the distances (>= 0)
    uint32_t b;
    std::memcpy(&b, address(i), sizeof b);
    return b;
  }
  const char* address(int64_t i) const { return bytes_ + i * stride_; }

 private:
  DistanceView(const char* bytes, int64_t stride) : bytes_(bytes), stride_(stride) {}
  const char* bytes_;
  int64_t stride_;
};

struct SsspRun {
  int64_t root = 0;
  double seconds = 0;
  int64_t buckets = 0;            // non-empty buckets processed
  int64_t phases = 0;             // light + heavy phases (each one gather + one exchange)
  int64_t pull_phases = 0;        // heavy phases done by pulling
  int64_t relaxations = 0;        // edges relaxed (push) or scanned (pull) by this rank
  int64_t light_relaxations = 0;  // of which in light phases
  int64_t pull_scans = 0;         // of which scanned by pull heavy phases
  int64_t improvements = 0;       // tentative distances lowered on this rank
  // Wall time of the search's steps on this rank (the master thread's clock, each step ending at
  // a barrier): light phases, push and pull heavy phases (with their decision), parent pass.
  double light_seconds = 0, push_seconds = 0, pull_seconds = 0, parents_seconds = 0;
  util::PhaseProfile profile;  // this rank's time per phase
};

class DistributedSssp {
 public:
  static constexpr graph::LocalId kUnknownSource =
      ~uint32_t{0};  // a distance's source when not known (32 bits: state_words.hpp)
  DistributedSssp(const graph::WeightedLocalGraph& graph, const graph::ProcessGrid& grid, const SsspOptions& options);
  // Resets the distances to unreached and the parents to -1 for the next run(), as the
  // reference's clean_shortest and clean_pred do before its SSSP timer. A run() without it does
  // the same inside its own time.
  void prepare();
  // Collective: shortest paths from `root`. Its timed region ends with the result written in the
  // input's vertex order (the Graph500 specification stops the time when the output is in memory).
  SsspRun run(int64_t root);
  // The result of the last run(): the owned vertices' distances and parents (original global ids)
  // by original offset, kUnreachedDistance and -1 when unreached; the root has 0 and itself.
  const std::vector<double>& distances() const { return dist_out_; }
  const std::vector<int64_t>& parents() const { return parent_; }

 private:
  // What one thread keeps between barriers (aligned so that threads do not share cache lines).
  // An improvement: owned offset and the distance it set. An entry is current while the vertex
  // still has that distance; each improvement makes one entry, so exactly the latest is current
  // and no per-vertex mark is needed to keep the lists free of repeats.
  // As a candidate, `from` is the id of the row it was relaxed from, in the source ids of state_
  // (kUnknownSource when not known).
  struct Improvement {
    graph::LocalId x;
    graph::LocalId from;
    float d;
  };
  struct alignas(64) ThreadState {
    SubBucketQueue<Improvement> buckets;     // by sub-bucket, lazily deleted (stale entries)
    std::vector<graph::LocalId> active;      // owned vertices to relax in the current phase
    std::vector<Improvement> improved;       // improvements made in the current phase
    std::vector<graph::LocalId> settled;     // owned vertices settled in the current bucket
    std::vector<Improvement> fused;          // bucket fusion: the improvements being relaxed
    std::vector<Improvement> deferred;       // bucket fusion: improvements into later sub-buckets
    std::vector<int64_t> selected_rows;      // for_selected(): one chunk's selected lists
    std::vector<uint64_t> selected_records;  // relax_records(): one chunk's records to relax
    std::vector<Improvement> candidates;     // (column-local target, source row, candidate) to apply
    double settled_degrees = 0;              // push work of the heavy phase
    int64_t relaxations = 0, light_relaxations = 0, pull_scans = 0, improvements = 0;
    uint8_t bucket_epoch = 0;  // this bucket's settled_mark_ value
  };
  enum class Edges { kInner, kOuter };  // of a row at distance d: candidates inside bucket k / beyond

  // Index of the sub-bucket (width delta / sub_buckets) of distance d; bucket = sub-bucket /
  // sub_buckets. Every bucket test derives from this one product, so that the inner / outer
  // split of the edges and the placing of the improved vertices always agree.
  int64_t bucket_of(double d) const {
    const double b = d * inverse_width_;
    return b < 9e18 ? static_cast<int64_t>(b) : std::numeric_limits<int64_t>::max();  // unreached: no bucket
  }
  // prepare()'s resets, inside a parallel region (every thread calls it).
  void reset_arrays();
  // The search of run(), executed by every thread of the parallel region (search.cpp), and its
  // steps: the thread's lists and the root's entry; the smallest non-empty sub-bucket at or after
  // j over all threads and ranks (kUnreachedDistance: none); a new bucket's settle epoch; the
  // thread's entries of sub-bucket j into its active list.
  void search(int64_t root, SsspRun& run);
  void start_search(int64_t root, ThreadState& ts);
  double next_sub_bucket(int64_t j, ThreadState& ts, SsspRun& run);
  void open_bucket(ThreadState& ts, SsspRun& run);
  void take_sub_bucket(int64_t j, ThreadState& ts);
  // Light phases of sub-bucket j of bucket k until no process has an active vertex
  // (light_phases.cpp). Returns the push work of bucket k's heavy phase (the degrees of the
  // vertices settled in it so far, over all ranks).
  double light_phases(int64_t j, int64_t k, ThreadState& ts, SsspRun& run);
  // The heavy phase of settled bucket k: push or pull, whichever is estimated cheaper
  // (heavy_phase.cpp), then the improved vertices into their sub-buckets.
  void heavy_phase(int64_t k, double push_work, ThreadState& ts, SsspRun& run);
  // Collective over threads and ranks (every thread calls it): sums `values` over all threads of
  // all ranks (MPI_SUM) or takes the minimum (MPI_MIN); the result is in values on every thread.
  void reduce_all(double* values, int count, MPI_Op op, SsspRun& run);
  // Every thread's `list` with the distances, as (row-local or column-local id, distance bits)
  // records in records_, gathered over `comm` (the grid row or column) when it has several ranks;
  // `id_base` is this process's first id in that numbering. Returns the number of records.
  int64_t gather_records(std::vector<graph::LocalId> ThreadState::*list, uint64_t id_base, MPI_Comm comm, int comm_size,
                         SsspRun& run);
  // Relaxes the inner or outer edges of row-local row x at distance dx (of bucket k): their
  // (target, candidate) pairs go to ts.candidates, for apply_candidates().
  // Always inlined into relax_selected(), its only caller, as GCC did when the search was one
  // file: in light_phases.cpp alone it kept a call per relaxed row.
  template <Edges kEdges>
  [[gnu::always_inline]] inline void relax_row(int64_t x, float dx, int64_t k, ThreadState& ts);
  // Whether row-local row x at distance dx may have an inner edge in bucket k (its lightest
  // edge, from light_bound_, keeps the candidate inside the bucket).
  inline bool may_have_inner_edge(int64_t x, float dx, int64_t k) const;
  // relax_row() for n records (row-local id, distance), prefetching their rows ahead.
  template <Edges kEdges>
  void relax_selected(const uint64_t* records, int64_t n, int64_t k, ThreadState& ts, int t);
  // Relaxes the gathered records (all threads share them), then, on one-column grids, the
  // thread's own improvements into sub-bucket j while few (bucket fusion).
  template <Edges kEdges>
  void relax_records(int64_t nrecords, int64_t k, int64_t j, SsspRun& run);
  void fuse_bucket(int64_t k, int64_t j, ThreadState& ts, int t);
  // Sends the buffered candidates to their owners over `comm` (master) and applies them.
  void exchange_candidates(comm::ThreadBuckets& buffers, MPI_Comm comm, SsspRun& run);
  // Atomic minimum of the owned vertex's state (distance, then source); every improvement goes to
  // `improved`.
  inline void improve(graph::LocalId x, float nd, graph::LocalId from, ThreadState& ts);
  // improve() as a call, for the loops of apply_candidates() (exchange.cpp): GCC compiled it so
  // when the search was one file, and inlined there it would change the code of that hot loop.
  [[gnu::noinline]] void improve_call(graph::LocalId x, float nd, graph::LocalId from, ThreadState& ts);
  // Owned vertex x's tentative distance.
  inline float distance(graph::LocalId x) const;
  // Whether an improvement's entry is current: its vertex still has the distance it set (each
  // improvement makes one entry, so exactly the latest one is).
  inline bool is_current(const Improvement& i) const;
  // Applies the thread's buffered candidates (owned targets: improve; with several grid rows, the
  // others into thread t's send buffers), prefetching what each touches kCandidateAhead entries
  // ahead: the rows are read first and the targets, random cache misses, are then fetched many
  // at a time instead of one per row.
  void apply_candidates(ThreadState& ts, int t);
  // The thread's improved vertices: into its next active list (still in sub-bucket j) or buckets.
  void place_improved(int64_t j, ThreadState& ts);
  // Puts owned x into the thread's settled list unless some thread settled it in this bucket (a rare
  // race may list it twice).
  void settle_one(graph::LocalId x, ThreadState& ts);
  void settle(ThreadState& ts);  // settle_one() for the active list
  double pull_work_estimate(int64_t k, SsspRun& run);
  inline EdgeLists row_lists() const;
  inline EdgeLists column_lists() const;
  // Work-shared over the threads (no barrier at the end): visit(u) for every list u of `lists`
  // with select(u). The lists of a chunk are selected first, so that the lists to visit and their
  // first two targets' entries of target_dist can be prefetched several *visited* lists ahead;
  // prefetching by index fetched too little when few lists are visited.
  template <class Select, class Visit>
  void for_selected(const EdgeLists& lists, DistanceView target_dist, Select select, Visit visit);
  // Vertices scanned by a pull: the size of the row set, or of the column set (column_pull_).
  int64_t pull_pass_size() const;
  // The distances of the row set / column set: this process's own states when it is the whole
  // set (one grid column / row), else row_dist_ / col_dist_.
  inline DistanceView row_distances() const;
  inline DistanceView column_distances() const;
  // Every process's owned distances into `out` (row_dist_ or col_dist_), this process's at block
  // `index`, over `comm` (collective over the threads and the communicator).
  void gather_distances(std::vector<float>& out, int index, MPI_Comm comm, SsspRun& run);
  // The heavy phase by pushing from the settled vertices (light_phases.cpp).
  void push_heavy(int64_t k, SsspRun& run);
  void pull_heavy(int64_t k, SsspRun& run);
  void pull_by_columns(int64_t k, SsspRun& run);
  // The parents after the search and the result in original order (parents.cpp): the parents
  // from the sources kept in the states (one-row and one-column grids), the noted ids made
  // original in place, then written with the distances; else by proposing, for every reached vertex of the row set, a
  // neighbour whose distance plus the weight is its distance, into `proposal`, then a pass that writes the result.
  void compute_parents(int64_t root, SsspRun& run);
  void write_result_from_notes(int64_t root, int64_t root_local);
  void propose_parents(int64_t root, int64_t* proposal, SsspRun& run);
  void write_result(const int64_t* owned_parent);
  // Owned vertex (graph's id) at original offset o.
  int64_t owned_at(const graph::LocalId* owned_new, int64_t o) const { return owned_new ? owned_new[o] : o; }
  // Global (original) id of row-local / column-local x of the graph.
  int64_t global_of_row(int64_t x) const {
    return dist_of_.global_from_row_local(graph_.original_row_local(static_cast<graph::LocalId>(x)), dist_of_.row);
  }
  int64_t global_of_col(int64_t x) const {
    return dist_of_.global_from_col_local(graph_.original_col_local(static_cast<graph::LocalId>(x)), dist_of_.col);
  }

  const graph::WeightedLocalGraph& wg_;
  const graph::LocalGraph& graph_;
  const graph::ProcessGrid& grid_;
  const graph::Distribution& dist_of_;
  SsspOptions options_;
  int64_t sub_buckets_;
  double inverse_width_;  // sub_buckets / delta
  comm::AlltoallvFn alltoallv_;
  comm::AllgathervFn allgatherv_;
  int nthreads_ = 1;
  bool fusion_ = false;  // this process holds every edge of its vertices (one grid column)
  // The pull heavy phase scans the column set, by the column index (graph/column_index.hpp,
  // built on grids with more columns than rows), instead of the row set.
  bool column_pull_ = false;
  // Row set: kernel 1's lower bound of the row's lightest weight (graph/light_bounds.hpp). A light
  // phase reads this byte instead of the row start and the row, which are two cache misses, for the
  // gathered vertices that have no inner edge (about half of them on Kronecker graphs).
  const std::vector<uint8_t>& light_bound_;
  const std::vector<uint8_t>& column_light_bound_;  // the same for the column index's columns
  // Whether the sources kept in state_ give the parents (one-row or one-column grids, option
  // parent_notes), and their ids: row-local on one-row grids (notes_by_row_), column-local
  // on one-column grids. A pushed candidate's source row x is source_base_ + x (on one-column
  // grids the row set is block `row` of the column set), a pulled candidate's source column u
  // pull_source_base_ + u (on one-row grids the column set is block `col` of the row set).
  bool parent_notes_ = false;
  bool notes_by_row_ = false;
  graph::LocalId source_base_ = 0, pull_source_base_ = 0;

  // Every per-vertex array of the search is indexed in the graph's ids (degree order when the
  // graph is renumbered); run() ends by writing the results at original offsets.
  bool renumbered_ = false;
  bool prepared_ = false;  // prepare() was called since the last run()
  // Owned: the search state, distance (float bits) above the source's id (sssp/state_words.hpp,
  // state_of); after write_result_from_notes() the source's original id.
  std::vector<uint64_t> state_;
  const std::vector<uint32_t>& degree_;  // owned: full degree (saturated; for work estimates; kernel 1's)
  std::vector<double> dist_out_;         // owned, by original offset
  std::vector<int64_t> parent_graph_;    // owned parents in the graph's order (renumbered_, proposed parents)
  std::vector<int64_t> parent_;          // owned, by original offset
  std::vector<uint32_t> sent_best_;      // column set: bits of the best candidate sent so far
  std::vector<uint8_t> settled_mark_;    // owned: epoch (mod 255) of the bucket that settled it
  uint8_t bucket_epoch_ = 0;
  std::vector<ThreadState> threads_;
  std::vector<float> row_dist_, col_dist_;  // pull, compute_parents()
  std::vector<int64_t> proposal_;
  comm::ThreadBuckets out_col_;  // push candidates, by column-communicator rank
  comm::ThreadBuckets out_row_;  // pull candidates, by row-communicator rank
  comm::Received received_;
  std::vector<uint64_t> records_, gathered_;  // gather_records(): (id << 32 | distance bits)
  const std::vector<uint64_t>* gathered_view_ = nullptr;
  std::vector<double> reduce_slots_;  // reduce_all(): per thread, padded
  double reduce_result_[4] = {0, 0, 0, 0};
};

}  // namespace g500::sssp
