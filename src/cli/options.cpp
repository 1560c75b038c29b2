#include "cli/options.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "util/agree.hpp"
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

AtomicOutputFile::AtomicOutputFile(std::string path, MPI_Comm comm) : path_(std::move(path)), comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  temp_ = path_ + ".tmp-" + std::to_string(getpid());
  std::string error;
  if (rank_ == 0) {
    std::ofstream probe(temp_);
    if (!probe) error = "cannot write '" + path_ + "': " + std::strerror(errno);
  }
  agree_or_throw(error, comm_);
}

AtomicOutputFile::~AtomicOutputFile() {
  if (rank_ == 0 && !committed_) std::remove(temp_.c_str());
}

void AtomicOutputFile::commit(const std::string& contents) {
  std::string error;
  if (rank_ == 0) {
    std::ofstream out(temp_, std::ios::trunc);
    out << contents;
    out.close();
    if (!out) error = "writing '" + path_ + "' failed: " + std::strerror(errno);
    else if (std::rename(temp_.c_str(), path_.c_str()) != 0)
      error = "cannot rename to '" + path_ + "': " + std::strerror(errno);
    else committed_ = true;
  }
  agree_or_throw(error, comm_);
}

}  // namespace g500::cli
