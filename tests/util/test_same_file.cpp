// same_file_problem (util/same_file.hpp) on one process: an output naming an input or another
// output is found under every spelling (the same path, ./, dir/../, a symbolic link, a hard link,
// a dangling link to a file not there yet), and the exempt cases pass: reading a file twice,
// writing /dev/null, two outputs to standard output.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "run_command.hpp"
#include "same_file_messages.hpp"
#include "util/same_file.hpp"

namespace g500::util {
namespace {

constexpr FileUse kIn = FileUse::kInput, kOut = FileUse::kOutput;

using testing::input_output;
using testing::two_outputs;

// A directory with g.tsv, sub/, link.tsv -> g.tsv, hard.tsv (a hard link of g.tsv) and
// dangling -> new.json (not there).
std::string files_dir() {
  const std::string dir = testing::make_temp_dir();
  testing::write_file(dir, "g.tsv", "0 1\n");
  EXPECT_EQ(::mkdir((dir + "/sub").c_str(), 0700), 0);
  EXPECT_EQ(::symlink("g.tsv", (dir + "/link.tsv").c_str()), 0);
  EXPECT_EQ(::link((dir + "/g.tsv").c_str(), (dir + "/hard.tsv").c_str()), 0);
  EXPECT_EQ(::symlink("new.json", (dir + "/dangling").c_str()), 0);
  return dir;
}

TEST(SameFile, AnOutputNamingTheInputIsFoundUnderEverySpelling) {
  const std::string d = files_dir();
  const std::string input = d + "/g.tsv";
  for (const std::string& output : {input, d + "/./g.tsv", d + "/sub/../g.tsv", d + "/link.tsv", d + "/hard.tsv"}) {
    EXPECT_EQ(same_file_problem({{"--input", input, kIn}, {"--output-depths", output, kOut}}),
              input_output("--output-depths", output, "--input", input));
    // The output listed first: the message still names the output first.
    EXPECT_EQ(same_file_problem({{"--json", output, kOut}, {"--rankmap", input, kIn}}),
              input_output("--json", output, "--rankmap", input));
  }
  // The input through a link, the output by its own name.
  EXPECT_EQ(same_file_problem({{"--input", d + "/link.tsv", kIn}, {"--json", input, kOut}}),
            input_output("--json", input, "--input", d + "/link.tsv"));
}

TEST(SameFile, TwoOutputsToOneFileAreFoundWhetherItExistsOrNot) {
  const std::string d = files_dir();
  // Existing: through a link and a hard link.
  EXPECT_EQ(same_file_problem({{"--output", d + "/g.tsv", kOut}, {"--link-csv", d + "/hard.tsv", kOut}}),
            two_outputs("--link-csv", d + "/hard.tsv", "--output", d + "/g.tsv"));
  EXPECT_EQ(same_file_problem({{"--csv", d + "/link.tsv", kOut}, {"--fit-csv", d + "/sub/../g.tsv", kOut}}),
            two_outputs("--fit-csv", d + "/sub/../g.tsv", "--csv", d + "/link.tsv"));
  // Not there yet: the same spelling once the directory is real, or a dangling link to it.
  for (const std::string& other : {d + "/./new.json", d + "/sub/../new.json", d + "/dangling"})
    EXPECT_EQ(same_file_problem({{"--json", d + "/new.json", kOut}, {"--output-parents", other, kOut}}),
              two_outputs("--output-parents", other, "--json", d + "/new.json"));
  // An input not there yet (its read fails later) is still not to be written.
  EXPECT_EQ(
      same_file_problem({{"--levels", d + "/none.csv", kIn}, {"--write-level-table", d + "/sub/../none.csv", kOut}}),
      input_output("--write-level-table", d + "/sub/../none.csv", "--levels", d + "/none.csv"));
}

TEST(SameFile, DistinctFilesAndExemptCasesPass) {
  const std::string d = files_dir();
  // Different files, options not given (""), and one file read twice.
  EXPECT_EQ(same_file_problem({{"--input", d + "/g.tsv", kIn},
                               {"--rankmap", "", kIn},
                               {"--json", d + "/out.json", kOut},
                               {"--output-depths", "", kOut},
                               {"--output-parents", d + "/sub/g.tsv", kOut}}),
            "");
  EXPECT_EQ(same_file_problem({{"--levels", d + "/g.tsv", kIn}, {"--compare", d + "/link.tsv", kIn}}), "");
  // Streams: two outputs to /dev/null, to standard output under two names; an input beside a
  // character device written as output.
  EXPECT_EQ(same_file_problem({{"--json", "/dev/null", kOut}, {"--output-depths", "/dev/null", kOut}}), "");
  EXPECT_EQ(same_file_problem({{"--json", "-", kOut}, {"--output-parents", "-", kOut}}), "");
  EXPECT_EQ(same_file_problem({{"--input", "/dev/null", kIn}, {"--json", "/dev/null", kOut}}), "");
  // A FIFO written by two outputs in turn is a stream; read and written it is refused.
  const std::string fifo = d + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(same_file_problem({{"--json", fifo, kOut}, {"--output-depths", fifo, kOut}}), "");
  EXPECT_EQ(same_file_problem({{"--profile", fifo, kIn}, {"--json", fifo, kOut}}),
            input_output("--json", fifo, "--profile", fifo));
}

}  // namespace
}  // namespace g500::util
