// Kernel 3: distributed delta-stepping SSSP (Meyer and Sanders 2003) on the BFS's 2D process grid
// and Yoo distribution (graph/distribution.hpp), with the reference 3.0 float32 edge weights.
//
// Bulk-synchronous buckets of width delta. For the current bucket k:
//  - light phases: the active vertices of bucket k (owned, each with its tentative distance) are
//    gathered along the grid row, every process relaxes their light edges (w < delta) whose
//    result stays inside bucket k ("inner short" edges, Chakaravarthy et al. 2014) and sends the
//    improved candidates to the owners along the grid column; vertices improved into bucket k are
//    the next active set; repeat until no process has an active vertex;
//  - heavy phase: every vertex settled in bucket k relaxes, once, its remaining edges (the heavy
//    ones and the light ones that leave the bucket).
// Rows are sorted by weight (graph/weighted_graph.hpp), so both edge sets are a prefix / suffix
// of a row found without scanning. Candidates for vertices this process owns are applied at once
// (atomic minimum); the others go to their owners, each process remembering the best candidate it
// has already sent for every vertex of its column set and dropping those that are not better.
// OpenMP threads share the relaxation of the gathered vertices and the applying of candidates.
// Parents are not carried through the search: afterwards every reached vertex takes as parent a
// neighbour u with dist[u] + w == dist[v] exactly (one exists, since every distance is such a sum
// of a final distance and a weight), found in one pass over the edges and reduced along the row.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "comm/exchange.hpp"
#include "comm/phase_profile.hpp"
#include "graph/weighted_graph.hpp"

namespace g500 {

struct SsspOptions {
  // Bucket width. Tuned on SCALE 16..17 Kronecker graphs with uniform [0, 1) weights and average
  // degree 32 (docs/sssp.md).
  double delta = 0.05;
  // The heavy phase of a bucket pulls (unsettled vertices look for settled neighbours along
  // their light-enough edges) instead of pushing when the estimated push work exceeds
  // pull_factor times the estimated pull work; 0 = always push.
  double pull_factor = 0.25;
};

inline constexpr double kUnreachedDistance = std::numeric_limits<double>::infinity();

struct SsspRun {
  int64_t root = 0;
  double seconds = 0;
  int64_t buckets = 0;          // non-empty buckets processed
  int64_t phases = 0;           // light + heavy phases (each one gather + one exchange)
  int64_t pull_phases = 0;      // heavy phases done by pulling
  int64_t relaxations = 0;      // edges relaxed (push) or scanned (pull) by this rank
  comm::PhaseProfile profile;   // this rank's time per phase
};

class DistributedSssp {
 public:
  DistributedSssp(const WeightedLocalGraph& graph, const ProcessGrid& grid, const SsspOptions& options);
  // Collective: shortest paths from `root`. Afterwards distances()/parents() hold the owned
  // vertices' values (kUnreachedDistance and -1 when unreached; the root has 0 and itself).
  SsspRun run(int64_t root);
  const std::vector<double>& distances() const { return dist_; }
  const std::vector<int64_t>& parents() const { return parent_; }

 private:
  int64_t bucket_of(double d) const {
    const double b = d * inverse_delta_;
    return b < 9e18 ? static_cast<int64_t>(b) : std::numeric_limits<int64_t>::max();  // unreached: no bucket
  }
  // Gathers (owned offset, distance) of `vertices` along the grid row and relaxes, for each, the
  // edges selected by `heavy` (false: the inner light edges of bucket k; true: the rest). Sends
  // the candidates to their owners and applies them; the owned vertices that
  // improve into bucket k are appended to next_, the others to their buckets.
  void relax(const std::vector<LocalId>& vertices, int64_t k, bool heavy, SsspRun& run);
  // Atomic minimum of the owned tentative distance; a vertex improved for the first time in this
  // phase goes to `improved`.
  void improve(LocalId x, double nd, std::vector<LocalId>& improved);
  void compute_parents(int64_t root, SsspRun& run);
  void place_improved(int64_t k, SsspRun& run);
  bool heavy_should_pull(const std::vector<LocalId>& settled, int64_t k, SsspRun& run);
  void pull_heavy(const std::vector<LocalId>& settled, int64_t k, SsspRun& run);

  const WeightedLocalGraph& wg_;
  const LocalGraph& graph_;
  const ProcessGrid& grid_;
  const Distribution& dist_of_;
  SsspOptions options_;
  double inverse_delta_;
  comm::AlltoallvFn alltoallv_;
  int nthreads_ = 1;

  std::vector<double> dist_;                 // owned
  std::vector<int64_t> parent_;              // owned
  std::vector<uint64_t> sent_best_;          // column set: bits of the best candidate sent so far
  std::vector<std::vector<LocalId>> buckets_;  // owned offsets, lazily deleted
  std::vector<uint32_t> mark_;               // owned: epoch of the last insertion into next_
  std::vector<uint32_t> settled_mark_;       // owned: epoch of the bucket that settled it
  uint32_t epoch_ = 0;
  uint32_t bucket_epoch_ = 0;
  std::vector<LocalId> next_;
  std::vector<std::vector<LocalId>> improved_;  // per thread
  std::vector<double> row_dist_, col_dist_;      // compute_parents()
  std::vector<int64_t> proposal_;
  comm::ThreadBuckets out_row_;                  // pull candidates, by row-communicator rank
  std::vector<uint32_t> col_stamp_;              // column set: bucket_stamp_ when settled in bucket k
  uint32_t bucket_stamp_ = 0;
  comm::ThreadBuckets out_;
  std::vector<uint64_t> gathered_;
  std::vector<int> gather_counts_, gather_displs_;
};

}  // namespace g500
