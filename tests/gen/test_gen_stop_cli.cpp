// `g500 gen` stopped with Ctrl-C while it writes. Ctrl-C reaches mpiexec (the ranks have process
// groups of their own), which stops the ranks with SIGTERM about a second later and kills them
// with SIGKILL a second after that. Within that grace the ranks must print the stop line and
// remove the output's temporary (util/stop_report.hpp, util/output_file.hpp), however large the
// writes in flight. So that the SIGTERM lands while the ranks write (a second later they may have
// finished), the test sends it to the ranks itself together with SIGINT to mpiexec, once the
// temporary holds a third of the file. Repeated, at 2 and 4 ranks, as the moment varies.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include "run_command.hpp"

namespace g500::gen {
namespace {

constexpr int kRepeats = 3;  // about 3 s each
// SCALE 21: a 500 MB file. The signal comes once a third of it is written: by then the kernel
// throttles the writers behind the disk, which is when a long write call held a rank past the
// grace (the run is stopped well before its end).
constexpr const char* kGenArgs = " gen --scale 21 --output ";
constexpr std::intmax_t kWrittenBeforeTheSignal = std::intmax_t{160} << 20;

// The bytes written so far to the output's temporary (its allocated blocks: ranks write at their
// own offsets, so its size jumps ahead), or -1 while there is none.
std::intmax_t temporary_bytes(const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().filename().string().starts_with("big.tsv.g500-tmp.")) {
      struct stat st {};
      return ::stat(entry.path().c_str(), &st) == 0 ? static_cast<std::intmax_t>(st.st_blocks) * 512 : -1;
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
    writing = temporary_bytes(dir) >= kWrittenBeforeTheSignal;
  }
  if (!writing) run.join();
  ASSERT_TRUE(writing) << result.err;
  const int mpiexec = std::stoi(testing::read_file(dir + "/pid"));
  const std::string rank_pids = testing::run_command("pgrep -P " + std::to_string(mpiexec)).out;
  ASSERT_EQ(::kill(mpiexec, SIGINT), 0);
  int stopped = 0;
  for (size_t at = 0; at < rank_pids.size();) {
    const size_t end = rank_pids.find('\n', at);
    stopped += ::kill(std::stoi(rank_pids.substr(at, end - at)), SIGTERM) == 0;
    at = end == std::string::npos ? rank_pids.size() : end + 1;
  }
  EXPECT_EQ(stopped, ranks);
  const auto signalled = std::chrono::steady_clock::now();
  run.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
  EXPECT_LT(seconds, 10) << "the stopped run took this long to end";
  const std::string& err = result.err;
  const std::regex line("(^|\\n)g500 gen: stopped by SIGTERM during generating and writing " + dir + "/big.tsv\\n");
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
}  // namespace g500::gen
