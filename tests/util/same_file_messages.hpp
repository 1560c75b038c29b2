// The refusals of util/same_file.hpp as the tests expect them, for the in-process and the
// command-line tests alike.
#pragma once
#include <string>

namespace g500::testing {

inline std::string input_output(const std::string& option, const std::string& path, const std::string& input_option,
                                const std::string& input) {
  return option + " '" + path + "' is the same file as " + input_option + " '" + input +
         "' (an output must not replace an input of the run)";
}

inline std::string two_outputs(const std::string& later, const std::string& later_path, const std::string& earlier,
                               const std::string& earlier_path) {
  return later + " '" + later_path + "' is the same file as " + earlier + " '" + earlier_path +
         "' (two outputs cannot share a file)";
}

}  // namespace g500::testing
