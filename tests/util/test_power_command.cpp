// The power meter command (src/util/power_command): the watts read from its first line, every way
// a sample fails (exit status, signal, not found, no number, no answer in time: stopped with its
// process group), and the sampler's schedule, last sample, mean and first failure.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "run_command.hpp"
#include "util/power_command.hpp"

namespace g500::util {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Whether process `pid` has ended: gone, or a zombie its new parent has not reaped yet (waited
// for up to a few seconds).
bool process_ended(int pid) {
  const Clock::time_point start = Clock::now();
  while (seconds_since(start) < 3.0) {
    const std::string stat = testing::read_file("/proc/" + std::to_string(pid) + "/stat");
    const size_t name_end = stat.rfind(')');  // "pid (name) STATE ..."
    if (stat.empty() || (name_end != std::string::npos && stat.substr(name_end + 2, 1) == "Z")) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The watts of `output`, or the problem text when there are none.
std::string watts_or_problem(const std::string& output) {
  std::string problem;
  const std::optional<double> watts = parse_watts(output, problem);
  return watts ? "watts " + std::to_string(*watts) : problem;
}

TEST(PowerCommand, ReadsWattsFromTheFirstLine) {
  EXPECT_EQ(watts_or_problem("250\n"), "watts 250.000000");
  EXPECT_EQ(watts_or_problem("  250.5 W \r\nsecond line 9\n"), "watts 250.500000");
  EXPECT_EQ(watts_or_problem("1200W"), "watts 1200.000000");
  EXPECT_EQ(watts_or_problem("\t3.5e2"), "watts 350.000000");
  EXPECT_EQ(watts_or_problem(""), "printed nothing on its first line; it must print the power in watts");
  EXPECT_EQ(watts_or_problem("\n250\n"), "printed nothing on its first line; it must print the power in watts");
  const std::string rule = "' on its first line, not a positive number of watts";
  EXPECT_EQ(watts_or_problem("abc\n"), "printed 'abc" + rule);
  EXPECT_EQ(watts_or_problem("0"), "printed '0" + rule);
  EXPECT_EQ(watts_or_problem("-3"), "printed '-3" + rule);
  EXPECT_EQ(watts_or_problem("nan"), "printed 'nan" + rule);
  EXPECT_EQ(watts_or_problem("inf W"), "printed 'inf W" + rule);
  EXPECT_EQ(watts_or_problem("2 kW"), "printed '2 kW" + rule);
  EXPECT_EQ(watts_or_problem("Power: 250 W"), "printed 'Power: 250 W" + rule);
  // Control characters do not reach the message; long lines are cut.
  EXPECT_EQ(watts_or_problem("\x1b[31m12"), "printed '?[31m12" + rule);
  EXPECT_EQ(watts_or_problem(std::string(100, 'x')), "printed '" + std::string(60, 'x') + "..." + rule);
}

TEST(PowerCommand, SamplesACommandsWatts) {
  const PowerSample sample = sample_power_command("echo 42.5");
  EXPECT_TRUE(sample.ok) << sample.error;
  EXPECT_DOUBLE_EQ(sample.watts, 42.5);
  // stdin is /dev/null: a meter that reads it ends at once instead of waiting for the terminal.
  const PowerSample reads_stdin = sample_power_command("cat; echo 7", 2.0);
  EXPECT_TRUE(reads_stdin.ok) << reads_stdin.error;
  EXPECT_DOUBLE_EQ(reads_stdin.watts, 7);
  // Much more output than is kept: read to the end without blocking the command.
  const PowerSample long_output = sample_power_command("echo 9; yes 1234567890 | head -c 1000000", 5.0);
  EXPECT_TRUE(long_output.ok) << long_output.error;
  EXPECT_DOUBLE_EQ(long_output.watts, 9);
}

TEST(PowerCommand, SaysWhyASampleFailed) {
  EXPECT_EQ(sample_power_command("exit 3").error, "exited with status 3");
  EXPECT_EQ(sample_power_command("echo 100; echo 'meter offline' >&2; exit 1").error,
            "exited with status 1 (meter offline)");
  const PowerSample missing = sample_power_command("g500-no-such-meter-command");
  EXPECT_FALSE(missing.ok);
  EXPECT_EQ(missing.error.rfind("exited with status 127 (", 0), 0u) << missing.error;
  // The shell's own words name the command ("not found" from dash and bash; "Permission denied" when
  // a folder of PATH cannot be searched).
  EXPECT_NE(missing.error.find("g500-no-such-meter-command: "), std::string::npos) << missing.error;
  EXPECT_EQ(sample_power_command("kill -9 $$").error, "was killed by signal 9 (Killed)");
  EXPECT_EQ(sample_power_command("echo watts").error,
            "printed 'watts' on its first line, not a positive number of watts");
  EXPECT_EQ(sample_power_command("true").error, "printed nothing on its first line; it must print the power in watts");
}

TEST(PowerCommand, StopsACommandThatHangs) {
  const std::string dir = testing::make_temp_dir();
  const std::string pid_file = dir + "/pid";
  for (const std::string& command : {"sleep 30 & echo $! > " + pid_file + "; wait",  // never answers
                                     "echo 5; exec >&- 2>&-; sleep 30 & echo $! > " + pid_file + "; wait"}) {
    const Clock::time_point start = Clock::now();
    const PowerSample sample = sample_power_command(command, 0.3);
    EXPECT_FALSE(sample.ok) << command;
    EXPECT_EQ(sample.error, "gave no answer within 0.3 s (stopped)") << command;
    EXPECT_LT(seconds_since(start), 3.0) << command;
    // What it started went with it (its process group).
    EXPECT_TRUE(process_ended(std::stoi(testing::read_file(pid_file)))) << command;
  }
}

TEST(PowerCommand, LeavesNothingRunningAfterAnAnswer) {
  const std::string dir = testing::make_temp_dir();
  const std::string pid_file = dir + "/pid";
  const Clock::time_point start = Clock::now();
  const PowerSample sample = sample_power_command("sleep 30 & echo $! > " + pid_file + "; echo 11");
  EXPECT_TRUE(sample.ok) << sample.error;
  EXPECT_DOUBLE_EQ(sample.watts, 11);
  EXPECT_LT(seconds_since(start), 3.0);  // not held up by the pipe the background job keeps open
  EXPECT_TRUE(process_ended(std::stoi(testing::read_file(pid_file))));
}

// A command printing 100, 200, 300, ... on successive runs (a counter in `dir`), failing with
// status 4 from run `fail_from` on (0: never).
std::string counting_meter(const std::string& dir, int fail_from) {
  const std::string counter = dir + "/count";
  return "n=$(cat " + counter + " 2>/dev/null || echo 0); n=$((n + 1)); echo $n > " + counter +
         (fail_from > 0 ? "; [ $n -ge " + std::to_string(fail_from) + " ] && exit 4" : std::string()) +
         "; echo $((n * 100))";
}

TEST(PowerSampler, SamplesAtStartEveryIntervalAndAtStop) {
  const std::string dir = testing::make_temp_dir();
  PowerSampler sampler(counting_meter(dir, 0), 0.05);
  sampler.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  sampler.stop();
  ASSERT_FALSE(sampler.failed()) << sampler.error();
  const std::vector<double>& samples = sampler.samples();
  // At 0, every 50 ms and at the stop: at least the first, one in between and the last.
  ASSERT_GE(samples.size(), 3u);
  double sum = 0;
  for (size_t k = 0; k < samples.size(); ++k) {
    EXPECT_DOUBLE_EQ(samples[k], 100.0 * static_cast<double>(k + 1));
    sum += samples[k];
  }
  EXPECT_DOUBLE_EQ(sampler.mean_watts(), sum / static_cast<double>(samples.size()));
}

TEST(PowerSampler, StopsPromptlyBetweenSamples) {
  PowerSampler sampler("echo 60", 30.0);
  const Clock::time_point start = Clock::now();
  sampler.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  sampler.stop();
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_EQ(sampler.samples(), (std::vector<double>{60, 60}));  // the start's and the stop's
  EXPECT_DOUBLE_EQ(sampler.mean_watts(), 60);
}

TEST(PowerSampler, FinishAsksForTheLastSampleWithoutWaitingForIt) {
  const std::string dir = testing::make_temp_dir();
  PowerSampler sampler("sleep 0.2; " + counting_meter(dir, 0), 30.0);
  sampler.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the first sample under way
  const Clock::time_point asked = Clock::now();
  sampler.finish();
  EXPECT_LT(seconds_since(asked), 0.1);  // returns at once
  EXPECT_FALSE(sampler.finished());
  while (!sampler.finished() && seconds_since(asked) < 5.0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(sampler.finished());
  EXPECT_GE(seconds_since(asked), 0.3);  // the one under way, then the last, not the 30 s interval
  EXPECT_LT(seconds_since(asked), 3.0);
  sampler.stop();
  EXPECT_EQ(sampler.samples(), (std::vector<double>{100, 200}));
}

TEST(PowerSampler, TheFirstFailureEndsTheSampling) {
  const std::string dir = testing::make_temp_dir();
  PowerSampler sampler(counting_meter(dir, 3), 0.02);
  sampler.start();
  const Clock::time_point start = Clock::now();
  while (!sampler.finished() && seconds_since(start) < 5.0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(sampler.finished());  // ended by the failure, without finish()
  sampler.stop();
  EXPECT_TRUE(sampler.failed());
  EXPECT_EQ(sampler.error(), "sample 3 exited with status 4");
  EXPECT_EQ(sampler.samples(), (std::vector<double>{100, 200}));
  EXPECT_EQ(std::stoi(testing::read_file(dir + "/count")), 3);  // not run again after the failure
}

}  // namespace
}  // namespace g500::util
