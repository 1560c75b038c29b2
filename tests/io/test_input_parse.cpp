// The input parsers on single lines and whole buffers (no MPI): every format's syntax, comments,
// ids up to 2^63-1, and each kind of malformed input gives a message instead of a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "io/parse.hpp"

namespace g500::io {
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
}

// Weights at and beyond the float limits: each refusal says what is wrong in its own words; the
// largest float, -0 and denormals are weights like any other.
TEST(InputParse, ExtremeTextWeights) {
  const std::pair<const char*, std::string> refused[] = {
      {"nan", "weight 'nan' is not a number (NaN)"},
      {"-nan", "weight '-nan' is not a number (NaN)"},
      {"NAN", "weight 'NAN' is not a number (NaN)"},
      {"inf", "weight 'inf' is infinite (+inf)"},
      {"+Infinity", "weight '+Infinity' is infinite (+inf)"},
      {"-inf", "weight '-inf' is infinite (-inf)"},
      {"1e39", "weight '1e39' is beyond the float range (at most 3.40282e+38 in magnitude)"},
      {"-1e39", "weight '-1e39' is beyond the float range (at most 3.40282e+38 in magnitude)"},
      {"1e999", "weight '1e999' is beyond the float range (at most 3.40282e+38 in magnitude)"},
      {"3.5e38", "weight '3.5e38' is beyond the float range (at most 3.40282e+38 in magnitude)"},
  };
  for (const auto& [weight, message] : refused) {
    const LineResult r = parse_edge_line(std::string("1 2 ") + weight);
    EXPECT_EQ(r.kind, LineKind::error) << weight;
    EXPECT_EQ(r.error, message) << weight;
    MtxHeader header;
    ParsedEdges out;
    EXPECT_EQ(parse_mtx_text(std::string("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 ") + weight + "\n",
                             header, out),
              "line 3: " + message)
        << weight;
  }
  const std::pair<const char*, float> accepted[] = {
      {"1e38", 1e38f},
      {"3.4028235e38", std::numeric_limits<float>::max()},
      {"-3.4028235e38", -std::numeric_limits<float>::max()},
      {"-0", -0.0f},
      {"1e-45", std::numeric_limits<float>::denorm_min()},
      {"1e-40", 1e-40f},
      {"1e-50", 0.0f},
  };
  for (const auto& [weight, value] : accepted) {
    const LineResult r = parse_edge_line(std::string("1 2 ") + weight);
    ASSERT_EQ(r.kind, LineKind::edge) << weight << ": " << r.error;
    EXPECT_EQ(r.weight, value) << weight;
  }
  EXPECT_TRUE(std::signbit(parse_edge_line("1 2 -0").weight));
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
  EXPECT_NE(parse_edge_text(std::string(kMaxLineBytes + 10, '1'), long_line).find("longer than 1 MiB"),
            std::string::npos);
}

TEST(InputParse, MatrixMarket) {
  MtxHeader h;
  ParsedEdges out;
  EXPECT_EQ(parse_mtx_text("%%MatrixMarket matrix coordinate pattern symmetric\n% c\n4 4 3\n2 1\n3 2\n4 3\n", h, out),
            "");
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
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n4 1\n")
                .find("line 3: entry (4, 1) is beyond the declared size 3 x 3"),
            std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 1\n").find("index 0"),
            std::string::npos);
  // (The comment makes room for the missing entry: the file is long enough for 2 and has 1.)
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n% a comment\n")
                .find("declares 2 entries but has 1"),
            std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n").find("not an integer"),
            std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate pattern general\n3 x 1\n").find("bad size line"),
            std::string::npos);
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
  EXPECT_EQ(parse(out_of_range, e), "edge 1: vertex id 4 outside 0..3");  // numbered from 1, as lines are
  EXPECT_NE(parse(bin_file(1, 4, INT64_MAX / 8, 0), e).find("truncated"), std::string::npos);
}

// A bin file's float32 weights: NaN and infinities are refused naming the edge (from 1), extreme
// finite values are kept bit for bit.
TEST(InputParse, ExtremeBinWeights) {
  auto with_weight = [](int64_t record, float weight) {
    std::string bytes = bin_file(1, 4, 3, 3, true);
    std::memcpy(&bytes[32 + record * 20 + 16], &weight, 4);
    return bytes;
  };
  auto parse = [](const std::string& bytes, ParsedEdges& out) {
    BinHeader h;
    return parse_bin_buffer(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), h, out);
  };
  const float inf = std::numeric_limits<float>::infinity();
  const std::pair<float, std::string> refused[] = {
      {std::numeric_limits<float>::quiet_NaN(), "edge 2: the weight is not a number (NaN)"},
      {-std::numeric_limits<float>::quiet_NaN(), "edge 2: the weight is not a number (NaN)"},
      {std::numeric_limits<float>::signaling_NaN(), "edge 2: the weight is not a number (NaN)"},
      {inf, "edge 2: the weight is infinite (+inf)"},
      {-inf, "edge 2: the weight is infinite (-inf)"},
  };
  for (const auto& [weight, message] : refused) {
    ParsedEdges out;
    EXPECT_EQ(parse(with_weight(1, weight), out), message);
  }
  for (const float weight : {std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), 1e38f, -0.0f,
                             std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min()}) {
    ParsedEdges out;
    ASSERT_EQ(parse(with_weight(2, weight), out), "") << weight;
    ASSERT_EQ(out.weights.size(), 3u);
    EXPECT_EQ(std::memcmp(&out.weights[2], &weight, 4), 0) << weight;
  }
}

TEST(InputParse, ByteOrderMarkOnlyAtTheStart) {
  const std::string bom = "\xEF\xBB\xBF";
  EXPECT_EQ(utf8_bom_length(bom + "1 2"), 3u);
  EXPECT_EQ(utf8_bom_length("1 2"), 0u);
  EXPECT_EQ(utf8_bom_length("\xEF\xBB"), 0u);
  ParsedEdges tsv;
  EXPECT_EQ(parse_edge_text(bom + "1 2\n2 3\n", tsv), "");
  ASSERT_EQ(tsv.edges.size(), 2u);
  EXPECT_EQ(tsv.edges[0].src, 1u);
  ParsedEdges comment;
  EXPECT_EQ(parse_edge_text(bom + "# FromNodeId ToNodeId\n1 2\n", comment), "");
  EXPECT_EQ(comment.edges.size(), 1u);
  ParsedEdges inside;
  EXPECT_EQ(parse_edge_text("1 2\n" + bom + "2 3\n", inside), "line 2: '???2' is not a vertex id");
  MtxHeader h;
  ParsedEdges mtx;
  EXPECT_EQ(parse_mtx_text(bom + "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n", h, mtx), "");
  EXPECT_EQ(mtx.edges.size(), 2u);
  MtxHeader h2;
  ParsedEdges twice;
  EXPECT_NE(parse_mtx_text(bom + bom + "%%MatrixMarket matrix coordinate pattern general\n3 3 0\n", h2, twice)
                .find("not a Matrix Market file"),
            std::string::npos);
}

// The values near the integer limits that a size field may hold, as text.
const char* const kLimitTexts[] = {"2147483647",           "2147483648",
                                   "4294967295",           "4294967296",
                                   "4398046511104",        "4398046511105",
                                   "9007199254740992",     "9223372036854775807",
                                   "9223372036854775808",  "18446744073709551615",
                                   "18446744073709551616", "-1",
                                   "-9223372036854775808", "0"};

TEST(InputParse, MtxSizeLineFieldsNearTheIntegerLimits) {
  const std::string banner = "%%MatrixMarket matrix coordinate pattern general\n";
  for (const char* value : kLimitTexts) {
    const std::string v = value;
    const bool negative = v[0] == '-';
    const bool above_63 = !negative && (v.size() > 19 || (v.size() == 19 && v > "9223372036854775807"));
    const bool above_42 = !negative && !above_63 && std::stoll(v) > (int64_t{1} << 42);
    for (int field = 0; field < 3; ++field) {
      std::string size[3] = {"3", "3", "2"};
      size[field] = v;
      const std::string text = banner + size[0] + " " + size[1] + " " + size[2] + "\n1 2\n2 3\n";
      MtxHeader h;
      ParsedEdges out;
      const std::string error = parse_mtx_text(text, h, out);
      const std::string name = field == 0 ? "rows" : field == 1 ? "cols" : "entries";
      const std::string where = name + " = " + v + ": " + error;
      if (negative) {
        EXPECT_EQ(error, "line 2: bad size line: " + name + " '" + v + "' is negative") << where;
      } else if (above_63) {
        EXPECT_EQ(error, "line 2: bad size line: " + name + " '" + v + "' is larger than 2^63-1") << where;
      } else if (field < 2 && v == "0") {
        EXPECT_EQ(error, "line 2: the size line declares 0 " + name + " (a graph needs at least one vertex)") << where;
      } else if (field < 2 && above_42) {
        EXPECT_EQ(error,
                  "line 2: the size line declares " + v + " " + name + ", more than the 2^42 vertices g500 can run")
            << where;
      } else if (field < 2) {
        EXPECT_EQ(error, "") << where;  // a large declared size with few entries is a valid graph
        EXPECT_EQ(h.nvertices(), std::stoll(v));
      } else if (v == "0") {
        EXPECT_EQ(error, "line 3: more entries than the 0 declared") << where;
      } else {
        // The 8 bytes after the size line hold at most 2 entries ("1 2\n2 3\n").
        EXPECT_EQ(error,
                  "line 2: the size line declares " + v + " entries, but the 8 bytes after it can hold at most 2")
            << where;
      }
    }
  }
}

TEST(InputParse, MtxEntriesMustFitTheBytesAfterTheSizeLine) {
  MtxHeader pattern;
  pattern.entries = 3;
  EXPECT_EQ(check_mtx_entries_fit(pattern, 11), "");  // "1 1\n1 1\n1 1": the last newline may be missing
  EXPECT_NE(check_mtx_entries_fit(pattern, 10).find("declares 3 entries, but the 10 bytes after it can hold at most 2"),
            std::string::npos);
  MtxHeader real;
  real.field = MtxField::real;
  real.entries = 2;
  EXPECT_EQ(check_mtx_entries_fit(real, 11), "");  // "1 1 1\n1 1 1"
  EXPECT_NE(check_mtx_entries_fit(real, 10).find("at most 1"), std::string::npos);
  real.entries = INT64_MAX;
  EXPECT_NE(check_mtx_entries_fit(real, INT64_MAX - 1).find("at most 1537228672809129301"), std::string::npos);
  EXPECT_NE(check_mtx_entries_fit(real, INT64_MAX).find("at most 1537228672809129301"), std::string::npos);
  pattern.entries = INT64_MAX;
  EXPECT_NE(check_mtx_entries_fit(pattern, INT64_MAX).find("at most 2305843009213693952"), std::string::npos);
  pattern.entries = 0;
  EXPECT_EQ(check_mtx_entries_fit(pattern, 0), "");
}

// A 32-byte bin header with the given fields.
std::string bin_header(uint32_t version, uint32_t flags, int64_t n, int64_t m) {
  std::string out("G500EDGE", 8);
  out.append(reinterpret_cast<const char*>(&version), 4).append(reinterpret_cast<const char*>(&flags), 4);
  out.append(reinterpret_cast<const char*>(&n), 8).append(reinterpret_cast<const char*>(&m), 8);
  return out;
}

TEST(InputParse, BinHeaderFieldsNearTheIntegerLimits) {
  auto check = [](const std::string& head, int64_t file_size) {
    BinHeader h;
    return parse_bin_header(reinterpret_cast<const unsigned char*>(head.data()), head.size(), file_size, h);
  };
  const uint32_t u32[] = {0, 2, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu};
  for (uint32_t version : u32)
    EXPECT_EQ(check(bin_header(version, 0, 4, 1), 48),
              "unsupported bin edge file version " + std::to_string(version) + " (expected 1)");
  EXPECT_EQ(check(bin_header(1, 0x80000000u, 4, 1), 48),
            "unknown flags 0x80000000 in the bin header (only bit 0, weights, is defined)");
  EXPECT_EQ(check(bin_header(1, 0xFFFFFFFFu, 4, 1), 48),
            "unknown flags 0xffffffff in the bin header (only bit 0, weights, is defined)");
  const int64_t limits[] = {int64_t{1} << 31,       int64_t{1} << 32, int64_t{1} << 42,
                            (int64_t{1} << 42) + 1, int64_t{1} << 53, INT64_MAX,
                            -1 /* 2^64-1 */,        INT64_MIN,        0};
  for (int64_t n : limits) {
    const std::string error = check(bin_header(1, 0, n, 1), 48);
    if (n < 1)
      EXPECT_EQ(error, "bad bin header: nvertices " + std::to_string(n) + " (at least 1)");
    else if (n > (int64_t{1} << 42))
      EXPECT_EQ(error,
                "bad bin header: nvertices " + std::to_string(n) + " is more than the 2^42 vertices g500 can run");
    else
      EXPECT_EQ(error, "") << n;
  }
  for (int64_t m : limits) {
    if (m < 0) {
      EXPECT_EQ(check(bin_header(1, 0, 4, m), 48), "bad bin header: nedges " + std::to_string(m) + " is negative");
      continue;
    }
    for (const bool weights : {false, true}) {
      const int64_t rec = weights ? 20 : 16;
      const std::string head = bin_header(1, weights ? 1 : 0, 4, m);
      // The file length decides: exactly 32 + m * record bytes (when that fits in 63 bits).
      const bool representable = m <= (INT64_MAX - 32) / rec;
      if (representable) {
        EXPECT_EQ(check(head, 32 + m * rec), "") << m;
        EXPECT_NE(check(head, 32 + m * rec + 1).find("truncated or corrupt"), std::string::npos) << m;
      }
      if (!representable || m > 0) {
        EXPECT_EQ(check(head, 48), "truncated or corrupt: 48 bytes, but nedges " + std::to_string(m) +
                                       " in the header needs 32 + " + std::to_string(m) + " x " + std::to_string(rec) +
                                       " bytes")
            << m;
        EXPECT_NE(check(head, INT64_MAX).find("truncated or corrupt"), std::string::npos) << m;
      }
    }
  }
}

}  // namespace
}  // namespace g500::io

// Every seed and every kept crashing input of the fuzz targets (tests/fuzz) through the parsers in
// the normal build, so a fixed crash stays fixed even where clang is not installed. A seed named
// reject-* must be refused with a message, any other seed accepted; accepted headers must keep
// the parsers' promises.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "header_inputs.hpp"

namespace g500::io {
namespace {

TEST(InputParse, FuzzCorpusAndRegressionInputs) {
  namespace fs = std::filesystem;
  int files = 0, rejected = 0;
  for (const std::string kind : {"corpus", "regressions"})
    for (const std::string target : {"tsv", "mtx", "bin", "bin_header", "mtx_header"}) {
      const fs::path dir = fs::path(G500_FUZZ_DIR) / kind / target;
      if (!fs::exists(dir)) continue;
      for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file() || name.front() == '.') continue;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
        ParsedEdges out;
        MtxHeader mtx;
        BinHeader bin;
        std::string message;
        if (target == "tsv")
          message = parse_edge_text(bytes, out);
        else if (target == "mtx")
          message = parse_mtx_text(bytes, mtx, out);
        else if (target == "bin")
          message = parse_bin_buffer(data, bytes.size(), bin, out);
        else {
          const fuzz::HeaderOutcome outcome = target == "bin_header" ? fuzz::run_bin_header_input(data, bytes.size())
                                                                     : fuzz::run_mtx_header_input(data, bytes.size());
          EXPECT_TRUE(outcome.consistent) << entry.path();
          message = outcome.message;
        }
        if (kind == "corpus") {
          if (name.rfind("reject-", 0) == 0) {
            EXPECT_NE(message, "") << entry.path();
            ++rejected;
          } else {
            EXPECT_EQ(message, "") << entry.path();
          }
        }
        ++files;
      }
    }
  EXPECT_GE(files, 50);
  EXPECT_GE(rejected, 30);
}

}  // namespace
}  // namespace g500::io
