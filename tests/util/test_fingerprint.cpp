// util/fingerprint: how two fingerprints' difference is worded (pure), and the collective check at
// 1, 2, 4 and 6 ranks with one rank made to differ in each part in turn: every rank learns of the
// lowest rank that differs, and agreeing ranks get "".
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "util/fingerprint.hpp"

namespace g500::util {
namespace {

RunFingerprint fingerprint(std::vector<std::string> arguments) {
  return {"abc123 (GNU 12.2.0, Release)", "Open MPI v4.1.4", std::move(arguments)};
}

TEST(Fingerprint, EqualFingerprintsHaveNoDifference) {
  EXPECT_EQ(describe_difference(fingerprint({"bfs", "--scale", "16"}), fingerprint({"bfs", "--scale", "16"}), 3), "");
}

TEST(Fingerprint, TheBuildIsReportedFirst) {
  RunFingerprint other = fingerprint({"sssp"});
  other.build = "def456 (GNU 12.2.0, Debug)";
  other.mpi_library = "MPICH 4.0";
  EXPECT_EQ(
      describe_difference(fingerprint({"bfs"}), other, 3),
      "rank 3 runs a different g500 build (def456 (GNU 12.2.0, Debug)) than rank 0 (abc123 (GNU 12.2.0, Release))");
}

TEST(Fingerprint, ThenTheMpiLibrary) {
  RunFingerprint other = fingerprint({"bfs"});
  other.mpi_library = "MPICH 4.0";
  EXPECT_EQ(describe_difference(fingerprint({"bfs"}), other, 1),
            "rank 1 runs with a different MPI library (MPICH 4.0) than rank 0 (Open MPI v4.1.4)");
}

TEST(Fingerprint, ADifferentSubcommandShowsBothCommandLines) {
  EXPECT_EQ(describe_difference(fingerprint({"bfs", "--scale", "10"}), fingerprint({"sssp", "--scale", "10"}), 2),
            "rank 2 was started as 'g500 sssp --scale 10', rank 0 as 'g500 bfs --scale 10'");
}

TEST(Fingerprint, DifferentArgumentsShowOnlyTheOptionsThatDiffer) {
  EXPECT_EQ(describe_difference(fingerprint({"bfs", "--scale", "16", "--roots", "8", "--grid", "2x1"}),
                                fingerprint({"bfs", "--scale", "18", "--roots", "8", "--grid", "2x1"}), 5),
            "rank 5 was started with '--scale 18', rank 0 with '--scale 16'");
  // Negative numbers are values, not options; a value with a space is quoted.
  EXPECT_EQ(describe_difference(fingerprint({"coll", "--offset", "-3", "--name", "a b"}),
                                fingerprint({"coll", "--offset", "-4", "--name", "a b"}), 1),
            "rank 1 was started with '--offset -4', rank 0 with '--offset -3'");
}

TEST(Fingerprint, AnExtraOptionShowsBothWholeArgumentLists) {
  EXPECT_EQ(describe_difference(fingerprint({"bfs", "--scale", "16"}),
                                fingerprint({"bfs", "--scale", "16", "--validate", "off"}), 1),
            "rank 1 was started with '--scale 16 --validate off', rank 0 with '--scale 16'");
  EXPECT_EQ(describe_difference(fingerprint({"bfs", "--scale", "16"}), fingerprint({"bfs"}), 1),
            "rank 1 was started with no arguments, rank 0 with '--scale 16'");
}

// Each rank's fingerprint, with rank `odd_rank` made to differ in `part` (0 build, 1 MPI library,
// 2 arguments).
RunFingerprint this_rank(int rank, int odd_rank, int part) {
  RunFingerprint f = fingerprint({"bfs", "--scale", "12"});
  if (rank != odd_rank) return f;
  if (part == 0) f.build = "other build";
  if (part == 1) f.mpi_library = "other MPI";
  if (part == 2) f.arguments[2] = "13";
  return f;
}

TEST(FingerprintCollective, AgreeingRanksPass) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  EXPECT_EQ(fingerprint_disagreement(this_rank(rank, -1, 0), MPI_COMM_WORLD), "");
}

TEST(FingerprintCollective, EveryRankLearnsOfTheLowestRankThatDiffers) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) GTEST_SKIP() << "one rank has nobody to disagree with";
  const std::vector<std::string> expected = {
      "runs a different g500 build (other build) than rank 0 (abc123 (GNU 12.2.0, Release))",
      "runs with a different MPI library (other MPI) than rank 0 (Open MPI v4.1.4)",
      "was started with '--scale 13', rank 0 with '--scale 12'"};
  for (int odd_rank = 1; odd_rank < size; ++odd_rank) {
    for (int part = 0; part < 3; ++part) {
      // Ranks odd_rank and size-1 differ: the lower one is named.
      RunFingerprint mine = this_rank(rank, odd_rank, part);
      if (rank == size - 1 && odd_rank != size - 1) mine = this_rank(rank, rank, (part + 1) % 3);
      EXPECT_EQ(fingerprint_disagreement(mine, MPI_COMM_WORLD),
                "ranks disagree: rank " + std::to_string(odd_rank) + " " + expected[part])
          << "rank " << rank << ", odd rank " << odd_rank << ", part " << part;
    }
  }
}

}  // namespace
}  // namespace g500::util
