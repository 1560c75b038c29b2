#include "util/grid_shape.hpp"

#include <cmath>

#include "util/error.hpp"

namespace g500::util {

GridShape closest_factor_shape(long long n) {
  long long cols = static_cast<long long>(std::sqrt(static_cast<double>(n)));
  while (cols > 1 && n % cols != 0) --cols;
  if (cols < 1) cols = 1;
  return GridShape{static_cast<int>(n / cols), static_cast<int>(cols)};
}

GridShape parse_grid_text(const std::string& text) {
  constexpr size_t kMaxDigits = 9;  // sides below 10^9 fit an int
  auto side = [](const std::string& s) {
    return !s.empty() && s.size() <= kMaxDigits && s.find_first_not_of("0123456789") == std::string::npos;
  };
  const size_t x = text.find('x');
  if (x == std::string::npos || !side(text.substr(0, x)) || !side(text.substr(x + 1)))
    throw UsageError("--grid '" + text + "' is not of the form RxC with positive R and C (e.g. 3x2)");
  const GridShape shape{std::stoi(text.substr(0, x)), std::stoi(text.substr(x + 1))};
  if (shape.rows < 1 || shape.cols < 1)
    throw UsageError("--grid '" + text + "' is not of the form RxC with positive R and C (e.g. 3x2)");
  return shape;
}

}  // namespace g500::util
