// Opening an input file that ranks read at offsets (pread), each its own part, so only a regular
// file will do: standard input ('-'), a FIFO or pipe, a directory, a device or a socket gets a
// one-line explanation instead. Opening never blocks (the type is checked before the open, which
// is non-blocking as well), so a FIFO without a writer cannot hang the ranks.
#pragma once
#include <cstdint>
#include <string>

namespace g500::io {

// Returns "" and sets fd (close-on-exec, blocking reads) and the file's size, or the problem.
std::string open_input_file(const std::string& path, int& fd, int64_t& size);

}  // namespace g500::io
