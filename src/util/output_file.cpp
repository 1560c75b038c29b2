#include "util/output_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/path_names.hpp"
#include "util/stop_report.hpp"

namespace g500::util {
namespace {

constexpr int kStreamTag = 0x6f7574;                     // rank 0 receives stream parts on this tag
constexpr size_t kStreamMessageBytes = size_t{1} << 26;  // keeps MPI's int counts far from overflow
constexpr const char* kTempInfix = ".g500-tmp.";
// The most one write call hands the kernel. A buffered write to a regular file cannot be
// interrupted by a caught signal, and it holds the file's lock (which the other ranks' writes
// and the unlink of a stopped run wait for) while the kernel throttles it behind the disk: tens
// of megabytes at once kept a stopped run busy past the launcher's grace period, so the stop
// line and the temporary's removal never came. A mebibyte takes milliseconds.
constexpr size_t kWriteCallBytes = size_t{1} << 20;

// Targets this process is writing now: two outputs of one run naming the same file would share a
// temporary and overwrite each other.
std::set<std::string>& targets_in_use() {
  static std::set<std::string> targets;
  return targets;
}

std::string errno_text() { return std::strerror(errno); }

std::string host_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

std::string describe_type(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// The file at the end of the chain of links from `path`, or "" with `error` set.
std::string resolve_links(const std::string& path, std::string& error) {
  std::string problem;
  std::string file = follow_links(path, problem);
  if (file.empty()) error = fmt::format("cannot write '{}': {}", path, problem);
  return file;
}

// Removes TARGET.g500-tmp.HOST.PID files of this host whose process is gone (SIGKILLed runs).
void remove_stale_temporaries(const std::string& target, const std::string& host) {
  const std::string dir = directory_of(target);
  const std::string prefix = base_name_of(target) + kTempInfix + host + ".";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* entry = ::readdir(d)) {
    const std::string name = entry->d_name;
    if (!name.starts_with(prefix)) continue;
    const std::string pid_text = name.substr(prefix.size());
    if (pid_text.empty() || pid_text.size() > 9 ||
        !std::all_of(pid_text.begin(), pid_text.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    const pid_t pid = static_cast<pid_t>(std::atol(pid_text.c_str()));
    const bool mine_and_unused = pid == ::getpid();  // this process's live ones are in use, checked before
    const bool process_gone = ::kill(pid, 0) != 0 && errno == ESRCH;
    if (mine_and_unused || process_gone) ::unlink((dir + "/" + name).c_str());
  }
  ::closedir(d);
}

std::string write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, std::min(size, kWriteCallBytes));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno_text() : "nothing was written";
    data += n;
    size -= static_cast<size_t>(n);
  }
  return "";
}

std::string pwrite_all(int fd, const char* data, size_t size, int64_t offset) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, data, std::min(size, kWriteCallBytes), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno_text() : "nothing was written";
    data += n;
    size -= static_cast<size_t>(n);
    offset += n;
  }
  return "";
}

// What rank 0 found and prepared for a path.
struct Prepared {
  bool stream = false;
  int stream_fd = -1;
  std::string target, temp, error;
};

Prepared open_stream(const std::string& path, int open_flags) {
  Prepared p;
  p.stream = true;
  // O_NONBLOCK: opening a FIFO nobody reads fails (ENXIO) instead of waiting for a reader.
  p.stream_fd = ::open(path.c_str(), open_flags | O_NONBLOCK | O_CLOEXEC);
  if (p.stream_fd < 0) {
    p.error = errno == ENXIO ? fmt::format("cannot write '{}': it is a FIFO that no process is reading", path)
                             : fmt::format("cannot write '{}': {}", path, errno_text());
    return p;
  }
  const int flags = ::fcntl(p.stream_fd, F_GETFL);
  if (flags >= 0) ::fcntl(p.stream_fd, F_SETFL, flags & ~O_NONBLOCK);
  return p;
}

// `file` is a regular file or a path to create (symlinks resolved).
Prepared create_temporary(const std::string& path, const std::string& file, mode_t mode, bool keep_mode) {
  Prepared p;
  // One spelling per file, so that two outputs naming it differently are recognised.
  const std::string target = spelling_in_real_directory(file);
  if (target.empty()) {
    p.error = fmt::format("cannot write '{}': directory '{}' does not exist", path, directory_of(file));
    return p;
  }
  p.target = target;
  if (targets_in_use().count(target)) {
    p.error = fmt::format("cannot write '{}': another output of this run goes to the same file", path);
    return p;
  }
  const std::string host = host_name();
  remove_stale_temporaries(target, host);
  p.temp = target + kTempInfix + host + "." + std::to_string(::getpid());
  const int fd = ::open(p.temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) {
    p.error = fmt::format("cannot write '{}': {}", path, errno_text());
    return p;
  }
  if (keep_mode) ::fchmod(fd, mode);  // an existing file's permissions, which the umask must not narrow
  ::close(fd);
  targets_in_use().insert(target);
  return p;
}

Prepared prepare(const std::string& path, mode_t new_file_mode) {
  Prepared p;
  if (path.empty()) {
    p.error = "an output path is empty";
    return p;
  }
  if (path == "-") {
    std::fflush(stdout);
    p.stream = true;
    p.stream_fd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
    if (p.stream_fd < 0) p.error = "cannot write '-': standard output is closed";
    return p;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    // A regular file behind a name of an open descriptor is appended to, after what was written before.
    if (is_stream_output(path, st)) return open_stream(path, S_ISREG(st.st_mode) ? O_WRONLY | O_APPEND : O_WRONLY);
    if (!S_ISREG(st.st_mode)) {
      p.error = fmt::format(
          "cannot write '{}': it is {} (an output must be a regular file, a character device, "
          "a FIFO or -)",
          path, describe_type(st.st_mode));
      return p;
    }
    const std::string file = resolve_links(path, p.error);
    if (file.empty()) return p;
    return create_temporary(path, file, st.st_mode & 07777, true);
  }
  if (errno != ENOENT) {
    p.error = fmt::format("cannot write '{}': {}", path, errno_text());
    return p;
  }
  const std::string file = resolve_links(path, p.error);
  if (file.empty()) return p;
  return create_temporary(path, file, new_file_mode, false);
}

void broadcast_string(std::string& text, MPI_Comm comm) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  text.resize(static_cast<size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, 0, comm);
}

}  // namespace

OutputFile::OutputFile(std::string path, MPI_Comm comm, unsigned mode, const MessageLimits& limits)
    : path_(std::move(path)), comm_(comm),
      stream_message_bytes_(std::min(kStreamMessageBytes, static_cast<size_t>(limits.max_message_bytes))) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  Prepared p;
  if (rank_ == 0) p = prepare(path_, static_cast<mode_t>(mode));
  agree_or_throw(p.error, comm_);
  int stream = p.stream ? 1 : 0;
  MPI_Bcast(&stream, 1, MPI_INT, 0, comm_);
  stream_ = stream != 0;
  target_ = p.target;
  temp_ = p.temp;
  broadcast_string(target_, comm_);
  broadcast_string(temp_, comm_);
  if (rank_ == 0 && stream_) fd_ = p.stream_fd;
  if (rank_ == 0 && !stream_) stop_report::remember_temporary(temp_.c_str());
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (rank_ == 0 && !stream_ && !committed_) {
    stop_report::forget_temporary(temp_.c_str());
    ::unlink(temp_.c_str());
    targets_in_use().erase(target_);
  }
}

void OutputFile::write_from_rank0(std::string_view text) {
  start_part(0);
  if (rank_ == 0) append(text.data(), text.size());
  commit();
}

void OutputFile::write_concatenated(std::string_view local_text) {
  int64_t size = static_cast<int64_t>(local_text.size()), before = 0;
  MPI_Exscan(&size, &before, 1, MPI_INT64_T, MPI_SUM, comm_);
  start_part(rank_ == 0 ? 0 : before);  // MPI_Exscan leaves rank 0's result undefined
  append(local_text.data(), local_text.size());
  commit();
}

void OutputFile::start_part(int64_t offset) { offset_ = offset; }

void OutputFile::append(const char* data, size_t size) {
  if (size == 0) return;
  if (stream_) {
    append_to_stream(data, size);
    return;
  }
  if (!error_.empty()) return;
  if (fd_ < 0) {
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) {
      error_ = fmt::format("cannot write '{}' on rank {}: cannot open '{}': {}", path_, rank_, temp_, errno_text());
      return;
    }
  }
  if (std::string e = pwrite_all(fd_, data, size, offset_); !e.empty())
    error_ = fmt::format("writing '{}' failed on rank {}: {}", path_, rank_, e);
  offset_ += static_cast<int64_t>(size);
}

void OutputFile::append_to_stream(const char* data, size_t size) {
  if (rank_ != 0) {
    for (size_t done = 0; done < size; done += stream_message_bytes_) {
      const size_t n = std::min(stream_message_bytes_, size - done);
      MPI_Send(data + done, static_cast<int>(n), MPI_CHAR, 0, kStreamTag, comm_);
    }
    return;
  }
  if (!error_.empty()) return;
  std::fflush(stdout);  // a stream may be standard output: keep rank 0's printed lines in order
  if (std::string e = write_all(fd_, data, size); !e.empty()) error_ = fmt::format("writing '{}' failed: {}", path_, e);
}

// Rank 0, after its own part: each other rank's messages in rank order, up to its empty one.
// They are received even after a write error, so that no rank is left waiting in a send.
void OutputFile::drain_stream_parts() {
  std::vector<char> buffer;
  for (int source = 1; source < size_; ++source) {
    while (true) {
      MPI_Status status;
      MPI_Probe(source, kStreamTag, comm_, &status);
      int count = 0;
      MPI_Get_count(&status, MPI_CHAR, &count);
      buffer.resize(static_cast<size_t>(count));
      MPI_Recv(buffer.data(), count, MPI_CHAR, source, kStreamTag, comm_, MPI_STATUS_IGNORE);
      if (count == 0) break;
      append_to_stream(buffer.data(), buffer.size());
    }
  }
}

void OutputFile::commit() {
  if (stream_) {
    if (rank_ != 0)
      MPI_Send(nullptr, 0, MPI_CHAR, 0, kStreamTag, comm_);
    else
      drain_stream_parts();
  }
  if (fd_ >= 0 && ::close(fd_) != 0 && error_.empty())
    error_ = fmt::format("writing '{}' failed on rank {}: {}", path_, rank_, errno_text());
  fd_ = -1;
  const std::string error = error_;
  error_.clear();
  agree_or_throw(error, comm_);
  std::string rename_error;
  if (rank_ == 0 && !stream_) stop_report::forget_temporary(temp_.c_str());
  if (rank_ == 0 && !stream_ && ::rename(temp_.c_str(), target_.c_str()) != 0)
    rename_error = fmt::format("cannot write '{}': renaming its temporary failed: {}", path_, errno_text());
  agree_or_throw(rename_error, comm_);
  committed_ = true;
  if (rank_ == 0 && !stream_) targets_in_use().erase(target_);
}

void write_whole_file(const std::string& path, std::string_view text, unsigned mode) {
  OutputFile(path, MPI_COMM_SELF, mode).write_from_rank0(text);
}

}  // namespace g500::util
