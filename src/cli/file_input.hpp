// The file-input options that g500 bfs and g500 sssp share (docs/input.md): registering them and
// checking them against the generator's options. Loading is run/file_input.hpp's.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run/file_input.hpp"

namespace g500::cli {

struct FileInputOptions {
  run::FileInputRequest request;
  std::vector<std::string> roots;

  // Adds --input, --format, --directed-as-undirected, --root and --root-seed; `kernel` names the
  // search in the help ("BFS", "SSSP"). --root excludes --root-seed and the command's --roots
  // (add that first).
  void add_to(CLI::App& app, const std::string& kernel);
  // After parsing: throws UsageError for options that do not fit together, parses the --root ids
  // into root_ids and applies an explicit --root-seed.
  void check(const CLI::App& app, std::vector<uint64_t>& root_ids, std::optional<uint64_t>& sampling_seed);
};

}  // namespace g500::cli
