// The conformance verdict of hand-made run configurations (run/conformance.hpp): which options
// are departures from the Graph500 3.0 specification, in what words and order, the printed line
// and the JSON record. The CLI test runs the same through g500 bfs and g500 sssp.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "run/conformance.hpp"

namespace g500::run {
namespace {

using Reasons = std::vector<std::string>;

std::string printed_line(const Reasons& reasons) {
  char* text = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  print_conformance_line(out, reasons);
  std::fclose(out);
  std::string line(text, size);
  std::free(text);
  return line;
}

TEST(Conformance, TheDefaultsAndTheSpecValuesAreConformant) {
  RunConfig config;
  const FileInputRequest generated;
  EXPECT_EQ(nonconformance_reasons(config, generated), Reasons{});
  config.nroots = kSpecRoots;
  config.spec.edgefactor = kSpecEdgefactor;
  config.spec.seed1 = kReferenceSeed1;
  config.spec.seed2 = kReferenceSeed2;
  config.warmup = false;  // the specification asks for no warm-up search
  EXPECT_EQ(nonconformance_reasons(config, generated), Reasons{});
  EXPECT_EQ(printed_line({}), "");
}

TEST(Conformance, EveryDepartureInOrder) {
  RunConfig config;
  FileInputRequest request;
  config.spec.edgefactor = 8;
  config.spec.seed1 = 1;
  config.spec.seed2 = 2;
  config.nroots = 16;
  config.root_seed = 5;
  request.root_seed_given = true;
  config.validate = false;
  const Reasons reasons{"edgefactor 8", "--seed 1,2", "16 roots", "--root-seed 5", "no validation"};
  EXPECT_EQ(nonconformance_reasons(config, request), reasons);
  EXPECT_EQ(printed_line(reasons),
            "# not a Graph500-conformant run: edgefactor 8, --seed 1,2, 16 roots, --root-seed 5, no validation\n");

  RunConfig given;
  given.root_ids = {42};
  EXPECT_EQ(nonconformance_reasons(given, FileInputRequest{}), (Reasons{"1 root", "roots given with --root"}));
  given.root_ids.assign(kSpecRoots, 42);  // 64 roots, but chosen, not sampled
  EXPECT_EQ(nonconformance_reasons(given, FileInputRequest{}), Reasons{"roots given with --root"});
}

// A file's edge factor is the file's; its seeds count only where the reference rule draws the
// roots from them (bin files of 2^SCALE vertices without --root-seed); a file sampled with the
// default root seed names no root seed.
TEST(Conformance, FileInput) {
  io::EdgeInput edges;
  RunConfig config;
  config.input = &edges;
  config.spec.edgefactor = 3;
  config.spec.seed1 = 7;
  FileInputRequest request;
  request.path = "g.bin";
  EXPECT_EQ(nonconformance_reasons(config, request), (Reasons{"file input", "--seed 7,3"}));
  config.root_seed = 1;  // sampled with the default seed
  EXPECT_EQ(nonconformance_reasons(config, request), Reasons{"file input"});
  config.root_seed = 9;
  request.root_seed_given = true;
  EXPECT_EQ(nonconformance_reasons(config, request), (Reasons{"file input", "--root-seed 9"}));
}

TEST(Conformance, TheJsonRecordsTheChoicesAndTheVerdict) {
  RunConfig config;
  FileInputRequest request;
  nlohmann::json j = conformance_json(config, request, {});
  EXPECT_EQ(j, nlohmann::json({{"conformant", true},
                               {"nonconformant_reasons", nlohmann::json::array()},
                               {"input_file", nullptr},
                               {"roots_rule", "reference"},
                               {"root_seed", nullptr},
                               {"root_ids", nlohmann::json::array()},
                               {"validate", true},
                               {"warmup", true},
                               {"disabled", nlohmann::json::array()}}));
  io::EdgeInput edges;
  config.input = &edges;
  request.path = "g.tsv";
  config.root_seed = 1;
  config.warmup = false;
  j = conformance_json(config, request, {"yoo", "overlap"});
  EXPECT_EQ(j["conformant"], false);
  EXPECT_EQ(j["nonconformant_reasons"], nlohmann::json({"file input"}));
  EXPECT_EQ(j["input_file"], "g.tsv");
  EXPECT_EQ(j["roots_rule"], "sampled");
  EXPECT_EQ(j["root_seed"], 1);
  EXPECT_EQ(j["warmup"], false);
  EXPECT_EQ(j["disabled"], nlohmann::json({"yoo", "overlap"}));
  config.root_seed.reset();
  config.root_ids = {10, 20};
  j = conformance_json(config, request, {});
  EXPECT_EQ(j["roots_rule"], "given");
  EXPECT_EQ(j["root_ids"], nlohmann::json({10, 20}));
  EXPECT_TRUE(j["root_seed"].is_null());
}

}  // namespace
}  // namespace g500::run
