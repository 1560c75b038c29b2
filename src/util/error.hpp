// Error types shared by all subcommands. A UsageError is a problem with what the user asked for
// (bad option, bad file): it becomes one line on stderr from rank 0 and exit status 2.
// Throw it on every rank (after agreeing with util/agree.hpp when only some ranks saw it).
#pragma once
#include <stdexcept>
#include <string>

namespace g500::util {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace g500::util
