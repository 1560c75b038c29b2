// A user's power meter: a shell command (an IPMI query, a PDU script) run through /bin/sh -c that
// prints the system's power in watts on its first line. One sample runs the command once, with
// its output read through pipes and a time limit (a meter that hangs is stopped, with its process
// group, and counts as failed); PowerSampler takes samples on a thread of its own while the run
// searches, for the average power of the energy loop (run/energy_loop.hpp).
#pragma once
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace g500::util {

// A sample that does not finish within this long has failed (a meter answers in well under a
// second; an IPMI query over the network can take one or two).
inline constexpr double kPowerSampleTimeoutSeconds = 5.0;
// The energy loop's sampling period.
inline constexpr double kPowerSampleIntervalSeconds = 1.0;

// Text as one line of a message: control characters (a newline too) shown as '?', at most
// max_chars of it, then "...".
std::string printable(const std::string& text, size_t max_chars);

// The watts on a meter's first line: a number > 0, optionally followed by "W", with blanks
// around it ("250", " 250.5 W"). Otherwise nullopt and `problem` says why, e.g. "printed 'abc'
// on its first line, not a number of watts".
std::optional<double> parse_watts(const std::string& output, std::string& problem);

struct PowerSample {
  bool ok = false;
  double watts = 0;
  std::string error;  // when not ok: why, e.g. "exited with status 127 (sh: 1: nosuch: not found)"
};

// Runs the command once (stdin /dev/null, in a process group of its own, which is stopped when
// the command ends or its time is up: a sample leaves nothing running) and reads its watts.
PowerSample sample_power_command(const std::string& command, double timeout_seconds = kPowerSampleTimeoutSeconds);

// Samples the command on a thread of its own: at start(), every interval, and once more when
// asked to finish, so that every sample is taken while the measured work still runs. The first
// failed sample ends the sampling: the meter has failed and says why.
class PowerSampler {
 public:
  explicit PowerSampler(std::string command, double interval_seconds = kPowerSampleIntervalSeconds,
                        double timeout_seconds = kPowerSampleTimeoutSeconds);
  ~PowerSampler();  // stop()
  PowerSampler(const PowerSampler&) = delete;
  PowerSampler& operator=(const PowerSampler&) = delete;

  void start();   // the first sample is taken at once
  void finish();  // asks for the last sample (at once, or after the one under way); returns at once
  bool finished() const { return finished_; }  // the last sample is in (or one failed)
  void stop();                                 // finish() and wait for it; the results below are read after this

  const std::string& command() const { return command_; }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  const std::vector<double>& samples() const { return samples_; }  // watts, in order
  double mean_watts() const;                                       // 0 without samples

 private:
  void take_sample();  // appends or fails
  void sample_until_finished();

  std::string command_;
  double interval_seconds_, timeout_seconds_;
  std::vector<double> samples_;
  std::string error_;
  std::mutex mutex_;  // guards finishing_
  std::condition_variable wake_;
  bool finishing_ = false;
  std::atomic<bool> finished_{false};
  std::thread thread_;
};

}  // namespace g500::util
