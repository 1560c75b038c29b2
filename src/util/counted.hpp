// A count with its noun in the right number ("1 rank", "4 ranks", "1 thread"), for the lines a
// person reads. Nouns that add "s" only; the words the program counts all do.
#pragma once
#include <string>
#include <string_view>

namespace g500::util {

inline std::string counted(long long n, std::string_view noun) {
  std::string text = std::to_string(n) + " ";
  text += noun;
  if (n != 1) text += 's';
  return text;
}

}  // namespace g500::util
