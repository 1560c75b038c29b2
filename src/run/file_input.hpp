// A kernel run on an edge-list file instead of a generated graph (docs/input.md): loading the
// file, the SCALE and edge factor it stands for, its root rule, and how the run reports it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "comm/typed.hpp"
#include "gen/kronecker.hpp"
#include "io/edge_input.hpp"
#include "util/message_limits.hpp"

namespace g500::run {

struct FileInputRequest {
  std::string path;    // empty: the run generates its graph
  std::string format;  // tsv, snap, mtx, bin; empty: from the extension
  bool directed_as_undirected = false;
  uint64_t root_seed = 1;        // seed of the sampled roots
  bool root_seed_given = false;  // --root-seed was given explicitly
};

// Collective: reads the file when one is named (else returns nothing) and sets the spec's SCALE
// and edge factor from it. A bin file of 2^SCALE vertices (as `g500 gen --format bin` writes)
// keeps the reference root rule unless a root seed was given, so it reproduces the generated
// run; other files sample their roots with the root seed (set into sampling_seed).
// `check_declared_size` gets the sizes a header declares before the edges are read; the ranks of
// `comm` read the file, its limits bound the MPI calls of loading (comm/large_count.hpp).
std::optional<io::EdgeInput> load_file_input(const FileInputRequest& request, gen::KroneckerSpec& spec,
                                             std::optional<uint64_t>& sampling_seed, const comm::Communicator& comm,
                                             bool progress,
                                             const std::function<void(const io::DeclaredSize&)>& check_declared_size);

// The "# g500 KERNEL: input ..." line; `note` follows the vertex counts (e.g. ", weighted").
void print_input_line(FILE* out, const char* command, const io::EdgeInput& edges, int64_t vertices_without_edges,
                      const std::string& note);

// The "input" object of the JSON results.
nlohmann::json input_json(const io::EdgeInput& edges, int64_t vertices_without_edges);

}  // namespace g500::run
