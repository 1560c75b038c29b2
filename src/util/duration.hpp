// Durations as a user writes them on the command line: a number and its unit, "60s", "2m",
// "0.5s", "250ms", "1h". A bare number is not one (seconds or minutes?).
#pragma once
#include <optional>
#include <string>

namespace g500::util {

// The text's seconds, or nullopt when it is not a finite number (decimal, an optional exponent,
// no blanks) directly followed by ms, s, m or h.
std::optional<double> duration_seconds(const std::string& text);

}  // namespace g500::util
