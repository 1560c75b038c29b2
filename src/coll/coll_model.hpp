// Latency-bandwidth cost model of Hosono et al. 2021. Every algorithm's time is written as
//   t = a * L + b / B          (L: latency per step [s], B: bandwidth [bytes/s])
// with counts a (steps) and b (bytes on the critical path) that depend on the algorithm, the
// process count, the logical shape, the message size M and the segment size mS. This covers
// Eq. 3 (t = N_R (L + M/B)), Eq. 4 (k-tree/Trinaryx) and Eq. 6 (Bintree3d), so L and B are found
// by linear least squares on measured times (fit_latency_bandwidth).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "coll/coll_catalog.hpp"

namespace g500::coll {

struct CostTerms {
  double steps = 0;  // coefficient of L
  double bytes = 0;  // coefficient of 1/B
  double time(double latency, double bandwidth) const { return steps * latency + bytes / bandwidth; }
};

// Model of one run; `algorithm` is a catalog name ("mpi" is modelled as one step moving M bytes,
// an effective fit). `trees` only matters for ktree*. Throws UsageError for an unknown algorithm.
CostTerms cost_terms(CollOp op, const std::string& algorithm, int processes, const Shape3& shape, double message_bytes,
                     double segment_bytes, int trees = 0);

struct LatencyBandwidth {
  double latency = 0;    // L [s]
  double bandwidth = 0;  // B [bytes/s]; infinity when the data show no size dependence
  double rms_relative_error = 0;
  int points = 0;
};

// Least squares of relative errors (weights 1/t^2) for t_i = a_i L + b_i / B.
LatencyBandwidth fit_latency_bandwidth(const std::vector<CostTerms>& terms, const std::vector<double>& seconds);

// Eq. 4: k-tree (Trinaryx with k = 3 or 6) time, t = (NX+NY+NZ + M/(k mS) - 3)(L + mS/B).
double ktree_time(double latency, double bandwidth, double message, double segment, const Shape3& shape, int trees);
// Eq. 6: Bintree3d time, t = (sum floor log2 N_d + M/mS - 1)(L + mS/B).
double bintree3d_time(double latency, double bandwidth, double message, double segment, const Shape3& shape);
// Optimal segment for Eq. 4 from d t / d mS = 0: sqrt(L B M / (k (NX+NY+NZ - 3))). With
// `as_printed` the paper's Eq. 5 denominator NX+NY+NZ-2 is used instead.
double ktree_optimal_segment(double latency, double bandwidth, double message, const Shape3& shape, int trees,
                             bool as_printed = false);
// Eq. 7: sqrt(L B M / (sum floor log2 N_d - 1)).
double bintree3d_optimal_segment(double latency, double bandwidth, double message, const Shape3& shape);
// Minimiser of cost(mS) over [low, high] by golden-section search on log(mS).
double minimise_segment(const std::function<double(double)>& cost, double low, double high);

int floor_log2(int n);
int ceil_log2(int n);

}  // namespace g500::coll
