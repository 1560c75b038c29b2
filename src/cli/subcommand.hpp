// Registry of g500 subcommands. Each subcommand lives in its own src/cli/cmd_*.cpp and registers
// itself with a static G500_SUBCOMMAND object, so adding one touches no other file.
#pragma once
#include <functional>
#include <map>
#include <string>

namespace g500::cli {

// A subcommand receives the arguments after its name (argv[0] is "g500 NAME") with MPI
// already initialised; it returns the process exit status. Errors in user input are reported by
// throwing g500::UsageError (see util/error.hpp); main prints them once and exits with status 2.
using SubcommandFn = std::function<int(int argc, char** argv)>;

struct SubcommandInfo {
  std::string help;
  SubcommandFn run;
};

std::map<std::string, SubcommandInfo>& subcommands();

struct SubcommandRegistrar {
  SubcommandRegistrar(const std::string& name, const std::string& help, SubcommandFn fn) {
    subcommands()[name] = SubcommandInfo{help, std::move(fn)};
  }
};

}  // namespace g500::cli
