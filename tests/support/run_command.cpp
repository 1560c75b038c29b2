#include "run_command.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace g500::testing {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string make_temp_dir() {
  char pattern[] = "/tmp/g500-test-XXXXXX";
  if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
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
  std::system(("rm -rf " + dir).c_str());
  return result;
}

CommandResult run_g500(int ranks, const std::string& args) {
  return run_command(std::string(G500_MPIEXEC) + " -n " + std::to_string(ranks) + " " + G500_MPIEXEC_FLAGS + " " +
                     G500_BINARY + " " + args);
}

std::string write_file(const std::string& dir, const std::string& name, const std::string& contents) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

}  // namespace g500::testing
