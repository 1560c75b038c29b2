// `g500 coll` through mpiexec at 1 and 4 ranks: every bad option value (numbers, shapes, sizes,
// options of another mode) is one "g500 coll: error:" line with exit status 2, found before any
// timing starts.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "run_command.hpp"
#include "usage_error.hpp"

namespace g500::coll {
namespace {

void expect_refused(int ranks, const std::string& args, const std::string& message) {
  testing::expect_exact_usage_error("coll", ranks, args, message);
}

TEST(CollCli, BadNumbersAreNamedWithTheirRule) {
  const std::pair<const char*, const char*> cases[] = {
      {"--op bcast --sizes 1:8 --reps 0", "--reps must be at least 1 (got '0')"},
      {"--op bcast --sizes 1:8 --reps x", "--reps must be a whole number from 1 to 1000000 (got 'x')"},
      {"--op bcast --sizes 1:8 --warmup -1", "--warmup must be at least 0 (got '-1')"},
      {"--op bcast --sizes 1:8 --ranks-per-node 0", "--ranks-per-node must be at least 1 (got '0')"},
      {"--op bcast --sizes 1:8 --root -1", "--root must be at least 0 (got '-1')"},
      {"--op bcast --sizes 1:8 --segment x", "--segment: 'x' is not a byte count (a number with optional K, M or G)"},
      {"--op bcast --sizes 1x:8", "--sizes: '1x' is not a byte count (a number with optional K, M or G)"},
      {"--op bcast --sizes 1:99999999999G", "--sizes: '99999999999G' is too large"},
      {"--simulate --latency 0", "--latency must be a number from 1e-09 to 1 seconds (got '0')"},
      {"--simulate --bandwidth x", "--bandwidth must be a number from 1e+06 to 1e+15 bytes/s (got 'x')"},
      {"--simulate --hop-latency -1", "--hop-latency must be a number from 0 to 1 seconds (got '-1')"},
      // Counts that once wrapped: 3 + 2147483647 repetitions crashed the harness.
      {"--op bcast --sizes 1:8 --reps 2147483647", "--reps must be at most 1000000 (got '2147483647')"},
      {"--op bcast --sizes 1:8 --warmup 1000001", "--warmup must be at most 1000000 (got '1000001')"},
  };
  for (int ranks : {1, 4})
    for (const auto& [args, message] : cases) expect_refused(ranks, args, message);
  // Beyond any machine (checked while parsing, alike on every rank: one process).
  testing::expect_exact_usage_error_alone("coll", "--simulate --latency 1e-300",
                                          "--latency must be a number from 1e-09 to 1 seconds (got '1e-300')");
  testing::expect_exact_usage_error_alone("coll", "--simulate --bandwidth 1e300",
                                          "--bandwidth must be a number from 1e+06 to 1e+15 bytes/s (got '1e300')");
}

// A shape is refused unless it multiplies to the rank count and the algorithm uses it; a
// malformed one is named in every mode, and modes without a shape refuse it.
TEST(CollCli, BadShapesAreRefused) {
  for (int ranks : {1, 4}) {
    const std::string job = std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks");
    expect_refused(ranks, "--op alltoallv --shape 3x3 --sizes 1:8",
                   "--shape 3x3 has 9 processes but the job has " + job);
    expect_refused(ranks, "--op bcast --algo bintree3d --shape 3x3 --sizes 1:8",
                   "--shape 3x3 has 9 processes but the job has " + job);
    const std::string fitting = ranks == 1 ? "1" : "2x2";
    expect_refused(ranks, "--op alltoallv --shape " + fitting + " --sizes 1:8",
                   "--shape " + fitting + ": --algo mpi does not use a shape (for alltoallv: dimwise)");
    expect_refused(ranks, "--op alltoallv --algo dimwise --shape '' --sizes 1:8", "--shape must not be empty");
    expect_refused(ranks, "--simulate --shape 0", "bad --shape '0': expected X, XxY or XxYxZ with positive integers");
    expect_refused(ranks, "--simulate --shape 2x2",
                   "--shape does not apply to --simulate (it models Hosono et al. 2021's Table 1 shapes)");
    expect_refused(ranks, "--check --shape 2x2", "--shape does not apply to --check");
    // A shape the algorithm uses, matching the ranks: timed.
    auto r =
        testing::run_g500(ranks, "coll --op alltoallv --algo dimwise --shape " + fitting + " --sizes 1:8 --reps 2");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("g500:dimwise"), std::string::npos) << r.out;
  }
}

// Every size is checked before the first is timed: with a million repetitions per size, a check
// after timing the small sizes would run into the time limit (status 124) instead of exit 2.
TEST(CollCli, OversizedSizesFailBeforeTiming) {
  for (int ranks : {1, 4}) {
    // alltoallv needs size x ranks bytes; the first size above the 1 GiB limit is named.
    const std::string first_too_large = ranks == 1 ? "2147483648" : "536870912";
    auto r = testing::run_command("timeout 60 " + std::string(G500_MPIEXEC) + " -n " + std::to_string(ranks) + " " +
                                  G500_MPIEXEC_FLAGS + " " + G500_BINARY +
                                  " coll --op alltoallv --sizes 8:99G --reps 1000000");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(testing::lines_starting(r.err, "g500 coll: error:"),
              std::vector<std::string>{"g500 coll: error: --sizes: message size " + first_too_large +
                                       " B needs a 2147483648 B buffer; the limit is 1073741824 B"})
        << r.err;
    EXPECT_EQ(r.out, "");  // no timing table
  }
}

// Shapes whose product would wrap an int (6 x 715827883 = 2 mod 2^32 once matched a 2-rank job
// and aborted in MPI) are refused in every mode that reads a shape.
TEST(CollCli, ShapesBeyondTheProcessLimitAreRefused) {
  for (int ranks : {1, 4}) {
    expect_refused(ranks, "--op bcast --algo bintree3d --shape 6x715827883 --sizes 8:8",
                   "--shape 6x715827883 has more than 16777216 processes (the limit)");
    expect_refused(ranks, "--op bcast --algo bintree3d --shape 999999999x999999999x999999999 --sizes 8:8",
                   "--shape 999999999x999999999x999999999 has more than 16777216 processes (the limit)");
    expect_refused(ranks, "--segment-model --shape 4096x4096x2",
                   "--shape 4096x4096x2 has more than 16777216 processes (the limit)");
  }
}

// Work beyond the bounds is refused before any of it: repetitions x sizes in the harness, and the
// simulation's segment arrivals (a 1 GiB message in the model's segments: minutes).
TEST(CollCli, WorkBeyondTheBoundsIsRefused) {
  // 1000003 runs of sizes 1 KiB to 1 GiB (1 rank) or 256 MiB x 4 ranks (alltoallv buffers: size x ranks).
  expect_refused(1, "--op alltoallv --sizes 1K:1G --reps 1000000",
                 "--reps 1000000 and --warmup 3 with these --sizes pass 2147489066447872 bytes per rank; the limit is "
                 "17592186044416 (fewer repetitions or smaller sizes)");
  expect_refused(4, "--op alltoallv --sizes 1K:256M --reps 1000000",
                 "--reps 1000000 and --warmup 3 with these --sizes pass 2147485994438656 bytes per rank; the limit is "
                 "17592186044416 (fewer repetitions or smaller sizes)");
  // (A bandwidth of 1 byte/s, which made the segments 1 byte, is now outside the option's range.)
  expect_refused(1, "--simulate --bandwidth 1", "--bandwidth must be a number from 1e+06 to 1e+15 bytes/s (got '1')");
  expect_refused(4, "--simulate --sizes 1G:1G",
                 "--simulate: bcast pipeline on 3072 would move a 1073741824-byte message in 16384-byte segments, "
                 "2.01e+08 segment arrivals per tree; the limit is 67108864 (a larger --segment, --latency or "
                 "--bandwidth, or smaller --sizes)");
}

// Options the chosen mode would ignore.
TEST(CollCli, OptionsOfAnotherModeAreRefused) {
  for (int ranks : {1, 4}) {
    expect_refused(ranks, "--check --sizes 1:8", "--sizes does not apply to --check");
    expect_refused(ranks, "--list --reps 3", "--reps does not apply to --list");
    expect_refused(ranks, "--simulate --root 1", "--root does not apply to --simulate");
    expect_refused(ranks, "--segment-model --hop-latency 1e-7", "--hop-latency does not apply to --segment-model");
  }
}

}  // namespace
}  // namespace g500::coll
