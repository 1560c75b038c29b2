// A text as one word of a POSIX shell command line, so a command printed or written into a batch
// script runs as given (`g500 jobscript`, and the command of a run's provenance).
#pragma once
#include <string>

namespace g500::util {

// The text as it is when every character is one the shell takes literally anywhere in a word
// (letters, digits and _ - . / + : ,), otherwise in single quotes with each ' written as '\''.
// Not '=' unquoted: a bare word NAME=... in a command's place would be a variable assignment.
std::string shell_word(const std::string& text);

}  // namespace g500::util
