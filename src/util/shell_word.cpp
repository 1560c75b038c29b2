// Shell quoting of one word (util/shell_word.hpp).
#include "util/shell_word.hpp"

#include <algorithm>
#include <string_view>

namespace g500::util {
namespace {

bool literal_in_shell(char c) {
  constexpr std::string_view kPunctuation = "_-./+:,";
  const bool letter_or_digit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  return letter_or_digit || kPunctuation.find(c) != std::string_view::npos;
}

}  // namespace

std::string shell_word(const std::string& text) {
  if (!text.empty() && std::all_of(text.begin(), text.end(), literal_in_shell)) return text;
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace g500::util
