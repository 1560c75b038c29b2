// Waiting for the slowest process. A level's processes do not finish their calculation together;
// each waits at the next synchronisation for the slowest of those it synchronises with: at the
// collective of its group (the alltoallv that follows the calculation of a level) for the slowest
// of the group, and at the barrier that ends the level (Nakao et al. 2021, section 5.3: Fig. 8 and
// 12's "imbalance") for the slowest of all P, which its group's slowest did not already wait for.
// With per-process times t (1 + e_p), e_p independent with standard deviation sigma, the expected
// maximum of n of them is t (1 + sigma G(n)), G(n) the expected maximum of n standard normals, so
//   wait at the group's collective  t sigma G(g)               (plus the hub term below)
//   wait at the barrier             t sigma (G(P) - G(g))
// which grows with P as G(P) does (about sqrt(2 ln P)). sigma combines
//   * the count of the work: a process's accesses a are a sum of many independent ones, 1/sqrt(a);
//   * the time spread of a process's level, measured in the calibration trace (NodeProfile::
//     level_time_spread: the spread of the 1-rank levels' times around the calibrated line).
// The Kronecker graph adds a heavy tail in top-down levels (the hub term): the frontier's edges
// are read by the processes that hold its vertices' adjacency, and one vertex of degree D (the
// hubs are reached first: the largest Kronecker class degree that fits in the level's E examined
// edges) puts D / K_share of work on each of the processes sharing it, where the K vertex sets
// share E / K on average: the slowest set does D (1 - 1 / K) more than the mean, the relative
// excess K D (1 - 1/K) / E (at most K - 1: everything on one set). Every group of the exchange
// holds one process of each set (the column group of R in g500 bfs's transposed step, the row
// group of C in Algorithm 2), so it waits at the group's collective, not at the barrier.
#pragma once

namespace g500::model {

// G(n): expected maximum of n standard normal variables, by Blom's approximation
// Phi^-1((n - 0.375) / (n + 0.25)) (Blom 1958); 0 for n <= 1.
double expected_max_normal(double n);

// The expected degree 2 m (A+B)^(S-k) (C+D)^k of a vertex whose label has k one-bits in the
// Graph500 Kronecker generator (A = 0.57, B = C = 0.19, D = 0.05).
double kronecker_class_degree(int scale, int edgefactor, int ones);
// The largest class degree not above `edges` (0 when none is).
double largest_hub_within(int scale, int edgefactor, double edges);
// The slowest of `sets` vertex sets' relative excess over their mean share of a top-down level's
// E examined edges (the hub term above).
double hub_excess(int scale, int edgefactor, double examined, double sets);

struct LevelWaits {
  double group = 0;    // seconds per process at the group's collective
  double barrier = 0;  // seconds per process at the barrier that ends the level
};

// `seconds`: a process's mean calculation of the level; `accesses`: its accesses; `spread`: the
// measured time spread (0: none); `hub`: the hub term's relative excess (0 for bottom-up levels);
// `group`, `processes`: the group's size and P. A group of one process leaves everything to the
// barrier.
LevelWaits level_waits(double seconds, double accesses, double spread, double hub, double group, double processes);

}  // namespace g500::model
