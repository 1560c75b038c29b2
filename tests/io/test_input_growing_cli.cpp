// An input file that grows while the ranks read it: from the moment the first rank opens it, a
// child process appends to it every millisecond during `g500 bfs --input` at 1 and 4 ranks. The ranks read up to one
// agreed size and check the file again afterwards, so a run either reads exactly the original lines (exit 0) or fails
// with one line saying that the file changed (exit 2); it never loses or gains lines silently.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "run_command.hpp"
#include "usage_error.hpp"

namespace g500::io {
namespace {

constexpr int64_t kLines = 300000;                     // about 3.6 MB of edges
constexpr int64_t kMostAppended = int64_t{256} << 20;  // the appender stops here at the latest
constexpr int kRepeats = 2;

std::string original_edges() {
  std::string text;
  for (int64_t i = 0; i < kLines; ++i) text += std::to_string(i) + " " + std::to_string((i * 7919 + 1) % 65536) + "\n";
  return text;
}

// Whether a process other than this one has `path` open (the first rank started reading).
bool opened_by_another_process(const std::string& path) {
  namespace fs = std::filesystem;
  const std::string self = std::to_string(::getpid());
  std::error_code error;
  for (const auto& process : fs::directory_iterator("/proc", error)) {
    const std::string pid = process.path().filename().string();
    if (pid == self || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    for (const auto& fd : fs::directory_iterator(process.path() / "fd", error)) {
      std::error_code link_error;
      if (fs::read_symlink(fd.path(), link_error) == path) return true;
    }
  }
  return false;
}

// A child that waits until a rank has opened `path`, then appends a 4 KiB block of edge lines to
// it every millisecond until killed (or kMostAppended bytes).
pid_t start_appending(const std::string& path) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  constexpr int kPollsAllowed = 60000;  // a minute of 1 ms polls
  for (int polls = 0; polls < kPollsAllowed && !opened_by_another_process(path); ++polls) ::usleep(1000);
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND);
  std::string block;
  while (block.size() < 4096) block += "7 8\n";
  for (int64_t done = 0; fd >= 0 && done < kMostAppended; done += static_cast<int64_t>(block.size())) {
    if (::write(fd, block.data(), block.size()) < 0) break;
    ::usleep(1000);
  }
  ::_exit(0);
}

TEST(InputGrowingCli, AFileAppendedToWhileReadIsReadWholeOrRefused) {
  const std::string dir = testing::make_temp_dir();
  const std::string original = original_edges();
  const std::regex changed("g500 bfs: error: '" + dir + "/g\\.tsv' changed while it was read \\(size " +
                           std::to_string(original.size()) +
                           " -> \\d+ bytes\\); read a file that is not being written\\n");
  int refused = 0;
  for (int ranks : {1, 4})
    for (int k = 0; k < kRepeats; ++k) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks, run " + std::to_string(k + 1));
      const std::string path = testing::write_file(dir, "g.tsv", original);
      const pid_t appender = start_appending(path);
      ASSERT_GT(appender, 0);
      const auto r =
          testing::run_g500(ranks, "bfs --input " + path + " --roots 1 --no-validate --json " + dir + "/r.json", 120);
      ::kill(appender, SIGKILL);
      ::waitpid(appender, nullptr, 0);
      if (r.status == 0) {
        const auto j = nlohmann::json::parse(testing::read_file(dir + "/r.json"));
        EXPECT_EQ(j["input"]["edges"], kLines) << "lines lost or gained";
      } else {
        ++refused;
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_EQ(testing::count_lines_starting(r.err, "g500 bfs: error:"), 1) << r.err;
        EXPECT_TRUE(std::regex_search(r.err, changed)) << r.err;
      }
      std::remove((dir + "/r.json").c_str());
    }
  // The appender runs from before the read to after it: the change is seen (not required, but
  // a run that never sees it would not test the check).
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace g500::io
