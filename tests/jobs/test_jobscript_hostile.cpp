// `g500 jobscript` with hostile option values, in a temporary directory holding a canary
// directory: a control character in any value is refused (exit status 2, one line, no script
// written); shell metacharacters, quotes and spaces in the binary and rank map paths reach srun
// or mpiexec as one literal word each when the script runs (the launchers replaced by shims on
// PATH that record their arguments), so nothing they spell is executed and the canary survives.
// The hostile commands name only relative paths inside the temporary directory.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "run_command.hpp"
#include "usage_error.hpp"

namespace g500::jobs {
namespace {

// The test's own single quoting, for the command lines it runs through sh.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A temporary directory with canary/keep and shims/{srun,mpiexec} that write their arguments,
// one per line, to launcher-args.
std::string sandbox() {
  const std::string dir = testing::make_temp_dir();
  EXPECT_EQ(::mkdir((dir + "/canary").c_str(), 0700), 0);
  testing::write_file(dir + "/canary", "keep", "alive\n");
  EXPECT_EQ(::mkdir((dir + "/shims").c_str(), 0700), 0);
  for (const char* launcher : {"srun", "mpiexec"}) {
    const std::string shim =
        testing::write_file(dir + "/shims", launcher, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$SHIM_ARGS\"\n");
    EXPECT_EQ(::chmod(shim.c_str(), 0700), 0);
  }
  return dir;
}

std::string jobscript_in(const std::string& dir, const std::string& args) {
  return "cd " + dir + " && " + G500_BINARY + " jobscript " + args;
}

std::string job_of(const std::string& system) {
  return "--system " + system + " --nodes 2 --scale 20 --node-memory 64";
}

// An option, a value with a control character, the value as the message shows it, and the
// character as named. test_jobscript has every option with every kind of control character.
struct ControlCase {
  const char *option, *value, *shown, *character;
};
const ControlCase kControlCases[] = {{"--queue", "x\nrm -rf canary #", "x\\nrm -rf canary #", "\\n"},
                                     {"--rankmap", "map.csv\rrm -rf canary", "map.csv\\rrm -rf canary", "\\r"},
                                     {"--binary", "./g500\trm -rf canary", "./g500\\trm -rf canary", "\\t"},
                                     {"--time", "01:00:00\x7f", "01:00:00\\x7f", "\\x7f"}};

TEST(JobscriptHostile, ControlCharactersAreRefusedAndNoScriptIsWritten) {
  const std::string dir = sandbox();
  for (const char* system : {"slurm", "fugaku"}) {
    for (const ControlCase& c : kControlCases) {
      const auto r = testing::run_command(
          jobscript_in(dir, job_of(system) + " " + c.option + " " + quoted(c.value) + " --output job.sh"));
      EXPECT_EQ(r.status, 2) << c.option << " " << c.shown << "\n" << r.err;
      EXPECT_EQ(testing::lines_starting(r.err, "g500 jobscript: error:"),
                std::vector<std::string>{"g500 jobscript: error: " + std::string(c.option) + " '" + c.shown +
                                         "' has a control character (" + c.character +
                                         "), which would break the batch script"})
          << r.err;
      EXPECT_EQ(r.out, "");
      EXPECT_FALSE(exists(dir + "/job.sh")) << system << " " << c.option;
    }
  }
  EXPECT_EQ(testing::read_file(dir + "/canary/keep"), "alive\n");
}

// A queue goes into a directive line (#SBATCH --partition=, #PJM -L "rscgrp="): only a plain name.
TEST(JobscriptHostile, QueueNamesThatWouldBreakTheDirectiveAreRefused) {
  const std::string dir = sandbox();
  const std::pair<const char*, const char*> cases[] = {
      {"slurm", "a b"}, {"slurm", "a;rm -rf canary"}, {"fugaku", "small\",node=1"}, {"fugaku", "a,b"}};
  for (const auto& [system, queue] : cases) {
    const auto r =
        testing::run_command(jobscript_in(dir, job_of(system) + " --queue " + quoted(queue) + " --output job.sh"));
    const std::string what = std::string(system) == "slurm" ? "partition name" : "resource group name";
    const std::string commas = std::string(system) == "slurm" ? " (and ',' between names)" : "";
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(testing::lines_starting(r.err, "g500 jobscript: error:"),
              std::vector<std::string>{"g500 jobscript: error: --queue '" + std::string(queue) + "' is not a " + what +
                                       ": use letters, digits, '.', '_' and '-'" + commas})
        << r.err;
    EXPECT_FALSE(exists(dir + "/job.sh"));
  }
}

// Writes the script with these --binary and --rankmap values, checks it with bash -n, runs it
// with the launcher shim, and returns the launcher's arguments.
std::vector<std::string> run_script(const std::string& dir, const std::string& system, const std::string& binary,
                                    const std::string& rankmap) {
  const auto made =
      testing::run_command(jobscript_in(dir, job_of(system) + " --queue debug --binary " + quoted(binary) +
                                                 " --rankmap " + quoted(rankmap) + " --output job.sh"));
  EXPECT_EQ(made.status, 0) << made.err;
  EXPECT_EQ(testing::run_command("bash -n " + dir + "/job.sh").status, 0) << testing::read_file(dir + "/job.sh");
  const auto ran = testing::run_command("cd " + dir + " && PATH=" + dir + "/shims:$PATH SHIM_ARGS=" + dir +
                                        "/launcher-args SLURM_JOB_ID=7 SLURM_CPUS_ON_NODE=4 PJM_JOBID=7 bash job.sh");
  EXPECT_EQ(ran.status, 0) << ran.err << testing::read_file(dir + "/job.sh");
  return lines_of(testing::read_file(dir + "/launcher-args"));
}

TEST(JobscriptHostile, ShellMetacharactersReachTheLauncherAsLiteralWords) {
  const std::string dir = sandbox();
  const std::pair<std::string, std::string> cases[] = {
      {"./build dir/g500", "maps/my map.csv"},
      {"./$(touch pwned)/`touch pwned`;rm -rf canary", "$(rm -rf canary).csv"},
      {"./it's \"q\" |rm -rf canary& #", "x';rm -rf canary;'.csv"},
      {"X=1", "${HOME}*?[a]{b,c}~<in>out!.csv"}};
  for (const char* system : {"slurm", "fugaku"}) {
    for (const auto& [binary, rankmap] : cases) {
      const std::vector<std::string> args = run_script(dir, system, binary, rankmap);
      const auto at_binary = std::find(args.begin(), args.end(), binary);
      ASSERT_NE(at_binary, args.end()) << system << " " << binary;
      EXPECT_EQ(*(at_binary + 1), "bfs");
      const auto at_rankmap = std::find(args.begin(), args.end(), "--rankmap");
      ASSERT_NE(at_rankmap, args.end());
      EXPECT_EQ(*(at_rankmap + 1), rankmap);
      EXPECT_EQ(args.back(), "g500-scale20-2nodes-7.json");
      EXPECT_EQ(testing::read_file(dir + "/canary/keep"), "alive\n") << system << " " << binary;
      EXPECT_FALSE(exists(dir + "/pwned")) << system << " " << binary;
    }
  }
}

}  // namespace
}  // namespace g500::jobs
