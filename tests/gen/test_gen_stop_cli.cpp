// `g500 gen` stopped with Ctrl-C while it writes: SIGINT to mpiexec, which stops the ranks with
// SIGTERM about a second later and kills them with SIGKILL a second after that. Within that grace
// the ranks must print the stop line and remove the output's temporary (util/stop_report.hpp,
// util/output_file.hpp), however large the writes in flight. Repeated, at 2 and 4 ranks, as the
// moment of the signal varies.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include "run_command.hpp"

namespace g500 {
namespace {

constexpr int kRepeats = 3;  // about 3 s each
// SCALE 21: a 470 MB file, written for longer than mpiexec's grace before SIGTERM.
constexpr const char* kGenArgs = " gen --scale 21 --output ";

// The size of the output's temporary (-1 while there is none).
std::intmax_t temporary_bytes(const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().filename().string().starts_with("big.tsv.g500-tmp.")) {
      std::error_code error;
      const auto size = std::filesystem::file_size(entry.path(), error);
      return error ? -1 : static_cast<std::intmax_t>(size);
    }
  return -1;
}

void stop_while_writing(int ranks) {
  const std::string dir = testing::make_temp_dir();
  // The shell writes its pid and becomes mpiexec, so the pid is mpiexec's.
  const std::string command = "timeout --kill-after=5 120 sh -c 'echo $$ >" + dir + "/pid; exec " + G500_MPIEXEC +
                              " -n " + std::to_string(ranks) + " " + G500_MPIEXEC_FLAGS + " " + G500_BINARY + kGenArgs +
                              dir + "/big.tsv'";
  testing::CommandResult result;
  std::thread run([&] { result = testing::run_command(command); });
  bool writing = false;
  for (int tries = 0; tries < 6000 && !writing; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    writing = temporary_bytes(dir) > 0;
  }
  if (!writing) run.join();
  ASSERT_TRUE(writing) << result.err;
  const int mpiexec = std::stoi(testing::read_file(dir + "/pid"));
  ASSERT_EQ(::kill(mpiexec, SIGINT), 0);
  const auto signalled = std::chrono::steady_clock::now();
  run.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
  EXPECT_LT(seconds, 10) << "the stopped run took this long to end";
  const std::string& err = result.err;
  const std::regex line("(^|\\n)g500 gen: stopped by SIG(TERM|INT) during generating and writing " + dir + "/big.tsv\\n");
  EXPECT_EQ(std::distance(std::sregex_iterator(err.begin(), err.end(), line), std::sregex_iterator()), 1) << err;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name, "pid") << name << " was left behind";
  }
}

TEST(GenStopCli, CtrlCWhileWritingPrintsTheStopLineAndLeavesNoTemporary) {
  for (int ranks : {2, 4})
    for (int k = 0; k < kRepeats; ++k) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks, run " + std::to_string(k + 1));
      stop_while_writing(ranks);
    }
}

}  // namespace
}  // namespace g500
