// `g500 jobscript` through mpiexec: the script on stdout or in --output, and bad input as one
// "g500 jobscript: error:" line with exit status 2.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <iterator>
#include <string>
#include <utility>

#include "graph/local_id.hpp"
#include "run_command.hpp"
#include "usage_error.hpp"

namespace g500::jobs {
namespace {

TEST(JobscriptCli, PrintsAndWritesTheScript) {
  auto r = testing::run_g500(1, "jobscript --system fugaku --nodes 12 --scale 26 --time 00:30:00");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("#!/bin/bash\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("#PJM -L \"node=3x4:torus\"\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("#PJM -L \"elapse=00:30:00\"\n"), std::string::npos) << r.out;
  const std::string dir = testing::make_temp_dir();
  r = testing::run_g500(1, "jobscript --system slurm --nodes 2 --ppn 2 --scale 24 --output " + dir + "/job.sh");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + dir + "/job.sh"), std::string::npos) << r.out;
  const std::string text = testing::read_file(dir + "/job.sh");
  EXPECT_NE(text.find("#SBATCH --nodes=2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("--grid 2x2"), std::string::npos) << text;
  struct stat st {};
  ASSERT_EQ(stat((dir + "/job.sh").c_str(), &st), 0);
  EXPECT_TRUE(st.st_mode & S_IXUSR);
  // The Slurm script is valid bash.
  EXPECT_EQ(testing::run_command("bash -n " + dir + "/job.sh").status, 0);
}

// --plan: g500 bfs's memory plan for the job instead of the script, part by part, with the peak
// per node against the node's memory (the papers' SCALE 37 on 9936 Fugaku nodes fits).
TEST(JobscriptCli, PlanListsTheParts) {
  auto r = testing::run_g500(1, "jobscript --system fugaku --nodes 9936 --grid 138x72 --scale 37 --plan");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("SCALE 37 on 9936 nodes, 1 rank per node: the plan of g500 bfs\n"
                        "memory plan per process, 138x72 grid: plain rows, kernel 1 in 1 pass\n",
                        0),
            0u)
      << r.out;
  const std::string scale37 = graph::kWideIds ? "5.2" : "4.5";
  EXPECT_NE(r.out.find("\npeak per node: " + scale37 + " GiB of 32.0 GiB (a Fugaku node): fits\n"), std::string::npos)
      << r.out;
  // The papers' largest run: the columns' original ids for the columns in use and their index
  // (bucketed offsets: about 2 % of the column set is in use); kernel 1's row map likewise for the
  // rows with entries, and its
  // row lengths counted for the rows met only, no word per row (its peak is planning the rows).
  r = testing::run_g500(1, "jobscript --system fugaku --nodes 158976 --grid 552x288 --scale 41 --plan");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  renumbering: columns in use, index                     0.056     0.008 B per N/C\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  kernel 1: rows with entries, index                     0.029     0.008 B per N/R\n"),
            std::string::npos)
      << r.out;
  if (!graph::kWideIds) {  // there the fill is the peak
    EXPECT_NE(r.out.find("  kernel 1: row lengths of the rows met, index"), std::string::npos) << r.out;
  }
  EXPECT_EQ(r.out.find("  kernel 1: row lengths   "), std::string::npos) << r.out;
  // 7.6e9 vertices per column set: beyond 32-bit local ids, within 64-bit ones (graph/local_id.hpp).
  const std::string scale41 = graph::kWideIds
                                  ? "\npeak per node: 6.7 GiB of 32.0 GiB (a Fugaku node): fits\n"
                                  : "\npeak per node: 6.6 GiB of 32.0 GiB (a Fugaku node): fits\n"
                                    "g500 bfs refuses this job: SCALE 41 on a 552x288 grid needs more than 2^32 "
                                    "vertices per grid row or column; use more ranks, or g500 built with "
                                    "-DG500_WIDE_IDS=ON\n";
  EXPECT_NE(r.out.find(scale41), std::string::npos) << r.out;
  if (graph::kWideIds) {
    EXPECT_EQ(r.out.find("refuses"), std::string::npos) << r.out;
  }
  r = testing::run_g500(1, "jobscript --system slurm --nodes 4 --scale 20 --node-memory 64 --plan");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("memory plan per process, 2x2 grid: plain rows, kernel 1 in 1 pass\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" of 64.0 GiB (--node-memory): fits\n"), std::string::npos) << r.out;
  testing::expect_usage_error("jobscript", 1, "--system slurm --nodes 4 --scale 20 --plan --output job.sh",
                              "--output excludes --plan");
}

// g500 jobscript works alone (it starts no MPI work of its own); one refusal of each kind (a value,
// a file) is checked through mpiexec too.
TEST(JobscriptCli, BadInputGivesOneErrorLine) {
  testing::expect_usage_error_alone("jobscript", "--system slurm --nodes 0 --scale 20",
                                    "--nodes must be at least 1 (got '0')");
  testing::expect_usage_error("jobscript", 1, "--system slurm --nodes 0 --scale 20",
                              "--nodes must be at least 1 (got '0')");
  testing::expect_usage_error_alone("jobscript", "--system pbs --nodes 4 --scale 20",
                                    "--system must be slurm or fugaku");
  testing::expect_usage_error_alone("jobscript", "--system slurm --scale 20", "--nodes is required");
  testing::expect_usage_error_alone("jobscript", "--system fugaku --nodes 4 --scale 20 --grid 3x3",
                                    "--grid 3x3 needs 9 MPI ranks");
  testing::expect_usage_error_alone("jobscript", "--system fugaku --nodes 4 --scale 20 --time 1h",
                                    "is not a wall time");
  testing::expect_usage_error_alone("jobscript", "--system slurm --nodes 4 --scale 20 --output /nonexistent-dir/job.sh",
                                    "cannot write");
  testing::expect_usage_error("jobscript", 1, "--system slurm --nodes 4 --scale 20 --output /nonexistent-dir/job.sh",
                              "cannot write");
}

// Bad numbers and empty values: one line naming the option and the value.
TEST(JobscriptCli, BadValuesAreNamedWithTheirRule) {
  const std::pair<const char*, const char*> cases[] = {
      {"--system slurm --nodes x --scale 20", "--nodes must be a whole number from 1 to 2147483647 (got 'x')"},
      {"--system slurm --nodes 4 --scale x", "--scale must be a whole number from 1 to 42 (got 'x')"},
      {"--system slurm --nodes 4 --scale 43", "--scale must be a whole number from 1 to 42 (got '43')"},
      {"--system slurm --nodes 4 --scale 20 --ppn 0", "--ppn must be at least 1 (got '0')"},
      {"--system slurm --nodes 4 --scale 20 --threads 0", "--threads must be a whole number from 1 to 4096 (got '0')"},
      {"--system fugaku --nodes 4 --scale 20 --threads 0", "--threads must be a whole number from 1 to 4096 (got '0')"},
      {"--system slurm --nodes 4 --scale 20 --threads 4097",
       "--threads must be a whole number from 1 to 4096 (got '4097')"},
      {"--system slurm --nodes 4 --scale 20 --eager-limit -1", "--eager-limit must be at least 0 (got '-1')"},
      {"--system slurm --nodes 4 --scale 20 --node-memory 0",
       "--node-memory must be a number from 0.001 to 1e+06 GiB (got '0')"},
      {"--system slurm --nodes 4 --scale 20 --grid ''", "--grid must not be empty"},
      {"--system fugaku --nodes 4 --scale 20 --node-shape ''", "--node-shape must not be empty"},
  };
  // Every case alone; through 4 ranks, a refusal while parsing and one after (the same on every
  // rank, said once).
  for (const auto& [args, message] : cases) testing::expect_exact_usage_error_alone("jobscript", args, message);
  for (const size_t k : {size_t{0}, std::size(cases) - 1})
    testing::expect_exact_usage_error("jobscript", 4, cases[k].first, cases[k].second);
  // Beyond any node: refused with its bounds while parsing, alike on every rank (one process).
  testing::expect_exact_usage_error_alone("jobscript", "--system slurm --nodes 4 --scale 20 --node-memory 1e300",
                                          "--node-memory must be a number from 0.001 to 1e+06 GiB (got '1e300')");
}

// Jobs that could not run: more nodes than Fugaku has, local ids beyond 32 bits, or more memory
// per node than a node has by g500 bfs's own estimate (refused by bfs when it starts).
TEST(JobscriptCli, JobsThatCannotRunAreRefused) {
  const std::string advice = " (use more nodes, a smaller SCALE, or --force)";
  const std::pair<const char*, std::string> cases[] = {
      {"--system fugaku --nodes 1000000 --scale 30", "--nodes 1000000 is more than Fugaku's 158976 nodes"},
      {"--system fugaku --nodes 1 --scale 42",
       std::string("SCALE 42 needs about ") + (graph::kWideIds ? "139068518.0" : "139031270.1") +
           " GiB on the job's node (a Fugaku node) but it has 32.0 GiB" + advice},
      // --force skips the memory check, not this one (g500 bfs refuses it even with --force).
      {"--system fugaku --nodes 1 --scale 42 --force",
       graph::kWideIds
           ? "SCALE 42 on a 1x1 grid needs more than 64 bits for a vertex's offset in its block and its id in a "
             "grid row or column; use more ranks"
           : "SCALE 42 on a 1x1 grid needs more than 2^32 vertices per grid row or column; use more ranks, or "
             "g500 built with -DG500_WIDE_IDS=ON"},
      {"--system fugaku --nodes 1 --scale 30",
       std::string("SCALE 30 needs about ") + (graph::kWideIds ? "131.3" : "123.7") +
           " GiB on the job's node (a Fugaku node) but it has 32.0 GiB" + advice},
      {"--system fugaku --nodes 32 --ppn 4 --grid 16x8 --scale 33",
       std::string("SCALE 33 needs about ") + (graph::kWideIds ? "43.9" : "41.5") +
           " GiB on each of the job's 32 nodes (a Fugaku node) but it has 32.0 GiB" + advice},
      {"--system slurm --nodes 1 --scale 30 --node-memory 64",
       std::string("SCALE 30 needs about ") + (graph::kWideIds ? "131.2" : "123.6") +
           " GiB on the job's node (--node-memory) but it has 64.0 GiB" + advice},
  };
  // Every case alone; through 4 ranks, a memory refusal and the ids' (said once).
  for (const auto& [args, message] : cases) testing::expect_exact_usage_error_alone("jobscript", args, message);
  for (const size_t k : {size_t{2}, size_t{4}})
    testing::expect_exact_usage_error("jobscript", 4, cases[k].first, cases[k].second);
  // Slurm without --node-memory: the memory of this machine, said so (SCALE 32 on one node needs
  // about 1.1 TiB, more than any test machine has).
  testing::expect_usage_error("jobscript", 1, "--system slurm --nodes 1 --scale 32",
                              "on the job's node (taken from this machine; give --node-memory) but it has");
}

TEST(JobscriptCli, ForceWritesTheScriptAndPassesForceToBfs) {
  auto r = testing::run_g500(1, "jobscript --system fugaku --nodes 1 --scale 30 --force");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.out.find(
          "bfs --scale 30 --roots 64 --grid 1x1 --threads 48 --json g500-scale30-1nodes-${PJM_JOBID}.json --force\n"),
      std::string::npos)
      << r.out;
  // Without the need, no --force.
  r = testing::run_g500(1, "jobscript --system fugaku --nodes 64 --scale 30");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("--force"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace g500::jobs
