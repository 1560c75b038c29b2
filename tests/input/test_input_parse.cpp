// The input parsers on single lines and whole buffers (no MPI): every format's syntax, comments,
// ids up to 2^63-1, and each kind of malformed input gives a message instead of a crash.
#include <gtest/gtest.h>

#include <cstring>

#include "input/parse.hpp"

namespace g500::input {
namespace {

TEST(InputParse, FormatNamesAndGuesses) {
  EXPECT_EQ(parse_format("mtx"), Format::mtx);
  EXPECT_FALSE(parse_format("csv"));
  EXPECT_EQ(guess_format("a/b.MTX"), Format::mtx);
  EXPECT_EQ(guess_format("g.bin"), Format::bin);
  EXPECT_EQ(guess_format("g.txt"), Format::tsv);
  EXPECT_EQ(guess_format("web.snap"), Format::snap);
}

TEST(InputParse, EdgeLines) {
  LineResult r = parse_edge_line("12\t34");
  ASSERT_EQ(r.kind, LineKind::edge);
  EXPECT_EQ(r.edge.src, 12u);
  EXPECT_EQ(r.edge.dst, 34u);
  EXPECT_EQ(r.columns, 2);
  r = parse_edge_line("  1  2   0.5\r");
  ASSERT_EQ(r.kind, LineKind::edge) << r.error;
  EXPECT_EQ(r.columns, 3);
  EXPECT_FLOAT_EQ(r.weight, 0.5f);
  r = parse_edge_line("9223372036854775807 0");
  ASSERT_EQ(r.kind, LineKind::edge);
  EXPECT_EQ(r.edge.src, 9223372036854775807ull);
  EXPECT_EQ(parse_edge_line("# FromNodeId ToNodeId").kind, LineKind::comment);
  EXPECT_EQ(parse_edge_line("  % mtx-style").kind, LineKind::comment);
  EXPECT_EQ(parse_edge_line(" \t\r").kind, LineKind::blank);
}

TEST(InputParse, BadEdgeLines) {
  auto error_of = [](const char* line) {
    LineResult r = parse_edge_line(line);
    EXPECT_EQ(r.kind, LineKind::error) << line;
    return r.error;
  };
  EXPECT_NE(error_of("1 -2").find("negative vertex id '-2'"), std::string::npos);
  EXPECT_NE(error_of("a b").find("'a' is not a vertex id"), std::string::npos);
  EXPECT_NE(error_of("1 2x").find("'2x' is not a vertex id"), std::string::npos);
  EXPECT_NE(error_of("9223372036854775808 1").find("larger than 2^63-1"), std::string::npos);
  EXPECT_NE(error_of("99999999999999999999999 1").find("larger than 2^63-1"), std::string::npos);
  EXPECT_NE(error_of("1").find("one field"), std::string::npos);
  EXPECT_NE(error_of("1 2 3 4").find("more than three"), std::string::npos);
  EXPECT_NE(error_of("1 2 w").find("not a number"), std::string::npos);
  EXPECT_NE(error_of("1 2 1e999").find("not a finite"), std::string::npos);
  EXPECT_NE(error_of("1 2 nan").find("not a finite"), std::string::npos);
}

TEST(InputParse, WholeTextNamesTheLine) {
  ParsedEdges out;
  EXPECT_EQ(parse_edge_text("# c\n1 2\n2 3\n", out), "");
  EXPECT_EQ(out.edges.size(), 2u);
  EXPECT_EQ(out.lines, 3);
  ParsedEdges bad;
  EXPECT_EQ(parse_edge_text("1 2\n\n3 x\n", bad), "line 3: 'x' is not a vertex id");
  ParsedEdges mixed;
  EXPECT_NE(parse_edge_text("1 2 1.0\n3 4\n", mixed).find("line 2: has 2 fields"), std::string::npos);
  ParsedEdges nul;
  EXPECT_NE(parse_edge_text(std::string_view("1 2\n\0\0\n", 7), nul).find("line 2"), std::string::npos);
  ParsedEdges long_line;
  EXPECT_NE(parse_edge_text(std::string(kMaxLineBytes + 10, '1'), long_line).find("longer than 1 MiB"), std::string::npos);
}

TEST(InputParse, MatrixMarket) {
  MtxHeader h;
  ParsedEdges out;
  EXPECT_EQ(parse_mtx_text("%%MatrixMarket matrix coordinate pattern symmetric\n% c\n4 4 3\n2 1\n3 2\n4 3\n", h, out), "");
  EXPECT_EQ(h.symmetry, MtxSymmetry::symmetric);
  EXPECT_EQ(h.nvertices(), 4);
  ASSERT_EQ(out.edges.size(), 3u);
  EXPECT_EQ(out.edges[0].src, 2u);
  MtxHeader h2;
  ParsedEdges real;
  EXPECT_EQ(parse_mtx_text("%%MatrixMarket matrix coordinate real general\n3 5 2\n1 5 0.25\n3 1 -2e3\n", h2, real), "");
  EXPECT_EQ(h2.nvertices(), 5);
  ASSERT_EQ(real.weights.size(), 2u);
  EXPECT_FLOAT_EQ(real.weights[1], -2000.0f);
  auto error_of = [](const char* text) {
    MtxHeader hh;
    ParsedEdges pe;
    return parse_mtx_text(text, hh, pe);
  };
  EXPECT_NE(error_of("1 2\n").find("not a Matrix Market file"), std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix array real general\n2 2\n").find("only 'coordinate'"), std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate complex general\n").find("field"), std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n4 1\n").find("line 3: entry (4, 1) is beyond the declared size 3 x 3"),
            std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 1\n").find("index 0"), std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n").find("declares 2 entries but has 1"),
            std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n").find("not an integer"),
            std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate pattern general\n3 x 1\n").find("bad size line"), std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate pattern general\n").find("missing Matrix Market size line"),
            std::string::npos);
}

std::string bin_file(uint32_t version, int64_t n, int64_t m, int64_t records, bool weights = false) {
  std::string out("G500EDGE", 8);
  auto put = [&](const void* p, size_t k) { out.append(static_cast<const char*>(p), k); };
  const uint32_t flags = weights ? 1 : 0;
  put(&version, 4);
  put(&flags, 4);
  put(&n, 8);
  put(&m, 8);
  for (int64_t k = 0; k < records; ++k) {
    const int64_t a = k % n, b = (k + 1) % n;
    put(&a, 8);
    put(&b, 8);
    if (weights) {
      const float w = 0.5f;
      put(&w, 4);
    }
  }
  return out;
}

TEST(InputParse, Bin) {
  auto parse = [](const std::string& bytes, ParsedEdges& out) {
    BinHeader h;
    return parse_bin_buffer(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), h, out);
  };
  ParsedEdges ok;
  EXPECT_EQ(parse(bin_file(1, 4, 3, 3, true), ok), "");
  EXPECT_EQ(ok.edges.size(), 3u);
  EXPECT_EQ(ok.weights.size(), 3u);
  ParsedEdges e;
  EXPECT_NE(parse(bin_file(1, 4, 3, 2), e).find("truncated"), std::string::npos);
  EXPECT_NE(parse(bin_file(2, 4, 3, 3), e).find("version 2"), std::string::npos);
  EXPECT_NE(parse("G500", e).find("too short"), std::string::npos);
  std::string foreign = bin_file(1, 4, 3, 3);
  foreign[0] = 'X';
  EXPECT_NE(parse(foreign, e).find("bad magic"), std::string::npos);
  std::string out_of_range = bin_file(1, 4, 1, 1);
  const int64_t big = 4;
  std::memcpy(&out_of_range[40], &big, 8);
  EXPECT_NE(parse(out_of_range, e).find("record 0: vertex id 4 outside 0..3"), std::string::npos);
  EXPECT_NE(parse(bin_file(1, 4, INT64_MAX / 8, 0), e).find("truncated"), std::string::npos);
}

}  // namespace
}  // namespace g500::input

// Every seed and every kept crashing input of the fuzz targets (tests/fuzz) through the parsers in
// the normal build, so a fixed crash stays fixed even where clang is not installed.
#include <filesystem>
#include <fstream>
#include <iterator>

namespace g500::input {
namespace {

TEST(InputParse, FuzzCorpusAndRegressionInputs) {
  namespace fs = std::filesystem;
  int files = 0;
  for (const char* kind : {"corpus", "regressions"})
    for (const char* target : {"tsv", "mtx", "bin"}) {
      const fs::path dir = fs::path(G500_FUZZ_DIR) / kind / target;
      if (!fs::exists(dir)) continue;
      for (const auto& entry : fs::directory_iterator(dir)) {
        if (!entry.is_regular_file() || entry.path().filename().string().front() == '.') continue;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ParsedEdges out;
        MtxHeader mtx;
        BinHeader bin;
        std::string message;
        if (std::string(target) == "tsv") message = parse_edge_text(bytes, out);
        else if (std::string(target) == "mtx") message = parse_mtx_text(bytes, mtx, out);
        else message = parse_bin_buffer(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), bin, out);
        if (std::string(kind) == "corpus") {
          EXPECT_EQ(message, "") << entry.path();
        }
        ++files;
      }
    }
  EXPECT_GE(files, 6);
}

}  // namespace
}  // namespace g500::input
