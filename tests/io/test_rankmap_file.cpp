// Tests for the rank map CSV that g500 map writes and g500 bfs --rankmap reads.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "io/rankmap_file.hpp"
#include "util/error.hpp"

using namespace g500::io;

namespace {
std::string temp_path(const std::string& tag) {
  return "/tmp/g500_topo_test_" + std::to_string(::getpid()) + "_" + tag + ".csv";
}
std::string write_text(const std::string& tag, const std::string& text) {
  auto path = temp_path(tag);
  std::ofstream(path) << text;
  return path;
}
std::string error_of(const std::string& path, int nranks) {
  try {
    int r = 0, c = 0;
    read_rankmap_csv(path, nranks, &r, &c);
  } catch (const g500::util::UsageError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(RankmapFile, RoundTrip) {
  auto path = temp_path("roundtrip");
  std::vector<RankmapRow> rows;
  // A permuted 2 x 3 grid.
  const int cells[6][2] = {{1, 2}, {0, 0}, {1, 0}, {0, 2}, {0, 1}, {1, 1}};
  for (auto& c : cells) rows.push_back(RankmapRow{c[0], c[1], {c[0], c[1], 0}});
  write_rankmap_csv(path, {"X", "Y", "a"}, rows);
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "rank,row,col,x,y,a");
  int r = 0, c = 0;
  auto placement = read_rankmap_csv(path, 6, &r, &c);
  EXPECT_EQ(r, 2);
  EXPECT_EQ(c, 3);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(placement[i].row, cells[i][0]);
    EXPECT_EQ(placement[i].col, cells[i][1]);
  }
  std::remove(path.c_str());
}

TEST(RankmapFile, ProblemsNameFileAndLine) {
  const std::string header = "rank,row,col,x\n";
  struct Case {
    std::string tag, text;
    int nranks;
    std::string expect;
  };
  const Case cases[] = {
      {"empty", "", 2, ":1: empty file"},
      {"header", "rank,col,row,x\n0,0,0,0\n", 1, ":1: header must start with rank,row,col"},
      {"fields", header + "0,0,0\n", 1, ":2: expected 4 fields"},
      {"number", header + "0,0,x,0\n", 1, ":2: bad col"},
      {"negative", header + "0,-1,0,0\n", 1, ":2: bad row"},
      {"range", header + "0,0,0,0\n5,0,1,0\n", 2, ":3: rank 5 but the job has 2 ranks"},
      {"dup", header + "0,0,0,0\n0,0,1,0\n", 2, ":3: rank 0 repeated (first on line 2)"},
      {"missing", header + "0,0,0,0\n1,0,1,0\n", 3, "no line for rank 2"},
      {"cell", header + "0,0,0,0\n1,0,0,0\n2,1,1,0\n3,1,0,0\n", 4, ":3: (row,col) = (0,0) already used by rank 0"},
      {"product", header + "0,0,0,0\n1,1,1,0\n2,0,2,0\n", 3, "grid 2x3"},
  };
  for (const auto& c : cases) {
    auto path = write_text(c.tag, c.text);
    auto err = error_of(path, c.nranks);
    EXPECT_NE(err.find(path), std::string::npos) << c.tag << ": " << err;
    EXPECT_NE(err.find(c.expect), std::string::npos) << c.tag << ": " << err;
    std::remove(path.c_str());
  }
  EXPECT_NE(error_of("/nonexistent/dir/map.csv", 4).find("cannot open"), std::string::npos);
}

TEST(RankmapFile, UnwritableOutputIsAUsageError) {
  EXPECT_THROW(write_rankmap_csv("/nonexistent/dir/map.csv", {"x"}, {}), g500::util::UsageError);
  EXPECT_THROW(write_coordinate_map("/nonexistent/dir/map.txt", {}), g500::util::UsageError);
}
