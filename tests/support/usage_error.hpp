// Checks the bad-input contract of a subcommand run through mpiexec: exit status 2, exactly one
// "g500 SUB: error:" line containing the expected text, no MPI abort trace, no result block.
#pragma once
#include <gtest/gtest.h>

#include <sstream>
#include <string>

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

}  // namespace g500::testing
