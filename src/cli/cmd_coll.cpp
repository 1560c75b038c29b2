// g500 coll: collective communication study of Hosono et al. 2021 (docs/coll.md).
//   --check                          every algorithm against MPI's own collective
//   --list                           algorithms per operation
//   --op OP --algo ALGO --sizes A:B  timing harness, CSV output
//   --fit CSV                        least-squares L and B per algorithm, predicted vs measured
//   --segment-model                  optimal segment sizes (Eqs. 4-7), cost versus segment
//   --simulate                       Table 1 shapes at Fugaku scale on the torus cost model
#include <fmt/format.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "coll/coll_bench.hpp"
#include "coll/coll_check.hpp"
#include "coll/coll_report.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"
#include "util/same_file.hpp"

namespace {

using namespace g500::comm;
using namespace g500::coll;
using g500::cli::kMaxBandwidthGbs;
using g500::cli::kMaxLatencyMicroseconds;
using g500::cli::kMinBandwidthGbs;
using g500::cli::kMinLatencyMicroseconds;
using g500::cli::require_at_least;
using g500::cli::require_non_empty;
using g500::cli::require_real_range;

// Hosono et al. 2021's least-squares fit for Bintree3d (the Trinaryx6 fit is NetworkParams' default).
constexpr double kBintree3dLatency = 4.29e-6, kBintree3dBandwidth = 6.64e9;

struct CollArgs {
  bool check = false, list = false, simulate = false, segment_model = false;
  std::string op, algo = kMpiAlgorithm, sizes, csv, fit, shape, segment = "0", fit_csv;
  int reps = 20, warmup = 3, ranks_per_node = 1, root = 0;
  double latency = NetworkParams{}.latency, bandwidth = NetworkParams{}.bandwidth,
         hop_latency = NetworkParams{}.hop_latency;
};

int rank_of_world() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

void print_on_root(const std::string& text) {
  if (rank_of_world() == 0) std::fputs(text.c_str(), stdout);
}

int run_check() {
  const CheckResult result = check_everything(MPI_COMM_WORLD);
  if (!result.first_mismatch.empty()) {
    if (rank_of_world() == 0) std::fprintf(stderr, "g500 coll: mismatch: %s\n", result.first_mismatch.c_str());
    return 1;
  }
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  print_on_root(fmt::format("coll check: all algorithms match MPI on {} ranks ({} cases)\n", size, result.cases));
  return 0;
}

std::string list_algorithms() {
  std::string text;
  for (CollOp op : all_ops()) {
    text += op_name(op) + ":\n";
    for (const auto& a : algorithms(op))
      text += fmt::format("  {:<13} {}{}{}\n", a.name, a.description, a.uses_segment ? " [--segment]" : "",
                          a.uses_shape ? " [--shape]" : "");
    text +=
        "  ompi:N        Open MPI's coll_tuned algorithm N, forced at start-up with mpiexec --mca "
        "coll_tuned_use_dynamic_rules 1 --mca coll_tuned_" +
        op_name(op) + "_algorithm N\n";
  }
  return text;
}

int run_bench_mode(const CollArgs& args) {
  if (args.sizes.empty()) throw g500::util::UsageError("--op needs --sizes MIN:MAX");
  BenchConfig config;
  config.op = parse_op(args.op);
  config.algorithm = args.algo;
  config.sizes = parse_size_range(args.sizes);
  const auto segment = parse_bytes(args.segment, "--segment");
  if (segment > INT32_MAX) throw g500::util::UsageError("--segment is too large");
  config.segment_bytes = static_cast<int>(segment);
  if (!args.shape.empty()) {
    config.shape = parse_shape(args.shape);
    config.shape_given = true;
  }
  config.reps = args.reps;
  config.warmup = args.warmup;
  config.ranks_per_node = args.ranks_per_node;
  config.root = args.root;
  const auto rows = run_bench(config, MPI_COMM_WORLD);
  if (rank_of_world() == 0) {
    std::string text = fmt::format("{:<10} {:<10} {:<40} {:>7} {:>12} {:>14} {:>14}\n", "op", "algo", "ran", "shape",
                                   "M [B]", "median [us]", "T [MB/s]");
    for (const auto& r : rows)
      text += fmt::format("{:<10} {:<10} {:<40} {:>7} {:>12} {:>14.2f} {:>14.2f}\n", r.op, r.algorithm, r.ran, r.shape,
                          r.bytes, r.median_seconds * 1e6, r.throughput / 1e6);
    std::fputs(text.c_str(), stdout);
    if (!args.csv.empty()) write_bench_csv(args.csv, rows);
  }
  return 0;
}

int run_fit_mode(const CollArgs& args) {
  std::string error;
  std::vector<FittedGroup> groups;
  if (rank_of_world() == 0) {
    try {
      groups = fit_bench_rows(read_bench_csv(args.fit));
      std::fputs(format_fit_report(groups).c_str(), stdout);
      if (!args.fit_csv.empty()) write_fit_csv(args.fit_csv, groups);
    } catch (const g500::util::UsageError& e) {
      error = e.what();
    }
  }
  g500::util::agree_or_throw(error, MPI_COMM_WORLD);
  return 0;
}

std::vector<double> model_sizes(const std::string& text) {
  std::vector<double> out;
  for (auto m : parse_size_range(text.empty() ? "1K:1M" : text))
    if (m > 0) out.push_back(static_cast<double>(m));
  return out;
}

// The mode (--check, --list, --op, --fit, --segment-model or --simulate) as an option name.
std::string mode_name(const CollArgs& args) {
  if (args.check) return "--check";
  if (args.list) return "--list";
  if (!args.op.empty()) return "--op";
  if (!args.fit.empty()) return "--fit";
  if (args.segment_model) return "--segment-model";
  return "--simulate";
}

// Refuses options that the chosen mode would ignore, and a malformed --shape, before any work.
void refuse_options_of_other_modes(const CLI::App& app, const CollArgs& args) {
  if (!args.shape.empty()) parse_shape(args.shape);  // names the shape when it is malformed
  const std::string mode = mode_name(args);
  static const std::map<std::string, std::set<std::string>> kOptionsOfMode{
      {"--check", {}},
      {"--list", {}},
      {"--op",
       {"--algo", "--sizes", "--segment", "--shape", "--reps", "--warmup", "--ranks-per-node", "--root", "--csv"}},
      {"--fit", {"--fit-csv"}},
      {"--segment-model", {"--shape", "--sizes", "--csv", "--latency", "--bandwidth"}},
      {"--simulate", {"--sizes", "--segment", "--csv", "--latency", "--bandwidth", "--hop-latency"}}};
  const std::set<std::string>& used = kOptionsOfMode.at(mode);
  for (const char* option : {"--algo", "--sizes", "--segment", "--shape", "--reps", "--warmup", "--ranks-per-node",
                             "--root", "--csv", "--fit-csv", "--latency", "--bandwidth", "--hop-latency"}) {
    if (app.count(option) == 0 || used.count(option)) continue;
    std::string message = std::string(option) + " does not apply to " + mode;
    if (std::string(option) == "--shape" && mode == "--simulate")
      message += " (it models Hosono et al. 2021's Table 1 shapes)";
    throw g500::util::UsageError(message);
  }
}

// The --latency and --bandwidth options: --segment-model asks whether the user gave either.
struct ModelOptions {
  CLI::Option* latency;
  CLI::Option* bandwidth;
};

ModelOptions add_coll_options(CLI::App& app, CollArgs& args) {
  app.add_flag("--check", args.check, "Run every algorithm against MPI's own collective; non-zero exit on a mismatch");
  app.add_flag("--list", args.list, "List the algorithms of each operation");
  require_non_empty(app.add_option("--op", args.op, "Operation to time: alltoallv, alltoall, allgatherv, bcast"));
  app.add_option("--algo", args.algo, "Algorithm name (see --list), mpi (library's choice) or ompi:N")
      ->capture_default_str();
  require_non_empty(
      app.add_option("--sizes", args.sizes, "Message sizes MIN:MAX in bytes, doubling (K, M, G suffixes)"));
  require_non_empty(
      app.add_option("--segment", args.segment, "Segment size in bytes for segmented bcast algorithms (0 = none)"))
      ->capture_default_str();
  require_non_empty(app.add_option("--shape", args.shape,
                                   "Logical shape X, XxY or XxYxZ (--op: product = ranks, for the algorithms that use "
                                   "a shape; default balanced 3D)"));
  require_at_least(app.add_option("--reps", args.reps, "Timed repetitions per size (median reported)"), 1,
                   kMaxRepetitions)
      ->capture_default_str();
  require_at_least(app.add_option("--warmup", args.warmup, "Untimed repetitions per size"), 0, kMaxRepetitions)
      ->capture_default_str();
  require_at_least(app.add_option("--ranks-per-node", args.ranks_per_node, "NLP of Hosono et al. 2021's Eq. 1"), 1)
      ->capture_default_str();
  require_at_least(app.add_option("--root", args.root, "Root rank for bcast"), 0)->capture_default_str();
  require_non_empty(app.add_option("--csv", args.csv, "Write results as CSV (harness, --segment-model, --simulate)"));
  require_non_empty(
      app.add_option("--fit", args.fit, "Fit latency L and bandwidth B per algorithm from a harness CSV"));
  require_non_empty(app.add_option("--fit-csv", args.fit_csv, "With --fit: write predicted versus measured as CSV"));
  app.add_flag("--segment-model", args.segment_model, "Optimal segment sizes of Eqs. 5 and 7 versus numeric minimum");
  app.add_flag("--simulate", args.simulate,
               "Predict every algorithm on Hosono et al. 2021's Table 1 shapes (torus model)");
  constexpr double kMicro = 1e-6, kGiga = 1e9;  // the bounds are in microseconds and GB/s
  auto* latency_option = require_real_range(
      app.add_option("--latency", args.latency, "Model latency L [s] (default: Hosono et al. 2021's fits)"),
      kMinLatencyMicroseconds * kMicro, kMaxLatencyMicroseconds * kMicro, "seconds");
  auto* bandwidth_option = require_real_range(
      app.add_option("--bandwidth", args.bandwidth, "Model bandwidth B [bytes/s] (default: Hosono et al. 2021's fits)"),
      kMinBandwidthGbs * kGiga, kMaxBandwidthGbs * kGiga, "bytes/s");
  require_real_range(app.add_option("--hop-latency", args.hop_latency, "Simulation: latency per router hop [s]"), 0,
                     kMaxLatencyMicroseconds * kMicro, "seconds")
      ->capture_default_str();
  return ModelOptions{latency_option, bandwidth_option};
}

// Exactly one mode, only its options, and no file both read and written.
void check_coll_options(const CLI::App& app, const CollArgs& args) {
  const int modes = args.check + args.list + args.simulate + args.segment_model + !args.op.empty() + !args.fit.empty();
  if (modes != 1)
    throw g500::util::UsageError("choose exactly one of --check, --list, --op, --fit, --segment-model, --simulate");
  refuse_options_of_other_modes(app, args);
  g500::util::refuse_same_files({{"--fit", args.fit, g500::util::FileUse::kInput},
                                 {"--csv", args.csv, g500::util::FileUse::kOutput},
                                 {"--fit-csv", args.fit_csv, g500::util::FileUse::kOutput}},
                                MPI_COMM_WORLD);
}

// --segment-model: rank 0 writes the study; `model_given` says whether the user gave L or B.
int run_segment_model_mode(const CollArgs& args, const std::vector<double>& sizes, bool model_given) {
  const Shape3 shape = parse_shape(args.shape.empty() ? "16x12x16" : args.shape);
  std::string error, text;
  if (rank_of_world() == 0) {
    try {
      // Hosono et al. 2021's fitted values per algorithm unless the user gives L and B.
      const LinkCost ktree{args.latency, args.bandwidth};
      const LinkCost bintree3d = model_given ? ktree : LinkCost{kBintree3dLatency, kBintree3dBandwidth};
      text = format_segment_study(ktree, bintree3d, shape, sizes, args.csv);
    } catch (const g500::util::UsageError& e) {
      error = e.what();
    }
  }
  g500::util::agree_or_throw(error, MPI_COMM_WORLD);
  print_on_root(text);
  return 0;
}

// --simulate: rank 0 simulates Table 1 on the torus model, with a progress line.
int run_simulate_mode(const CollArgs& args, const std::vector<double>& sizes, bool quiet, bool progress) {
  NetworkParams network{args.latency, args.bandwidth, args.hop_latency};
  const double segment = static_cast<double>(parse_bytes(args.segment == "0" ? "16K" : args.segment, "--segment"));
  std::string error, text;
  if (rank_of_world() == 0) {
    try {
      // The row count is known once the simulation has planned (and checked) its rows.
      const bool show = g500::util::progress_wanted(quiet, MPI_COMM_WORLD, progress);
      std::optional<g500::util::Progress> line;
      const auto rows = simulate_table1(args.sizes.empty() ? std::vector<double>{1024, 65536, 1048576} : sizes, network,
                                        segment, [&](int64_t done, int64_t total) {
                                          if (!line) line.emplace(show, "torus simulation", total);
                                          line->update(done);
                                        });
      if (line) line->finish();
      text = format_simulation(rows);
      if (!args.csv.empty()) write_simulation_csv(args.csv, rows);
    } catch (const g500::util::UsageError& e) {
      error = e.what();
    }
  }
  g500::util::agree_or_throw(error, MPI_COMM_WORLD);
  print_on_root(text);
  return 0;
}

int run_coll(int argc, char** argv) {
  CLI::App app{
      "Collective communication study (Hosono et al. 2021): algorithms on MPI point-to-point, "
      "correctness check, timing harness, latency/bandwidth model and torus simulation"};
  CollArgs args;
  const ModelOptions model_options = add_coll_options(app, args);
  bool quiet = false, progress = false;
  g500::cli::add_progress_options(app, quiet, progress);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    print_on_root(app.help());
    return 0;
  } catch (const CLI::ParseError& e) {
    throw g500::util::UsageError(e.what());
  }
  check_coll_options(app, args);
  if (args.check) return run_check();
  if (args.list) {
    print_on_root(list_algorithms());
    return 0;
  }
  if (!args.op.empty()) return run_bench_mode(args);
  if (!args.fit.empty()) return run_fit_mode(args);
  const std::vector<double> sizes = model_sizes(args.sizes);
  if (args.segment_model) {
    const bool given = model_options.latency->count() > 0 || model_options.bandwidth->count() > 0;
    return run_segment_model_mode(args, sizes, given);
  }
  return run_simulate_mode(args, sizes, quiet, progress);
}

const g500::cli::SubcommandRegistrar registrar{
    "coll", "collective algorithms of Hosono et al. 2021: --check, timing harness, model fit, torus simulation",
    run_coll};

}  // namespace
