// The conformance verdict through g500 bfs and g500 sssp (run/conformance.hpp, docs/conformance.md):
// a run that departs from the Graph500 3.0 specification prints one line naming every departure
// directly above its result block, a conformant run prints none, and the JSON's config records
// the options that chose the graph, the roots and the timing with the same verdict.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.hpp"
#include "testvectors.hpp"

namespace g500::run {
namespace {

using nlohmann::json;

const std::string kLinePrefix = "# not a Graph500-conformant run: ";

struct Outcome {
  testing::CommandResult result;
  json j;
};

// `g500 KERNEL_AND_ARGS --json FILE` on `ranks` ranks, which must succeed.
Outcome run_with_json(int ranks, const std::string& args) {
  const std::string dir = testing::make_temp_dir();
  Outcome r;
  r.result = testing::run_g500(ranks, args + " --json " + dir + "/run.json");
  EXPECT_EQ(r.result.status, 0) << args << "\n" << r.result.err;
  if (r.result.status == 0) r.j = json::parse(testing::read_file(dir + "/run.json"));
  return r;
}

// The line directly above the result block's first line.
std::string line_above_block(const std::string& out) {
  std::istringstream in(out);
  std::string line, previous;
  while (std::getline(in, line)) {
    if (line.rfind("SCALE:", 0) == 0) return previous;
    previous = line;
  }
  ADD_FAILURE() << "no result block in\n" << out;
  return "";
}

// The printed line and the JSON verdict name exactly `reasons`, in order; none for a conformant run.
void expect_verdict(const Outcome& r, const std::vector<std::string>& reasons) {
  if (r.result.status != 0) return;
  const std::string above = line_above_block(r.result.out);
  if (reasons.empty()) {
    EXPECT_EQ(r.result.out.find("conformant"), std::string::npos) << r.result.out;
    EXPECT_EQ(above.rfind("# g500 ", 0), 0u) << above;
  } else {
    std::string line = kLinePrefix;
    for (size_t k = 0; k < reasons.size(); ++k) line += (k ? ", " : "") + reasons[k];
    EXPECT_EQ(above, line) << r.result.out;
    // Once: above the block and nowhere else.
    EXPECT_EQ(r.result.out.find(kLinePrefix), r.result.out.rfind(kLinePrefix)) << r.result.out;
  }
  EXPECT_EQ(r.j["config"]["conformant"], reasons.empty());
  EXPECT_EQ(r.j["config"]["nonconformant_reasons"], json(reasons));
}

std::vector<int64_t> roots_of(const json& j) {
  std::vector<int64_t> roots;
  for (const auto& r : j["roots"]) roots.push_back(r["root"].get<int64_t>());
  return roots;
}

TEST(ConformanceCli, TheDefaultRunIsConformantAndRecordsItsChoices) {
  const Outcome r = run_with_json(1, "bfs --scale 8");
  expect_verdict(r, {});
  const json& c = r.j["config"];
  EXPECT_EQ(c["edgefactor"], 16);
  EXPECT_EQ(c["seeds"], json({2, 3}));
  EXPECT_EQ(c["nroots"], 64);
  EXPECT_EQ(c["roots_rule"], "reference");
  EXPECT_TRUE(c["root_seed"].is_null());
  EXPECT_EQ(c["root_ids"], json::array());
  EXPECT_TRUE(c["input_file"].is_null());
  EXPECT_EQ(c["validate"], true);
  EXPECT_EQ(c["warmup"], true);
  EXPECT_EQ(c["disabled"], json::array());
  // The reference rule's roots: those of the test vectors.
  const auto vec = testing::load_graph_vector(8);
  ASSERT_EQ(r.j["roots"].size(), 64u);
  for (size_t k = 0; k < 64; ++k) EXPECT_EQ(r.j["roots"][k]["root"], vec.roots[k].root);
}

// Options that only name the specification's own values, and switched-off techniques (an
// implementation's choice), keep a run conformant; the techniques are recorded.
TEST(ConformanceCli, SpecValuesAndSwitchedOffTechniquesStayConformant) {
  expect_verdict(run_with_json(1, "bfs --scale 8 --roots 64 --edgefactor 16 --seed 2,3"), {});
  const Outcome bfs = run_with_json(1, "bfs --scale 8 --disable yoo,overlap");
  expect_verdict(bfs, {});
  EXPECT_EQ(bfs.j["config"]["disabled"], json({"yoo", "overlap"}));
  const Outcome sssp = run_with_json(1, "sssp --scale 8 --disable reorder");
  expect_verdict(sssp, {});
  EXPECT_EQ(sssp.j["config"]["disabled"], json({"reorder"}));
}

TEST(ConformanceCli, EachDepartureIsNamed) {
  const Outcome roots = run_with_json(1, "bfs --scale 8 --roots 16");
  expect_verdict(roots, {"16 roots"});
  EXPECT_EQ(roots.j["config"]["nroots"], 16);

  const Outcome seeded = run_with_json(1, "bfs --scale 8 --root-seed 5");
  expect_verdict(seeded, {"--root-seed 5"});
  EXPECT_EQ(seeded.j["config"]["roots_rule"], "sampled");
  EXPECT_EQ(seeded.j["config"]["root_seed"], 5);
  EXPECT_EQ(seeded.j["roots"].size(), 64u);

  const auto vec = testing::load_graph_vector(8);
  const int64_t a = vec.roots[3].root, b = vec.roots[9].root;
  const Outcome given = run_with_json(1, "bfs --scale 8 --root " + std::to_string(a) + " --root " + std::to_string(b));
  expect_verdict(given, {"2 roots", "roots given with --root"});
  EXPECT_EQ(given.j["config"]["roots_rule"], "given");
  EXPECT_EQ(given.j["config"]["root_ids"], json({a, b}));
  EXPECT_EQ(roots_of(given.j), (std::vector<int64_t>{a, b}));

  const Outcome seeds = run_with_json(1, "bfs --scale 8 --seed 1,2");
  expect_verdict(seeds, {"--seed 1,2"});
  EXPECT_EQ(seeds.j["config"]["seeds"], json({1, 2}));

  const Outcome edgefactor = run_with_json(1, "bfs --scale 8 --edgefactor 8");
  expect_verdict(edgefactor, {"edgefactor 8"});
  EXPECT_EQ(edgefactor.j["config"]["edgefactor"], 8);

  const Outcome unvalidated = run_with_json(1, "bfs --scale 8 --no-validate");
  expect_verdict(unvalidated, {"no validation"});
  EXPECT_EQ(unvalidated.j["config"]["validate"], false);

  const Outcome one = run_with_json(1, "sssp --scale 8 --roots 1 --no-validate");
  expect_verdict(one, {"1 root", "no validation"});
}

// File input is named whatever the file holds. A small graph runs fewer roots than asked (the
// specification's own rule: only 5 vertices have an edge), which is no departure. The seeds
// are named only where they choose the roots: a bin file of 2^SCALE vertices takes the
// reference rule from them, a tsv file samples with the root seed.
TEST(ConformanceCli, FileInputIsNamedAndSeedsOnlyWhereTheyChooseTheRoots) {
  const std::string dir = testing::make_temp_dir();
  const std::string tsv = testing::write_file(dir, "g.tsv", "5 6\n6 7\n7 5\n100 101\n9 9\n");
  const Outcome file = run_with_json(1, "bfs --input " + tsv);
  expect_verdict(file, {"file input"});
  EXPECT_EQ(file.j["config"]["input_file"], tsv);
  EXPECT_EQ(file.j["config"]["roots_rule"], "sampled");
  EXPECT_EQ(file.j["config"]["root_seed"], 1);
  EXPECT_EQ(file.j["config"]["nroots_run"], 5);

  expect_verdict(run_with_json(1, "bfs --input " + tsv + " --seed 1,2"), {"file input"});
  const Outcome sampled = run_with_json(1, "sssp --input " + tsv + " --roots 3 --root-seed 7");
  expect_verdict(sampled, {"file input", "3 roots", "--root-seed 7"});
  EXPECT_EQ(sampled.j["config"]["root_seed"], 7);

  const std::string bin = dir + "/k8.bin";
  ASSERT_EQ(testing::run_g500(1, "gen --scale 8 --seed 1,2 --format bin --output " + bin).status, 0);
  const Outcome reference = run_with_json(1, "bfs --input " + bin + " --seed 1,2");
  expect_verdict(reference, {"file input", "--seed 1,2"});
  EXPECT_EQ(reference.j["config"]["roots_rule"], "reference");
  EXPECT_TRUE(reference.j["config"]["root_seed"].is_null());
}

// Every departure at once, at every rank count: the same line, the same record and the same
// sampled roots.
TEST(ConformanceCli, AllDeparturesAtEveryRankCount) {
  const std::vector<std::string> reasons{"edgefactor 8", "--seed 1,2", "8 roots", "--root-seed 5", "no validation"};
  std::vector<int64_t> first_roots;
  for (int ranks : {1, 2, 4, 6}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const Outcome bfs =
        run_with_json(ranks, "bfs --scale 8 --edgefactor 8 --seed 1,2 --roots 8 --root-seed 5 --no-validate");
    expect_verdict(bfs, reasons);
    EXPECT_EQ(bfs.j["config"]["ranks"], ranks);
    EXPECT_EQ(bfs.j["config"]["root_seed"], 5);
    EXPECT_EQ(bfs.j["config"]["validate"], false);
    if (first_roots.empty()) first_roots = roots_of(bfs.j);
    EXPECT_EQ(roots_of(bfs.j), first_roots);
    EXPECT_EQ(first_roots.size(), 8u);
    const Outcome sssp = run_with_json(ranks, "sssp --scale 8 --roots 4 --root-seed 5 --disable parent-notes");
    expect_verdict(sssp, {"4 roots", "--root-seed 5"});
    EXPECT_EQ(sssp.j["config"]["disabled"], json({"parent-notes"}));
  }
}

}  // namespace
}  // namespace g500::run
