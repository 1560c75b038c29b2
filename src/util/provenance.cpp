// The provenance of a run's results (util/provenance.hpp).
#include "util/provenance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <ctime>

#include "util/build_info.hpp"
#include "util/shell_word.hpp"

namespace g500::util {
namespace {

// Every rank's host name (MPI_Get_processor_name), distinct and sorted, on every rank.
std::vector<std::string> distinct_hosts(MPI_Comm comm) {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  std::vector<char> all(static_cast<size_t>(ranks) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm);
  std::vector<std::string> hosts;
  for (int r = 0; r < ranks; ++r) {
    const char* host = all.data() + static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME;
    hosts.emplace_back(host, strnlen(host, MPI_MAX_PROCESSOR_NAME));
  }
  std::sort(hosts.begin(), hosts.end());
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  return hosts;
}

// The text line names this many hosts, then how many more there are.
constexpr size_t kHostsNamed = 3;

std::string plural(long long count, const char* word) {
  return fmt::format("{} {}{}", count, word, count == 1 ? "" : "s");
}

}  // namespace

std::string iso8601_utc(long long seconds_since_epoch) {
  const std::time_t time = static_cast<std::time_t>(seconds_since_epoch);
  std::tm utc{};
  gmtime_r(&time, &utc);
  char text[sizeof "YYYY-MM-DDTHH:MM:SSZ" + 8] = {};  // room for a year beyond 9999
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Invocation invocation_of(int argc, char** argv, MPI_Comm comm) {
  Invocation invocation;
  // Rank 0's clock for every rank, so all ranks agree on the date.
  long long now = static_cast<long long>(std::time(nullptr));
  MPI_Bcast(&now, 1, MPI_LONG_LONG, 0, comm);
  invocation.date = iso8601_utc(now);
  for (int k = 0; k < argc; ++k) {
    if (k > 0) invocation.command += ' ';
    invocation.command += shell_word(argv[k]);
  }
  invocation.hosts = distinct_hosts(comm);
  MPI_Comm_size(comm, &invocation.ranks);
  return invocation;
}

nlohmann::json provenance_json(const Invocation& invocation, int threads_per_rank) {
  const BuildInfo build = build_info();
  return {{"version", build.version},
          {"build", build.build},
          {"compiler", build.compiler},
          {"mpi_library", build.mpi_library},
          {"hosts", invocation.hosts},
          {"ranks", invocation.ranks},
          {"threads_per_rank", threads_per_rank},
          {"date", invocation.date},
          {"command", invocation.command}};
}

std::string provenance_line(const Invocation& invocation, int threads_per_rank) {
  const BuildInfo build = build_info();
  std::string hosts;
  for (size_t k = 0; k < std::min(kHostsNamed, invocation.hosts.size()); ++k) {
    if (k > 0) hosts += ", ";
    hosts += invocation.hosts[k];
  }
  if (invocation.hosts.size() > kHostsNamed)
    hosts += fmt::format(" and {} more", invocation.hosts.size() - kHostsNamed);
  const long long host_count = static_cast<long long>(invocation.hosts.size());
  // The library's name and version: its first line up to the first comma ("Open MPI v4.1.4").
  const std::string mpi = build.mpi_library.substr(0, build.mpi_library.find(','));
  return fmt::format("# g500 {} (build {}), {}, {} x {} on {} ({}), {}", build.version, build.build, mpi,
                     plural(invocation.ranks, "rank"), plural(threads_per_rank, "thread"), plural(host_count, "host"),
                     hosts, invocation.date);
}

}  // namespace g500::util
