// Checks the bad-input contract of a subcommand run through mpiexec: exit status 2, exactly one
// "g500 SUB: error:" line containing the expected text, no MPI abort trace, no result block.
#pragma once
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace g500::testing {

inline int count_lines_starting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) n += line.rfind(prefix, 0) == 0;
  return n;
}

inline void expect_usage_error(const std::string& subcommand, int ranks, const std::string& args,
                               const std::string& message) {
  auto r = run_g500(ranks, subcommand + " " + args);
  EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
  EXPECT_EQ(count_lines_starting(r.err, "g500 " + subcommand + ": error:"), 1) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
  EXPECT_EQ(r.err.find("MPI_ABORT"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("SCALE:"), std::string::npos);
}

// The same for g500 started alone (no mpiexec).
inline void expect_usage_error_alone(const std::string& subcommand, const std::string& args,
                                     const std::string& message) {
  auto r = run_g500_alone(subcommand + " " + args);
  EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
  EXPECT_EQ(count_lines_starting(r.err, "g500 " + subcommand + ": error:"), 1) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
  EXPECT_EQ(r.out.find("SCALE:"), std::string::npos);
}

// The lines of `text` that start with `prefix`.
inline std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  return lines;
}

// The whole message known: exit status 2, g500's only error line is exactly
// "g500 SUBCOMMAND: error: MESSAGE", and stdout is empty (nothing ran).
inline void expect_exact_usage_error(const std::string& subcommand, int ranks, const std::string& args,
                                     const std::string& message) {
  auto r = run_g500(ranks, subcommand + " " + args);
  EXPECT_EQ(r.status, 2) << args << " (" << ranks << " ranks)\n" << r.err;
  EXPECT_EQ(lines_starting(r.err, "g500 " + subcommand + ": error:"),
            std::vector<std::string>{"g500 " + subcommand + ": error: " + message})
      << args << " (" << ranks << " ranks)";
  EXPECT_EQ(r.out, "") << args;
}

// The same for g500 started alone (no mpiexec): for checks that every rank makes alike while
// parsing its options, where one process says all and starts in a fraction of the time.
inline void expect_exact_usage_error_alone(const std::string& subcommand, const std::string& args,
                                           const std::string& message) {
  auto r = run_g500_alone(subcommand + " " + args);
  EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
  EXPECT_EQ(lines_starting(r.err, "g500 " + subcommand + ": error:"),
            std::vector<std::string>{"g500 " + subcommand + ": error: " + message})
      << args;
  EXPECT_EQ(r.out, "") << args;
}

}  // namespace g500::testing
