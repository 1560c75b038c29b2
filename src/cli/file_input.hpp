// The file-input options that g500 bfs and g500 sssp share (docs/input.md): registering them,
// checking them against the generator's options, loading the file, and its JSON description.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gen/kronecker.hpp"
#include "io/edge_input.hpp"

namespace g500::cli {

constexpr int kMaxScale = 42;  // --scale's upper bound (ids and counts stay in 64 bits)

struct FileInputOptions {
  std::string path, format;
  std::vector<std::string> roots;
  uint64_t root_seed = 1;
  bool directed_as_undirected = false;

  // Adds --input, --format, --directed-as-undirected, --root and --root-seed; `kernel` names the
  // search in the help ("BFS", "SSSP"). --root excludes --root-seed and the command's --roots
  // (add that first).
  void add_to(CLI::App& app, const std::string& kernel);
  // After parsing: throws UsageError for options that do not fit together, parses the --root ids
  // into root_ids and applies an explicit --root-seed.
  void check(const CLI::App& app, std::vector<uint64_t>& root_ids, std::optional<uint64_t>& sampling_seed) const;
  // Collective: reads --input when given (else returns nothing) and sets the spec's SCALE and
  // edge factor from it. A bin file of 2^SCALE vertices (as `g500 gen --format bin` writes)
  // keeps the reference root rule unless --root-seed is given, so it reproduces the generated
  // run; other files sample their roots with the root seed. `check_declared_size` gets the sizes
  // a header declares before the edges are read (see io::InputSpec).
  std::optional<io::EdgeInput> load(const CLI::App& app, gen::KroneckerSpec& spec,
                                       std::optional<uint64_t>& sampling_seed, bool progress,
                                       const std::function<void(const io::DeclaredSize&)>& check_declared_size) const;
};

// The "# g500 KERNEL: input ..." line on stdout; `note` follows the vertex counts (e.g. ", weighted").
void print_input_line(const char* command, const io::EdgeInput& edges, int64_t vertices_without_edges,
                      const std::string& note);

// The "input" object of the JSON results.
nlohmann::json input_json(const io::EdgeInput& edges, int64_t vertices_without_edges);

}  // namespace g500::cli
