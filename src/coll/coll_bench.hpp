// Timing harness of `g500 coll --op OP --algo ALGO`: for each message size, `warmup` untimed
// runs, then `reps` timed runs each started after a barrier; a run's time is the maximum over
// ranks, and the reported time is the median over the timed runs. Throughput follows Hosono et al. 2021:
// Eq. 1 for alltoall(v), T = (NP - NLP) * NLP * M / t; Eq. 2 for bcast, T = M / t; for
// allgatherv (not in the paper) T = (NP - 1) * M / t, the bytes each rank receives per second.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "coll/coll_catalog.hpp"

namespace g500::coll {

// The most timed (and untimed) repetitions per size: a median of a million timings is as good as
// of more, and larger counts are typos (2147483647 once wrapped the loop's count and crashed).
inline constexpr int kMaxRepetitions = 1000000;
// The most bytes one rank's buffers may pass through the collective over a whole run, summed over
// repetitions and sizes: 16 TiB, hours at a memory's speed; more would outlast any job.
inline constexpr std::int64_t kMaxBenchBytes = std::int64_t{1} << 44;

struct BenchConfig {
  CollOp op = CollOp::alltoallv;
  std::string algorithm = kMpiAlgorithm;  // a catalog name, "mpi", or "ompi:N"
  std::vector<std::int64_t> sizes;        // M in bytes: per pair (alltoall(v)), per rank (allgatherv), message (bcast)
  int segment_bytes = 0;
  Shape3 shape{};
  bool shape_given = false;  // --shape: must multiply to the communicator size, for an algorithm that uses it
  int reps = 20;
  int warmup = 3;
  int ranks_per_node = 1;  // NLP of Eq. 1
  int root = 0;
};

struct BenchRow {
  std::string op, algorithm, ran, shape;
  int segment_bytes = 0;
  int processes = 0;
  int ranks_per_node = 1;
  std::int64_t bytes = 0;
  int reps = 0;
  double median_seconds = 0, min_seconds = 0, max_seconds = 0;
  double throughput = 0;  // bytes per second
};

// Sizes MIN..MAX doubling from MIN (or from 1 after a MIN of 0); accepts K, M, G suffixes
// (powers of 1024). Throws UsageError on malformed text (naming `option` for parse_bytes).
std::vector<std::int64_t> parse_size_range(const std::string& text);
std::int64_t parse_bytes(const std::string& text, const std::string& option);

// Checks the whole configuration (every size included) on every rank, throwing UsageError before
// anything is timed, then runs it. Collective over comm.
std::vector<BenchRow> run_bench(const BenchConfig& config, MPI_Comm comm);

double throughput_of(CollOp op, int processes, int ranks_per_node, std::int64_t bytes, double seconds);

// CSV with a header line; the same columns are read back by read_bench_csv.
void write_bench_csv(const std::string& path, const std::vector<BenchRow>& rows);
std::vector<BenchRow> read_bench_csv(const std::string& path);
std::string bench_csv_header();

}  // namespace g500::coll
