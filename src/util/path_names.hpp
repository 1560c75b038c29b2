// What file a path names, as the writers of outputs and the check that outputs do not replace
// inputs both need it: the chain of symbolic links followed to its end (which may not exist yet),
// one spelling per file (the real directory and the base name), and the paths an output is a
// stream at (written in place, never replaced).
#pragma once
#include <sys/stat.h>

#include <string>

namespace g500::util {

// "a/b/c" -> "a/b", "c" -> ".", "/c" -> "/".
std::string directory_of(const std::string& path);
std::string base_name_of(const std::string& path);

// Follows a chain of symbolic links to the path at its end (which may not exist yet). On a loop
// or an unreadable link returns "" and sets `problem` (e.g. "too many levels of symbolic links").
std::string follow_links(const std::string& path, std::string& problem);

// The real path of `file`'s directory (no links, no "." or "..") and its base name: one spelling
// per file whether or not the file exists. "" when the directory does not exist.
std::string spelling_in_real_directory(const std::string& file);

// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/.../fd/N: opening them reopens an open descriptor.
bool names_open_descriptor(const std::string& path);

// An output at `path` (whose stat is `st`) is a stream, written in place: a character device, a
// FIFO, or a regular file behind a name of an open descriptor. ("-" is one too, without a stat.)
bool is_stream_output(const std::string& path, const struct stat& st);

}  // namespace g500::util
