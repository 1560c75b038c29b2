// The calculation side of the model: how fast one node examines edges and scans bitmaps.
//
// Per level and process, the local calculation takes
//   t_calc = W_p / w_dir + E_p / r_dir
// with E_p the edges it examines (top-down or bottom-up rate r_dir) and W_p the bitmap words the
// level goes through (rate w_dir): a top-down level its own vertices' bitmaps, n / (64 P) words
// (visited snapshot, next frontier), a bottom-up level the rows of its row set, n / (64 R) words
// in C sub-steps. Rates are per core;
// a process gets its share of the node's cores (cores / ppn, at most its threads), faster by the
// locality speed-up when a node runs several processes (Nakao et al. 2021, section 5.3: at 4
// processes per node, one per CMG, the L2 misses halve) and by the clock (section 5.5, Boost mode).
#pragma once
#include <string>

#include "model/trace.hpp"
#include "model/volumes.hpp"

namespace g500::model {

// Bytes the bottom-up scan reads per bitmap word: the rotating visited word, the word of rows
// with edges and the word's row offset (bitmap-based CSR, Nakao et al. 2021, section 4.1), 8 bytes
// each; a node's bitmap words per second are its memory bandwidth over these.
inline constexpr double kScanBytesPerWord = 24;

struct NodeProfile {
  std::string name;
  std::string source;             // where the numbers come from
  int cores = 1;                  // cores per node that run the BFS
  double topdown_rate = 0;        // edges examined per second per core
  double bottomup_rate = 0;       // edges examined per second per core
  double topdown_word_rate = 0;   // bitmap words per second per core, top-down levels
  double bottomup_word_rate = 0;  // bitmap words per second per core, bottom-up levels
  double clock_ghz = 1;           // the clock the rates were taken at
  int locality_domains = 1;       // NUMA domains (A64FX: 4 CMGs)
  double locality_speedup = 1;    // rate factor at one process per domain
  BfsVariant variant;             // how the implementation lays out its top-down step and encodes lists and pairs
  // Relative standard deviation of one process's level time that its work does not explain
  // (imbalance.hpp); measured by calibrate_from_trace, 0 when unknown.
  double level_time_spread = 0;
};

// Calculation-rate factor of a process at `ppn` processes per node: locality_speedup^(log ppn /
// log domains) up to one process per domain (1 at 1 ppn), times clock / clock_ghz.
double rate_factor(const NodeProfile& profile, int ppn, double clock_ghz);

// Rates from a 1-rank `g500 bfs --trace --json` run on the target node: per direction, a
// least-squares line through the levels' (accesses, seconds) (accesses: level_work.hpp, edges
// examined plus frontier vertices top-down, plus unvisited vertices bottom-up); its slope gives the
// access rate, its intercept the time for the n/64 bitmap words of a level on one rank; the
// levels' spread around the lines gives level_time_spread (1.4826 times the median absolute
// deviation of time / line - 1 over the levels above a tenth of the longest). Throws UsageError
// when the run has more than one rank or no trace.
NodeProfile calibrate_from_trace(const TraceRun& run, int cores);

// A64FX, 48 cores at 2.0 GHz (Nakao et al. 2021, Table 1): the bottom-up rate is the one free
// number, set by calibrate_a64fx (bfs_model.hpp) on one published point; the other rates follow
// from it and from the sources in docs/model.md.
NodeProfile a64fx_profile_shape();
// The profile with this bottom-up rate and the top-down rate that goes with it.
NodeProfile with_bottomup_rate(NodeProfile profile, double bottomup_rate);
// The K computer's SPARC64 VIIIfx, 8 cores at 2.0 GHz: half the A64FX's local calculation per node
// in Boost mode, edges and bitmap words alike (Nakao et al. 2021, section 6.2).
NodeProfile k_profile(const NodeProfile& a64fx);

}  // namespace g500::model
