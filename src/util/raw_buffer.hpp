// A growable scratch array whose elements are not initialised: chunk buffers are overwritten
// anyway, and zeroing them costs as much as using them. Its start is aligned to a cache line, so
// whole lines of it can be written around the cache (util/line_scatter.hpp).
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace g500::util {

template <class T>
class RawBuffer {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  static constexpr std::align_val_t kAlignment{64};

 public:
  T* get(size_t n) {
    if (n > capacity_) {
      data_.reset(static_cast<T*>(::operator new(n * sizeof(T), kAlignment)));
      capacity_ = n;
    }
    return data_.get();
  }
  void release() {
    data_.reset();
    capacity_ = 0;
  }

 private:
  struct Free {
    void operator()(T* p) const { ::operator delete(p, kAlignment); }
  };
  std::unique_ptr<T, Free> data_;
  size_t capacity_ = 0;
};

}  // namespace g500::util
