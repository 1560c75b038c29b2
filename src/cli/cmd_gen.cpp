// `g500 gen`: generate the Graph500 Kronecker edge list (reference 3.0 compatible) in parallel over
// the MPI ranks and write it as tsv or bin (formats in src/io/edge_file.hpp, docs/gen.md).
// `--benchmark` generates without writing and reports the generation rate.
#include <fmt/format.h>
#include <mpi.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "gen/generation_rate.hpp"
#include "gen/kronecker.hpp"
#include "io/edge_file.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"
#include "util/same_file.hpp"

namespace g500::cli {
namespace {

// The --benchmark report line on rank 0.
void print_generation_rate(const gen::KroneckerSpec& spec, bool weights, int repeat, const gen::GenerationRate& rate) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const double edges = static_cast<double>(spec.nedges());
  std::printf(
      "gen benchmark: SCALE=%d edgefactor=%d edges=%lld weights=%s ranks=%d threads/rank=%d, best of %d: "
      "%.3f s wall = %.1f M edges/s; %.3f CPU s = %.1f M edges/s per core\n",
      spec.scale, spec.edgefactor, static_cast<long long>(spec.nedges()), weights ? "yes" : "no", size,
      omp_get_max_threads(), repeat, rate.best_seconds, edges / rate.best_seconds / 1e6, rate.best_cpu_seconds,
      edges / rate.best_cpu_seconds / 1e6);
}

// What the command line gives, as parsed; `options` are the writer's.
struct GenArgs {
  int scale = 0, edgefactor = 16, repeat = 3;
  std::string seed_text = "2,3", output, format = "tsv";
  bool weights = false, force = false, bench = false, quiet = false, show_progress = false;
  io::EdgeWriteOptions options;
};

void add_gen_options(CLI::App& app, GenArgs& a) {
  require_range(app.add_option("--scale", a.scale, "log2 of the number of vertices (1..42)"), 1, gen::kMaxScale)
      ->required();
  require_at_least(app.add_option("--edgefactor", a.edgefactor, "edges per vertex (default 16)"), 1);
  app.add_option("--seed", a.seed_text, "the two generator seeds A,B (default 2,3)");
  auto* output_option = require_non_empty(app.add_option(
      "--output", a.output, "output file (written whole through a temporary file; a device, FIFO or - is streamed)"));
  app.add_option("--format", a.format, "tsv or bin (default tsv)");
  app.add_flag("--weights", a.weights, "also write each edge's float32 SSSP weight");
  app.add_flag("--force", a.force, "write even if the output looks larger than the free disk space");
  add_message_limit_option(app, a.options.messages);
  auto* bench_option = app.add_flag("--benchmark", a.bench, "only generate (no output) and report edges per second");
  auto* repeat_option =
      require_at_least(app.add_option("--repeat", a.repeat, "with --benchmark: number of timed runs (default 3)"), 1);
  add_progress_options(app, a.quiet, a.show_progress);
  // Options that would otherwise be ignored without a word.
  bench_option->excludes(output_option);
  repeat_option->needs(bench_option);
}

// The generator's spec from --scale, --edgefactor and --seed; --format, --weights and --force into a.options.
gen::KroneckerSpec check_gen_options(GenArgs& a) {
  gen::KroneckerSpec spec;
  check_edge_count(a.scale, a.edgefactor);
  parse_seed_pair(a.seed_text, spec.seed1, spec.seed2);
  spec.scale = a.scale;
  spec.edgefactor = a.edgefactor;
  if (a.format == "tsv")
    a.options.format = io::EdgeFormat::tsv;
  else if (a.format == "bin")
    a.options.format = io::EdgeFormat::bin;
  else
    throw util::UsageError(fmt::format("unknown --format '{}' (expected tsv or bin)", a.format));
  a.options.weights = a.weights;
  a.options.force = a.force;
  return spec;
}

// Generates and writes the edges to --output, rank 0 reporting what it wrote.
int write_edges(const gen::KroneckerSpec& spec, const GenArgs& a, int rank) {
  const std::string& output = a.output;
  if (output.empty()) throw util::UsageError("--output FILE is required (or use --benchmark)");
  // gen reads no file and writes one: nothing can clash yet, but a new file option joins here.
  util::refuse_same_files({{"--output", output, util::FileUse::kOutput}}, MPI_COMM_WORLD);

  util::Progress progress(util::progress_wanted(a.quiet, MPI_COMM_WORLD, a.show_progress),
                          "generating and writing " + output);
  auto result = io::write_generated_edges(spec, output, a.options, MPI_COMM_WORLD);
  progress.finish();
  if (rank == 0)
    std::fprintf(stderr, "g500 gen: wrote %lld edges (%lld bytes) to %s in %.3f s (generation %.3f s)\n",
                 static_cast<long long>(spec.nedges()), static_cast<long long>(result.bytes), output.c_str(),
                 result.total_seconds, result.generate_seconds);
  return 0;
}

int run_gen(int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CLI::App app{"Generate the Graph500 Kronecker edge list (reference 3.0 compatible) and write it to a file."};
  GenArgs a;
  add_gen_options(app, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (message.empty()) message = e.get_name();
    std::replace(message.begin(), message.end(), '\n', ' ');
    throw util::UsageError(message);
  }

  const gen::KroneckerSpec spec = check_gen_options(a);
  if (a.bench) {
    const gen::GenerationRate rate = gen::measure_generation_rate(spec, a.weights, a.repeat, MPI_COMM_WORLD);
    if (rank == 0) print_generation_rate(spec, a.weights, a.repeat, rate);
    return 0;
  }
  return write_edges(spec, a, rank);
}

const SubcommandRegistrar registrar("gen", "generate the Kronecker edge list and write it (tsv or bin)", run_gen);

}  // namespace
}  // namespace g500::cli
