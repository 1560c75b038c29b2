// LineScatter writes every value to its stream's next place and nothing else: streams that begin
// and end inside cache lines, lines shared by two streams (of one scatter or of two, as two threads
// use it), streams moved to a new place part way, for 4- and 8-byte values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "util/line_scatter.hpp"
#include "util/raw_buffer.hpp"

namespace g500::util {
namespace {

template <class T>
void scatter_into_regions(uint64_t seed) {
  constexpr T kUntouched = static_cast<T>(0xA5A5A5A5A5A5A5A5ull);
  std::mt19937_64 random(seed);
  constexpr int kStreams = 37;
  // Back to back regions of random sizes (0 to a few lines): most begin and end inside a line.
  std::vector<int64_t> begin(kStreams + 1, 0);
  for (int s = 0; s < kStreams; ++s) begin[s + 1] = begin[s] + static_cast<int64_t>(random() % 70);
  const int64_t total = begin[kStreams];
  RawBuffer<T> buffer;
  T* out = buffer.get(static_cast<size_t>(total + 64));
  std::fill(out, out + total + 64, kUntouched);
  // Even streams through one scatter, odd ones through another (two threads' share of the lines).
  LineScatter<T> even(out, kStreams), odd(out, kStreams);
  auto of = [&](int s) -> LineScatter<T>& { return s % 2 ? odd : even; };
  for (int s = 0; s < kStreams; ++s) of(s).start(s, begin[s]);
  std::vector<T> expected(static_cast<size_t>(total), kUntouched);
  std::vector<int64_t> next(begin.begin(), begin.end() - 1);
  for (int64_t k = 0; k < 4 * total; ++k) {
    const int s = static_cast<int>(random() % kStreams);
    if (next[s] == begin[s + 1]) continue;
    const T value = static_cast<T>(random());
    expected[static_cast<size_t>(next[s]++)] = value;
    of(s).put(s, value);
    EXPECT_EQ(of(s).position(s), next[s]);
  }
  even.finish();
  odd.finish();
  for (int64_t i = 0; i < total; ++i) ASSERT_EQ(out[i], expected[static_cast<size_t>(i)]) << "at " << i;
  for (int64_t i = total; i < total + 64; ++i) ASSERT_EQ(out[i], kUntouched) << "past the end at " << i;
}

TEST(LineScatter, WritesEachStreamInPlaceWithFourByteValues) {
  for (uint64_t seed = 1; seed <= 20; ++seed) scatter_into_regions<uint32_t>(seed);
}

TEST(LineScatter, WritesEachStreamInPlaceWithEightByteValues) {
  for (uint64_t seed = 1; seed <= 20; ++seed) scatter_into_regions<uint64_t>(seed);
}

// A stream moved part way (into chunks, say) leaves its earlier values where they were written,
// whether it moves at the end of a line or inside one.
TEST(LineScatter, MovedStreamKeepsWhatItWrote) {
  RawBuffer<uint32_t> buffer;
  uint32_t* out = buffer.get(256);
  std::fill(out, out + 256, 0u);
  LineScatter<uint32_t> scatter(out, 1);
  scatter.start(0, 3);
  for (uint32_t v = 1; v <= 13; ++v) scatter.put(0, v);  // [3, 16): ends on a line's end
  scatter.start(0, 100);
  for (uint32_t v = 14; v <= 20; ++v) scatter.put(0, v);  // [100, 107): inside a line
  scatter.start(0, 40);
  for (uint32_t v = 21; v <= 60; ++v) scatter.put(0, v);  // [40, 80): whole lines between
  scatter.finish();
  std::vector<uint32_t> expected(256, 0);
  for (uint32_t v = 1; v <= 13; ++v) expected[2 + v] = v;
  for (uint32_t v = 14; v <= 20; ++v) expected[86 + v] = v;
  for (uint32_t v = 21; v <= 60; ++v) expected[19 + v] = v;
  EXPECT_EQ(std::vector<uint32_t>(out, out + 256), expected);
}

}  // namespace
}  // namespace g500::util
