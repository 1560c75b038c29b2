// Self-contained network cost model over a logical 1D/2D/3D torus, for predicting the
// collectives of Hosono et al. 2021 at Fugaku scale (its Table 1 shapes). Assumptions (see docs/coll.md):
//  * ranks sit on the torus in x-fastest order, one rank per node (NLP = 1);
//  * messages follow dimension-order routing (X, then Y, then Z), each dimension the shorter
//    way round (ties: the + direction; a 2-node dimension: the direct link each way), the one
//    routing model of topo/topology.hpp; every node has one link per direction (+-X, +-Y, +-Z);
//  * a message costs L (start-up) + hops * hop_latency + bytes / B on an idle path; links shared by
//    simultaneous messages divide their bandwidth (the busiest link of a round decides its time);
//  * alltoall(v) algorithms run in rounds that end together; a rank starts its messages of one
//    round one after another (messages * L);
//  * bcast: a rank forwards each segment to its children in order; sends leaving in different
//    directions overlap, sends in the same direction queue; trees sharing a link (k-tree)
//    share its bandwidth (the busiest link on an edge's route sets that edge's share).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "coll/coll_catalog.hpp"

namespace g500::coll {

struct NetworkParams {
  double latency = 1.73e-6;     // L per message [s] (Hosono et al. 2021's Trinaryx6 fit)
  double bandwidth = 6.34e9;    // B per link [bytes/s] (Hosono et al. 2021's Trinaryx6 fit)
  double hop_latency = 1.0e-7;  // per router hop [s] (assumed)
};

// Hops between two ranks under dimension-order routing on the torus.
int torus_hops(const Shape3& torus, int from, int to);

// Busiest link load when every rank r sends `weight` units to rank_of(coords(r) + shift) for a
// coordinate shift, or (rank_shift) to (r + shift) mod P.
struct RoundLoad {
  double messages_per_rank = 0;
  double max_hops = 0;
  double max_link_units = 0;  // in units of the per-message weight
};
RoundLoad rank_shift_load(const Shape3& torus, int rank_shift, double weight);

// Predicted time of an alltoall(v) algorithm (linear, pairwise, bruck, dimwise over the torus
// shape) with M bytes per pair.
double simulate_alltoall(const std::string& algorithm, const Shape3& torus, double bytes_per_pair,
                         const NetworkParams& network);

// Predicted time of a bcast algorithm with message M and segment mS (0 = unsegmented), root 0.
double simulate_bcast(const std::string& algorithm, const Shape3& torus, double message, double segment,
                      const NetworkParams& network);

// Largest number of trees of a multi-tree bcast (ktree3, ktree6, splitbintree) whose
// dimension-order routes use one directed link (1 = the trees are link-disjoint).
int max_trees_per_link(const std::string& algorithm, const Shape3& torus);

// One row of the Table 1 simulation.
struct SimulationRow {
  std::string size_name, shape, op, algorithm;
  int dimensions = 1;
  double message = 0, segment = 0, seconds = 0, throughput = 0;
};
// The bounds of a simulation's work. A bcast is simulated segment by segment and node by node, keeping up
// to segments x nodes arrival times (8 bytes each) of a tree: at most 2^26 of them (512 MiB) per tree,
// and 2^31 over all rows (about ten seconds). Tiny segments (a bandwidth of 1 byte/s makes the model's
// optimum 1 byte) or huge sizes would otherwise run for hours.
inline constexpr double kMaxSimulatedArrivalsPerTree = 67108864;  // 2^26
inline constexpr double kMaxSimulatedArrivals = 2147483648;       // 2^31
// All Table 1 shapes x algorithms x the given message sizes; bcast on small and middle only (as Hosono et al. 2021).
// Throws UsageError, before any simulation, when the work passes the bounds above.
// `row_done(done, total)` is called after each row simulated, for a progress line.
std::vector<SimulationRow> simulate_table1(const std::vector<double>& messages, const NetworkParams& network,
                                           double generic_segment,
                                           const std::function<void(int64_t done, int64_t total)>& row_done = {});

}  // namespace g500::coll
