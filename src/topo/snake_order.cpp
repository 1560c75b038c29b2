// Snake order of Nakao et al. 2021, section 5.6 (Fig. 11): reflected mixed-radix Gray code, axis 0 fastest.
#include "topo/snake_order.hpp"

namespace g500::topo {

std::vector<int> snake_digits(int64_t index, const std::vector<int>& sizes) {
  const int n = static_cast<int>(sizes.size());
  std::vector<int> digits(n, 0);
  int64_t inner = 1;
  for (int d = 0; d < n; ++d) inner *= sizes[d];
  // From the slowest axis down: when the enclosing digit is odd, the inner sweep runs backwards.
  int64_t rest = index;
  for (int d = n - 1; d >= 0; --d) {
    inner /= sizes[d];
    int digit = static_cast<int>(rest / inner);
    rest %= inner;
    digits[d] = digit;
    if (digit % 2 == 1) rest = inner - 1 - rest;
  }
  return digits;
}

int64_t snake_index(const std::vector<int>& digits, const std::vector<int>& sizes) {
  const int n = static_cast<int>(sizes.size());
  int64_t index = 0, inner = 1;
  for (int d = 0; d < n; ++d) {
    int64_t local = index;  // position within the inner block before applying digit d
    if (digits[d] % 2 == 1) local = inner - 1 - local;
    index = static_cast<int64_t>(digits[d]) * inner + local;
    inner *= sizes[d];
  }
  return index;
}

}  // namespace g500::topo
