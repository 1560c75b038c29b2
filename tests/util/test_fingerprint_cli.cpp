// The start-up check of util/fingerprint through mpiexec's MPMD syntax: ranks started with different
// options, a different subcommand, or a different g500 build (a copy of the binary whose embedded
// build id is altered) stop before any work with one line from rank 0 and exit status 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "run_command.hpp"
#include "util/build_id.hpp"

namespace g500::util {
namespace {

using testing::run_command;

constexpr int kTimeoutSeconds = 120;

// mpiexec with one part per command line, one rank each.
testing::CommandResult run_parts(const std::vector<std::string>& parts) {
  std::string command =
      "timeout --kill-after=5 " + std::to_string(kTimeoutSeconds) + " " + G500_MPIEXEC + " " + G500_MPIEXEC_FLAGS;
  for (size_t k = 0; k < parts.size(); ++k) command += (k ? " : -n 1 " : " -n 1 ") + parts[k];
  return run_command(command);
}

// The lines of `text` that start with `prefix`.
int lines_starting_with(const std::string& text, const std::string& prefix) {
  int count = 0;
  for (size_t at = 0; at < text.size();) {
    const size_t end = text.find('\n', at);
    if (text.compare(at, prefix.size(), prefix) == 0) ++count;
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return count;
}

TEST(FingerprintCli, DifferentOptionsStopTheRunWithOneLine) {
  const std::string bin = G500_BINARY;
  auto r = run_parts({bin + " bfs --scale 10 --roots 2", bin + " bfs --scale 11 --roots 2"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("g500 bfs: error: ranks disagree: rank 1 was started with '--scale 11', rank 0 with "
                       "'--scale 10'\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(lines_starting_with(r.err, "g500"), 1) << r.err;
  EXPECT_EQ(r.out, "");  // nothing ran
}

TEST(FingerprintCli, ADifferentSubcommandIsNamed) {
  const std::string bin = G500_BINARY;
  auto r = run_parts({bin + " bfs --scale 10", bin + " bfs --scale 10", bin + " sssp --scale 10"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("g500 bfs: error: ranks disagree: rank 2 was started as 'g500 sssp --scale 10', rank 0 as "
                       "'g500 bfs --scale 10'\n"),
            std::string::npos)
      << r.err;
}

TEST(FingerprintCli, ADifferentBuildIsNamed) {
  // A copy of g500 whose build id differs in its first character: another build for the check.
  const std::string dir = testing::make_temp_dir();
  const std::string copy = dir + "/g500-other";
  std::string bytes = testing::read_file(G500_BINARY);
  const size_t marker = bytes.find(kBuildIdMarker);
  ASSERT_NE(marker, std::string::npos) << "no build id in " << G500_BINARY;
  const size_t id = marker + std::string(kBuildIdMarker).size();
  const std::string original_id = bytes.substr(id, bytes.find('\0', id) - id);
  bytes[id] = bytes[id] == 'X' ? 'Y' : 'X';
  testing::write_file(dir, "g500-other", bytes);
  std::filesystem::permissions(copy, std::filesystem::perms::owner_all);
  auto r = run_parts({std::string(G500_BINARY) + " bfs --scale 10", copy + " bfs --scale 10"});
  EXPECT_EQ(r.status, 2);
  std::string other_id = original_id;
  other_id[0] = bytes[id];
  EXPECT_NE(r.err.find("g500 bfs: error: ranks disagree: rank 1 runs a different g500 build (" + other_id +
                       ") than rank 0 (" + original_id + ")\n"),
            std::string::npos)
      << r.err;
}

TEST(FingerprintCli, AgreeingRanksRun) {
  const std::string bin = G500_BINARY;
  auto r = run_parts({bin + " bfs --scale 10 --roots 2", bin + " bfs --scale 10 --roots 2"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("num_mpi_processes:              2\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace g500::util
