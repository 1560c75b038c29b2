// What every rank of a run must share, compared before any subcommand starts (docs/messages.md):
// the g500 build (util/build_id.hpp), the MPI library it runs with, and its command line (the
// subcommand and its arguments; g500 reads no option from the environment). Ranks started from
// different builds, against a different MPI library, or with different arguments (mpiexec's MPMD
// syntax, a stale binary on one host) would lay out their messages differently or wait in
// different collectives: instead every rank learns of the first rank that differs from rank 0 and
// the run stops with one line.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace g500::util {

struct RunFingerprint {
  std::string build;                   // build_id()
  std::string mpi_library;             // MPI_Get_library_version, first line
  std::vector<std::string> arguments;  // argv[1..]: the subcommand and its arguments
};

// This process's fingerprint (argv as main received it).
RunFingerprint this_process_fingerprint(int argc, char** argv);

// How rank `rank`'s fingerprint differs from rank 0's, as rank 0 reports it ("" when equal), the
// first difference in this order: the build ("rank 3 runs a different g500 build (B3) than rank 0
// (B0)"), the MPI library, the subcommand ("rank 3 was started as 'g500 gen ...', rank 0 as
// 'g500 bfs ...'"), the arguments ("rank 3 was started with '--scale 18', rank 0 with '--scale
// 16'": the options that differ, or all of them when one side only has more).
std::string describe_difference(const RunFingerprint& rank0, const RunFingerprint& other, int rank);

// Collective: "" when every rank's fingerprint equals rank 0's, else on every rank "ranks
// disagree: " and describe_difference() for the lowest rank that differs. One broadcast and one
// reduction when they agree.
std::string fingerprint_disagreement(const RunFingerprint& mine, MPI_Comm comm);

}  // namespace g500::util
