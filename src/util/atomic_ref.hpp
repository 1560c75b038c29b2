// Atomic operations on a plain object shared by OpenMP threads (a word of a bitmap, a counter of
// an array): AtomicRef<T> is std::atomic_ref<T> where the standard library has it, and otherwise
// PortableAtomicRef<T>, the same operations on the __atomic builtins of GCC and Clang (libc++
// before version 19 has no std::atomic_ref). Only the operations g500 uses are provided.
#pragma once
#include <atomic>
#include <type_traits>

namespace g500::util {

template <class T>
class PortableAtomicRef {
  static_assert(std::is_integral_v<T>, "PortableAtomicRef holds integers only");

 public:
  explicit PortableAtomicRef(T& object) : object_(&object) {}

  T load(std::memory_order order = std::memory_order_seq_cst) const { return __atomic_load_n(object_, builtin(order)); }
  void store(T value, std::memory_order order = std::memory_order_seq_cst) const {
    __atomic_store_n(object_, value, builtin(order));
  }
  T fetch_add(T value, std::memory_order order = std::memory_order_seq_cst) const {
    return __atomic_fetch_add(object_, value, builtin(order));
  }
  T fetch_sub(T value, std::memory_order order = std::memory_order_seq_cst) const {
    return __atomic_fetch_sub(object_, value, builtin(order));
  }
  T fetch_or(T value, std::memory_order order = std::memory_order_seq_cst) const {
    return __atomic_fetch_or(object_, value, builtin(order));
  }
  bool compare_exchange_weak(T& expected, T desired, std::memory_order success, std::memory_order failure) const {
    return __atomic_compare_exchange_n(object_, &expected, desired, true, builtin(success), builtin(failure));
  }
  // With one order: the failure order is the success order without its release part.
  bool compare_exchange_weak(T& expected, T desired, std::memory_order order = std::memory_order_seq_cst) const {
    return compare_exchange_weak(expected, desired, order, failure_order(order));
  }

 private:
  T* object_;

  static constexpr int builtin(std::memory_order order) {
    switch (order) {
      case std::memory_order_relaxed:
        return __ATOMIC_RELAXED;
      case std::memory_order_consume:
        return __ATOMIC_CONSUME;
      case std::memory_order_acquire:
        return __ATOMIC_ACQUIRE;
      case std::memory_order_release:
        return __ATOMIC_RELEASE;
      case std::memory_order_acq_rel:
        return __ATOMIC_ACQ_REL;
      default:
        return __ATOMIC_SEQ_CST;
    }
  }
  static constexpr std::memory_order failure_order(std::memory_order order) {
    if (order == std::memory_order_acq_rel) return std::memory_order_acquire;
    if (order == std::memory_order_release) return std::memory_order_relaxed;
    return order;
  }
};

#if defined(__cpp_lib_atomic_ref)
template <class T>
using AtomicRef = std::atomic_ref<T>;
#else
template <class T>
using AtomicRef = PortableAtomicRef<T>;
#endif

}  // namespace g500::util
