// One machine whose cores run every rank of the job (network `shm`), possibly more ranks (times
// threads) than cores. The ranks of g500 bfs wait for messages by polling and yield the core while
// they do (Open MPI's mpi_yield_when_idle, scripts/env.sh), so the scheduler runs a rank that has
// work whenever its core has one:
//  * time-sharing of the calculation: with q = ranks x threads / cores > 1 (ranks per core), a
//    rank computes at the full speed of min(threads, cores) cores when it runs, but the q ranks of
//    a core take turns: between two synchronisations each rank waits for the q - 1 others of its
//    core to compute their share, so a level lasts q times one rank's calculation. The rank that
//    waits is inside MPI, so its timers charge the wait to the communication phase it waits in:
//    the ranks of a core compute one after another after each synchronisation, the k-th of them
//    having waited for k - 1 others before it starts and for q - k after it ends, so on average
//    each segment of calculation adds (q - 1) / 2 of its length to the phase before it and
//    (q - 1) / 2 to the phase after it;
//  * messages: a message step between polling ranks costs the latency L0 of two running ranks
//    plus, for each further rank on a core, the switch to the partner: L = L0 + (q - 1) t_switch;
//    a copy is calculation of the sending or receiving rank and is time-shared as well: the copy
//    bandwidth is B0 / q.
// L0 and B0 come from `g500 coll` at no more ranks than cores, t_switch from the same collective
// with more ranks than cores (scripts/model-here); the cores from the machine.
#pragma once
#include <string>
#include <vector>

#include "model/network.hpp"
#include "model/trace.hpp"

namespace g500::model {

// q: ranks x threads per core, at least 1.
double ranks_per_core(double ranks, double threads, int cores);

// Latency of one message step and copy bandwidth of `ranks` ranks at q ranks per core: measured at
// that rank count when the network has it (NetworkSpec::measured_at_ranks), else from L0, B0 and
// t_switch as above.
double shared_step_latency(const NetworkSpec& net, int ranks, double ranks_per_core);
double shared_bandwidth(const NetworkSpec& net, int ranks, double ranks_per_core);
// "ranks,latency_us,bandwidth_gbs" lines (a header line first) as measured_at_ranks; throws
// UsageError naming `what` on bad input.
std::vector<NetworkSpec::MeasuredAtRanks> parse_measured_at_ranks(const std::string& text, const std::string& what);

// Where the waits of the time-sharing go, for one level: the level's calculation per rank is cut
// into segments between the synchronisations of the BFS step (top-down: one segment between the
// frontier's allgatherv and the candidates' alltoallv; bottom-up: the C sub-steps between the
// frontier's allgatherv, the sendrecv of each sub-step and the pairs' alltoallv); a group of one
// process does not synchronise, its side of the segment waits at the level's end (imbalance).
struct LevelSynchronisation {
  bool bottom_up = false;
  int substeps = 1;       // bottom-up: C sub-steps
  bool gathers = true;    // the allgatherv's group has more than one process
  bool exchanges = true;  // the alltoallv's group has more than one process
};
// Adds (q - 1) / 2 of each segment before and after it to `seconds`.
void add_core_waits(PhaseSeconds& seconds, double calculation, double ranks_per_core, const LevelSynchronisation& sync);

}  // namespace g500::model
