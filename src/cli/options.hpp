// Helpers shared by the subcommands: CLI11 parsing that turns every parse error into one
// UsageError line and the --seed A,B form.
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


}  // namespace g500::cli
