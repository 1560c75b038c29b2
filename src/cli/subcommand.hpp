// Registry of g500 subcommands. Each subcommand lives in its own src/cli/cmd_*.cpp and registers
// itself with a static SubcommandRegistrar object, so adding one touches no other file.
#pragma once
#include <functional>
#include <map>
#include <string>

#include "util/provenance.hpp"

namespace g500::cli {

// A subcommand receives the arguments after its name (argv[0] is "g500 NAME") with MPI
// already initialised, and the invocation main() recorded (the whole command line, the date, the
// hosts: the provenance of what it writes); it returns the process exit status. Errors in user
// input are reported by throwing g500::UsageError (see util/error.hpp); main prints them once and
// exits with status 2.
using SubcommandFn = std::function<int(int argc, char** argv, const util::Invocation& invocation)>;

struct SubcommandInfo {
  std::string help;
  SubcommandFn run;
};

std::map<std::string, SubcommandInfo>& subcommands();

struct SubcommandRegistrar {
  SubcommandRegistrar(const std::string& name, const std::string& help, SubcommandFn fn) {
    subcommands()[name] = SubcommandInfo{help, std::move(fn)};
  }
  // A subcommand that writes nothing the invocation describes.
  SubcommandRegistrar(const std::string& name, const std::string& help, std::function<int(int, char**)> fn)
      : SubcommandRegistrar(name, help,
                            [fn](int argc, char** argv, const util::Invocation&) { return fn(argc, argv); }) {}
};

}  // namespace g500::cli
