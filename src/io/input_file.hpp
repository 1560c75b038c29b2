// Opening an input file that ranks read at offsets (pread), each its own part, so only a regular
// file will do: standard input ('-'), a FIFO or pipe, a directory, a device or a socket gets a
// one-line explanation instead. Opening never blocks (the type is checked before the open, which
// is non-blocking as well), so a FIFO without a writer cannot hang the ranks.
//
// The ranks of one read must see one file that does not change while they read it: a file that
// grows while it is read would otherwise be cut at a different size by each rank, silently losing
// lines. identity_problem() compares what a rank found (fstat) with what the ranks agreed on.
#pragma once
#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace g500::io {

// Returns "" and sets fd (close-on-exec, blocking reads) and the file's status (fstat of fd), or
// the problem.
std::string open_input_file(const std::string& path, int& fd, struct stat& status);

// "" when `found` is the file of `agreed` with the same size and modification time, else one
// line saying what differs: another file at the path (a different inode, or device on the same
// host: file systems shared between hosts may number their devices differently on each, so the
// device is compared only when `same_host`), or a file that changed while it was read, e.g.
//   'g.tsv' changed while it was read (size 1234 -> 5678 bytes); read a file that is not being written
std::string identity_problem(const std::string& path, const struct stat& agreed, const struct stat& found,
                             bool same_host);

}  // namespace g500::io
