#include "cli/file_input.hpp"

#include "cli/options.hpp"
#include "io/parse.hpp"
#include "util/error.hpp"

namespace g500::cli {
namespace {

bool given(const CLI::App& app, const std::string& name) { return app.get_option(name)->count() > 0; }

}  // namespace

void FileInputOptions::add_to(CLI::App& app, const std::string& kernel) {
  require_non_empty(
      app.add_option("--input", request.path, "read the graph from this edge-list file instead of generating it"));
  app.add_option("--format", request.format, "format of --input (default from the extension: .mtx, .bin, else tsv)")
      ->check(CLI::IsMember({"tsv", "snap", "mtx", "bin"}));
  app.add_flag("--directed-as-undirected", request.directed_as_undirected,
               "treat each line u v as the undirected edge {u, v} (what is done anyway; the explicit spelling)");
  auto* root = app.add_option("--root", roots,
                              kernel + " root, in the input's vertex ids (repeatable; replaces the sampled roots)");
  auto* seed = require_unsigned(
      app.add_option("--root-seed", request.root_seed, "seed for sampling the roots of file input (default 1)"));
  // Explicit roots leave nothing to count or sample.
  root->excludes(seed);
  if (CLI::Option* count = app.get_option_no_throw("--roots")) root->excludes(count);
}

void FileInputOptions::check(const CLI::App& app, std::vector<uint64_t>& root_ids,
                             std::optional<uint64_t>& sampling_seed) {
  if (!request.path.empty() && (given(app, "--scale") || given(app, "--edgefactor")))
    throw util::UsageError("--scale and --edgefactor describe a generated graph; they do not apply with --input");
  if (request.path.empty() && !request.format.empty()) throw util::UsageError("--format needs --input");
  for (const std::string& text : roots) {
    uint64_t id = 0;
    if (std::string e = io::parse_id(text, id); !e.empty()) throw util::UsageError("--root: " + e);
    root_ids.push_back(id);
  }
  request.root_seed_given = given(app, "--root-seed");
  if (request.root_seed_given) sampling_seed = request.root_seed;
}

}  // namespace g500::cli
