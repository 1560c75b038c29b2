// One thread's buckets of delta-stepping (Meyer and Sanders 2003), as sub-buckets of width
// delta / sub_buckets numbered by distance: a ring of the kRing sub-buckets from the one being
// taken, and an ordered map of the later ones that hold entries. Storage is bounded by the entries
// held, not by the range of the distances: a weight of 1e9 over a width of 0.003 puts a vertex
// 3e11 sub-buckets ahead, which a list per sub-bucket would have to reach (a circular bucket
// array as in Dial's algorithm, with the rest kept sparse). With weights below the bucket width
// times kRing / sub_buckets (Kronecker weights, the default delta) every entry is in the ring.
// Entries are deleted lazily: first_current() passes over, and empties, lists whose entries are
// all stale (their vertex has since been given a lower distance).
#pragma once
#include <cstdint>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

namespace g500::sssp {

template <class Entry>
class SubBucketQueue {
 public:
  static constexpr int64_t kRing = 1024;  // 64 buckets of 16 sub-buckets (a power of two)
  static constexpr int64_t kNone = -1;    // first_current(): no sub-bucket holds a current entry

  SubBucketQueue() : ring_(kRing) {}

  // Empty, with the ring starting at sub-bucket 0 (keeps the lists' storage for the next search).
  void clear() {
    for (auto& list : ring_) list.clear();
    far_.clear();
    base_ = 0;
    ring_entries_ = 0;
  }

  // Adds e to sub-bucket b, which must not be before the sub-bucket last taken (advance()).
  void push(int64_t b, const Entry& e) {
    if (b - base_ < kRing) {
      ring_[slot(b)].push_back(e);
      ++ring_entries_;
    } else {
      far_[b].push_back(e);
    }
  }

  // The smallest sub-bucket from `from` on (from >= the ring's start) with an entry for which
  // current(entry) holds, or kNone. Lists passed over hold only stale entries and are emptied.
  template <class Current>
  int64_t first_current(int64_t from, Current current) {
    for (int64_t b = from; ring_entries_ > 0 && b < base_ + kRing; ++b) {
      std::vector<Entry>& list = ring_[slot(b)];
      for (const Entry& e : list)
        if (current(e)) return b;
      ring_entries_ -= static_cast<int64_t>(list.size());
      list.clear();
    }
    while (!far_.empty()) {
      const auto first = far_.begin();
      for (const Entry& e : first->second)
        if (current(e)) return first->first;
      far_.erase(first);
    }
    return kNone;
  }

  // Moves the ring to start at sub-bucket b, the next one to take: every sub-bucket before b is
  // empty (taken, or emptied by first_current()), so the ring's slots of those are free for the
  // map's sub-buckets that now fall inside it. Then hands out sub-bucket b's list, which the
  // caller empties with take_done().
  std::vector<Entry>& take(int64_t b) {
    base_ = b;
    while (!far_.empty() && far_.begin()->first - base_ < kRing) {
      const auto first = far_.begin();
      ring_[slot(first->first)].swap(first->second);
      ring_entries_ += static_cast<int64_t>(ring_[slot(first->first)].size());
      far_.erase(first);
    }
    return ring_[slot(b)];
  }
  void take_done(int64_t b) {
    std::vector<Entry>& list = ring_[slot(b)];
    ring_entries_ -= static_cast<int64_t>(list.size());
    list.clear();
  }

  // Entries held (stale ones included): bounds the memory, for tests.
  int64_t size() const {
    int64_t n = ring_entries_;
    for (const auto& [b, list] : far_) n += static_cast<int64_t>(list.size());
    return n;
  }

 private:
  static size_t slot(int64_t b) { return static_cast<size_t>(b) & static_cast<size_t>(kRing - 1); }

  std::vector<std::vector<Entry>> ring_;       // sub-bucket b at b mod kRing, for b in [base_, base_ + kRing)
  std::map<int64_t, std::vector<Entry>> far_;  // sub-buckets from base_ + kRing on (when pushed) that hold entries
  int64_t base_ = 0;                           // the sub-bucket last taken
  int64_t ring_entries_ = 0;
};

}  // namespace g500::sssp
