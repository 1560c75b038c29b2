// A power meter command: spawned with posix_spawn (no copy of the MPI process's memory, unlike
// fork), its stdout and stderr read through non-blocking pipes until it exits or its time is up.
#include "util/power_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>

extern char** environ;

namespace g500::util {
namespace {

using Clock = std::chrono::steady_clock;

// Output beyond this is read and dropped: only the first line counts.
constexpr size_t kKeptOutputBytes = 4096;
// The longest piece of a meter's output quoted in a message.
constexpr size_t kQuotedChars = 60;
// How often the reader checks whether the command has exited while its pipes stay open.
constexpr int kPollMilliseconds = 10;

// The first line of text with the blanks around it trimmed.
std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  const size_t begin = line.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return line.substr(begin, line.find_last_not_of(" \t\r") - begin + 1);
}

std::string quoted_first_line(const std::string& text) { return printable(first_line(text), kQuotedChars); }

// A pipe whose read end this process keeps (non-blocking) and whose write end the child gets.
struct Pipe {
  int read_end = -1, write_end = -1;
  bool open() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    read_end = fds[0];
    write_end = fds[1];
    fcntl(read_end, F_SETFL, fcntl(read_end, F_GETFL) | O_NONBLOCK);
    return true;
  }
  void close_write() {
    if (write_end >= 0) close(write_end);
    write_end = -1;
  }
  void close_read() {
    if (read_end >= 0) close(read_end);
    read_end = -1;
  }
  ~Pipe() {
    close_write();
    close_read();
  }
};

// Reads what is there; false at end of file (or on an error), true when more may come.
bool read_available(Pipe& pipe, std::string& kept) {
  char buffer[4096];
  while (true) {
    const ssize_t n = read(pipe.read_end, buffer, sizeof buffer);
    if (n > 0) {
      kept.append(buffer, std::min(static_cast<size_t>(n), kKeptOutputBytes - std::min(kKeptOutputBytes, kept.size())));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    pipe.close_read();
    return false;
  }
}

// The command's process, started in a process group of its own with default signal handling
// (the run ignores SIGPIPE; a meter script should not inherit that).
pid_t spawn_shell(const std::string& command, Pipe& out, Pipe& err, std::string& error) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write_end, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.write_end, STDERR_FILENO);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &empty);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::string shell = "/bin/sh", dash_c = "-c", text = command;
  char* argv[] = {shell.data(), dash_c.data(), text.data(), nullptr};
  pid_t pid = -1;
  const int status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (status != 0) {
    error = std::string("could not be started: ") + std::strerror(status);
    return -1;
  }
  return pid;
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

// Why a command that ended with wait status `status` failed, or "" when it exited with 0.
std::string exit_problem(int status, const std::string& err) {
  std::string problem;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return problem;
  if (WIFEXITED(status))
    problem = "exited with status " + std::to_string(WEXITSTATUS(status));
  else if (WIFSIGNALED(status))
    problem = std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
              strsignal(WTERMSIG(status)) + ")";
  else
    problem = "ended abnormally";
  const std::string said = quoted_first_line(err);
  if (!said.empty()) problem += " (" + said + ")";
  return problem;
}

}  // namespace

std::string printable(const std::string& text, size_t max_chars) {
  std::string line = text.size() > max_chars ? text.substr(0, max_chars) + "..." : text;
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return line;
}

std::optional<double> parse_watts(const std::string& output, std::string& problem) {
  const std::string line = first_line(output);
  if (line.empty()) {
    problem = "printed nothing on its first line; it must print the power in watts";
    return std::nullopt;
  }
  const std::string not_watts =
      "printed '" + quoted_first_line(output) + "' on its first line, not a positive number of watts";
  const char* begin = line.data();
  const char* end = line.data() + line.size();
  double watts = 0;
  const auto [stop, error] = std::from_chars(begin, end, watts);
  std::string rest(stop, end);
  rest.erase(0, rest.find_first_not_of(" \t"));
  if (error != std::errc() || !(rest.empty() || rest == "W") || !std::isfinite(watts) || !(watts > 0)) {
    problem = not_watts;
    return std::nullopt;
  }
  return watts;
}

PowerSample sample_power_command(const std::string& command, double timeout_seconds) {
  PowerSample sample;
  Pipe out, err;
  if (!out.open() || !err.open()) {
    sample.error = std::string("could not be started: ") + std::strerror(errno);
    return sample;
  }
  const pid_t pid = spawn_shell(command, out, err, sample.error);
  out.close_write();  // the child holds the write ends now: end of file when it closes them
  err.close_write();
  if (pid < 0) return sample;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));
  std::string stdout_text, stderr_text;
  int status = 0;
  bool exited = false, reaped_elsewhere = false;
  while (true) {
    // Not reaped yet (WNOWAIT): while the shell is a zombie its process group id stays its own.
    siginfo_t info{};
    const int waited = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    reaped_elsewhere = waited < 0 && errno == ECHILD;  // then judge it by its output alone
    exited = reaped_elsewhere || (waited == 0 && info.si_pid == pid);
    if (exited || Clock::now() >= deadline) break;
    pollfd fds[2];
    nfds_t count = 0;
    for (const Pipe* p : {&out, &err})
      if (p->read_end >= 0) fds[count++] = pollfd{p->read_end, POLLIN, 0};
    if (count > 0)
      poll(fds, count, kPollMilliseconds);
    else
      usleep(kPollMilliseconds * 1000);  // pipes closed, process still running
    if (out.read_end >= 0) read_available(out, stdout_text);
    if (err.read_end >= 0) read_available(err, stderr_text);
  }
  if (!reaped_elsewhere) {
    kill(-pid, SIGKILL);  // the shell when it hangs, and whatever it left running in its group
    waitpid(pid, &status, 0);
  }
  if (!exited) {
    sample.error = "gave no answer within " + seconds_text(timeout_seconds) + " (stopped)";
    return sample;
  }
  // What it wrote before exiting is in the pipes (a child it left running may hold them open).
  if (out.read_end >= 0) read_available(out, stdout_text);
  if (err.read_end >= 0) read_available(err, stderr_text);
  sample.error = exit_problem(status, stderr_text);
  if (!sample.error.empty()) return sample;
  if (const std::optional<double> watts = parse_watts(stdout_text, sample.error)) {
    sample.ok = true;
    sample.watts = *watts;
  }
  return sample;
}

PowerSampler::PowerSampler(std::string command, double interval_seconds, double timeout_seconds)
    : command_(std::move(command)), interval_seconds_(interval_seconds), timeout_seconds_(timeout_seconds) {}

PowerSampler::~PowerSampler() { stop(); }

void PowerSampler::take_sample() {
  const PowerSample sample = sample_power_command(command_, timeout_seconds_);
  if (sample.ok)
    samples_.push_back(sample.watts);
  else
    error_ = "sample " + std::to_string(samples_.size() + 1) + " " + sample.error;
}

void PowerSampler::sample_until_finished() {
  const auto interval = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval_seconds_));
  Clock::time_point next = Clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    const bool last = finishing_;
    lock.unlock();
    take_sample();
    lock.lock();
    if (last || failed()) break;
    // On a fixed schedule: a slow sample shortens the wait before the next one.
    next += interval;
    wake_.wait_until(lock, next, [this] { return finishing_; });
  }
  finished_ = true;
}

void PowerSampler::start() {
  thread_ = std::thread([this] { sample_until_finished(); });
}

void PowerSampler::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finishing_ = true;
  }
  wake_.notify_all();
}

void PowerSampler::stop() {
  if (!thread_.joinable()) return;
  finish();
  thread_.join();
}

double PowerSampler::mean_watts() const {
  if (samples_.empty()) return 0;
  return std::accumulate(samples_.begin(), samples_.end(), 0.0) / static_cast<double>(samples_.size());
}

}  // namespace g500::util
