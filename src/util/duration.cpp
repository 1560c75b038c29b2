// Duration texts: the number read with from_chars (no locale), the unit matched whole.
#include "util/duration.hpp"

#include <charconv>
#include <cmath>
#include <utility>

namespace g500::util {

std::optional<double> duration_seconds(const std::string& text) {
  static const std::pair<const char*, double> kUnits[] = {{"ms", 1e-3}, {"s", 1.0}, {"m", 60.0}, {"h", 3600.0}};
  const size_t unit_start = text.find_last_not_of("abcdefghijklmnopqrstuvwxyz") + 1;  // npos + 1 = 0
  const std::string unit = text.substr(unit_start);
  const char* begin = text.data();
  const char* end = text.data() + unit_start;
  if (begin != end && *begin == '+') ++begin;
  double number = 0;
  const auto [stop, error] = std::from_chars(begin, end, number);
  if (begin == end || error != std::errc() || stop != end || !std::isfinite(number)) return std::nullopt;
  for (const auto& [name, seconds] : kUnits)
    if (unit == name) return number * seconds;
  return std::nullopt;
}

}  // namespace g500::util
