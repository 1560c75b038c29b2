// Progress lines for long phases: "g500: <phase> <done>/<total> (<pct>%) <elapsed>s" rewritten in
// place on stderr, only on rank 0, only when stderr reaches a terminal (util/terminal.hpp: also
// under mpiexec) or --progress asks, and never with --quiet.
// Cheap when disabled; updates are printed at most 4 times a second. Shown or not, the phase and
// its count are what a run stopped by a signal reports (util/stop_report.hpp) until finish().
#pragma once
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "util/stop_report.hpp"
#include "util/terminal.hpp"

namespace g500::util {

// Whether this rank should print progress: rank 0 of comm, stderr reaching a terminal (or
// `force`: --progress, e.g. for a log file), not quiet.
inline bool progress_wanted(bool quiet, MPI_Comm comm, bool force) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return !quiet && rank == 0 && (force || stderr_reaches_terminal());
}

class Progress {
 public:
  // total <= 0: an open-ended phase ("<phase> ... <elapsed>s").
  Progress(bool enabled, std::string phase, int64_t total = 0)
      : enabled_(enabled), phase_(std::move(phase)), total_(total), start_(Clock::now()), last_(start_) {
    stop_phase_.emplace(phase_.c_str(), total_);
    if (enabled_) print(0);
  }
  ~Progress() { finish(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // An open-ended phase learns its count (kernel 1 its passes once it has planned them).
  void set_total(int64_t total) {
    total_ = total;
    if (stop_phase_) stop_phase_->set_total(total);
  }
  // `note`: a string literal or nullptr.
  void update(int64_t done, const char* note = nullptr) {
    if (stop_phase_) stop_phase_->update(done, note);
    if (!enabled_) return;
    const auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(250) && done < total_) return;
    last_ = now;
    print(done, note);
  }
  // Ends the line (prints the final state).
  void finish() {
    stop_phase_.reset();
    if (!enabled_ || finished_) return;
    finished_ = true;
    print(total_ > 0 ? total_ : 0, "done");
    std::fputc('\n', stderr);
    std::fflush(stderr);
    stop_report::set_progress_line_open(false);
  }

 private:
  using Clock = std::chrono::steady_clock;
  void print(int64_t done, const char* note = nullptr) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    if (total_ > 0)
      std::fprintf(stderr, "\r\033[Kg500: %s %lld/%lld (%.0f%%) %.1fs%s%s", phase_.c_str(),
                   static_cast<long long>(done), static_cast<long long>(total_),
                   100.0 * static_cast<double>(done) / static_cast<double>(total_), elapsed, note ? " " : "",
                   note ? note : "");
    else
      std::fprintf(stderr, "\r\033[Kg500: %s ... %.1fs%s%s", phase_.c_str(), elapsed, note ? " " : "",
                   note ? note : "");
    std::fflush(stderr);
    stop_report::set_progress_line_open(true);
  }
  bool enabled_;
  bool finished_ = false;
  std::string phase_;
  int64_t total_;
  Clock::time_point start_, last_;
  std::optional<stop_report::StopPhase> stop_phase_;  // after phase_: ends before the name is freed
};

}  // namespace g500::util
