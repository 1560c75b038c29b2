// Rank map files written by `g500 map` and read by `g500 bfs --rankmap`.
#include "io/rankmap_file.hpp"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "util/error.hpp"
#include "util/output_file.hpp"

namespace g500::io {

namespace {
constexpr int kFixedColumns = 3;  // rank,row,col
constexpr size_t kMaxLineLength = 4096;

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t end = line.find(',', start);
    out.push_back(line.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

bool parse_int(const std::string& field, long long max_value, long long* out) {
  if (field.empty() || field.size() > 10) return false;
  for (char ch : field)
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
  *out = std::stoll(field);
  return *out <= max_value;
}
}  // namespace

void write_rankmap_csv(const std::string& path, const std::vector<std::string>& axis_names,
                       const std::vector<RankmapRow>& rows) {
  std::string text = "rank,row,col";
  for (const auto& name : axis_names) {
    text += ',';
    text += lower(name);
  }
  text += "\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    text += std::to_string(r) + "," + std::to_string(rows[r].row) + "," + std::to_string(rows[r].col);
    for (int v : rows[r].coord) {
      text += ',';
      text += std::to_string(v);
    }
    text += "\n";
  }
  util::write_whole_file(path, text);
}

void write_coordinate_map(const std::string& path, const std::vector<std::vector<int>>& tuples) {
  std::string text;
  for (const auto& t : tuples) {
    text += "(";
    for (size_t i = 0; i < t.size(); ++i) {
      if (i) text += ',';
      text += std::to_string(t[i]);
    }
    text += ")\n";
  }
  util::write_whole_file(path, text);
}

namespace {
// An error at a line of the rank map, as path:line: what.
util::UsageError rankmap_error(const std::string& path, long line, const std::string& what) {
  return util::UsageError(path + ":" + std::to_string(line) + ": " + what);
}

// What the lines of a rank map give so far: each rank's cell and the line naming it (0: none
// yet), the largest row and col, how many ranks were listed, and the last line read.
struct RankmapLines {
  std::vector<GridPlacement> placement;
  std::vector<long> line_of_rank;
  int max_row = -1, max_col = -1;
  long seen = 0;
  long lineno = 0;
};

// Reads the header line (rank,row,col, then any coordinate columns); returns the column count.
size_t read_rankmap_header(std::istream& in, const std::string& path, long& lineno) {
  std::string line;
  if (!std::getline(in, line)) throw rankmap_error(path, 1, "empty file (expected header rank,row,col,...)");
  ++lineno;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto header = split_commas(line);
  if (header.size() < static_cast<size_t>(kFixedColumns) || header[0] != "rank" || header[1] != "row" ||
      header[2] != "col")
    throw rankmap_error(path, lineno, "header must start with rank,row,col (got '" + line.substr(0, 80) + "')");
  return header.size();
}

// Checks one non-empty line (the fields, then the rank's range and that it is new) and records its rank.
void read_rankmap_line(const std::string& line, size_t ncolumns, int nranks, const std::string& path,
                       RankmapLines& lines) {
  const long lineno = lines.lineno;
  auto fail = [&](long at, const std::string& what) { return rankmap_error(path, at, what); };
  if (line.size() > kMaxLineLength) throw fail(lineno, "line too long");
  const auto fields = split_commas(line);
  if (fields.size() != ncolumns)
    throw fail(lineno, "expected " + std::to_string(ncolumns) + " fields, found " + std::to_string(fields.size()));
  long long rank = 0, row = 0, col = 0;
  if (!parse_int(fields[0], INT32_MAX, &rank)) throw fail(lineno, "bad rank '" + fields[0] + "'");
  if (!parse_int(fields[1], INT32_MAX, &row)) throw fail(lineno, "bad row '" + fields[1] + "'");
  if (!parse_int(fields[2], INT32_MAX, &col)) throw fail(lineno, "bad col '" + fields[2] + "'");
  for (size_t k = kFixedColumns; k < ncolumns; ++k) {
    long long v = 0;
    if (!parse_int(fields[k], INT32_MAX, &v)) throw fail(lineno, "bad coordinate '" + fields[k] + "'");
  }
  if (rank >= nranks)
    throw fail(lineno, "rank " + std::to_string(rank) + " but the job has " + std::to_string(nranks) + " ranks");
  if (lines.line_of_rank[rank] != 0)
    throw fail(lineno, "rank " + std::to_string(rank) + " repeated (first on line " +
                           std::to_string(lines.line_of_rank[rank]) + ")");
  lines.line_of_rank[rank] = lineno;
  lines.placement[rank] = GridPlacement{static_cast<int>(row), static_cast<int>(col)};
  if (row > lines.max_row) lines.max_row = static_cast<int>(row);
  if (col > lines.max_col) lines.max_col = static_cast<int>(col);
  ++lines.seen;
}

// No two ranks on one cell of the grid (c_count columns).
void check_rankmap_cells(const RankmapLines& lines, int nranks, long long c_count, const std::string& path) {
  const std::vector<GridPlacement>& placement = lines.placement;
  const std::vector<long>& line_of_rank = lines.line_of_rank;
  std::vector<int> owner(static_cast<size_t>(nranks), -1);
  for (int r = 0; r < nranks; ++r) {
    const long long cell = static_cast<long long>(placement[r].row) * c_count + placement[r].col;
    if (owner[cell] >= 0)
      throw rankmap_error(path, line_of_rank[r],
                          "(row,col) = (" + std::to_string(placement[r].row) + "," + std::to_string(placement[r].col) +
                              ") already used by rank " + std::to_string(owner[cell]) + " (line " +
                              std::to_string(line_of_rank[owner[cell]]) + ")");
    owner[cell] = r;
  }
}
}  // namespace

std::vector<GridPlacement> read_rankmap_csv(const std::string& path, int nranks, int* rows, int* cols) {
  if (nranks < 1) throw util::UsageError("rank map " + path + ": the job has no ranks");
  std::ifstream in(path);
  if (!in) throw util::UsageError("cannot open rank map " + path + ": " + std::strerror(errno));
  auto fail = [&](long line, const std::string& what) -> util::UsageError { return rankmap_error(path, line, what); };
  RankmapLines lines;
  const size_t ncolumns = read_rankmap_header(in, path, lines.lineno);
  lines.placement.assign(nranks > 0 ? nranks : 0, GridPlacement{-1, -1});
  lines.line_of_rank.assign(lines.placement.size(), 0);
  std::string line;
  while (std::getline(in, line)) {
    ++lines.lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    read_rankmap_line(line, ncolumns, nranks, path, lines);
  }
  const long lineno = lines.lineno;
  if (lines.seen != nranks)
    for (int r = 0; r < nranks; ++r)
      if (lines.line_of_rank[r] == 0)
        throw fail(lineno, "no line for rank " + std::to_string(r) + " (" + std::to_string(lines.seen) + " of " +
                               std::to_string(nranks) + " ranks listed)");
  const long long r_count = lines.max_row + 1LL, c_count = lines.max_col + 1LL;
  if (r_count * c_count != nranks)
    throw fail(lineno, "grid " + std::to_string(r_count) + "x" + std::to_string(c_count) +
                           " (from the largest row and col) has " + std::to_string(r_count * c_count) +
                           " cells but the job has " + std::to_string(nranks) + " ranks");
  check_rankmap_cells(lines, nranks, c_count, path);
  if (rows) *rows = static_cast<int>(r_count);
  if (cols) *cols = static_cast<int>(c_count);
  return std::move(lines.placement);
}

}  // namespace g500::io
