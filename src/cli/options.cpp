#include "cli/options.hpp"

#include <cstdio>

#include "util/error.hpp"

namespace g500::cli {

bool parse_or_throw(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::fputs(app.help().c_str(), stdout);
    return false;
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (!message.empty() && message.back() == '\n') message.pop_back();
    throw UsageError(message);
  }
  return true;
}

void parse_seed_pair(const std::string& text, uint64_t& seed1, uint64_t& seed2) {
  unsigned long long a = 0, b = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%llu,%llu%c", &a, &b, &tail) != 2 || text.find('-') != std::string::npos)
    throw UsageError("--seed '" + text + "' is not of the form A,B with two non-negative integers");
  seed1 = a;
  seed2 = b;
}

}  // namespace g500::cli
