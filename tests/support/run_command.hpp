// Runs a shell command (typically g500 under mpiexec) and captures its exit status and output.
#pragma once
#include <string>

namespace g500::testing {

struct CommandResult {
  int status = -1;  // exit status, -1 if it did not exit normally
  std::string out;
  std::string err;
};

CommandResult run_command(const std::string& command);
// mpiexec -n RANKS [--oversubscribe] g500 ARGS. With timeout_seconds > 0 the run is stopped after
// that long (status 124, or 137 when it had to be killed), so a test of a hang fails instead of hanging.
CommandResult run_g500(int ranks, const std::string& args, int timeout_seconds = 0);
// g500 ARGS started directly (a singleton MPI run, no mpiexec), with the same timeout.
CommandResult run_g500_alone(const std::string& args, int timeout_seconds = 0);
// A fresh empty directory for a test's files, removed with its contents when the test program ends.
std::string make_temp_dir();
std::string read_file(const std::string& path);
// Writes dir/name with the given bytes; returns the path.
std::string write_file(const std::string& dir, const std::string& name, const std::string& contents);

}  // namespace g500::testing
