// Division by a run-time constant with a multiply and shifts (Granlund and Montgomery, "Division
// by invariant integers using multiplication", PLDI 1994, Figure 4.1). Kernel 1 and the BFS map
// every vertex id to its block, grid row and column; a hardware 64-bit divide there costs more
// than everything else per edge.
#pragma once
#include <bit>
#include <cstdint>

namespace g500::util {

class FastDivisor {
 public:
  FastDivisor() : FastDivisor(1) {}
  explicit FastDivisor(uint64_t divisor) : divisor_(divisor) {
    if (std::has_single_bit(divisor)) {
      power_of_two_ = true;
      shift_ = std::countr_zero(divisor);
      return;
    }
    const int ceil_log2 = 64 - std::countl_zero(divisor - 1);
    const unsigned __int128 numerator = (static_cast<unsigned __int128>((uint64_t{1} << ceil_log2) - divisor)) << 64;
    multiplier_ = static_cast<uint64_t>(numerator / divisor) + 1;
    shift_ = ceil_log2 - 1;
  }
  uint64_t divisor() const { return divisor_; }
  uint64_t divide(uint64_t x) const {
    if (power_of_two_) return x >> shift_;
    const uint64_t high = static_cast<uint64_t>((static_cast<unsigned __int128>(multiplier_) * x) >> 64);
    return (high + ((x - high) >> 1)) >> shift_;
  }
  uint64_t remainder(uint64_t x) const { return x - divide(x) * divisor_; }

 private:
  uint64_t divisor_ = 1;
  uint64_t multiplier_ = 0;
  int shift_ = 0;
  bool power_of_two_ = false;
};

}  // namespace g500::util
