// Buffers a search keeps from root to root (their memory grown to a level's largest), freed while
// the validation needs the memory and made again before the next timed search: as large as they
// were, every element written, so that the search takes neither their allocation nor their page
// faults inside its timer (as the reference allocates its buffers once, before any timer).
#pragma once
#include <cstddef>
#include <vector>

namespace g500::util {

class HeldBuffers {
 public:
  bool released() const { return released_; }
  // Frees v, noting its size and capacity.
  template <class V>
  void release(V& v) {
    shapes_.push_back(Shape{v.size(), v.capacity()});
    V().swap(v);
    released_ = true;
  }
  // Makes the next buffer, in the order they were released, as it was (its contents value-initialised).
  template <class V>
  void restore(V& v) {
    const Shape shape = shapes_[next_++];
    v.resize(shape.capacity);  // from empty, exactly this capacity, every element written
    v.resize(shape.size);
  }
  // After every buffer is restored.
  void restored() {
    shapes_.clear();
    next_ = 0;
    released_ = false;
  }

 private:
  struct Shape {
    size_t size, capacity;
  };
  std::vector<Shape> shapes_;
  size_t next_ = 0;
  bool released_ = false;
};

}  // namespace g500::util
