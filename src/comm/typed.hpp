// A typed communicator: collectives whose MPI datatype is deduced from the C++ type and whose
// operation is in the name (comm.max(seconds), comm.sum_in_place(counts)), instead of a void
// pointer, a count, a datatype and an operation at every call. The style is KaMPIng's (Uhl et al.,
// "KaMPIng: Flexible and (Near) Zero-Overhead C++ Bindings for MPI", SC 2024): the communicator is
// a value handed to whoever communicates, so a library function names no communicator itself.
//
// A Communicator does not own its MPI_Comm. Single values make one MPI call; ranges go through
// comm/large_count.hpp, so a range longer than an int count (or than the message limit) is moved in
// rounds. Every function is collective over the communicator but rank() and size().
#pragma once
#include <mpi.h>

#include <cstdint>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "comm/large_count.hpp"
#include "util/message_limits.hpp"

namespace g500::comm {

// The MPI datatype of a C++ arithmetic type: integers by width and signedness (so int64_t,
// long long and their unsigned twins all work), float, double and char.
template <class T>
MPI_Datatype datatype_of() {
  using U = std::remove_cv_t<T>;
  static_assert(std::is_arithmetic_v<U> && !std::is_same_v<U, bool>, "no MPI datatype for this type");
  if constexpr (std::is_same_v<U, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<U, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<U, char>)
    return MPI_CHAR;
  else if constexpr (std::is_signed_v<U>) {
    if constexpr (sizeof(U) == 1)
      return MPI_INT8_T;
    else if constexpr (sizeof(U) == 2)
      return MPI_INT16_T;
    else if constexpr (sizeof(U) == 4)
      return MPI_INT32_T;
    else
      return MPI_INT64_T;
  } else {
    if constexpr (sizeof(U) == 1)
      return MPI_UINT8_T;
    else if constexpr (sizeof(U) == 2)
      return MPI_UINT16_T;
    else if constexpr (sizeof(U) == 4)
      return MPI_UINT32_T;
    else
      return MPI_UINT64_T;
  }
}

template <class T>
concept MpiValue = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

// A contiguous range of MPI values that can be written (vector, array, std::array, span).
template <class R>
concept MpiRange = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    MpiValue<std::remove_cv_t<std::ranges::range_value_t<R>>>;

class Communicator {
 public:
  explicit Communicator(MPI_Comm comm, util::MessageLimits limits = {}) : comm_(comm), limits_(limits) {}

  MPI_Comm mpi() const { return comm_; }
  const util::MessageLimits& limits() const { return limits_; }
  int rank() const {
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    return rank;
  }
  int size() const {
    int size = 1;
    MPI_Comm_size(comm_, &size);
    return size;
  }

  template <MpiValue T>
  T sum(T value) const {
    return reduce(value, MPI_SUM);
  }
  template <MpiValue T>
  T max(T value) const {
    return reduce(value, MPI_MAX);
  }
  template <MpiValue T>
  T min(T value) const {
    return reduce(value, MPI_MIN);
  }
  // The sum of the values of the ranks before this one (0 on rank 0): this rank's offset.
  template <MpiValue T>
  T sum_before(T value) const {
    T before{};
    checked(MPI_Exscan(&value, &before, 1, datatype_of<T>(), MPI_SUM, comm_), "MPI_Exscan");
    return rank() == 0 ? T{} : before;  // MPI_Exscan leaves rank 0's result undefined
  }
  // Whether `holds` is true on every rank / on some rank.
  bool all(bool holds) const { return reduce(holds ? 1 : 0, MPI_LAND) != 0; }
  bool any(bool holds) const { return reduce(holds ? 1 : 0, MPI_LOR) != 0; }

  // Each element replaced by its sum / maximum / minimum over the ranks.
  template <MpiRange R>
  void sum_in_place(R&& values) const {
    reduce_in_place(values, MPI_SUM);
  }
  template <MpiRange R>
  void max_in_place(R&& values) const {
    reduce_in_place(values, MPI_MAX);
  }
  template <MpiRange R>
  void min_in_place(R&& values) const {
    reduce_in_place(values, MPI_MIN);
  }

  // Root's elements to every rank (all ranks pass ranges of the same length).
  template <MpiRange R>
  void broadcast(R&& values, int root) const {
    using T = std::remove_cv_t<std::ranges::range_value_t<R>>;
    comm::bcast(std::ranges::data(values), static_cast<int64_t>(std::ranges::size(values)), datatype_of<T>(), root,
                comm_, limits_);
  }
  // Root's value, on every rank.
  template <MpiValue T>
  T broadcast(T value, int root) const {
    checked(MPI_Bcast(&value, 1, datatype_of<T>(), root, comm_), "MPI_Bcast");
    return value;
  }

  // Every rank's value, in rank order.
  template <MpiValue T>
  std::vector<T> allgather(T value) const {
    std::vector<T> values(static_cast<size_t>(size()));
    comm::allgather(&value, values.data(), 1, datatype_of<T>(), comm_, limits_);
    return values;
  }

  void barrier() const { checked(MPI_Barrier(comm_), "MPI_Barrier"); }

 private:
  static void checked(int status, const char* what) {
    if (status != MPI_SUCCESS)
      throw std::runtime_error(std::string(what) + " failed with MPI error " + std::to_string(status));
  }
  template <class T>
  T reduce(T value, MPI_Op op) const {
    checked(MPI_Allreduce(MPI_IN_PLACE, &value, 1, datatype_of<T>(), op, comm_), "MPI_Allreduce");
    return value;
  }
  // Within the limit, one MPI call straight away (what large_count would make, without its
  // datatype checks: these ranges sit in the kernels' timed loops).
  template <class R>
  void reduce_in_place(R& values, MPI_Op op) const {
    using T = std::remove_cv_t<std::ranges::range_value_t<R>>;
    const int64_t count = static_cast<int64_t>(std::ranges::size(values));
    if (count * static_cast<int64_t>(sizeof(T)) <= limits_.max_message_bytes)
      checked(
          MPI_Allreduce(MPI_IN_PLACE, std::ranges::data(values), static_cast<int>(count), datatype_of<T>(), op, comm_),
          "MPI_Allreduce");
    else
      comm::allreduce(MPI_IN_PLACE, std::ranges::data(values), count, datatype_of<T>(), op, comm_, limits_);
  }

  MPI_Comm comm_;
  util::MessageLimits limits_;
};

}  // namespace g500::comm
