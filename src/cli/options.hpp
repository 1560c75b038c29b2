// Helpers shared by the subcommands: CLI11 parsing that turns every parse error into one
// UsageError line, the --seed A,B form, and output files that appear only when complete.
#pragma once
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace g500::cli {

// Parses argv; returns false when --help was asked (help printed by rank 0), throws UsageError
// for any other problem.
bool parse_or_throw(CLI::App& app, int argc, char** argv);

// "A,B" -> two seeds; throws UsageError otherwise.
void parse_seed_pair(const std::string& text, uint64_t& seed1, uint64_t& seed2);

// An output file written by rank 0: open() creates FILE.tmp-PID at once (so an unwritable path
// fails before any long computation, on every rank via agree_or_throw), commit() renames it.
class AtomicOutputFile {
 public:
  AtomicOutputFile(std::string path, MPI_Comm comm);  // collective
  ~AtomicOutputFile();                                // removes the temporary if not committed
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;
  void commit(const std::string& contents);           // collective; rank 0 writes and renames

 private:
  std::string path_, temp_;
  MPI_Comm comm_;
  int rank_ = 0;
  bool committed_ = false;
};

}  // namespace g500::cli
