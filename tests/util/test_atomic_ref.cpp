// The atomic operations of util/atomic_ref.hpp under OpenMP threads: the portable fallback (what
// libraries without std::atomic_ref get) and AtomicRef, whichever it is here, give exact results.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <vector>

#include "util/atomic_ref.hpp"

namespace g500::util {
namespace {

constexpr int kThreads = 4;
constexpr int64_t kAdds = 100000;

template <template <class> class Ref>
void counts_exactly() {
  int64_t total = 0;
  std::vector<uint64_t> bits(4, 0);
#pragma omp parallel for num_threads(kThreads)
  for (int64_t k = 0; k < kAdds; ++k) {
    Ref<int64_t>(total).fetch_add(3, std::memory_order_relaxed);
    Ref<int64_t>(total).fetch_sub(1, std::memory_order_relaxed);
    Ref<uint64_t>(bits[k % 4]).fetch_or(uint64_t{1} << (k % 64), std::memory_order_relaxed);
  }
  EXPECT_EQ(Ref<int64_t>(total).load(std::memory_order_relaxed), 2 * kAdds);
  // Word j was given bits j, j + 4, j + 8, ... (k % 4 == j means k % 64 == j mod 4).
  for (int j = 0; j < 4; ++j) EXPECT_EQ(bits[j], 0x1111111111111111ULL << j) << j;
}

template <template <class> class Ref>
void keeps_the_minimum() {
  uint32_t best = UINT32_MAX;
#pragma omp parallel for num_threads(kThreads)
  for (int64_t k = 0; k < kAdds; ++k) {
    const uint32_t candidate = static_cast<uint32_t>((k * 7919) % kAdds) + 5;
    Ref<uint32_t> slot(best);
    uint32_t seen = slot.load(std::memory_order_relaxed);
    while (candidate < seen && !slot.compare_exchange_weak(seen, candidate, std::memory_order_relaxed)) {
    }
  }
  EXPECT_EQ(best, 5u);
  uint8_t mark = 0;
  Ref<uint8_t>(mark).store(7, std::memory_order_relaxed);
  EXPECT_EQ(Ref<uint8_t>(mark).load(std::memory_order_relaxed), 7);
}

TEST(AtomicRef, PortableFallbackCountsExactly) { counts_exactly<PortableAtomicRef>(); }
TEST(AtomicRef, PortableFallbackKeepsTheMinimum) { keeps_the_minimum<PortableAtomicRef>(); }
TEST(AtomicRef, ChosenRefCountsExactly) { counts_exactly<AtomicRef>(); }
TEST(AtomicRef, ChosenRefKeepsTheMinimum) { keeps_the_minimum<AtomicRef>(); }

}  // namespace
}  // namespace g500::util
