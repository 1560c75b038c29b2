// Where each row slot's neighbours start, for BCSR's rows with edges (graph/row_index.hpp): a
// word per 64 slots, the start of the group's first, and 32 bits per slot relative to it. That
// is 4.125 bytes per slot where a word per slot takes 8; on Fugaku-sized grids a process's rows
// with edges are a third of its entries (3.6e8 at SCALE 42 on 256 x 256), so the difference is
// 1.3 GiB per process. A start reads the two arrays; the words are 1/16 of the bytes and stay
// in cache.
//
// The starts are written in any order, each at its slot, as absolute values: a slot keeps the low
// 32 bits, the group's first slot its whole start too; finish() then makes the low bits relative
// to the group's start (exact as long as a group's entries stay below 2^32).
#pragma once
#include <cstdint>
#include <stdexcept>

#include "util/large_array.hpp"

namespace g500::graph {

class SlotStarts {
 public:
  static constexpr int kGroupBits = 6;
  static constexpr int64_t kGroup = int64_t{1} << kGroupBits;
  // Bytes per slot, for the memory plan.
  static constexpr double kBytesPerSlot = sizeof(uint32_t) + static_cast<double>(sizeof(int64_t)) / kGroup;

  // `count` starts (the slots and the end), unwritten.
  void resize(int64_t count) {
    relative_.resize(static_cast<size_t>(count));
    group_start_.resize(static_cast<size_t>((count + kGroup - 1) / kGroup));
  }
  // Start s, before finish(); other threads may set other slots meanwhile.
  void set(int64_t s, int64_t start) {
    relative_[s] = static_cast<uint32_t>(start);
    if (s % kGroup == 0) group_start_[s / kGroup] = start;
    if (s == size() - 1) end_ = start;
  }
  // After every start is set (in parallel). The starts ascend, so a group's are exact when the
  // next group's start (or the end) is within 2^32 of its own.
  void finish() {
    const int64_t count = size(), groups = static_cast<int64_t>(group_start_.size());
    bool too_far = false;
#pragma omp parallel for schedule(static) reduction(|| : too_far)
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t next = g + 1 < groups ? group_start_[g + 1] : end_;
      too_far = too_far || next - group_start_[g] > static_cast<int64_t>(UINT32_MAX);
    }
    if (too_far) throw std::length_error("kernel 1: 64 rows with 2^32 entries or more on one process");
#pragma omp parallel for schedule(static)
    for (int64_t s = 0; s < count; ++s) relative_[s] -= static_cast<uint32_t>(group_start_[s / kGroup]);
  }

  int64_t size() const { return static_cast<int64_t>(relative_.size()); }
  bool empty() const { return relative_.empty(); }
  int64_t operator[](int64_t s) const { return group_start_[s >> kGroupBits] + relative_[s]; }
  int64_t back() const { return end_; }
  size_t memory_bytes() const { return relative_.size() * sizeof(uint32_t) + group_start_.size() * sizeof(int64_t); }
  // For hot loops: start s is group_starts()[s >> kGroupBits] + relative()[s].
  const uint32_t* relative() const { return relative_.data(); }
  const int64_t* group_starts() const { return group_start_.data(); }

 private:
  util::LargeArray<uint32_t> relative_;
  util::LargeArray<int64_t> group_start_;
  int64_t end_ = 0;  // the last start: the entries in all
};

}  // namespace g500::graph
