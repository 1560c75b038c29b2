#include "run_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace g500::testing {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

namespace {

// The directories make_temp_dir() handed out, removed when the test program ends.
class TempDirs {
 public:
  ~TempDirs() {
    std::error_code ignored;
    for (const std::string& dir : dirs_) std::filesystem::remove_all(dir, ignored);
  }
  void add(const std::string& dir) { dirs_.push_back(dir); }

 private:
  std::vector<std::string> dirs_;
};

TempDirs& temp_dirs() {
  static TempDirs dirs;
  return dirs;
}

}  // namespace

std::string make_temp_dir() {
  char pattern[] = "/tmp/g500-test-XXXXXX";
  if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
  temp_dirs().add(pattern);
  return pattern;
}

CommandResult run_command(const std::string& command) {
  const std::string dir = make_temp_dir();
  const std::string out = dir + "/stdout", err = dir + "/stderr";
  const int raw = std::system((command + " >" + out + " 2>" + err + " </dev/null").c_str());
  CommandResult result;
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  return result;
}

namespace {

std::string with_timeout(int seconds) {
  return seconds > 0 ? "timeout --kill-after=5 " + std::to_string(seconds) + " " : "";
}

}  // namespace

CommandResult run_g500(int ranks, const std::string& args, int timeout_seconds) {
  return run_command(with_timeout(timeout_seconds) + G500_MPIEXEC + " -n " + std::to_string(ranks) + " " +
                     G500_MPIEXEC_FLAGS + " " + G500_BINARY + " " + args);
}

CommandResult run_g500_alone(const std::string& args, int timeout_seconds) {
  return run_command(with_timeout(timeout_seconds) + G500_BINARY + " " + args);
}

std::string write_file(const std::string& dir, const std::string& name, const std::string& contents) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

}  // namespace g500::testing
