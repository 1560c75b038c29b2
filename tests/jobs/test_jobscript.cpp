// The batch scripts of `g500 jobscript` (src/jobs/jobscript): the lines each system needs for a
// few sizes, and one-line UsageErrors for bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "graph/local_id.hpp"
#include "jobs/jobscript.hpp"
#include "jobs/script_text.hpp"
#include "util/error.hpp"
#include "util/shell_word.hpp"

namespace g500::jobs {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has_line(const std::string& text, const std::string& line) {
  for (const auto& l : lines_of(text))
    if (l == line) return true;
  return false;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

JobSpec spec_of(const std::string& system, int nodes, int scale) {
  JobSpec s;
  s.system = system;
  s.nodes = nodes;
  s.scale = scale;
  return s;
}

TEST(Jobscript, SlurmSixteenNodesOneRankEach) {
  JobSpec s = spec_of("slurm", 16, 30);
  s.threads = 48;
  s.time = "02:30:00";
  const std::string text = make_jobscript(s);
  EXPECT_EQ(lines_of(text).front(), "#!/bin/bash");
  for (const char* line :
       {"#SBATCH --nodes=16", "#SBATCH --ntasks-per-node=1", "#SBATCH --cpus-per-task=48", "#SBATCH --time=02:30:00",
        "#SBATCH --exclusive", "threads=48",
        "export OMP_NUM_THREADS=$threads OMP_PLACES=cores OMP_PROC_BIND=close OMP_WAIT_POLICY=active",
        "export UCX_RNDV_THRESH=512000 OMPI_MCA_btl_tcp_eager_limit=512000"})
    EXPECT_TRUE(has_line(text, line)) << line << "\n" << text;
  EXPECT_TRUE(contains(text, "srun --nodes=16 --ntasks-per-node=1 --cpus-per-task=$threads --cpu-bind=cores"));
  EXPECT_TRUE(contains(text,
                       "./build/g500 bfs --scale 30 --roots 64 --grid 4x4 --threads $threads --json "
                       "g500-scale30-16nodes-${SLURM_JOB_ID}.json"))
      << text;
  EXPECT_FALSE(contains(text, "--partition"));
  EXPECT_FALSE(contains(text, "#PJM"));
}

TEST(Jobscript, SlurmThreadsFromTheNodeWhenNotGiven) {
  JobSpec s = spec_of("slurm", 2, 20);
  s.ppn = 4;
  s.queue = "compute";
  s.rankmap = "map.csv";
  const std::string text = make_jobscript(s);
  EXPECT_TRUE(has_line(text, "#SBATCH --ntasks-per-node=4")) << text;
  EXPECT_TRUE(has_line(text, "#SBATCH --partition=compute")) << text;
  EXPECT_FALSE(contains(text, "#SBATCH --cpus-per-task"));
  EXPECT_TRUE(contains(text, "threads=$(( SLURM_CPUS_ON_NODE / 4 ))"));
  // map.csv is not here: the grid is left to g500 bfs, which reads it from the map.
  EXPECT_TRUE(contains(text, "--roots 64 --threads $threads --rankmap map.csv --json")) << text;
  EXPECT_TRUE(contains(text, "(8 MPI ranks on the grid of map.csv)")) << text;
}

TEST(Jobscript, FugakuSixtyFourNodes) {
  JobSpec s = spec_of("fugaku", 64, 30);
  const std::string text = make_jobscript(s);
  for (const char* line :
       {"#PJM -L \"node=8x8:torus\"", "#PJM -L \"elapse=01:00:00\"", "#PJM --mpi \"max-proc-per-node=1\"",
        "#PJM -L \"freq=2200,eco_state=2\"", "export OMP_NUM_THREADS=48 OMP_WAIT_POLICY=active"})
    EXPECT_TRUE(has_line(text, line)) << line << "\n" << text;
  EXPECT_TRUE(contains(text, "mpiexec -n 64 -mca btl_tofu_eager_limit 512000")) << text;
  EXPECT_TRUE(
      contains(text, "bfs --scale 30 --roots 64 --grid 8x8 --threads 48 --json g500-scale30-64nodes-${PJM_JOBID}.json"))
      << text;
  EXPECT_FALSE(contains(text, "#SBATCH"));
  EXPECT_FALSE(contains(text, "rscgrp"));
}

TEST(Jobscript, FugakuFourRanksPerNodeAndGivenShape) {
  JobSpec s = spec_of("fugaku", 32, 30);
  s.ppn = 4;
  s.grid = "16x8";
  s.queue = "small";
  s.rankmap = "grid.csv";
  std::string text = make_jobscript(s);
  EXPECT_TRUE(has_line(text, "#PJM -L \"node=2x16:torus\"")) << text;  // C / ppn = 2 nodes per grid row
  EXPECT_TRUE(has_line(text, "#PJM --mpi \"max-proc-per-node=4\""));
  EXPECT_TRUE(has_line(text, "#PJM -L \"rscgrp=small\""));
  EXPECT_TRUE(has_line(text, "export OMP_NUM_THREADS=12 OMP_WAIT_POLICY=active"));
  EXPECT_TRUE(contains(text, "mpiexec -n 128 -mca btl_tofu_eager_limit 512000"));
  EXPECT_TRUE(contains(text, "--grid 16x8 --threads 12 --rankmap grid.csv --json"));
  s.node_shape = "2x4x4";
  s.eager_limit = 1048576;
  text = make_jobscript(s);
  EXPECT_TRUE(has_line(text, "#PJM -L \"node=2x4x4:torus\"")) << text;
  EXPECT_TRUE(contains(text, "-mca btl_tofu_eager_limit 1048576"));
}

TEST(Jobscript, ReadableRankMapGivesTheGrid) {
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/g500_jobscript_map.csv";
  {
    std::ofstream out(path);
    out << "rank,row,col,x\n";
    for (int rank = 0; rank < 6; ++rank) out << rank << "," << rank % 2 << "," << rank / 2 << "," << rank << "\n";
  }
  JobSpec s = spec_of("fugaku", 6, 20);
  s.rankmap = path;
  std::string text = make_jobscript(s);
  EXPECT_TRUE(contains(text, "--grid 2x3 --threads 48 --rankmap " + path)) << text;  // default would be 3x2
  EXPECT_TRUE(has_line(text, "#PJM -L \"node=3x2:torus\"")) << text;
  s.grid = "3x2";
  try {
    make_jobscript(s);
    ADD_FAILURE() << "no error";
  } catch (const util::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--grid 3x2 disagrees with the 2x3 grid of --rankmap"), std::string::npos)
        << e.what();
  }
  s = spec_of("fugaku", 4, 20);
  s.rankmap = path;
  try {
    make_jobscript(s);
    ADD_FAILURE() << "no error";
  } catch (const util::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();  // 6 ranks in the map, 4 in the job
  }
  std::remove(path.c_str());
}

TEST(Jobscript, DefaultFugakuNodeShapes) {
  EXPECT_EQ(default_fugaku_node_shape(1, 1, 1, 1), "1");
  EXPECT_TRUE(has_line(make_jobscript(spec_of("fugaku", 1, 20)), "#PJM -L \"node=1\""));
  EXPECT_EQ(default_fugaku_node_shape(64, 1, 8, 8), "8x8");
  EXPECT_EQ(default_fugaku_node_shape(8, 1, 4, 2), "2x4");
  EXPECT_EQ(default_fugaku_node_shape(32, 4, 16, 8), "2x16");
  EXPECT_EQ(default_fugaku_node_shape(4, 4, 4, 4), "4");  // one node per grid row
  EXPECT_EQ(default_fugaku_node_shape(6, 4, 6, 4), "6");
  EXPECT_EQ(default_fugaku_node_shape(12, 2, 6, 4), "2x6");
  EXPECT_EQ(default_fugaku_node_shape(3, 2, 3, 2), "3");
  EXPECT_EQ(default_fugaku_node_shape(6, 4, 8, 3), "3x2");  // C not a multiple of ppn: factor pair
}

void expect_error(const JobSpec& s, const std::string& message) {
  try {
    make_jobscript(s);
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const util::UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(message), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "not one line: " << what;
  }
}

// g500 bfs's memory estimate against a node's memory: Fugaku's 32 GiB unless given, Slurm only
// when given; force skips it and passes --force to bfs.
TEST(Jobscript, MemoryOfTheNodesIsChecked) {
  const std::string needs = std::string("SCALE 30 needs about ") + (graph::kWideIds ? "65.5" : "61.6");
  expect_error(spec_of("fugaku", 2, 30), needs +
                                             " GiB on each of the job's 2 nodes (a Fugaku node) "
                                             "but it has 32.0 GiB (use more nodes, a smaller SCALE, or --force)");
  JobSpec s = spec_of("slurm", 2, 30);
  EXPECT_FALSE(contains(make_jobscript(s), "--force"));  // no memory known: no check
  s.node_memory_bytes = 48.0 * 1024 * 1024 * 1024;
  s.node_memory_origin = "--node-memory";
  expect_error(s, std::string("SCALE 30 needs about ") + (graph::kWideIds ? "65.4" : "61.6") +
                      " GiB on each of the job's 2 nodes (--node-memory) but it has 48.0 GiB");
  s.node_memory_bytes = 200.0 * 1024 * 1024 * 1024;
  EXPECT_FALSE(contains(make_jobscript(s), "--force"));
  s = spec_of("fugaku", 2, 30);
  s.force = true;
  EXPECT_TRUE(contains(make_jobscript(s), "--json g500-scale30-2nodes-${PJM_JOBID}.json --force\n"));
  expect_error(spec_of("fugaku", 158977, 20), "--nodes 158977 is more than Fugaku's 158976 nodes");
  expect_error(spec_of("slurm", 1, 42),
               graph::kWideIds ? "SCALE 42 on a 1x1 grid needs more than 64 bits for a vertex's offset"
                               : "SCALE 42 on a 1x1 grid needs more than 2^32 vertices per grid row or column");
}

TEST(Jobscript, BadInputIsOneLineUsageError) {
  expect_error(spec_of("slurm", 0, 20), "--nodes must be at least 1 (got 0)");
  expect_error(spec_of("pbs", 4, 20), "--system must be slurm or fugaku (got 'pbs')");
  expect_error(spec_of("slurm", 4, 43), "--scale must be between 1 and 42");
  expect_error(spec_of("fugaku", 4, 0), "--scale must be between 1 and 42");
  JobSpec s = spec_of("slurm", 4, 20);
  s.grid = "3x2";
  expect_error(s, "--grid 3x2 needs 6 MPI ranks but the job has 4");
  s = spec_of("slurm", 4, 20);
  s.ppn = 0;
  expect_error(s, "--ppn must be at least 1");
  for (const char* bad : {"1:00", "01:60:00", "aa:00:00", "00:00:00", "01:00:0", ""}) {
    s = spec_of("fugaku", 4, 20);
    s.time = bad;
    expect_error(s, "is not a wall time HH:MM:SS");
  }
  s = spec_of("fugaku", 4, 20);
  s.ppn = 4;
  s.threads = 24;
  expect_error(s, "is more than the 48 cores of a Fugaku node");
  s = spec_of("fugaku", 12, 20);
  s.node_shape = "2x3";
  expect_error(s, "--node-shape 2x3 has 6 nodes but --nodes is 12");
  s.node_shape = "2x3x2x1";
  expect_error(s, "is not A, AxB or AxBxC");
  s.node_shape = "2xx6";
  expect_error(s, "is not A, AxB or AxBxC");
  s = spec_of("slurm", 12, 20);
  s.node_shape = "3x4";
  expect_error(s, "--node-shape is for --system fugaku");
}

// Every text value that reaches the script: a control character anywhere is refused, with the
// value shown escaped on one line, before the rank map is read or other rules are applied.
TEST(Jobscript, ControlCharactersInAnyValueAreRefused) {
  const std::pair<char, const char*> controls[] = {
      {'\n', "\\n"}, {'\r', "\\r"}, {'\t', "\\t"}, {'\x1b', "\\x1b"}, {'\x7f', "\\x7f"}};
  for (const char* system : {"slurm", "fugaku"}) {
    for (const auto& [c, escaped] : controls) {
      const std::pair<const char*, std::string JobSpec::*> fields[] = {
          {"--grid", &JobSpec::grid},    {"--rankmap", &JobSpec::rankmap}, {"--time", &JobSpec::time},
          {"--queue", &JobSpec::queue},  {"--binary", &JobSpec::binary},   {"--node-shape", &JobSpec::node_shape},
          {"--system", &JobSpec::system}};
      for (const auto& [option, field] : fields) {
        JobSpec s = spec_of(system, 2, 20);
        s.*field = std::string("a") + c + "b";
        expect_error(s, std::string(option) + " 'a" + escaped + "b' has a control character (" + escaped +
                            "), which would break the batch script");
      }
    }
  }
}

TEST(Jobscript, ShellWordsAreQuotedUnlessLiteral) {
  const std::pair<const char*, const char*> cases[] = {{"./build/g500", "./build/g500"},
                                                       {"/opt/g500-1.0/bin/g500+x:y,z", "/opt/g500-1.0/bin/g500+x:y,z"},
                                                       {"./a=b", "'./a=b'"},
                                                       {"X=1", "'X=1'"},  // bare, a first word would be an assignment
                                                       {"", "''"},
                                                       {"my dir/g500", "'my dir/g500'"},
                                                       {"$(touch x)", "'$(touch x)'"},
                                                       {"`touch x`", "'`touch x`'"},
                                                       {"a;b|c&d", "'a;b|c&d'"},
                                                       {"it's", "'it'\\''s'"},
                                                       {"\"q\"", "'\"q\"'"},
                                                       {"~/g500", "'~/g500'"},
                                                       {"*?[a]{b,c}#!<>", "'*?[a]{b,c}#!<>'"}};
  for (const auto& [text, word] : cases) EXPECT_EQ(g500::util::shell_word(text), word) << text;
  JobSpec s = spec_of("slurm", 2, 20);
  s.binary = "./my build/g500";
  s.rankmap = "it's.csv";
  EXPECT_TRUE(contains(make_jobscript(s), "    './my build/g500' bfs --scale 20")) << make_jobscript(s);
  EXPECT_TRUE(contains(make_jobscript(s), " --rankmap 'it'\\''s.csv' --json ")) << make_jobscript(s);
}

// The queue sits inside a directive: sbatch splits #SBATCH lines at spaces and reads quotes and
// '#'; PJM's -L "..." ends at a quote and is split at commas.
TEST(Jobscript, QueueNamesFitTheirDirective) {
  JobSpec s = spec_of("slurm", 2, 20);
  s.queue = "gpu-a100,cpu_2.x";
  EXPECT_TRUE(has_line(make_jobscript(s), "#SBATCH --partition=gpu-a100,cpu_2.x"));
  for (const char* bad : {"a b", "a\"b", "a'b", "a#b", "a=b", ",a", "a,", "a$(x)"}) {
    s.queue = bad;
    expect_error(s, "--queue '" + std::string(bad) +
                        "' is not a partition name: use letters, digits, '.', '_' and '-' "
                        "(and ',' between names)");
  }
  s = spec_of("fugaku", 2, 20);
  s.queue = "small-s_1.x";
  EXPECT_TRUE(has_line(make_jobscript(s), "#PJM -L \"rscgrp=small-s_1.x\""));
  for (const char* bad : {"small,node=99", "a\"b", "a b"}) {
    s.queue = bad;
    expect_error(
        s, "--queue '" + std::string(bad) + "' is not a resource group name: use letters, digits, '.', '_' and '-'");
  }
}

// A word after srun or mpiexec (the binary) or after --rankmap must not pass for an option.
TEST(Jobscript, ValuesStartingWithADashAreRefused) {
  JobSpec s = spec_of("slurm", 2, 20);
  s.binary = "--export=ALL";
  expect_error(s, "--binary '--export=ALL' starts with '-', which srun would read as an option (write ./--export=ALL)");
  s = spec_of("fugaku", 2, 20);
  s.binary = "-x";
  expect_error(s, "--binary '-x' starts with '-', which mpiexec would read as an option (write ./-x)");
  s = spec_of("fugaku", 2, 20);
  s.rankmap = "--json";
  expect_error(s, "--rankmap '--json' starts with '-', which g500 bfs would read as an option (write ./--json)");
}

}  // namespace
}  // namespace g500::jobs
