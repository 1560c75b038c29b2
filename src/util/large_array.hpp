// A std::vector for the large arrays of kernel 1 (the CSR's neighbours, the kept edge entries)
// whose resize() leaves new elements of trivial types uninitialised instead of zeroing them: the
// arrays are written in full right after, by all threads, so zeroing would be a serial pass over
// memory that is overwritten anyway (and would take every page fault on one thread).
// (Advising transparent huge pages for them was tried and made kernel 1 slower on the development
// machine: the 2 MiB pages are cleared in the page fault.)
#pragma once
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace g500::util {

template <class T>
class DefaultInitAllocator {
 public:
  using value_type = T;

  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T))); }
  void deallocate(T* p, size_t) noexcept { ::operator delete(p); }
  // Value-less construction default-initialises: no zeroing for trivial types.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <class U>
  bool operator==(const DefaultInitAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using LargeArray = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace g500::util
