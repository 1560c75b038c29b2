#include "jobs/script_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "util/error.hpp"

namespace g500::jobs {
namespace {

constexpr unsigned char kDelete = 0x7f;
constexpr unsigned char kFirstPrintable = 0x20;

bool is_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < kFirstPrintable || byte == kDelete;
}

std::string escaped(char c) {
  if (c == '\n') return "\\n";
  if (c == '\r') return "\\r";
  if (c == '\t') return "\\t";
  return fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
}

bool is_letter_or_digit(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

}  // namespace

void refuse_control_characters(const std::string& option, const std::string& value) {
  std::string shown, first;
  for (char c : value) {
    if (!is_control(c)) {
      shown += c;
      continue;
    }
    shown += escaped(c);
    if (first.empty()) first = escaped(c);
  }
  if (!first.empty())
    throw util::UsageError(
        fmt::format("{} '{}' has a control character ({}), which would break the batch script", option, shown, first));
}

void refuse_leading_dash(const std::string& option, const std::string& value, const std::string& program) {
  if (value.starts_with('-'))
    throw util::UsageError(fmt::format("{} '{}' starts with '-', which {} would read as an option (write ./{})", option,
                                       value, program, value));
}

void check_directive_name(const std::string& option, const std::string& value, const std::string& what,
                          bool commas_allowed) {
  bool ok = !value.empty() && value.front() != ',' && value.back() != ',';
  for (char c : value)
    ok = ok && (is_letter_or_digit(c) || c == '.' || c == '_' || c == '-' || (commas_allowed && c == ','));
  if (!ok)
    throw util::UsageError(fmt::format("{} '{}' is not a {}: use letters, digits, '.', '_' and '-'{}", option, value,
                                       what, commas_allowed ? " (and ',' between names)" : ""));
}

}  // namespace g500::jobs
