// The root loop both kernel runs share (Graph500 specification, kernels 2 and 3; GAP's
// BenchmarkKernel does the same job): an untimed warm-up search, the energy loop when asked
// (run/energy_loop.hpp), then for every root the search prepared (untimed), run, its result
// collected over the ranks, validated (or, without validation, its TEPS edges counted) and its
// TEPS; a failed validation ends the loop. Then the run's peak memory, the largest rank's.
//
// The kernel times its own search (between barriers, inside search()), so the timed region is
// the kernel's alone; the loop adds nothing to it. A kernel is a small struct:
//   Run    search(root)          the timed search of one root (Run has `seconds`, this rank's)
//   Result collect(Run&)          collective: the result over the ranks (Result has root,
//                                 seconds (the slowest rank's), nedge and teps)
//   string check(root, Result&)   collective: validation (or the TEPS edge count without it) into
//                                 the result; "" or why the result is invalid
//   int64  count_edges()          collective: the TEPS edges of the last search, unvalidated
//   prepare(), after_first_root(root)
#pragma once
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "comm/typed.hpp"
#include "run/energy_loop.hpp"
#include "run/run_setup.hpp"
#include "util/energy.hpp"
#include "util/memory.hpp"
#include "util/page_release.hpp"
#include "util/progress.hpp"

namespace g500::run {

template <class K>
concept RootLoopKernel = requires(K& kernel, int64_t root, typename K::Run& run, typename K::Result& result) {
  kernel.prepare();
  { kernel.search(root) } -> std::same_as<typename K::Run>;
  { run.seconds } -> std::convertible_to<double>;
  { kernel.collect(run) } -> std::same_as<typename K::Result>;
  { kernel.check(root, result) } -> std::same_as<std::string>;
  { kernel.count_edges() } -> std::same_as<int64_t>;
  kernel.after_first_root(root);
  result.root = root;
  result.teps = static_cast<double>(result.nedge) / result.seconds;
};

// Collective: the loop of `kernel` ("BFS", "SSSP": its progress lines) over `roots`, the results
// appended to `results` and a validation failure to `summary`; returns the energy loop's report.
// `energy`: when given, RAPL counters read around each timed search (util/energy.hpp), gathered there.
template <RootLoopKernel K>
EnergyLoopReport run_root_loop(K& kernel, const std::string& name, const RunConfig& config, const RunRoots& roots,
                               const comm::Communicator& world, std::vector<typename K::Result>& results,
                               RunSummary& summary, util::EnergyReport* energy = nullptr) {
  const std::vector<int64_t>& global = roots.roots;
  if (config.warmup && !global.empty()) {
    util::Progress warmup(config.progress, name + " warm-up");
    kernel.prepare();
    kernel.search(global.front());
  }
  const EnergyLoopReport loop = run_energy_loop(
      name, global, config.energy_loop,
      [&](int64_t root, bool count_edges) {
        kernel.prepare();
        const typename K::Run run = kernel.search(root);
        LoopSearch search;
        search.seconds = world.max(run.seconds);
        if (count_edges) search.nedge = kernel.count_edges();
        return search;
      },
      config.progress, world.mpi());

  util::Progress progress(config.progress, name + " roots", static_cast<int64_t>(global.size()));
  std::optional<util::EnergyMeter> meter;
  if (energy) meter.emplace(util::EnergyMeter::for_node(world.mpi()));
  for (size_t index = 0; index < global.size(); ++index) {
    const int64_t root = global[index];
    progress.update(static_cast<int64_t>(index));
    kernel.prepare();
    if (meter) meter->begin();
    typename K::Run run = kernel.search(root);
    if (meter) meter->end();
    typename K::Result result = kernel.collect(run);
    result.root = roots.reported[index];
    if (config.validate) progress.update(static_cast<int64_t>(index), "validating");
    if (std::string error = kernel.check(root, result); !error.empty()) {
      summary.validation_failed = true;
      summary.validation_error = std::move(error);
      results.push_back(std::move(result));
      break;
    }
    // The validation's buffers, freed, go back to the system: glibc keeps freed blocks below its
    // mapping threshold (which rises as large blocks are freed) in its heap, and MPI's own small
    // blocks allocated between them keep the heap from shrinking, so each root's validation
    // added to the resident memory (SCALE 18 on 8 ranks: 60 MiB after 4 roots, 480 MiB after 64).
    if (config.validate) util::release_free_heap();
    result.teps = result.seconds > 0 ? static_cast<double>(result.nedge) / result.seconds : 0;
    results.push_back(std::move(result));
    if (index == 0) kernel.after_first_root(root);
  }
  progress.finish();
  if (energy) *energy = util::gather_energy(*meter, world.mpi());
  return loop;
}

// Collective: the peak resident memory of the largest rank so far (util/memory.hpp).
inline size_t peak_rss_max_rank(const comm::Communicator& world) { return world.max(util::peak_rss_bytes()); }

}  // namespace g500::run
