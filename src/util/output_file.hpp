// Every file g500 writes goes through OutputFile, which decides once what the path names:
//
// - a regular file, or nothing yet: the output is written to a temporary file beside it and
//   renamed onto it only when complete, so a failed or killed run never leaves a half-written
//   file and never clobbers a good one. A symbolic link is followed: its target is what gets
//   replaced (created, for a dangling link), the link itself stays.
// - a character device, a FIFO, "-" (standard output) or a name of an open descriptor
//   (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N): a stream, written in place and in
//   order by rank 0, which receives the other ranks' parts through MPI. Nothing is renamed onto
//   it. A write error (ENOSPC on /dev/full, a reader that went away) is an error like any other;
//   what was already written to the stream cannot be taken back.
// - anything else (a directory, a socket, a block device): refused with one line.
//
// Temporary files are named TARGET.g500-tmp.HOST.PID. A run killed with SIGKILL cannot remove
// its own; the next run writing to the same target removes those of processes of this host that
// no longer exist.
//
// All members are collective over the communicator given to the constructor (pass
// MPI_COMM_SELF when a single process writes). Errors are thrown as UsageError on every rank.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "util/message_limits.hpp"

namespace g500::util {

class OutputFile {
 public:
  static constexpr unsigned kNewFileMode = 0644;
  // Rank 0 examines `path` and prepares it at once (creates the temporary, or opens the
  // stream), so an unwritable path fails before any long computation. `mode` is the permission
  // of a new file (an existing file's permissions are kept). `limits` bounds each message that
  // carries a part of a stream to rank 0.
  OutputFile(std::string path, MPI_Comm comm, unsigned mode = kNewFileMode, const MessageLimits& limits = {});
  ~OutputFile();  // removes the temporary unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // The path as the user gave it (for messages).
  const std::string& path() const { return path_; }
  // The regular file that will be replaced; empty for a stream.
  const std::string& target() const { return target_; }
  bool is_stream() const { return stream_; }
  // The ranks that write it.
  MPI_Comm comm() const { return comm_; }

  // rank 0's text becomes the output; other ranks' text is ignored.
  void write_from_rank0(std::string_view text);
  // The ranks' texts, concatenated in rank order, become the output.
  void write_concatenated(std::string_view local_text);

  // For outputs made piece by piece: every rank calls start_part(offset of its part in the
  // output; the parts in rank order must tile it), append() any number of times (not
  // collective; no collective call of the same communicator may come in between on a stream),
  // then commit().
  void start_part(int64_t offset);
  void append(const char* data, size_t size);
  void commit();
  // This rank saw a write error (reported by commit()): later appends are skipped, so a caller
  // making a large part may stop early.
  bool failed() const { return !error_.empty(); }

 private:
  void append_to_stream(const char* data, size_t size);
  void drain_stream_parts();

  std::string path_, target_, temp_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  bool stream_ = false, committed_ = false;
  size_t stream_message_bytes_;  // the largest MPI message of a stream part
  int fd_ = -1;                  // rank 0: the stream; any rank: the temporary while writing its part
  int64_t offset_ = 0;           // where this rank's next appended byte goes in the temporary
  std::string error_;            // this rank's first write error
};

// For a single process: writes `text` to `path` as OutputFile does (atomically, or streamed).
void write_whole_file(const std::string& path, std::string_view text, unsigned mode = OutputFile::kNewFileMode);

}  // namespace g500::util
