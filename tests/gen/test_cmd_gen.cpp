// `g500 gen` end to end: runs the built g500 through mpiexec at 1, 2, 4 and 6 ranks.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "gen/kronecker.hpp"
#include "io/edge_file.hpp"
#include "testvectors.hpp"

extern char** environ;
namespace fs = std::filesystem;
using namespace g500::gen;
using namespace g500::io;

namespace {

const int kRankCounts[] = {1, 2, 4, 6};
// Without this, mpiexec waits about two seconds before reaping a job whose process failed.
const std::string kFastAbort = " --mca odls_base_sigkill_timeout 0";

// The test itself runs under mpiexec; the child mpiexec must not see the parent's launch
// environment, so every OMPI_/PMIX_/OPAL_ variable except the run-as-root permissions is dropped.
std::string clean_env_prefix() {
  std::string prefix = "env";
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    std::string name = kv.substr(0, kv.find('='));
    bool launch = name.rfind("OMPI_", 0) == 0 || name.rfind("PMIX_", 0) == 0 || name.rfind("OPAL_", 0) == 0;
    if (launch && name.rfind("OMPI_ALLOW_RUN_AS_ROOT", 0) != 0) prefix += " -u " + name;
  }
  if (geteuid() == 0) prefix += " OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
  return prefix;
}

struct RunResult {
  int status = -1;
  std::string err;
};

std::string read_all(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Fixture : ::testing::Test {
  std::string dir;
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "g500_cli_test_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir = tmpl;
  }
  void TearDown() override { fs::remove_all(dir); }

  RunResult run(int np, const std::string& args) {
    const std::string errfile = dir + "/stderr.txt";
    std::string cmd = clean_env_prefix() + " timeout 120 " + G500_MPIEXEC + " --oversubscribe" + kFastAbort + " -n " +
                      std::to_string(np) + " " + G500_BINARY + " gen " + args + " >/dev/null 2>" + errfile;
    RunResult r;
    int raw = std::system(cmd.c_str());
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128;
    r.err = read_all(errfile);
    fs::remove(errfile);
    return r;
  }
};

std::vector<std::string> error_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find("g500 gen: error:") != std::string::npos) out.push_back(line);
  return out;
}

}  // namespace

TEST_F(Fixture, TsvEqualsTestVectorAtAllRankCounts) {
  for (int scale : {8, 10}) {
    const auto ref = g500::testing::load_kron_tsv(scale);
    for (int np : kRankCounts) {
      const std::string out = dir + "/g.tsv";
      auto r = run(np, "--scale " + std::to_string(scale) + " --weights --output " + out);
      ASSERT_EQ(r.status, 0) << r.err;
      std::ifstream in(out);
      std::string line;
      size_t i = 0;
      while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        g500::testing::TsvEdge e{};
        ASSERT_EQ(std::sscanf(line.c_str(), "%ld\t%ld\t%f", &e.v0, &e.v1, &e.weight), 3) << line;
        ASSERT_LT(i, ref.size());
        ASSERT_TRUE(e.v0 == ref[i].v0 && e.v1 == ref[i].v1 &&
                    std::bit_cast<uint32_t>(e.weight) == std::bit_cast<uint32_t>(ref[i].weight))
            << "scale " << scale << " np " << np << " edge " << i << ": " << line;
        ++i;
      }
      EXPECT_EQ(i, ref.size()) << "np " << np;
      fs::remove(out);
      EXPECT_TRUE(fs::is_empty(dir)) << "leftover temporary file";
    }
  }
}

TEST_F(Fixture, BinRoundTripsAtAllRankCounts) {
  KroneckerSpec spec;
  spec.scale = 10;
  spec.edgefactor = 5;
  spec.seed1 = 11;
  spec.seed2 = 12345678901234ULL;
  const int64_t n = spec.nedges();
  std::vector<Edge> want(n);
  std::vector<float> ww(n);
  KroneckerGenerator(spec).generate(0, n, want.data(), ww.data());
  for (int np : kRankCounts) {
    const std::string out = dir + "/g.bin";
    auto r = run(np, "--scale 10 --edgefactor 5 --seed 11,12345678901234 --format bin --weights --output " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    BinEdgeReader reader;
    ASSERT_EQ(reader.open(out), "");
    ASSERT_EQ(reader.header().nedges, n);
    ASSERT_EQ(reader.header().nvertices, 1024);
    ASSERT_TRUE(reader.header().has_weights());
    std::vector<Edge> got(n);
    std::vector<float> gw(n);
    reader.read(0, n, got.data(), gw.data());
    EXPECT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(Edge))) << "np " << np;
    EXPECT_EQ(0, std::memcmp(gw.data(), ww.data(), n * sizeof(float))) << "np " << np;
    reader.close();
    fs::remove(out);
  }
}

TEST_F(Fixture, BadInputGivesOneLineAndNonZeroStatus) {
  struct Case {
    std::string args, expect;
  };
  const std::string out = " --output " + dir + "/x.tsv";
  const std::vector<Case> cases{
      {"--scale 0" + out, "--scale must be a whole number from 1 to 42 (got '0')"},
      {"--scale 43" + out, "--scale must be a whole number from 1 to 42 (got '43')"},
      {"--scale 8 --edgefactor 0" + out, "--edgefactor must be at least 1 (got '0')"},
      {"--scale 8 --seed 5" + out, "--seed '5' is not of the form A,B with two unsigned 64-bit integers"},
      {"--scale 8 --seed 1,x" + out, "--seed '1,x' is not of the form A,B with two unsigned 64-bit integers"},
      {"--scale 8 --format xml" + out, "unknown --format 'xml' (expected tsv or bin)"},
      {"--scale 8 --output " + dir + "/missing/x.tsv", "does not exist"},
      {"--scale 8 --output " + dir, "is a directory"},
      {"--scale 8 --frobnicate" + out, "--frobnicate"},
      {"--scale abc" + out, "--scale"},
      {"--edgefactor 4" + out, "--scale is required"},
      {"--scale 8", "--output"},
      // 2^36 * 16 edges: far more than any test machine's free space (about 26 TB of tsv).
      {"--scale 36" + out, "bytes but only"},
      {"--scale 36 --format bin --weights" + out, "needs 21990232555552 bytes but only"},
  };
  for (const auto& c : cases) {
    for (int np : {1, 2}) {
      auto r = run(np, c.args);
      EXPECT_NE(r.status, 0) << c.args;
      auto lines = error_lines(r.err);
      ASSERT_EQ(lines.size(), 1u) << c.args << " (np " << np << ")\n" << r.err;
      EXPECT_NE(lines[0].find(c.expect), std::string::npos) << c.args << ": " << lines[0];
    }
  }
  EXPECT_FALSE(fs::exists(dir + "/x.tsv"));
  // Only the test's own files remain: no temporary outputs.
  for (const auto& e : fs::directory_iterator(dir)) ADD_FAILURE() << "leftover " << e.path();
}

// Bad numbers, empty values and options that would be ignored: exactly one line naming the
// option and the value, exit status 2, and no file (nothing was generated).
TEST_F(Fixture, BadValuesAreNamedWithTheirRule) {
  const std::string out = " --output " + dir + "/x.tsv";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"--scale abc" + out, "--scale must be a whole number from 1 to 42 (got 'abc')"},
      {"--scale 8 --edgefactor x" + out, "--edgefactor must be a whole number from 1 to 2147483647 (got 'x')"},
      {"--scale 42 --edgefactor 2000000000" + out,
       "--edgefactor 2000000000 is too large for SCALE 42 (more than 2^63 - 1 edges)"},
      {"--scale 8 --benchmark --repeat 0", "--repeat must be at least 1 (got '0')"},
      {"--scale 8 --benchmark --repeat x", "--repeat must be a whole number from 1 to 2147483647 (got 'x')"},
      {"--scale 8 --output ''", "--output must not be empty"},
      {"--scale 8 --quiet --progress" + out, "--quiet excludes --progress"},
      {"--scale 8 --benchmark" + out, "--output excludes --benchmark"},
      {"--scale 8 --repeat 2" + out, "--repeat requires --benchmark"},
  };
  for (const auto& [args, message] : cases) {
    for (int np : {1, 4}) {
      auto r = run(np, args);
      EXPECT_EQ(r.status, 2) << args << " (np " << np << ")\n" << r.err;
      EXPECT_EQ(error_lines(r.err), std::vector<std::string>{"g500 gen: error: " + message})
          << args << " (np " << np << ")";
    }
  }
  for (const auto& e : fs::directory_iterator(dir)) ADD_FAILURE() << "leftover " << e.path();
}

TEST_F(Fixture, HelpSucceeds) {
  const std::string outfile = dir + "/help.txt";
  std::string cmd = clean_env_prefix() + " timeout 60 " + G500_MPIEXEC + " --oversubscribe -n 2 " + G500_BINARY +
                    " gen --help >" + outfile + " 2>&1";
  int raw = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0);
  std::string text = read_all(outfile);
  EXPECT_NE(text.find("--scale"), std::string::npos);
  // Printed once (rank 0 only).
  size_t count = 0;
  for (size_t p = text.find("Usage:"); p != std::string::npos; p = text.find("Usage:", p + 1)) ++count;
  EXPECT_EQ(count, 1u);
}
