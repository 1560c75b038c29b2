// End-to-end tests of `g500 map`: run the built binary, check the CSV it
// writes, the printed R/C/adjacency lines, and the exit status and one-line errors on bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "io/rankmap_file.hpp"

namespace {

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

// The test itself runs under mpiexec: clear the environment so g500 starts as an MPI singleton.
RunResult run_map(const std::string& args) {
  const std::string base = "/tmp/g500_map_cli_" + std::to_string(::getpid());
  const std::string cmd = "env -i PATH=/usr/bin:/bin OMP_NUM_THREADS=1 " + std::string(G500_BINARY) + " map " + args +
                          " >" + base + ".out 2>" + base + ".err";
  RunResult r;
  int raw = std::system(cmd.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  auto slurp = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

// `g500 map ARGS` under mpiexec with `ranks` processes, from the same clean environment.
RunResult run_map_ranks(int ranks, const std::string& args) {
  const std::string base = "/tmp/g500_map_cli_" + std::to_string(::getpid());
  const std::string cmd =
      "env -i PATH=/usr/bin:/bin OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 "
      "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " +
      std::string(G500_MPIEXEC) + " -n " + std::to_string(ranks) + " " + G500_MPIEXEC_FLAGS + " " + G500_BINARY +
      " map " + args + " >" + base + ".out 2>" + base + ".err";
  RunResult r;
  int raw = std::system(cmd.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream out(base + ".out"), err(base + ".err");
  std::stringstream out_text, err_text;
  out_text << out.rdbuf();
  err_text << err.rdbuf();
  r.out = out_text.str();
  r.err = err_text.str();
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

// The "g500 map: error:" lines of a run (mpiexec adds its own lines about the failed job).
std::vector<std::string> map_error_lines(const std::string& err) {
  std::istringstream in(err);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("g500 map: error:", 0) == 0) lines.push_back(line);
  return lines;
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string temp(const std::string& tag) { return "/tmp/g500_map_cli_" + std::to_string(::getpid()) + "_" + tag; }

void expect_one_line_error(const RunResult& r, const std::string& fragment) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.rfind("g500 map: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

}  // namespace

TEST(MapCli, SyntheticRingOfTwelve) {
  const auto path = temp("ring12.csv");
  auto r = run_map("--shape 2m,3t,2m --nodes 12 --grid 1x12 --output " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("R = 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("C = 12"), std::string::npos);
  EXPECT_NE(r.out.find("fully physically adjacent"), std::string::npos);
  auto lines = lines_of(path);
  ASSERT_EQ(lines.size(), 13u);
  EXPECT_EQ(lines[0], "rank,row,col,d0,d1,d2");
  EXPECT_EQ(lines[1], "0,0,0,0,0,0");
  EXPECT_EQ(lines[12], "11,0,11,0,0,1");
  int rows = 0, cols = 0;
  auto placement = g500::io::read_rankmap_csv(path, 12, &rows, &cols);
  EXPECT_EQ(rows, 1);
  EXPECT_EQ(cols, 12);
  std::remove(path.c_str());
}

TEST(MapCli, WholeFugakuPrintsThePaperGrid) {
  auto r = run_map("--system fugaku");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("R = 552 (XY), C = 288 (Zabc), R/C = 1.92"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fully physically adjacent"), std::string::npos);
  EXPECT_NE(r.out.find("1104 x 144, R/C = 7.67"), std::string::npos);
}

TEST(MapCli, Fig11CsvForFugaku) {
  const auto path = temp("fig11.csv");
  auto r = run_map("--system fugaku --nodes 12 --grid 1x12 --output " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(path);
  ASSERT_EQ(lines.size(), 13u);
  EXPECT_EQ(lines[0], "rank,row,col,x,y,z,a,b,c");
  std::set<std::string> coords;
  for (size_t i = 1; i < lines.size(); ++i)
    coords.insert(lines[i].substr(lines[i].find(',', lines[i].find(',', lines[i].find(',') + 1) + 1)));
  EXPECT_EQ(coords.size(), 12u);  // every node once
  std::remove(path.c_str());
}

TEST(MapCli, FugakuRankmapFormat) {
  const auto path = temp("cuboid.map");
  auto r = run_map("--system k --method cuboid --cuboid A2,Y4,C2/X8,Z8,B3 --format fugaku-rankmap --output " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("job shape 16x12x16"), std::string::npos) << r.out;
  auto lines = lines_of(path);
  ASSERT_EQ(lines.size(), 3072u);
  EXPECT_EQ(lines[0], "(0,0,0)");
  EXPECT_EQ(lines[1], "(15,0,0)");
  EXPECT_EQ(lines[5], "(15,2,0)");
  EXPECT_EQ(lines[3071], "(8,4,8)");
  std::remove(path.c_str());
}

TEST(MapCli, AutomaticCuboid) {
  const auto path = temp("auto.csv");
  auto r = run_map("--system fugaku --method cuboid --nodes 3072 --output " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(path).size(), 3073u);
  int rows = 0, cols = 0;
  g500::io::read_rankmap_csv(path, 3072, &rows, &cols);
  EXPECT_EQ(static_cast<long long>(rows) * cols, 3072);
  std::remove(path.c_str());
}

TEST(MapCli, SimulateSmallShape) {
  const auto links = temp("links.csv");
  auto r = run_map("--shape 4t,3t,2m --simulate bfs --link-csv " + links);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("col-allgatherv"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("6d-mapping"), std::string::npos);
  auto lines = lines_of(links);
  ASSERT_GT(lines.size(), 1u);
  EXPECT_EQ(lines[0], "layout,pattern,node,axis,direction,d0,d1,d2,bytes");
  std::remove(links.c_str());
}

TEST(MapCli, BadInputIsOneLineAndNonZero) {
  expect_one_line_error(run_map("--system summit"), "unknown system preset 'summit'");
  expect_one_line_error(run_map("--shape 2x,3t"), "--shape");
  expect_one_line_error(run_map("--shape 2m,,3t"), "--shape");
  expect_one_line_error(run_map("--nodes 12 --grid 5x3"), "does not match --nodes 12");
  expect_one_line_error(run_map("--nodes 12 --grid 4by3"), "--grid '4by3' is not of the form RxC");
  expect_one_line_error(run_map("--nodes 200000"), "exceeds the system");
  expect_one_line_error(run_map("--nodes 0"), "--nodes");
  expect_one_line_error(run_map("--nodes -5"), "--nodes");
  expect_one_line_error(run_map("--nodes 12 --output /nonexistent/dir/x.csv"),
                        "cannot write '/nonexistent/dir/x.csv': directory '/nonexistent/dir' does not exist");
  expect_one_line_error(run_map("--nodes 12 --format xml"), "--format");
  expect_one_line_error(run_map("--nodes 12 --method spiral"), "--method");
  expect_one_line_error(run_map("--nodes 12 --simulate ringz"), "unknown pattern");
  expect_one_line_error(run_map("--method cuboid --cuboid A3/X2"), "at most 2");
  expect_one_line_error(run_map("--system fugaku --shape 2m"), "");
  expect_one_line_error(run_map("--bogus"), "");
  expect_one_line_error(run_map("--nodes 12 --simulate bfs --message-bytes -1"), "--message-bytes");
  expect_one_line_error(run_map("--shape 2t,2t,2t,2t,2t,2t,2t,2t,2t"), "more than 8 axes");
  expect_one_line_error(run_map("--shape 256t,256t,64t --simulate bfs"), "--simulate supports at most");
  expect_one_line_error(run_map("--nodes 7919"), "no box");
  expect_one_line_error(run_map("--method cuboid --nodes 7919"), "no cuboid factorisation");
  expect_one_line_error(run_map("--cuboid A2/X2 --nodes 5"), "has 4 ranks but --nodes is 5");
  expect_one_line_error(run_map("--axes XQ/Zabc"), "unknown axis 'Q'");
  expect_one_line_error(run_map("--axes XY/Zabc --nodes 12"), "spans 158976 nodes but --nodes is 12");
  EXPECT_EQ(run_map("--help").status, 0);
}

// Bad numbers, an empty shape or grid, and simulation parameters without --simulate: one line
// naming the option and the value, exit status 2, nothing on stdout; alone and at 4 ranks.
TEST(MapCli, BadValuesAreNamedWithTheirRule) {
  const std::pair<const char*, const char*> cases[] = {
      {"--shape ''", "--shape must not be empty"},
      {"--nodes 12 --grid ''", "--grid must not be empty"},
      {"--nodes x", "--nodes must be a whole number from 1 to 16777216 (got 'x')"},
      {"--nodes 99999999", "--nodes must be at most 16777216 (got '99999999')"},
      {"--nodes 1e6", "--nodes must be a whole number from 1 to 16777216 (got '1e6')"},
      {"--nodes 12 --simulate bfs --bandwidth 0", "--bandwidth must be a number from 0.001 to 1e+06 GB/s (got '0')"},
      {"--nodes 12 --simulate bfs --latency -1", "--latency must be a number from 0 to 1e+06 microseconds (got '-1')"},
      {"--nodes 12 --simulate bfs --max-routes 0", "--max-routes must be at least 1 (got '0')"},
      {"--nodes 12 --simulate bfs --message-bytes x",
       "--message-bytes must be a number from 1 to 1e+12 bytes (got 'x')"},
      {"--shuffle-ranks -1", "--shuffle-ranks must be a whole number from 0 to 18446744073709551615 (got '-1')"},
      {"--nodes 12 --bandwidth 3", "--bandwidth requires --simulate"},
  };
  for (const auto& [args, message] : cases) {
    const std::string line = std::string("g500 map: error: ") + message;
    auto alone = run_map(args);
    EXPECT_EQ(alone.status, 2) << args << "\n" << alone.err;
    EXPECT_EQ(alone.err, line + "\n") << args;
    EXPECT_EQ(alone.out, "") << args;
    auto four = run_map_ranks(4, args);
    EXPECT_EQ(four.status, 2) << args << "\n" << four.err;
    EXPECT_EQ(map_error_lines(four.err), std::vector<std::string>{line}) << args << "\n" << four.err;
    EXPECT_EQ(four.out, "") << args;
  }
}

// Machine numbers beyond any machine are refused with their bounds (checked while parsing, alike on
// every rank: one process).
TEST(MapCli, MachineNumbersNameTheirBounds) {
  const std::pair<const char*, const char*> cases[] = {
      {"--nodes 12 --simulate bfs --bandwidth 1e300",
       "--bandwidth must be a number from 0.001 to 1e+06 GB/s (got '1e300')"},
      {"--nodes 12 --simulate bfs --latency 1e300",
       "--latency must be a number from 0 to 1e+06 microseconds (got '1e300')"},
      {"--nodes 12 --simulate bfs --message-bytes 1e-300",
       "--message-bytes must be a number from 1 to 1e+12 bytes (got '1e-300')"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run_map(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err, std::string("g500 map: error: ") + message + "\n") << args;
    EXPECT_EQ(r.out, "") << args;
  }
}

TEST(MapCli, OutputIsReplacedAtomically) {
  const auto path = temp("atomic.csv");
  std::ofstream(path) << "old\n";
  auto bad = run_map("--nodes 12 --grid 5x3 --output " + path);
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(lines_of(path), std::vector<std::string>{"old"});  // untouched on error
  auto good = run_map("--nodes 12 --output " + path);
  ASSERT_EQ(good.status, 0) << good.err;
  EXPECT_EQ(lines_of(path).size(), 13u);
  std::remove(path.c_str());
}

TEST(MapCli, ShuffledRanksStillFormAValidMap) {
  const auto path = temp("shuffled.csv");
  auto r = run_map("--shape 2m,3t,2m --nodes 12 --grid 3x4 --shuffle-ranks 5 --output " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  int rows = 0, cols = 0;
  auto placement = g500::io::read_rankmap_csv(path, 12, &rows, &cols);
  EXPECT_EQ(rows, 3);
  EXPECT_EQ(cols, 4);
  int moved = 0;
  for (int rank = 0; rank < 12; ++rank) moved += placement[rank].row * cols + placement[rank].col != rank;
  EXPECT_GT(moved, 0);
  std::remove(path.c_str());
}

TEST(MapCli, GridMethodRankmapFormatIsBijective) {
  const auto path = temp("grid.map");
  auto r = run_map("--system fugaku --nodes 1152 --format fugaku-rankmap --output " + path);
  ASSERT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(path);
  ASSERT_EQ(lines.size(), 1152u);
  std::set<std::string> unique(lines.begin(), lines.end());
  EXPECT_EQ(unique.size(), 1152u);
  for (const auto& l : lines) ASSERT_TRUE(l.front() == '(' && l.back() == ')') << l;
  std::remove(path.c_str());
}
