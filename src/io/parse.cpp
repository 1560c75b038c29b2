#include "io/parse.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace g500::io {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Splits on blanks into at most `max` tokens; returns the token count (max + 1 when there are more).
int split(std::string_view line, std::string_view* tokens, int max) {
  int n = 0;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i >= line.size()) break;
    size_t j = i;
    while (j < line.size() && !is_blank(line[j])) ++j;
    if (n == max) return max + 1;
    tokens[n++] = line.substr(i, j - i);
    i = j;
  }
  return n;
}

std::string quoted(std::string_view token) {
  std::string out = "'";
  for (char c : token.substr(0, 40)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  if (token.size() > 40) out += "...";
  return out + "'";
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The first non-blank character, or '\n' (never inside a line) when there is none.
char first_nonblank(std::string_view line) {
  for (char c : line)
    if (!is_blank(c)) return c;
  return '\n';
}

template <class T>
T get_le(const unsigned char* p) {
  T v{};
  std::memcpy(&v, p, sizeof v);  // the supported platforms are little-endian
  return v;
}

}  // namespace

std::optional<Format> parse_format(std::string_view name) {
  if (name == "tsv") return Format::tsv;
  if (name == "snap") return Format::snap;
  if (name == "mtx") return Format::mtx;
  if (name == "bin") return Format::bin;
  return std::nullopt;
}

const char* format_name(Format format) {
  switch (format) {
    case Format::tsv:
      return "tsv";
    case Format::snap:
      return "snap";
    case Format::mtx:
      return "mtx";
    case Format::bin:
      return "bin";
  }
  return "?";
}

Format guess_format(std::string_view path) {
  auto ends = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && lower(path.substr(path.size() - suffix.size())) == suffix;
  };
  if (ends(".mtx")) return Format::mtx;
  if (ends(".bin")) return Format::bin;
  if (ends(".snap")) return Format::snap;
  return Format::tsv;
}

namespace {

enum class NumberProblem { none, not_a_number, negative, too_large };

// A non-negative decimal integer of at most 2^63-1 (digits only, optional leading '+').
NumberProblem parse_non_negative(std::string_view token, uint64_t& out) {
  if (!token.empty() && token[0] == '-') {
    bool numeric = token.size() > 1;
    for (char c : token.substr(1)) numeric = numeric && std::isdigit(static_cast<unsigned char>(c));
    return numeric ? NumberProblem::negative : NumberProblem::not_a_number;
  }
  std::string_view digits = token;
  if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
  if (digits.empty()) return NumberProblem::not_a_number;
  uint64_t v = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return NumberProblem::not_a_number;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (kMaxFileId - d) / 10) return NumberProblem::too_large;
    v = v * 10 + d;
  }
  out = v;
  return NumberProblem::none;
}

// A count of the mtx size line; the message names the field.
std::string parse_count(std::string_view token, const char* field, uint64_t& out) {
  switch (parse_non_negative(token, out)) {
    case NumberProblem::none:
      return {};
    case NumberProblem::not_a_number:
      return std::string(field) + " " + quoted(token) + " is not a non-negative integer";
    case NumberProblem::negative:
      return std::string(field) + " " + quoted(token) + " is negative";
    case NumberProblem::too_large:
      return std::string(field) + " " + quoted(token) + " is larger than 2^63-1";
  }
  return "?";
}

}  // namespace

std::string parse_id(std::string_view token, uint64_t& out) {
  switch (parse_non_negative(token, out)) {
    case NumberProblem::none:
      return {};
    case NumberProblem::not_a_number:
      return quoted(token) + " is not a vertex id";
    case NumberProblem::negative:
      return "negative vertex id " + quoted(token);
    case NumberProblem::too_large:
      return "vertex id " + quoted(token) + " is larger than 2^63-1";
  }
  return "?";
}

const char* non_finite_weight(float weight) {
  if (std::isnan(weight)) return "is not a number (NaN)";
  if (std::isinf(weight)) return weight > 0 ? "is infinite (+inf)" : "is infinite (-inf)";
  return nullptr;
}

std::string parse_weight(std::string_view token, float& out) {
  if (token.empty() || token.size() > 64) return quoted(token) + " is not a number";
  char buffer[80];
  std::memcpy(buffer, token.data(), token.size());
  buffer[token.size()] = 0;
  char* end = nullptr;
  errno = 0;
  // strtof rounds to the nearest float itself: 3.4028235e38 is the largest float, 1e39 overflows
  // (ERANGE, +-HUGE_VALF); a denormal or a value that underflows to 0 is kept as strtof gives it.
  const float v = std::strtof(buffer, &end);
  const bool overflow = errno == ERANGE && std::isinf(v);
  if (end != buffer + token.size()) return quoted(token) + " is not a number";
  if (overflow) {
    char largest[32];
    std::snprintf(largest, sizeof largest, "%g", static_cast<double>(std::numeric_limits<float>::max()));
    return "weight " + quoted(token) + " is beyond the float range (at most " + largest + " in magnitude)";
  }
  if (const char* problem = non_finite_weight(v)) return "weight " + quoted(token) + " " + problem;
  out = v;
  return {};
}

size_t utf8_bom_length(std::string_view text) { return text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0; }

LineResult parse_edge_line(std::string_view line) {
  LineResult r;
  const char c = first_nonblank(line);
  if (c == '\n') return r;
  if (c == '#' || c == '%') {
    r.kind = LineKind::comment;
    return r;
  }
  r.kind = LineKind::error;
  std::string_view t[3];
  const int n = split(line, t, 3);
  if (n < 2) {
    r.error = "expected 'src dst [weight]' but found one field " + quoted(line);
    return r;
  }
  if (n > 3) {
    r.error = "expected 'src dst [weight]' but found more than three fields";
    return r;
  }
  if (std::string e = parse_id(t[0], r.edge.src); !e.empty()) return r.error = e, r;
  if (std::string e = parse_id(t[1], r.edge.dst); !e.empty()) return r.error = e, r;
  if (n == 3)
    if (std::string e = parse_weight(t[2], r.weight); !e.empty()) return r.error = e, r;
  r.columns = n;
  r.kind = LineKind::edge;
  return r;
}

std::string parse_mtx_banner(std::string_view line, MtxHeader& header) {
  while (!line.empty() && is_blank(line.back())) line.remove_suffix(1);
  std::string_view t[6];
  const int n = split(line, t, 5);
  if (n < 1 || lower(t[0]) != "%%matrixmarket")
    return "not a Matrix Market file (the first line must start with %%MatrixMarket)";
  if (n != 5) return "malformed Matrix Market banner (expected: %%MatrixMarket matrix coordinate FIELD SYMMETRY)";
  if (lower(t[1]) != "matrix") return "unsupported Matrix Market object " + quoted(t[1]) + " (only 'matrix')";
  if (lower(t[2]) != "coordinate")
    return "unsupported Matrix Market format " + quoted(t[2]) + " (only 'coordinate'; dense 'array' is not a graph)";
  const std::string field = lower(t[3]), symmetry = lower(t[4]);
  if (field == "pattern")
    header.field = MtxField::pattern;
  else if (field == "integer")
    header.field = MtxField::integer;
  else if (field == "real")
    header.field = MtxField::real;
  else
    return "unsupported Matrix Market field " + quoted(t[3]) + " (pattern, integer or real)";
  if (symmetry == "general")
    header.symmetry = MtxSymmetry::general;
  else if (symmetry == "symmetric")
    header.symmetry = MtxSymmetry::symmetric;
  else if (symmetry == "skew-symmetric")
    header.symmetry = MtxSymmetry::skew_symmetric;
  else
    return "unsupported Matrix Market symmetry " + quoted(t[4]) + " (general, symmetric or skew-symmetric)";
  return {};
}

std::string parse_mtx_size_line(std::string_view line, MtxHeader& header) {
  std::string_view t[3];
  if (split(line, t, 3) != 3) return "expected the size line 'rows cols entries'";
  static const char* const fields[3] = {"rows", "cols", "entries"};
  uint64_t v[3];
  for (int k = 0; k < 3; ++k)
    if (std::string e = parse_count(t[k], fields[k], v[k]); !e.empty()) return "bad size line: " + e;
  for (int k = 0; k < 2; ++k) {
    if (v[k] == 0) return "the size line declares 0 " + std::string(fields[k]) + " (a graph needs at least one vertex)";
    if (v[k] > static_cast<uint64_t>(kMaxDeclaredVertices))
      return "the size line declares " + std::to_string(v[k]) + " " + fields[k] +
             ", more than the 2^42 vertices g500 can run";
  }
  header.rows = static_cast<int64_t>(v[0]);
  header.cols = static_cast<int64_t>(v[1]);
  header.entries = static_cast<int64_t>(v[2]);
  return {};
}

std::string check_mtx_entries_fit(const MtxHeader& header, int64_t data_bytes) {
  // n shortest entry lines ("1 1" or "1 1 1", newline-separated) take n * shortest - 1 bytes,
  // so at most (data_bytes + 1) / shortest fit (computed without overflowing at 2^63-1).
  const int64_t shortest = header.field == MtxField::pattern ? 4 : 6;
  const int64_t bytes = std::max<int64_t>(data_bytes, 0);
  const int64_t most = bytes / shortest + (bytes % shortest + 1) / shortest;
  if (header.entries <= most) return {};
  return "the size line declares " + std::to_string(header.entries) + " entries, but the " +
         std::to_string(data_bytes) + " bytes after it can hold at most " + std::to_string(most);
}

LineResult parse_mtx_entry(std::string_view line, const MtxHeader& header) {
  LineResult r;
  const char c = first_nonblank(line);
  if (c == '\n') return r;
  if (c == '%') {
    r.kind = LineKind::comment;
    return r;
  }
  r.kind = LineKind::error;
  const int want = header.field == MtxField::pattern ? 2 : 3;
  std::string_view t[3];
  const int n = split(line, t, 3);
  if (n != want) {
    r.error = "expected " + std::string(want == 2 ? "'row col'" : "'row col value'") + " (" + std::to_string(want) +
              " fields) but found " + (n > 3 ? std::string("more than 3") : std::to_string(n));
    return r;
  }
  if (std::string e = parse_id(t[0], r.edge.src); !e.empty()) return r.error = e, r;
  if (std::string e = parse_id(t[1], r.edge.dst); !e.empty()) return r.error = e, r;
  if (r.edge.src == 0 || r.edge.dst == 0) return r.error = "index 0 (Matrix Market indices start at 1)", r;
  if (r.edge.src > static_cast<uint64_t>(header.rows) || r.edge.dst > static_cast<uint64_t>(header.cols)) {
    r.error = "entry (" + std::to_string(r.edge.src) + ", " + std::to_string(r.edge.dst) +
              ") is beyond the declared size " + std::to_string(header.rows) + " x " + std::to_string(header.cols);
    return r;
  }
  if (want == 3) {
    if (header.field == MtxField::integer) {
      std::string_view digits = t[2];
      if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
      bool ok = !digits.empty();
      for (char d : digits) ok = ok && std::isdigit(static_cast<unsigned char>(d));
      if (!ok) return r.error = quoted(t[2]) + " is not an integer", r;
    }
    if (std::string e = parse_weight(t[2], r.weight); !e.empty()) return r.error = e, r;
  }
  r.columns = n;
  r.kind = LineKind::edge;
  return r;
}

namespace {

// Calls f(line) for each line of text; stops when f returns false. Returns false on a too-long line.
template <class F>
bool for_each_line(std::string_view text, int64_t& lines, F f) {
  size_t i = 0;
  while (i < text.size()) {
    size_t nl = text.find('\n', i);
    if (nl == std::string_view::npos) nl = text.size();
    ++lines;
    if (nl - i > kMaxLineBytes) return false;
    if (!f(text.substr(i, nl - i))) return true;
    i = nl + 1;
  }
  return true;
}

std::string add_edge(const LineResult& r, int& columns, ParsedEdges& out) {
  if (columns == 0) columns = r.columns;
  if (r.columns != columns)
    return "has " + std::to_string(r.columns) + " fields but the first edge line has " + std::to_string(columns) +
           " (a weight must be on every line or on none)";
  out.edges.push_back(r.edge);
  if (r.columns == 3) out.weights.push_back(r.weight);
  return {};
}

}  // namespace

std::string parse_edge_text(std::string_view text, ParsedEdges& out) {
  text.remove_prefix(utf8_bom_length(text));
  std::string error;
  int columns = 0;
  const bool complete = for_each_line(text, out.lines, [&](std::string_view line) {
    LineResult r = parse_edge_line(line);
    if (r.kind == LineKind::error)
      error = r.error;
    else if (r.kind == LineKind::edge)
      error = add_edge(r, columns, out);
    return error.empty();
  });
  if (!complete) return "line " + std::to_string(out.lines) + ": line longer than 1 MiB";
  if (!error.empty()) return "line " + std::to_string(out.lines) + ": " + error;
  return {};
}

std::string parse_mtx_text(std::string_view text, MtxHeader& header, ParsedEdges& out) {
  text.remove_prefix(utf8_bom_length(text));
  std::string error;
  int stage = 0, columns = 0;
  const bool complete = for_each_line(text, out.lines, [&](std::string_view line) {
    if (stage == 0) {
      error = parse_mtx_banner(line, header);
      stage = 1;
    } else if (stage == 1) {
      const char c = first_nonblank(line);
      if (c == '%' || c == '\n') return true;
      error = parse_mtx_size_line(line, header);
      if (error.empty()) {
        const size_t data_start =
            std::min(text.size(), static_cast<size_t>(line.data() - text.data()) + line.size() + 1);
        error = check_mtx_entries_fit(header, static_cast<int64_t>(text.size() - data_start));
      }
      stage = 2;
    } else {
      LineResult r = parse_mtx_entry(line, header);
      if (r.kind == LineKind::error)
        error = r.error;
      else if (r.kind == LineKind::edge) {
        if (static_cast<int64_t>(out.edges.size()) >= header.entries)
          error = "more entries than the " + std::to_string(header.entries) + " declared";
        else
          error = add_edge(r, columns, out);
      }
    }
    return error.empty();
  });
  if (!complete) return "line " + std::to_string(out.lines) + ": line longer than 1 MiB";
  if (!error.empty()) return "line " + std::to_string(out.lines) + ": " + error;
  if (stage < 2) return "missing Matrix Market size line";
  if (static_cast<int64_t>(out.edges.size()) != header.entries)
    return "declares " + std::to_string(header.entries) + " entries but has " + std::to_string(out.edges.size());
  return {};
}

std::string parse_bin_header(const unsigned char* data, size_t size, int64_t file_size, BinHeader& header) {
  static const char magic[8] = {'G', '5', '0', '0', 'E', 'D', 'G', 'E'};
  if (size < static_cast<size_t>(kBinHeaderBytes) || file_size < kBinHeaderBytes)
    return "not a g500 bin edge file (too short for the 32-byte header)";
  if (std::memcmp(data, magic, 8) != 0) return "not a g500 bin edge file (bad magic)";
  header.version = get_le<uint32_t>(data + 8);
  header.flags = get_le<uint32_t>(data + 12);
  header.nvertices = get_le<int64_t>(data + 16);
  header.nedges = get_le<int64_t>(data + 24);
  if (header.version != 1)
    return "unsupported bin edge file version " + std::to_string(header.version) + " (expected 1)";
  if (header.flags & ~1u) {
    char flags[16];
    std::snprintf(flags, sizeof flags, "%#x", header.flags);
    return std::string("unknown flags ") + flags + " in the bin header (only bit 0, weights, is defined)";
  }
  if (header.nvertices < 1) return "bad bin header: nvertices " + std::to_string(header.nvertices) + " (at least 1)";
  if (header.nvertices > kMaxDeclaredVertices)
    return "bad bin header: nvertices " + std::to_string(header.nvertices) +
           " is more than the 2^42 vertices g500 can run";
  if (header.nedges < 0) return "bad bin header: nedges " + std::to_string(header.nedges) + " is negative";
  const int64_t rec = header.record_bytes();
  if (header.nedges > (file_size - kBinHeaderBytes) / rec || file_size != kBinHeaderBytes + header.nedges * rec)
    return "truncated or corrupt: " + std::to_string(file_size) + " bytes, but nedges " +
           std::to_string(header.nedges) + " in the header needs 32 + " + std::to_string(header.nedges) + " x " +
           std::to_string(rec) + " bytes";
  return {};
}

std::string decode_bin_records(const unsigned char* data, int64_t count, const BinHeader& header, int64_t first_record,
                               std::vector<RawEdge>& edges, std::vector<float>* weights) {
  const int64_t rec = header.record_bytes();
  for (int64_t k = 0; k < count; ++k) {
    const unsigned char* p = data + k * rec;
    const int64_t a = get_le<int64_t>(p), b = get_le<int64_t>(p + 8);
    const std::string edge = "edge " + std::to_string(first_record + k + 1);  // 1-based, as line numbers
    if (a < 0 || a >= header.nvertices || b < 0 || b >= header.nvertices)
      return edge + ": vertex id " + std::to_string(a < 0 || a >= header.nvertices ? a : b) + " outside 0.." +
             std::to_string(header.nvertices - 1);
    if (header.has_weights()) {
      const float weight = get_le<float>(p + 16);
      if (const char* problem = non_finite_weight(weight)) return edge + ": the weight " + problem;
      if (weights) weights->push_back(weight);
    }
    edges.push_back({static_cast<uint64_t>(a), static_cast<uint64_t>(b)});
  }
  return {};
}

std::string parse_bin_buffer(const unsigned char* data, size_t size, BinHeader& header, ParsedEdges& out) {
  if (std::string e = parse_bin_header(data, size, static_cast<int64_t>(size), header); !e.empty()) return e;
  return decode_bin_records(data + kBinHeaderBytes, header.nedges, header, 0, out.edges, &out.weights);
}

}  // namespace g500::io
