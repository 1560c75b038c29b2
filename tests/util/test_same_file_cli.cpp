// Every subcommand refuses, before any work, an output that is one of its inputs or another of its
// outputs (util/same_file.hpp): exit status 2, one error line naming both options, nothing on
// stdout, no file written or left behind and the input unchanged. Runs g500 as one process (a
// failing run under mpiexec costs seconds), and once at 4 ranks.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "run_command.hpp"
#include "same_file_messages.hpp"
#include "usage_error.hpp"

namespace g500::util {
namespace {

const std::string kGraph = "0 1\n1 2\n2 3\n3 0\n";

using testing::input_output;
using testing::two_outputs;

// A directory with the input g.tsv, sub/, link.tsv -> g.tsv and hard.tsv (a hard link of g.tsv).
std::string graph_dir() {
  const std::string dir = testing::make_temp_dir();
  testing::write_file(dir, "g.tsv", kGraph);
  EXPECT_EQ(::mkdir((dir + "/sub").c_str(), 0700), 0);
  EXPECT_EQ(::symlink("g.tsv", (dir + "/link.tsv").c_str()), 0);
  EXPECT_EQ(::link((dir + "/g.tsv").c_str(), (dir + "/hard.tsv").c_str()), 0);
  return dir;
}

std::set<std::string> entries_of(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) names.insert(entry.path().string());
  return names;
}

// `launch` (g500 alone, or under mpiexec) runs SUBCOMMAND ARGS inside `dir`: refused with exactly
// `message`, and the directory's entries and the file `kept` (with content `content`) as before.
void expect_refused_in(const std::string& launch, const std::string& dir, const std::string& subcommand,
                       const std::string& args, const std::string& message, const std::string& kept,
                       const std::string& content) {
  const std::set<std::string> before = entries_of(dir);
  const auto r = testing::run_command("cd " + dir + " && " + launch + " " + subcommand + " " + args);
  EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
  EXPECT_EQ(testing::lines_starting(r.err, "g500 " + subcommand + ": error:"),
            std::vector<std::string>{"g500 " + subcommand + ": error: " + message})
      << args << "\n"
      << r.err;
  EXPECT_EQ(r.out, "") << args;
  EXPECT_EQ(entries_of(dir), before) << args;
  EXPECT_EQ(testing::read_file(dir + "/" + kept), content) << args;
}

void expect_refused(const std::string& dir, const std::string& subcommand, const std::string& args,
                    const std::string& message, const std::string& kept = "g.tsv",
                    const std::string& content = kGraph) {
  expect_refused_in(G500_BINARY, dir, subcommand, args, message, kept, content);
}

TEST(SameFileCli, BfsRefusesAnOutputOverItsInputUnderEverySpelling) {
  const std::string d = graph_dir();
  // Each spelling once, through each output option (test_same_file has every pair).
  const std::pair<const char*, const char*> cases[] = {{"--output-depths", "g.tsv"},
                                                       {"--output-parents", "./g.tsv"},
                                                       {"--json", "sub/../g.tsv"},
                                                       {"--output-depths", "link.tsv"},
                                                       {"--output-parents", "hard.tsv"}};
  for (const auto& [option, output] : cases)
    expect_refused(d, "bfs", std::string("--input g.tsv --roots 1 ") + option + " " + output,
                   input_output(option, output, "--input", "g.tsv"));
  // The rank map is an input too.
  expect_refused(d, "bfs", "--scale 6 --rankmap g.tsv --json ./g.tsv",
                 input_output("--json", "./g.tsv", "--rankmap", "g.tsv"));
}

TEST(SameFileCli, BfsRefusesTwoOutputsToOneFile) {
  const std::string d = graph_dir();
  testing::write_file(d, "old.txt", "kept\n");
  ASSERT_EQ(::link((d + "/old.txt").c_str(), (d + "/old-hard.txt").c_str()), 0);
  ASSERT_EQ(::symlink("new.txt", (d + "/dangling").c_str()), 0);
  const std::string run = "--input g.tsv --roots 1 ";
  expect_refused(d, "bfs", run + "--json new.txt --output-depths ./new.txt",
                 two_outputs("--output-depths", "./new.txt", "--json", "new.txt"));
  expect_refused(d, "bfs", run + "--json new.txt --output-depths dangling",
                 two_outputs("--output-depths", "dangling", "--json", "new.txt"));
  expect_refused(d, "bfs", run + "--output-parents old.txt --output-depths old-hard.txt",
                 two_outputs("--output-depths", "old-hard.txt", "--output-parents", "old.txt"), "old.txt", "kept\n");
}

TEST(SameFileCli, StreamsMayTakeTwoOutputs) {
  const std::string d = graph_dir();
  const auto r = testing::run_command("cd " + d + " && " + G500_BINARY +
                                      " bfs --input g.tsv --roots 1 --quiet --json /dev/null --output-depths /dev/null "
                                      "--output-parents - --no-validate");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("g500 bfs parents from root"), std::string::npos) << r.out;
  EXPECT_EQ(testing::read_file(d + "/g.tsv"), kGraph);
}

TEST(SameFileCli, SsspRefusesAnOutputOverItsInputOrAnotherOutput) {
  const std::string d = graph_dir();
  expect_refused(d, "sssp", "--input g.tsv --output-distances g.tsv",
                 input_output("--output-distances", "g.tsv", "--input", "g.tsv"));
  expect_refused(d, "sssp", "--input g.tsv --output-parents link.tsv",
                 input_output("--output-parents", "link.tsv", "--input", "g.tsv"));
  expect_refused(d, "sssp", "--input g.tsv --json hard.tsv", input_output("--json", "hard.tsv", "--input", "g.tsv"));
  expect_refused(d, "sssp", "--input g.tsv --output-distances d.txt --output-parents sub/../d.txt",
                 two_outputs("--output-parents", "sub/../d.txt", "--output-distances", "d.txt"));
}

TEST(SameFileCli, MapRefusesTheRankMapAndTheLinkLoadsInOneFile) {
  const std::string d = graph_dir();
  testing::write_file(d, "m.csv", "kept\n");
  const std::string map = "--system fugaku --nodes 16 --simulate bfs --output m.csv ";
  expect_refused(d, "map", map + "--link-csv m.csv", two_outputs("--link-csv", "m.csv", "--output", "m.csv"), "m.csv",
                 "kept\n");
  expect_refused(d, "map", map + "--link-csv ./sub/../m.csv",
                 two_outputs("--link-csv", "./sub/../m.csv", "--output", "m.csv"), "m.csv", "kept\n");
}

TEST(SameFileCli, CollRefusesTheFitOverItsHarnessCsv) {
  const std::string d = graph_dir();
  const std::string harness = "op,algo\n";
  testing::write_file(d, "bench.csv", harness);
  ASSERT_EQ(::symlink("bench.csv", (d + "/bench-link.csv").c_str()), 0);
  expect_refused(d, "coll", "--fit bench.csv --fit-csv bench.csv",
                 input_output("--fit-csv", "bench.csv", "--fit", "bench.csv"), "bench.csv", harness);
  expect_refused(d, "coll", "--fit bench.csv --fit-csv bench-link.csv",
                 input_output("--fit-csv", "bench-link.csv", "--fit", "bench.csv"), "bench.csv", harness);
}

TEST(SameFileCli, ModelRefusesAnOutputOverItsInputOrAnotherOutput) {
  const std::string d = graph_dir();
  const std::string levels = "scale,level\n";
  testing::write_file(d, "levels.csv", levels);
  expect_refused(d, "model", "--levels levels.csv --write-level-table ./levels.csv",
                 input_output("--write-level-table", "./levels.csv", "--levels", "levels.csv"), "levels.csv", levels);
  expect_refused(d, "model", "--profile levels.csv --json levels.csv",
                 input_output("--json", "levels.csv", "--profile", "levels.csv"), "levels.csv", levels);
  expect_refused(d, "model", "--write-level-table t.csv --json sub/../t.csv",
                 two_outputs("--json", "sub/../t.csv", "--write-level-table", "t.csv"));
}

TEST(SameFileCli, JobscriptRefusesTheScriptOverItsRankMap) {
  const std::string d = graph_dir();
  const std::string rankmap = "rank,row,col\n0,0,0\n1,1,0\n";
  testing::write_file(d, "map.csv", rankmap);
  ASSERT_EQ(::link((d + "/map.csv").c_str(), (d + "/map-hard.csv").c_str()), 0);
  const std::string job = "--system slurm --nodes 2 --scale 20 --node-memory 64 --rankmap map.csv ";
  expect_refused(d, "jobscript", job + "--output map.csv", input_output("--output", "map.csv", "--rankmap", "map.csv"),
                 "map.csv", rankmap);
  expect_refused(d, "jobscript", job + "--output map-hard.csv",
                 input_output("--output", "map-hard.csv", "--rankmap", "map.csv"), "map.csv", rankmap);
}

TEST(SameFileCli, FourRanksRefuseAsOne) {
  const std::string d = graph_dir();
  const std::string mpiexec = std::string(G500_MPIEXEC) + " -n 4 " + G500_MPIEXEC_FLAGS + " " + G500_BINARY;
  expect_refused_in(mpiexec, d, "bfs", "--input g.tsv --output-depths link.tsv",
                    input_output("--output-depths", "link.tsv", "--input", "g.tsv"), "g.tsv", kGraph);
}

}  // namespace
}  // namespace g500::util
