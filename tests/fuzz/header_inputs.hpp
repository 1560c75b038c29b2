// The inputs of the header fuzz targets (fuzz_bin_header, fuzz_mtx_header), shared with
// test_input_parse, which replays their corpus in the normal build. Both start with 8 bytes, a
// little-endian int64 size that the header is checked against, so sizes near the integer limits
// need no large inputs:
//   bin_header: the file size, then the header bytes (parse_bin_header);
//   mtx_header: the bytes after the size line, then the banner line and the size line
//               (parse_mtx_banner, parse_mtx_size_line, check_mtx_entries_fit).
// `consistent` is false when an accepted header breaks what the parsers promise.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "io/parse.hpp"

namespace g500::io::fuzz {

struct HeaderOutcome {
  std::string message;  // the parser's refusal, empty when the header was accepted
  bool consistent = true;
};

inline int64_t leading_size(const uint8_t* data, size_t size) {
  int64_t value = 0;
  std::memcpy(&value, data, size < 8 ? size : 8);
  return value;
}

inline HeaderOutcome run_bin_header_input(const uint8_t* data, size_t size) {
  HeaderOutcome outcome;
  const int64_t file_size = leading_size(data, size);
  const size_t rest = size > 8 ? size - 8 : 0;
  BinHeader header;
  outcome.message = parse_bin_header(data + (size - rest), rest, file_size, header);
  if (outcome.message.empty()) {
    const __int128 needed = kBinHeaderBytes + static_cast<__int128>(header.nedges) * header.record_bytes();
    outcome.consistent = header.version == 1 && header.flags <= 1 && header.nvertices >= 1 &&
                         header.nvertices <= kMaxDeclaredVertices && header.nedges >= 0 && needed == file_size;
  }
  return outcome;
}

inline HeaderOutcome run_mtx_header_input(const uint8_t* data, size_t size) {
  HeaderOutcome outcome;
  const int64_t data_bytes = leading_size(data, size);
  const size_t rest = size > 8 ? size - 8 : 0;
  std::string_view text(reinterpret_cast<const char*>(data) + (size - rest), rest);
  const size_t newline = text.find('\n');
  const std::string_view banner = text.substr(0, newline);
  const std::string_view size_line = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  MtxHeader header;
  outcome.message = parse_mtx_banner(banner, header);
  if (outcome.message.empty()) outcome.message = parse_mtx_size_line(size_line, header);
  if (outcome.message.empty()) outcome.message = check_mtx_entries_fit(header, data_bytes);
  if (outcome.message.empty()) {
    const int64_t shortest = header.field == MtxField::pattern ? 4 : 6;
    const __int128 least_bytes = static_cast<__int128>(header.entries) * shortest - 1;
    outcome.consistent = header.rows >= 1 && header.rows <= kMaxDeclaredVertices && header.cols >= 1 &&
                         header.cols <= kMaxDeclaredVertices && header.entries >= 0 &&
                         (header.entries == 0 || least_bytes <= data_bytes);
  }
  return outcome;
}

}  // namespace g500::io::fuzz
