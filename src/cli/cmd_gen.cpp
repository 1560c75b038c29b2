// `g500 gen`: generate the Graph500 Kronecker edge list (reference 3.0 compatible) in parallel over
// the MPI ranks and write it as tsv or bin (formats in src/io/edge_file.hpp, docs/gen.md).
// `--benchmark` generates without writing and reports the generation rate.
#include <mpi.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

#include <fmt/format.h>

#include "gen/kronecker.hpp"
#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "io/edge_file.hpp"
#include "gen/kronecker.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"

namespace g500::cli {
namespace {

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double benchmark(const gen::KroneckerSpec& spec, bool weights, int repeat) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int64_t n = spec.nedges();
  const int64_t lo = static_cast<int64_t>(static_cast<__int128>(n) * rank / size);
  const int64_t hi = static_cast<int64_t>(static_cast<__int128>(n) * (rank + 1) / size);
  gen::KroneckerGenerator generator(spec);
  const int64_t chunk = int64_t{1} << 20;
  std::vector<gen::Edge> edges(static_cast<size_t>(std::min(chunk, std::max<int64_t>(hi - lo, 1))));
  std::vector<float> w(weights ? edges.size() : 0);
  volatile int64_t sink = 0;  // keeps the generated edges observable
  double best = 1e300, best_cpu = 1e300;
  for (int r = 0; r < repeat; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), c0 = process_cpu_seconds();
    for (int64_t b = lo; b < hi; b += chunk) {
      int64_t e = std::min(hi, b + chunk);
      generator.generate_parallel(b, e, edges.data(), weights ? w.data() : nullptr);
      sink = sink + (edges[0].v0 ^ edges[e - b - 1].v1);
    }
    double local[2] = {MPI_Wtime() - t0, process_cpu_seconds() - c0}, elapsed = 0, cpu = 0;
    MPI_Allreduce(&local[0], &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&local[1], &cpu, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    best = std::min(best, elapsed);
    best_cpu = std::min(best_cpu, cpu);
  }
  // The CPU-time rate is what one core sustains (it is not affected by other load on the machine).
  if (rank == 0)
    std::printf("gen benchmark: SCALE=%d edgefactor=%d edges=%lld weights=%s ranks=%d threads/rank=%d, best of %d: "
                "%.3f s wall = %.1f M edges/s; %.3f CPU s = %.1f M edges/s per core\n",
                spec.scale, spec.edgefactor, static_cast<long long>(n), weights ? "yes" : "no", size,
                omp_get_max_threads(), repeat, best, static_cast<double>(n) / best / 1e6, best_cpu,
                static_cast<double>(n) / best_cpu / 1e6);
  return best;
}

int run_gen(int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CLI::App app{"Generate the Graph500 Kronecker edge list (reference 3.0 compatible) and write it to a file."};
  int scale = 0, edgefactor = 16, repeat = 3;
  std::string seed_text = "2,3", output, format = "tsv";
  bool weights = false, force = false, bench = false, quiet = false, show_progress = false;
  require_range(app.add_option("--scale", scale, "log2 of the number of vertices (1..42)"), 1, gen::kMaxScale)->required();
  require_at_least(app.add_option("--edgefactor", edgefactor, "edges per vertex (default 16)"), 1);
  app.add_option("--seed", seed_text, "the two generator seeds A,B (default 2,3)");
  auto* output_option = require_non_empty(
      app.add_option("--output", output, "output file (written whole through a temporary file; a device, FIFO or - is streamed)"));
  app.add_option("--format", format, "tsv or bin (default tsv)");
  app.add_flag("--weights", weights, "also write each edge's float32 SSSP weight");
  app.add_flag("--force", force, "write even if the output looks larger than the free disk space");
  io::EdgeWriteOptions options;
  add_message_limit_option(app, options.messages);
  auto* bench_option = app.add_flag("--benchmark", bench, "only generate (no output) and report edges per second");
  auto* repeat_option =
      require_at_least(app.add_option("--repeat", repeat, "with --benchmark: number of timed runs (default 3)"), 1);
  auto* quiet_option = app.add_flag("--quiet", quiet, "no progress line on stderr");
  auto* progress_option =
      app.add_flag("--progress", show_progress, "progress line on stderr even when it is not a terminal (under mpiexec)");
  // Options that would otherwise be ignored without a word.
  quiet_option->excludes(progress_option);
  bench_option->excludes(output_option);
  repeat_option->needs(bench_option);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (message.empty()) message = e.get_name();
    std::replace(message.begin(), message.end(), '\n', ' ');
    throw UsageError(message);
  }

  gen::KroneckerSpec spec;
  check_edge_count(scale, edgefactor);
  parse_seed_pair(seed_text, spec.seed1, spec.seed2);
  spec.scale = scale;
  spec.edgefactor = edgefactor;
  if (format == "tsv")
    options.format = io::EdgeFormat::tsv;
  else if (format == "bin")
    options.format = io::EdgeFormat::bin;
  else
    throw UsageError(fmt::format("unknown --format '{}' (expected tsv or bin)", format));
  options.weights = weights;
  options.force = force;

  if (bench) {
    benchmark(spec, weights, repeat);
    return 0;
  }
  if (output.empty()) throw UsageError("--output FILE is required (or use --benchmark)");

  Progress progress(progress_wanted(quiet, MPI_COMM_WORLD, show_progress), "generating and writing " + output);
  auto result = io::write_generated_edges(spec, output, options);
  progress.finish();
  if (rank == 0)
    std::fprintf(stderr, "g500 gen: wrote %lld edges (%lld bytes) to %s in %.3f s (generation %.3f s)\n",
                 static_cast<long long>(spec.nedges()), static_cast<long long>(result.bytes), output.c_str(),
                 result.total_seconds, result.generate_seconds);
  return 0;
}

const SubcommandRegistrar registrar("gen", "generate the Kronecker edge list and write it (tsv or bin)", run_gen);

}  // namespace
}  // namespace g500::cli
