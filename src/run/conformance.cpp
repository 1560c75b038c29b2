#include "run/conformance.hpp"

namespace g500::run {
namespace {

enum class RootRule { kReference, kSampled, kGiven };

// The rule choose_run_roots (run/run_setup.hpp) applies.
RootRule root_rule(const RunConfig& config) {
  if (!config.root_ids.empty()) return RootRule::kGiven;
  return config.root_seed ? RootRule::kSampled : RootRule::kReference;
}

const char* root_rule_name(RootRule rule) {
  switch (rule) {
    case RootRule::kReference:
      return "reference";
    case RootRule::kSampled:
      return "sampled";
    case RootRule::kGiven:
      return "given";
  }
  return "";
}

}  // namespace

std::vector<std::string> nonconformance_reasons(const RunConfig& config, const FileInputRequest& input) {
  std::vector<std::string> reasons;
  const bool from_file = config.input != nullptr || !input.path.empty();
  const RootRule rule = root_rule(config);
  // Graph. A file's graph cannot be told to be the specification's Kronecker graph (its edge
  // factor is the file's, not an option).
  if (from_file) reasons.push_back("file input");
  if (!from_file && config.spec.edgefactor != kSpecEdgefactor)
    reasons.push_back("edgefactor " + std::to_string(config.spec.edgefactor));
  // The seeds choose the generated graph, and the roots wherever the reference rule draws them.
  const bool seeds_used = !from_file || rule == RootRule::kReference;
  if (seeds_used && (config.spec.seed1 != kReferenceSeed1 || config.spec.seed2 != kReferenceSeed2))
    reasons.push_back("--seed " + std::to_string(config.spec.seed1) + "," + std::to_string(config.spec.seed2));
  // Roots.
  const int64_t roots_asked =
      rule == RootRule::kGiven ? static_cast<int64_t>(config.root_ids.size()) : static_cast<int64_t>(config.nroots);
  if (roots_asked != kSpecRoots)
    reasons.push_back(std::to_string(roots_asked) + (roots_asked == 1 ? " root" : " roots"));
  if (rule == RootRule::kGiven) reasons.push_back("roots given with --root");
  if (input.root_seed_given && config.root_seed) reasons.push_back("--root-seed " + std::to_string(*config.root_seed));
  // Validation of every search.
  if (!config.validate) reasons.push_back("no validation");
  return reasons;
}

void print_conformance_line(FILE* out, const std::vector<std::string>& reasons) {
  if (reasons.empty()) return;
  std::string line = "# not a Graph500-conformant run: ";
  for (size_t k = 0; k < reasons.size(); ++k) line += (k ? ", " : "") + reasons[k];
  std::fprintf(out, "%s\n", line.c_str());
}

nlohmann::json conformance_json(const RunConfig& config, const FileInputRequest& input,
                                const std::vector<std::string>& disabled) {
  const std::vector<std::string> reasons = nonconformance_reasons(config, input);
  const RootRule rule = root_rule(config);
  nlohmann::json j = {{"conformant", reasons.empty()}, {"nonconformant_reasons", reasons},
                      {"input_file", nullptr},         {"roots_rule", root_rule_name(rule)},
                      {"root_seed", nullptr},          {"root_ids", config.root_ids},
                      {"validate", config.validate},   {"warmup", config.warmup},
                      {"disabled", disabled}};
  if (!input.path.empty()) j["input_file"] = input.path;
  if (rule == RootRule::kSampled) j["root_seed"] = *config.root_seed;
  return j;
}

}  // namespace g500::run
