// `g500 jobscript` through mpiexec: the script on stdout or in --output, and bad input as one
// "g500 jobscript: error:" line with exit status 2.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "run_command.hpp"
#include "usage_error.hpp"

namespace g500 {
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

TEST(JobscriptCli, BadInputGivesOneErrorLine) {
  testing::expect_usage_error("jobscript", 1, "--system slurm --nodes 0 --scale 20", "--nodes must be at least 1 (got 0)");
  testing::expect_usage_error("jobscript", 1, "--system pbs --nodes 4 --scale 20", "--system must be slurm or fugaku");
  testing::expect_usage_error("jobscript", 1, "--system slurm --scale 20", "--nodes is required");
  testing::expect_usage_error("jobscript", 1, "--system fugaku --nodes 4 --scale 20 --grid 3x3", "--grid 3x3 needs 9 MPI ranks");
  testing::expect_usage_error("jobscript", 1, "--system fugaku --nodes 4 --scale 20 --time 1h", "is not a wall time");
  testing::expect_usage_error("jobscript", 1, "--system slurm --nodes 4 --scale 20 --output /nonexistent-dir/job.sh",
                              "cannot write");
}

}  // namespace
}  // namespace g500
