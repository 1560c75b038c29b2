// A growable scratch array whose elements are not initialised: chunk buffers are overwritten
// anyway, and zeroing them costs as much as using them.
#pragma once
#include <cstddef>
#include <memory>

namespace g500 {

template <class T>
class RawBuffer {
 public:
  T* get(size_t n) {
    if (n > capacity_) {
      data_.reset(new T[n]);
      capacity_ = n;
    }
    return data_.get();
  }
  void release() {
    data_.reset();
    capacity_ = 0;
  }

 private:
  std::unique_ptr<T[]> data_;
  size_t capacity_ = 0;
};

}  // namespace g500
