#include "cli/options.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string_view>
#include <type_traits>

#include "util/duration.hpp"
#include "util/error.hpp"

namespace g500::cli {

bool parse_or_throw(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::fputs(app.help().c_str(), stdout);
    return false;
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (!message.empty() && message.back() == '\n') message.pop_back();
    throw util::UsageError(message);
  }
  return true;
}

namespace {

// Attaches `check` (which may rewrite the text, or throw UsageError) to the option.
CLI::Option* attach_check(CLI::Option* option, const std::string& description,
                          std::function<void(const std::string& name, std::string& text)> check) {
  const std::string name = option->get_name();
  // transform, not check: CLI11 hands a check a copy of the text, which it may not rewrite.
  option->transform(CLI::Validator(
      [name, check = std::move(check)](std::string& text) {
        check(name, text);
        return std::string();
      },
      description));
  return option;
}

// The text as a whole decimal number of type T (an optional leading '+'); false when it is not
// one or does not fit T.
template <typename T>
bool read_whole_number(const std::string& text, T& value) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin;
  if (begin == end || (std::is_unsigned_v<T> && *begin == '-')) return false;
  const auto [stop, error] = std::from_chars(begin, end, value);
  return error == std::errc() && stop == end;
}

// The text as a finite real number (an optional leading '+'); false otherwise.
bool read_real_number(const std::string& text, double& value) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin;
  if (begin == end) return false;
  const auto [stop, error] = std::from_chars(begin, end, value);
  return error == std::errc() && stop == end && std::isfinite(value);
}

std::string got(const std::string& text) { return " (got '" + text + "')"; }

}  // namespace

CLI::Option* require_range(CLI::Option* option, long long min, long long max) {
  return attach_check(option, std::to_string(min) + ".." + std::to_string(max),
                      [min, max](const std::string& name, std::string& text) {
                        long long value = 0;
                        if (!read_whole_number(text, value) || value < min || value > max)
                          throw util::UsageError(name + " must be a whole number from " + std::to_string(min) + " to " +
                                                 std::to_string(max) + got(text));
                        text = std::to_string(value);  // decimal, as CLI11 then converts it
                      });
}

void add_message_limit_option(CLI::App& app, util::MessageLimits& limits) {
  require_range(app.add_option("--max-message-bytes", limits.max_message_bytes,
                               "largest message of one MPI call; larger ones go in rounds (for tests)"),
                util::MessageLimits::kSmallestBytes, util::MessageLimits::kLargestBytes)
      ->group("");  // hidden from --help
}

void add_progress_options(CLI::App& app, bool& quiet, bool& progress) {
  auto* quiet_flag =
      app.add_flag("--quiet", quiet, "no progress line on stderr (shown by default when it reaches a terminal)");
  auto* progress_flag =
      app.add_flag("--progress", progress, "progress line on stderr even when it is not a terminal (a log file)");
  quiet_flag->excludes(progress_flag);
}

CLI::Option* add_threads_option(CLI::App& app, int& threads, const std::string& description) {
  return require_range(app.add_option("--threads", threads, description), 1, kMaxThreads);
}

CLI::Option* require_at_least(CLI::Option* option, long long min, long long max) {
  return attach_check(option, ">=" + std::to_string(min), [min, max](const std::string& name, std::string& text) {
    const std::string at_least = name + " must be at least " + std::to_string(min) + got(text);
    const std::string at_most = name + " must be at most " + std::to_string(max) + got(text);
    long long value = 0;
    if (!read_whole_number(text, value)) {
      // Digits that overflow long long are still a number, only too far out.
      const size_t first = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
      if (text.size() == first || text.find_first_not_of("0123456789", first) != std::string::npos)
        throw util::UsageError(name + " must be a whole number from " + std::to_string(min) + " to " +
                               std::to_string(max) + got(text));
      throw util::UsageError(text[0] == '-' ? at_least : at_most);
    }
    if (value < min) throw util::UsageError(at_least);
    if (value > max) throw util::UsageError(at_most);
    text = std::to_string(value);
  });
}

CLI::Option* require_unsigned(CLI::Option* option) {
  return attach_check(option, "0..2^64-1", [](const std::string& name, std::string& text) {
    unsigned long long value = 0;
    if (!read_whole_number(text, value))
      throw util::UsageError(name + " must be a whole number from 0 to " +
                             std::to_string(std::numeric_limits<unsigned long long>::max()) + got(text));
    text = std::to_string(value);
  });
}

CLI::Option* require_positive(CLI::Option* option) {
  return attach_check(option, ">0", [](const std::string& name, std::string& text) {
    double value = 0;
    if (!read_real_number(text, value) || !(value > 0))
      throw util::UsageError(name + " must be a positive number" + got(text));
    if (text.front() == '+') text.erase(0, 1);
  });
}

CLI::Option* require_non_negative(CLI::Option* option) {
  return attach_check(option, ">=0", [](const std::string& name, std::string& text) {
    double value = 0;
    if (!read_real_number(text, value) || !(value >= 0))
      throw util::UsageError(name + " must be zero or a positive number" + got(text));
    if (text.front() == '+') text.erase(0, 1);
  });
}

namespace {

// A bound as the message prints it: 0.01, 100, 1e+06.
std::string bound_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// What is wrong with one (non-empty) item of a count list, or "" when it is a whole number in
// min..max.
std::string count_item_problem(const std::string& item, long long min, long long max, long long& value) {
  const std::string quoted = "'" + item + "'";
  const size_t first = item[0] == '+' || item[0] == '-' ? 1 : 0;
  if (item.size() == first || item.find_first_not_of("0123456789", first) != std::string::npos)
    return quoted + " is not a whole number";
  // Digits that overflow long long are still a number, only too far out.
  if (!read_whole_number(item, value))
    value = item[0] == '-' ? std::numeric_limits<long long>::min() : std::numeric_limits<long long>::max();
  if (value < min) return quoted + " is less than " + std::to_string(min);
  if (value > max) return quoted + " is more than " + std::to_string(max);
  return {};
}

}  // namespace

CLI::Option* require_real_range(CLI::Option* option, double min, double max, const std::string& unit) {
  const std::string range = bound_text(min) + " to " + bound_text(max) + (unit.empty() ? "" : " " + unit);
  return attach_check(option, range, [min, max, range](const std::string& name, std::string& text) {
    double value = 0;
    if (!read_real_number(text, value) || value < min || value > max)
      throw util::UsageError(name + " must be a number from " + range + got(text));
    if (text.front() == '+') text.erase(0, 1);
  });
}

CLI::Option* require_duration(CLI::Option* option, double max_seconds) {
  const std::string hours = bound_text(max_seconds / 3600.0) + "h";
  return attach_check(option, "duration", [max_seconds, hours](const std::string& name, std::string& text) {
    const std::optional<double> seconds = util::duration_seconds(text);
    if (!seconds || !(*seconds > 0) || *seconds > max_seconds)
      throw util::UsageError(name + " must be a duration of more than 0 and at most " + hours +
                             ": a number and its unit (ms, s, m or h), e.g. 60s, 2m or 0.5s" + got(text));
  });
}

CLI::Option* add_count_list(CLI::App& app, const std::string& name, std::vector<long long>& values, long long min,
                            long long max, const std::string& description) {
  const std::string rule = name + " must be whole numbers from " + std::to_string(min) + " to " + std::to_string(max) +
                           ", separated by commas";
  return app.add_option_function<std::string>(
      name,
      [&values, min, max, rule](const std::string& text) {
        std::vector<long long> counts;
        size_t start = 0;
        while (true) {
          const size_t comma = std::min(text.find(',', start), text.size());
          const std::string item = text.substr(start, comma - start);
          if (item.empty()) throw util::UsageError(rule + ": an item is empty" + got(text));
          long long value = 0;
          if (const std::string problem = count_item_problem(item, min, max, value); !problem.empty())
            throw util::UsageError(rule + ": " + problem);
          counts.push_back(value);
          if (comma == text.size()) break;
          start = comma + 1;
        }
        values = std::move(counts);
      },
      description);
}

CLI::Option* require_non_empty(CLI::Option* option) {
  return attach_check(option, "", [](const std::string& name, std::string& text) {
    if (text.empty()) throw util::UsageError(name + " must not be empty");
  });
}

void check_edge_count(int scale, int edgefactor) {
  if (scale >= 0 && scale < 63 && edgefactor > (std::numeric_limits<int64_t>::max() >> scale))
    throw util::UsageError("--edgefactor " + std::to_string(edgefactor) + " is too large for SCALE " +
                           std::to_string(scale) + " (more than 2^63 - 1 edges)");
}

void parse_seed_pair(const std::string& text, uint64_t& seed1, uint64_t& seed2) {
  // Decimal digits only: no sign, space or 0x, and nothing after B.
  auto parse = [](std::string_view digits, uint64_t& value) {
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return !digits.empty() && error == std::errc() && end == digits.data() + digits.size();
  };
  const size_t comma = text.find(',');
  const std::string_view all(text);
  if (comma == std::string::npos || !parse(all.substr(0, comma), seed1) || !parse(all.substr(comma + 1), seed2))
    throw util::UsageError("--seed '" + text + "' is not of the form A,B with two unsigned 64-bit integers");
}

}  // namespace g500::cli
