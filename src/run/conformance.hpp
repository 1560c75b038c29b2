// Whether a kernel run measures what the Graph500 3.0 specification asks for (docs/conformance.md).
// The specification fixes the edge factor (16), 64 randomly sampled roots and the validation of
// every search; the reference 3.0 code also fixes the generator's seeds (2, 3), from which it
// draws the roots. A run that departs from any of these prints one line naming every departure
// directly above its result block, and its JSON "config" records the options that chose its
// graph, roots and timing with the verdict. Implementation choices (grid, threads, collective
// algorithms, switched-off techniques) change no result and keep a run conformant.
// Kernel-neutral: every kernel driver calls it after its input was loaded (load_file_input sets
// the root rule of a file).
#pragma once
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run/file_input.hpp"
#include "run/run_setup.hpp"

namespace g500::run {

inline constexpr int kSpecEdgefactor = 16;  // "edgefactor = 16", a required setting for submission
inline constexpr int kSpecRoots = 64;       // "Randomly sample 64 unique search keys"
inline constexpr uint64_t kReferenceSeed1 = 2, kReferenceSeed2 = 3;  // the reference's main.c

// The departures of the run from the specification, each in a few words, graph first, then the
// roots, then validation: "file input", "edgefactor 8", "--seed 1,2", "16 roots", "roots given
// with --root", "--root-seed 5", "no validation". Empty: conformant. Fewer roots than asked
// because the graph has fewer vertices with an edge is the specification's own rule, not a
// departure. `input`: the run's file input request (whether --root-seed was given).
std::vector<std::string> nonconformance_reasons(const RunConfig& config, const FileInputRequest& input);

// "# not a Graph500-conformant run: R1, R2, ..." and a newline; nothing for no reasons.
void print_conformance_line(FILE* out, const std::vector<std::string>& reasons);

// The options that chose the run's graph, roots and timing, and the verdict, for the JSON's
// "config" object: conformant, nonconformant_reasons, input_file (null: generated), roots_rule
// ("reference", "sampled" or "given"), root_seed (null unless sampled), root_ids (the --root
// ids), validate, warmup and `disabled` (the kernel's techniques switched off).
nlohmann::json conformance_json(const RunConfig& config, const FileInputRequest& input,
                                const std::vector<std::string>& disabled);

}  // namespace g500::run
