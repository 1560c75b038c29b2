// What a run says when it is stopped by a signal. When one rank of an MPI job dies, the launcher
// (mpirun, srun) stops the survivors with SIGTERM; a batch system's time limit and Ctrl-C do the
// same. Without a handler the run vanishes mid-line, with its output temporaries left behind. With
// install(), rank 0 prints one line naming the phase it was in, e.g.
//   g500 bfs: stopped by SIGTERM during BFS roots (12 of 64 done, validating)
// removes the temporaries of the output files it was writing (util/output_file.hpp), and then
// dies of the same signal, so the exit status still tells the launcher what happened.
//
// The phase is the innermost live StopPhase (util/progress.hpp makes one for every progress
// phase, shown on a terminal or not). A signal handler can read only plain atomics, so the state
// here is process-wide by necessity; nothing else in g500 is.
#pragma once
#include <atomic>
#include <cstdint>

namespace g500::util::stop_report {

// Handles SIGTERM, SIGINT and SIGHUP from now on. `command` ("g500 bfs") must outlive the process
// (a string literal or static storage); only a process with `prints` writes the line.
void install(const char* command, bool prints);

// The run has ended and said why: from now on a stop prints nothing (when one rank leaves with
// an error, the launcher stops the others while they finish, after they reported that error).
void finished();

// The phase reported while this object lives; it restores the enclosing phase when destroyed.
// `name` must outlive the object.
class StopPhase {
 public:
  explicit StopPhase(const char* name, int64_t total = 0);
  ~StopPhase();
  StopPhase(const StopPhase&) = delete;
  StopPhase& operator=(const StopPhase&) = delete;
  // `done` of total finished; `note` (a string literal or nullptr) says what happens now.
  void update(int64_t done, const char* note = nullptr);
  // The phase's count turns out to be `total`.
  void set_total(int64_t total);

 private:
  const char* saved_name_;
  int64_t saved_done_, saved_total_;
  const char* saved_note_;
};

// A file removed if the process is stopped (a temporary that would otherwise be left behind);
// `path` must stay valid until forget_temporary(path). At most kMaxTemporaries at once: more
// are simply not removed.
inline constexpr int kMaxTemporaries = 16;
void remember_temporary(const char* path);
void forget_temporary(const char* path);

// Whether stderr holds an unfinished progress line (util/progress.hpp): the stop line then
// starts on a new line.
void set_progress_line_open(bool open);

// The line install() would print for `signal_name` now (without its newline), for tests.
int format_stop_line(char* buffer, int capacity, const char* signal_name);

}  // namespace g500::util::stop_report
