// Helpers shared by the subcommands: CLI11 parsing that turns every parse error into one
// UsageError line and the --seed A,B form.
#pragma once
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "util/message_limits.hpp"

namespace g500::cli {

// Parses argv; returns false when --help was asked (help printed by rank 0), throws UsageError
// for any other problem.
bool parse_or_throw(CLI::App& app, int argc, char** argv);

// Checks of option values, attached to an option after add_option and run by CLI11 while it
// parses, before any work. Each reads the text itself (decimal only: CLI11 reads 010 as octal,
// and its own range checks print "Value 0 not in range 0.000000 to 1797693..."), and throws a
// UsageError naming the option and the value, e.g. "--roots must be at least 1 (got '0')" (a
// message returned to CLI11 would come out as "--roots: ..."). Each returns the option.
//   require_range: a whole number from min to max, e.g. --scale 1..42.
//   require_at_least: a whole number >= min (and <= max, the variable's limit; int by default);
//     text that is not a whole number (1e9, 1.5, x) is told the whole range.
//   require_unsigned: a whole number from 0 to 2^64-1 (seeds).
//   require_positive / require_non_negative: a finite real number > 0 / >= 0.
//   require_real_range: a finite real number from min to max, for quantities whose absurd values
//     (a 1e-300 GHz clock, a 1e300 GB/s link) would only print absurd results; `unit` is named
//     in the message, e.g. "--clock must be a number from 0.01 to 100 GHz (got '1e-300')".
//   require_non_empty: any text but "" (for values where "" would silently mean "not given").
//   require_duration: a duration (util/duration.hpp: "60s", "2m") of more than 0 and at most
//     max_seconds, e.g.
//     "--energy-loop must be a duration of more than 0 and at most 24h: a number and its unit
//     (ms, s, m or h), e.g. 60s, 2m or 0.5s (got '60')".
CLI::Option* require_range(CLI::Option* option, long long min, long long max);
CLI::Option* require_at_least(CLI::Option* option, long long min, long long max = INT_MAX);
CLI::Option* require_unsigned(CLI::Option* option);
CLI::Option* require_positive(CLI::Option* option);
CLI::Option* require_non_negative(CLI::Option* option);
CLI::Option* require_non_empty(CLI::Option* option);
CLI::Option* require_real_range(CLI::Option* option, double min, double max, const std::string& unit);
CLI::Option* require_duration(CLI::Option* option, double max_seconds);

// An option taking a comma list of whole numbers from min to max (e.g. --nodes 16,32,64) into
// `values`; anything else is one UsageError naming the item and the range, e.g. "--nodes must
// be whole numbers from 1 to 16777216, separated by commas: '1e9' is not a whole number".
CLI::Option* add_count_list(CLI::App& app, const std::string& name, std::vector<long long>& values, long long min,
                            long long max, const std::string& description);

// Bounds of the numbers describing a machine (g500 model, map, coll, jobscript): wide enough for
// any real one (a nanosecond to a second, a megabyte/s to a petabyte/s), narrow enough that what
// is printed from them stays readable.
inline constexpr double kMinLatencyMicroseconds = 1e-3, kMaxLatencyMicroseconds = 1e6;
inline constexpr double kMinBandwidthGbs = 1e-3, kMaxBandwidthGbs = 1e6;
inline constexpr double kMaxMessageBytes = 1e12;
inline constexpr double kMinNodeMemoryGib = 1e-3, kMaxNodeMemoryGib = 1e6;

// The most OpenMP threads per process any subcommand accepts. The largest shared-memory nodes
// have well under 2048 hardware threads (two 192-core EPYC sockets: 768), so more is a typo
// (an extra digit or two), and an absurd count would be spent in per-thread tables of the memory
// plan for minutes. An absolute cap, not a multiple of this process's cores: `g500 jobscript` and
// `g500 model` describe other machines; a run with more threads than its cores is warned at start.
inline constexpr int kMaxThreads = 4096;

// --threads N, 1..kMaxThreads, e.g. "--threads must be a whole number from 1 to 4096 (got '1e8')".
CLI::Option* add_threads_option(CLI::App& app, int& threads, const std::string& description);

// --quiet (no progress lines) and --progress (progress lines even when stderr does not reach a
// terminal, e.g. into a log file), which exclude each other. Without either, progress shows when
// stderr reaches a terminal (util/progress.hpp).
void add_progress_options(CLI::App& app, bool& quiet, bool& progress);

// Throws UsageError when SCALE and the edge factor give more than 2^63 - 1 edges.
void check_edge_count(int scale, int edgefactor);

// "A,B" -> two seeds; throws UsageError otherwise.
void parse_seed_pair(const std::string& text, uint64_t& seed1, uint64_t& seed2);

// The hidden option --max-message-bytes N (docs/messages.md): the largest message of one MPI
// call, 1..2^31-1; larger messages go in rounds. For tests that force tiny rounds on small graphs.
void add_message_limit_option(CLI::App& app, util::MessageLimits& limits);

}  // namespace g500::cli
