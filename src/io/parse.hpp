// Parsers for the edge-list input formats of `g500 bfs --input` (docs/input.md). Everything here
// is pure (no MPI, no files): the distributed reader (io/edge_input.hpp) feeds it lines or byte
// buffers, and the libFuzzer targets under tests/fuzz feed it arbitrary bytes. No function here
// may crash, hang or allocate without bound on any input; every problem becomes a message.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gen/kronecker.hpp"

namespace g500::io {

enum class Format { tsv, snap, mtx, bin };

std::optional<Format> parse_format(std::string_view name);  // "tsv", "snap", "mtx", "bin"
const char* format_name(Format format);
// From the file name: *.mtx -> mtx, *.bin -> bin, *.snap -> snap, anything else tsv.
Format guess_format(std::string_view path);

// File vertex ids are non-negative and at most 2^63-1.
inline constexpr uint64_t kMaxFileId = static_cast<uint64_t>(INT64_MAX);
// Most vertices a header (mtx size line, bin header) may declare: those of the largest graph
// g500 runs (--scale 42). A larger count could never be held, and would overflow the 64-bit
// arithmetic of the vertex distribution.
inline constexpr int64_t kMaxDeclaredVertices = int64_t{1} << gen::kMaxScale;
// Longest accepted text line (a longer one is reported as malformed, so a binary file given as
// text never makes a rank buffer the rest of the file).
inline constexpr size_t kMaxLineBytes = 1 << 20;

struct RawEdge {
  uint64_t src = 0;  // file ids
  uint64_t dst = 0;
};

enum class LineKind { blank, comment, edge, error };

struct LineResult {
  LineKind kind = LineKind::blank;
  RawEdge edge;
  int columns = 0;  // 2, or 3 with a weight
  float weight = 1.0f;
  std::string error;  // kind == error: what is wrong (without file or line)
};

// Parses a non-negative decimal id (digits only, optional leading '+'); returns an error message.
std::string parse_id(std::string_view token, uint64_t& out);
// Parses a weight: a real number (strtod syntax) within the float range, rounded to float. NaN,
// infinities and values beyond +-3.40282e+38 are refused, each in its own words.
std::string parse_weight(std::string_view token, float& out);
// "is not a number (NaN)", "is infinite (+inf)" or "is infinite (-inf)" for a weight that is not
// finite, else nullptr (the bin reader's check of its float32 weights).
const char* non_finite_weight(float weight);

// 3 when `text` starts with a UTF-8 byte-order mark (EF BB BF), else 0. Text inputs skip it at
// the very start of the file only; anywhere else it is an error on its line.
size_t utf8_bom_length(std::string_view text);

// tsv / snap: "src dst [weight]" separated by spaces or tabs; lines whose first non-blank
// character is '#' or '%' are comments; blank lines are skipped; a trailing '\r' is ignored.
LineResult parse_edge_line(std::string_view line);

// Matrix Market coordinate header.
enum class MtxField { pattern, integer, real };
enum class MtxSymmetry { general, symmetric, skew_symmetric };
struct MtxHeader {
  MtxField field = MtxField::pattern;
  MtxSymmetry symmetry = MtxSymmetry::general;
  int64_t rows = 0, cols = 0, entries = 0;
  int64_t nvertices() const { return rows > cols ? rows : cols; }
};
// "%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric|skew-symmetric>"
std::string parse_mtx_banner(std::string_view line, MtxHeader& header);
// "rows cols entries": non-negative integers, rows and cols in 1..kMaxDeclaredVertices.
std::string parse_mtx_size_line(std::string_view line, MtxHeader& header);
// Whether the `data_bytes` after the size line can hold the declared entries (the shortest entry
// line is "1 1" or "1 1 1" plus a newline); the message names the count.
std::string check_mtx_entries_fit(const MtxHeader& header, int64_t data_bytes);
// An entry line "i j [value]" with 1-based indices checked against the declared size; comment
// ('%') and blank lines are reported as such. The edge keeps the file's 1-based ids.
LineResult parse_mtx_entry(std::string_view line, const MtxHeader& header);

// Whole-buffer parsers (used by the fuzz targets and the single-process tests). They return the
// first problem as "line N: ..." / "edge N: ..." (both 1-based) or an empty string.
struct ParsedEdges {
  std::vector<RawEdge> edges;
  std::vector<float> weights;  // one per edge when the lines carry weights
  int64_t lines = 0;
};
std::string parse_edge_text(std::string_view text, ParsedEdges& out);
std::string parse_mtx_text(std::string_view text, MtxHeader& header, ParsedEdges& out);

// The bin header (layout in io/edge_file.hpp and docs/input.md). Checks magic, version, flags,
// nvertices (1..kMaxDeclaredVertices), nedges and that the file size matches it; `file_size` is
// the size of the whole file. Messages name the field and its value.
struct BinHeader {
  uint32_t version = 0;
  uint32_t flags = 0;
  int64_t nvertices = 0;
  int64_t nedges = 0;
  bool has_weights() const { return flags & 1u; }
  int64_t record_bytes() const { return has_weights() ? 20 : 16; }
};
inline constexpr int64_t kBinHeaderBytes = 32;
std::string parse_bin_header(const unsigned char* data, size_t size, int64_t file_size, BinHeader& header);
// Decodes `count` packed records and checks every id is in 0..nvertices-1 and every weight is
// finite; `first_record` (0-based) only numbers the records in messages, as "edge N" from 1.
std::string decode_bin_records(const unsigned char* data, int64_t count, const BinHeader& header, int64_t first_record,
                               std::vector<RawEdge>& edges, std::vector<float>* weights);
// Header plus all records of an in-memory file.
std::string parse_bin_buffer(const unsigned char* data, size_t size, BinHeader& header, ParsedEdges& out);

}  // namespace g500::io
