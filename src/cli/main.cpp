// g500: one executable, several subcommands (bfs, gen, ...). See README.md.
#include <mpi.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "cli/subcommand.hpp"
#include "util/error.hpp"
#include "util/fingerprint.hpp"
#include "util/provenance.hpp"
#include "util/stop_report.hpp"

namespace g500::cli {
std::map<std::string, SubcommandInfo>& subcommands() {
  static std::map<std::string, SubcommandInfo> registry;
  return registry;
}
}  // namespace g500::cli

static void print_usage(FILE* out) {
  std::fprintf(
      out,
      "usage: g500 SUBCOMMAND [options]   (g500 SUBCOMMAND --help for its options; g500 --version)\n\nsubcommands:\n");
  for (const auto& [name, info] : g500::cli::subcommands())
    std::fprintf(out, "  %-8s %s\n", name.c_str(), info.help.c_str());
}

int main(int argc, char** argv) {
  // A reader of an output pipe that goes away must give a write error (EPIPE), not kill the run.
  std::signal(SIGPIPE, SIG_IGN);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  // Every rank must run the same build, MPI library and command line (util/fingerprint.hpp):
  // checked before any subcommand parses its options or starts a collective.
  if (const std::string disagreement =
          g500::util::fingerprint_disagreement(g500::util::this_process_fingerprint(argc, argv), MPI_COMM_WORLD);
      !disagreement.empty()) {
    if (rank == 0)
      std::fprintf(stderr, "g500%s%s: error: %s\n", argc < 2 ? "" : " ", argc < 2 ? "" : argv[1], disagreement.c_str());
    status = 2;
  } else if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    if (rank == 0) print_usage(argc < 2 ? stderr : stdout);
    status = argc < 2 ? 2 : 0;
  } else {
    // The provenance of what the subcommand writes: collective, so taken here on every rank.
    const g500::util::Invocation invocation = g500::util::invocation_of(argc, argv, MPI_COMM_WORLD);
    auto& registry = g500::cli::subcommands();
    // `g500 --version` is the version subcommand.
    auto found = registry.find(std::strcmp(argv[1], "--version") == 0 ? "version" : argv[1]);
    if (found == registry.end()) {
      if (rank == 0) std::fprintf(stderr, "g500: error: unknown subcommand '%s' (try g500 --help)\n", argv[1]);
      status = 2;
    } else {
      // Static: the stop report (util/stop_report.hpp) may name it until the process ends.
      static std::string prog;
      prog = std::string("g500 ") + argv[1];
      g500::util::stop_report::install(prog.c_str(), rank == 0);
      std::vector<char*> sub_argv{prog.data()};
      for (int i = 2; i < argc; ++i) sub_argv.push_back(argv[i]);
      try {
        status = found->second.run(static_cast<int>(sub_argv.size()), sub_argv.data(), invocation);
      } catch (const g500::util::UsageError& e) {
        if (rank == 0) std::fprintf(stderr, "g500 %s: error: %s\n", argv[1], e.what());
        status = 2;
      } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "g500 %s: error: out of memory on rank %d\n", argv[1], rank);
        MPI_Abort(MPI_COMM_WORLD, 3);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "g500 %s: internal error on rank %d: %s\n", argv[1], rank, e.what());
        MPI_Abort(MPI_COMM_WORLD, 4);
      }
    }
  }
  g500::util::stop_report::finished();
  MPI_Finalize();
  return status;
}
