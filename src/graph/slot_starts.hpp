// Where each row slot's neighbours start, for BCSR's rows with edges (graph/row_index.hpp): per
// group of 64 slots the start of its first, and 16 bits per slot relative to it. On Fugaku-sized
// grids a process's rows with edges are a sixth of its entries (3.6e8 at SCALE 42 on 256 x 256)
// with about six entries each, so a group's entries nearly always fit in 16 bits: 2.25 bytes per
// slot where a word per slot takes 8 (0.6 GiB there against 32-bit relatives). A group whose
// entries do not (a hub row, or 64 long ones) keeps its slots' relatives in 32 bits instead,
// elsewhere; its group says where. A start reads the 16 bits and the group, 1/8 of the bytes,
// which stays in cache.
//
// The starts are written in any order, each at its slot, as absolute values with their rows'
// lengths: a slot keeps the low 16 bits, the group's first slot its whole start, and a row of
// 2^16 entries or more the whole start after it too (a few per process). finish() then rebuilds
// each group's starts from the low bits, which differ by the row lengths modulo 2^16, and stores
// them relative to the group's start.
#pragma once
#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "util/large_array.hpp"

namespace g500::graph {

class SlotStarts {
 public:
  static constexpr int kGroupBits = 6;
  static constexpr int64_t kGroup = int64_t{1} << kGroupBits;
  struct Group {
    int64_t start;  // of the group's first slot
    int64_t wide;   // where its 32-bit relatives start in wide_, or kNarrow
  };
  static constexpr int64_t kNarrow = -1;
  // Bytes per slot, for the memory plan (the rare wide groups left out).
  static constexpr double kBytesPerSlot = sizeof(uint16_t) + static_cast<double>(sizeof(Group)) / kGroup;

  // `count` starts (the slots and the end), unwritten.
  void resize(int64_t count) {
    low_.resize(static_cast<size_t>(count));
    groups_.resize(static_cast<size_t>((count + kGroup - 1) / kGroup));
    wide_.clear();
    after_long_.clear();
  }
  // Start s of a row of `length` entries (the end: 0), before finish(); other threads may set
  // other slots meanwhile.
  void set(int64_t s, int64_t start, int64_t length) {
    low_[s] = static_cast<uint16_t>(start);
    if (s % kGroup == 0) groups_[s / kGroup] = Group{start, kNarrow};
    if (s == size() - 1) end_ = start;
    if (length > kLowMask && s + 1 < size()) {
#pragma omp critical(g500_slot_starts_after_long)
      after_long_.emplace_back(s + 1, start + length);
    }
  }
  // After every start is set (in parallel).
  void finish() {
    std::sort(after_long_.begin(), after_long_.end());
    const int64_t count = size(), groups = static_cast<int64_t>(groups_.size());
    // The wide groups first (their places in wide_), then every group's relatives.
    std::vector<int64_t> wide_at(static_cast<size_t>(groups) + 1, 0);
    bool too_far = false;
#pragma omp parallel for schedule(static) reduction(|| : too_far)
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t span = group_end(g) - groups_[g].start;
      too_far = too_far || span > static_cast<int64_t>(UINT32_MAX);
      wide_at[g + 1] = span > kLowMask ? 1 : 0;
    }
    if (too_far) throw std::length_error("kernel 1: 64 rows with 2^32 entries or more on one process");
    for (int64_t g = 0; g < groups; ++g) wide_at[g + 1] += wide_at[g];
    wide_.resize(static_cast<size_t>(wide_at[groups] * kGroup));
#pragma omp parallel for schedule(static)
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t first = g * kGroup, n = std::min(kGroup, count - first);
      std::array<int64_t, kGroup> start{};
      start[0] = groups_[g].start;
      auto recorded = std::lower_bound(after_long_.begin(), after_long_.end(), first + 1,
                                       [](const std::pair<int64_t, int64_t>& a, int64_t s) { return a.first < s; });
      for (int64_t i = 1; i < n; ++i) {
        const int64_t s = first + i;
        if (recorded != after_long_.end() && recorded->first == s) {
          start[i] = (recorded++)->second;
        } else {
          start[i] = start[i - 1] + static_cast<uint16_t>(low_[s] - low_[s - 1]);
        }
      }
      if (wide_at[g + 1] > wide_at[g]) {
        groups_[g].wide = wide_at[g] * kGroup;
        for (int64_t i = 0; i < n; ++i) wide_[groups_[g].wide + i] = static_cast<uint32_t>(start[i] - start[0]);
      } else {
        for (int64_t i = 0; i < n; ++i) low_[first + i] = static_cast<uint16_t>(start[i] - start[0]);
      }
    }
    after_long_ = {};
  }

  int64_t size() const { return static_cast<int64_t>(low_.size()); }
  bool empty() const { return low_.empty(); }
  int64_t operator[](int64_t s) const {
    const Group& g = groups_[s >> kGroupBits];
    if (g.wide == kNarrow) [[likely]]
      return g.start + low_[s];
    return g.start + wide_[g.wide + (s & (kGroup - 1))];
  }
  int64_t back() const { return end_; }
  size_t memory_bytes() const {
    return low_.size() * sizeof(uint16_t) + groups_.size() * sizeof(Group) + wide_.size() * sizeof(uint32_t);
  }
  // Groups whose relatives take 32 bits (for tests and reports).
  int64_t wide_groups() const { return static_cast<int64_t>(wide_.size()) / kGroup; }

 private:
  static constexpr int64_t kLowMask = UINT16_MAX;
  int64_t group_end(int64_t g) const {
    return g + 1 < static_cast<int64_t>(groups_.size()) ? groups_[g + 1].start : end_;
  }

  util::LargeArray<uint16_t> low_;                       // per slot: the low 16 bits, then (narrow groups) the relative
  util::LargeArray<Group> groups_;                       // per group of kGroup slots
  util::LargeArray<uint32_t> wide_;                      // the wide groups' relatives, kGroup each
  std::vector<std::pair<int64_t, int64_t>> after_long_;  // (slot, start) after rows of 2^16 entries or more
  int64_t end_ = 0;                                      // the last start: the entries in all
};

}  // namespace g500::graph
