#include "coll/coll_check.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "comm/typed.hpp"

namespace g500::coll {

namespace {

// Element counts tried: empty, one element, odd sizes and a size spanning many segments.
const std::vector<int> kCounts{0, 1, 3, 17, 256, 1001};
// Segment sizes tried for segmented algorithms (bytes; 0 = unsegmented; 7 is smaller than an
// int64 element, so it degenerates to one element per segment).
const std::vector<int> kSegments{0, 7, 64, 1000};
constexpr unsigned char kSentinel = 0xA5;  // fills receive buffers, so stray writes show

struct TypeCase {
  MPI_Datatype type;
  const char* name;
  int bytes;
};
const std::vector<TypeCase> kTypes{{MPI_BYTE, "MPI_BYTE", 1}, {MPI_INT64_T, "MPI_INT64_T", 8}};

std::vector<unsigned char> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::vector<unsigned char> out(n);
  for (auto& b : out) b = static_cast<unsigned char>(generator());
  return out;
}

// The mismatch text of the lowest failing rank, on every rank ("" when none failed).
std::string first_failure(const std::string& local, MPI_Comm comm) {
  const comm::Communicator ranks(comm);
  const auto [rank, size] = comm_facts(comm);
  const int first = ranks.min(local.empty() ? size : rank);
  if (first == size) return {};
  const int64_t length = ranks.broadcast(rank == first ? static_cast<int64_t>(local.size()) : 0, first);
  std::string text = rank == first ? local : std::string(static_cast<size_t>(length), ' ');
  ranks.broadcast(text, first);
  return text;
}

std::string compare(const std::vector<unsigned char>& got, const std::vector<unsigned char>& want, int rank) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) return fmt::format("rank {} byte {} differs", rank, i);
  return {};
}

// Counts of the alltoallv/allgatherv patterns: "even" (all equal), "uneven" (pseudo-random with
// zeros; every third rank sends nothing) and "zero".
int pattern_count(const std::string& pattern, int base, int from, int to) {
  constexpr int kSilentEvery = 3;  // ranks 1, 4, 7, ... send nothing in the uneven pattern
  constexpr unsigned kMixFrom = 7919, kMixTo = 104729, kMixBase = 31;  // primes scrambling the counts
  if (pattern == "even") return base;
  if (pattern == "zero") return 0;
  if (from % kSilentEvery == 1) return 0;
  const unsigned mixed = static_cast<unsigned>(from) * kMixFrom + static_cast<unsigned>(to) * kMixTo +
                         static_cast<unsigned>(base) * kMixBase;
  return static_cast<int>(mixed % static_cast<unsigned>(2 * base + 1));
}
const std::vector<std::string> kPatterns{"even", "uneven", "zero"};

// Reversed block layout with a one-element gap after each block, so displacements matter.
std::vector<int> gapped_displs(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size());
  int at = 0;
  for (int i = static_cast<int>(counts.size()) - 1; i >= 0; --i) {
    displs[i] = at;
    at += counts[i] + 1;
  }
  return displs;
}
int span_of(const std::vector<int>& counts, const std::vector<int>& displs) {
  int span = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) span = std::max(span, displs[i] + counts[i] + 1);
  return span;
}

std::vector<Shape3> shapes_to_try(const AlgoEntry& algorithm, int size) {
  if (!algorithm.uses_shape) return {Shape3{}};
  return {Shape3{}, balanced_shape(size, 2), Shape3{{size, 1, 1}}};
}
std::vector<int> segments_to_try(const AlgoEntry& algorithm) {
  return algorithm.uses_segment ? kSegments : std::vector<int>{0};
}

std::string check_alltoallv(const AlgoEntry& algorithm, const CollOptions& options, const TypeCase& t, int base,
                            const std::string& pattern, MPI_Comm comm, std::uint64_t seed) {
  const auto [rank, size] = comm_facts(comm);
  std::vector<int> sendcounts(size), recvcounts(size);
  for (int p = 0; p < size; ++p) {
    sendcounts[p] = pattern_count(pattern, base, rank, p);
    recvcounts[p] = pattern_count(pattern, base, p, rank);
  }
  const auto sdispls = gapped_displs(sendcounts), rdispls = gapped_displs(recvcounts);
  auto send = random_bytes(static_cast<std::size_t>(span_of(sendcounts, sdispls)) * t.bytes, seed + rank);
  std::vector<unsigned char> got(static_cast<std::size_t>(span_of(recvcounts, rdispls)) * t.bytes, kSentinel);
  auto want = got;
  MPI_Alltoallv(send.data(), sendcounts.data(), sdispls.data(), t.type, want.data(), recvcounts.data(), rdispls.data(),
                t.type, comm);
  int status = algorithm.alltoallv(send.data(), sendcounts.data(), sdispls.data(), t.type, got.data(),
                                   recvcounts.data(), rdispls.data(), t.type, comm, options);
  if (status != MPI_SUCCESS) return fmt::format("rank {} returned MPI error {}", rank, status);
  return compare(got, want, rank);
}

std::string check_alltoall(const AlgoEntry& algorithm, const CollOptions& options, const TypeCase& t, int count,
                           MPI_Comm comm, std::uint64_t seed) {
  const auto [rank, size] = comm_facts(comm);
  auto send = random_bytes(static_cast<std::size_t>(count) * size * t.bytes, seed + rank);
  std::vector<unsigned char> got(send.size(), kSentinel);
  auto want = got;
  MPI_Alltoall(send.data(), count, t.type, want.data(), count, t.type, comm);
  int status = algorithm.alltoall(send.data(), count, t.type, got.data(), count, t.type, comm, options);
  if (status != MPI_SUCCESS) return fmt::format("rank {} returned MPI error {}", rank, status);
  return compare(got, want, rank);
}

std::string check_allgatherv(const AlgoEntry& algorithm, const CollOptions& options, const TypeCase& t, int base,
                             const std::string& pattern, bool in_place, MPI_Comm comm, std::uint64_t seed) {
  const auto [rank, size] = comm_facts(comm);
  std::vector<int> counts(size);
  for (int p = 0; p < size; ++p) counts[p] = pattern_count(pattern, base, p, 0);
  const auto displs = gapped_displs(counts);
  auto send = random_bytes(static_cast<std::size_t>(counts[rank]) * t.bytes, seed + rank);
  std::vector<unsigned char> got(static_cast<std::size_t>(span_of(counts, displs)) * t.bytes, kSentinel);
  auto want = got;
  MPI_Allgatherv(send.data(), counts[rank], t.type, want.data(), counts.data(), displs.data(), t.type, comm);
  const void* source = send.data();
  if (in_place) {
    if (!send.empty()) std::memcpy(&got[static_cast<std::size_t>(displs[rank]) * t.bytes], send.data(), send.size());
    source = MPI_IN_PLACE;
  }
  int status = algorithm.allgatherv(source, counts[rank], t.type, got.data(), counts.data(), displs.data(), t.type,
                                    comm, options);
  if (status != MPI_SUCCESS) return fmt::format("rank {} returned MPI error {}", rank, status);
  return compare(got, want, rank);
}

std::string check_bcast(const AlgoEntry& algorithm, const CollOptions& options, const TypeCase& t, int count, int root,
                        MPI_Comm comm, std::uint64_t seed) {
  const auto [rank, size] = comm_facts(comm);
  const auto message = random_bytes(static_cast<std::size_t>(count) * t.bytes, seed);
  std::vector<unsigned char> got(message.size(), kSentinel);
  if (rank == root) got = message;
  int status = algorithm.bcast(got.data(), count, t.type, root, comm, options);
  if (status != MPI_SUCCESS) return fmt::format("rank {} returned MPI error {}", rank, status);
  return compare(got, message, rank);
}

}  // namespace

CheckResult check_algorithm(CollOp op, const AlgoEntry& algorithm, MPI_Comm comm) {
  const int size = comm_facts(comm).size;
  CheckResult result;
  std::uint64_t seed = 1;
  for (const Shape3& shape : shapes_to_try(algorithm, size)) {
    for (int segment : segments_to_try(algorithm)) {
      const CollOptions options = options_for(algorithm, segment, shape);
      for (const TypeCase& t : kTypes) {
        for (int count : kCounts) {
          std::vector<std::string> variants;
          std::string local;
          auto describe = [&](const std::string& extra) {
            return fmt::format("{} algorithm '{}' ({} elements of {}{}{}{}) on {} ranks: ", op_name(op), algorithm.name,
                               count, t.name, algorithm.uses_shape ? ", shape " + shape_for(shape, size).text() : "",
                               algorithm.uses_segment ? fmt::format(", segment {} B", segment) : "", extra, size);
          };
          auto record = [&](const std::string& extra, const std::string& problem) {
            ++result.cases;
            std::string agreed = first_failure(problem, comm);
            if (!agreed.empty()) result.first_mismatch = describe(extra) + agreed;
            return !agreed.empty();
          };
          ++seed;
          switch (op) {
            case CollOp::alltoallv:
              for (const auto& pattern : kPatterns)
                if (record(", " + pattern + " counts",
                           check_alltoallv(algorithm, options, t, count, pattern, comm, seed)))
                  return result;
              break;
            case CollOp::alltoall:
              if (record("", check_alltoall(algorithm, options, t, count, comm, seed))) return result;
              break;
            case CollOp::allgatherv:
              for (const auto& pattern : kPatterns)
                for (bool in_place : {false, true})
                  if (record(", " + pattern + " counts" + (in_place ? ", MPI_IN_PLACE" : ""),
                             check_allgatherv(algorithm, options, t, count, pattern, in_place, comm, seed)))
                    return result;
              break;
            case CollOp::bcast:
              for (int root : {0, size - 1, size / 2})
                if (record(fmt::format(", root {}", root), check_bcast(algorithm, options, t, count, root, comm, seed)))
                  return result;
              break;
          }
        }
      }
    }
  }
  return result;
}

CheckResult check_everything(MPI_Comm comm) {
  CheckResult total;
  for (CollOp op : all_ops()) {
    for (const AlgoEntry& algorithm : algorithms(op)) {
      CheckResult one = check_algorithm(op, algorithm, comm);
      total.cases += one.cases;
      if (!one.first_mismatch.empty()) {
        total.first_mismatch = one.first_mismatch;
        return total;
      }
    }
  }
  return total;
}

}  // namespace g500::coll
