// Where a result came from: the top-level "provenance" object of every JSON g500 writes, and one
// line above each text report. The keys (tools/g500report reads them):
//   version, build, compiler, mpi_library  what ran (util/build_info.hpp)
//   hosts             the ranks' distinct host names, sorted
//   ranks, threads_per_rank
//   date              when the process started, ISO 8601 in UTC ("2026-11-28T15:04:05Z")
//   command           the process's argv, each word shell-quoted (util/shell_word.hpp), joined by
//                     spaces: the command that repeats the run (without its launcher, mpiexec)
// main() takes the Invocation once, before any subcommand starts, and hands it to the subcommand.
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace g500::util {

struct Invocation {
  std::string command;
  std::string date;
  std::vector<std::string> hosts;
  int ranks = 1;
};

// Collective over comm (one gather of host names): this run's invocation, dated now.
Invocation invocation_of(int argc, char** argv, MPI_Comm comm);

// "YYYY-MM-DDTHH:MM:SSZ" for a time in seconds since the epoch.
std::string iso8601_utc(long long seconds_since_epoch);

// The "provenance" object of a JSON result.
nlohmann::json provenance_json(const Invocation& invocation, int threads_per_rank);

// "# g500 0.9.0 (build a938e8e (GNU 12.2.0, Release)), Open MPI v4.1.4, 4 ranks x 2 threads on 1
// host (node1), 2026-11-28T15:04:05Z": the provenance line above a text report, without a newline
// (the first three hosts by name, then how many more).
std::string provenance_line(const Invocation& invocation, int threads_per_rank);

}  // namespace g500::util
