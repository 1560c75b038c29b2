// comm/typed.hpp at 1, 2, 4 and 6 ranks: each typed collective gives the value the ranks' inputs
// imply, for every integer width and sign, float and double; ranges in one call and in rounds
// (a tiny message limit); the datatype deduced for each C++ type.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "comm/typed.hpp"

namespace g500::comm {
namespace {

Communicator world() { return Communicator(MPI_COMM_WORLD); }

TEST(TypedComm, RankAndSizeAreMpis) {
  int rank = -1, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(world().rank(), rank);
  EXPECT_EQ(world().size(), size);
  EXPECT_EQ(world().mpi(), MPI_COMM_WORLD);
}

TEST(TypedComm, DatatypesFollowWidthAndSign) {
  EXPECT_EQ(datatype_of<int>(), MPI_INT32_T);
  EXPECT_EQ(datatype_of<int64_t>(), MPI_INT64_T);
  EXPECT_EQ(datatype_of<long long>(), MPI_INT64_T);
  EXPECT_EQ(datatype_of<uint64_t>(), MPI_UINT64_T);
  EXPECT_EQ(datatype_of<unsigned long long>(), MPI_UINT64_T);
  EXPECT_EQ(datatype_of<uint32_t>(), MPI_UINT32_T);
  EXPECT_EQ(datatype_of<int16_t>(), MPI_INT16_T);
  EXPECT_EQ(datatype_of<uint8_t>(), MPI_UINT8_T);
  EXPECT_EQ(datatype_of<double>(), MPI_DOUBLE);
  EXPECT_EQ(datatype_of<float>(), MPI_FLOAT);
  EXPECT_EQ(datatype_of<char>(), MPI_CHAR);
}

TEST(TypedComm, ScalarReductions) {
  const Communicator comm = world();
  const int r = comm.rank(), p = comm.size();
  const int64_t n = p;
  EXPECT_EQ(comm.sum(r + 1), p * (p + 1) / 2);
  EXPECT_EQ(comm.sum(int64_t{1} << 40), n << 40);  // beyond 32 bits
  EXPECT_EQ(comm.max(int64_t{r} - 5), int64_t{p} - 6);
  EXPECT_EQ(comm.min(int64_t{r} - 5), -5);
  EXPECT_EQ(comm.max(std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(r)),
            std::numeric_limits<uint64_t>::max());  // unsigned: the top bit is not a sign
  EXPECT_EQ(comm.min(uint32_t{4000000000u} + static_cast<uint32_t>(r)), 4000000000u);
  EXPECT_EQ(comm.sum(static_cast<unsigned long long>(r) * 3), 3ull * p * (p - 1) / 2);
  EXPECT_DOUBLE_EQ(comm.max(0.5 * r), 0.5 * (p - 1));
  EXPECT_DOUBLE_EQ(comm.sum(0.25), 0.25 * p);
  EXPECT_FLOAT_EQ(comm.max(static_cast<float>(r) + 0.5f), static_cast<float>(p) - 0.5f);
}

TEST(TypedComm, SumOfTheRanksBefore) {
  const Communicator comm = world();
  const int r = comm.rank();
  EXPECT_EQ(comm.sum_before(r + 1), r * (r + 1) / 2);
  EXPECT_EQ(comm.sum_before(int64_t{1} << 40), int64_t{r} << 40);  // beyond 32 bits
  EXPECT_DOUBLE_EQ(comm.sum_before(0.5), 0.5 * r);
}

TEST(TypedComm, AllAndAny) {
  const Communicator comm = world();
  const int r = comm.rank(), p = comm.size();
  EXPECT_TRUE(comm.all(true));
  EXPECT_FALSE(comm.all(false));
  EXPECT_FALSE(comm.all(r != p - 1));  // false on the last rank: false everywhere
  EXPECT_FALSE(comm.any(false));
  EXPECT_TRUE(comm.any(r == p - 1));
}

TEST(TypedComm, RangesInPlace) {
  const Communicator comm = world();
  const int r = comm.rank(), p = comm.size();
  std::vector<int64_t> counts{r, 1, -r};
  comm.sum_in_place(counts);
  EXPECT_EQ(counts, (std::vector<int64_t>{int64_t{p} * (p - 1) / 2, p, -int64_t{p} * (p - 1) / 2}));
  double seconds[] = {1.0 * r, -1.0 * r};
  comm.max_in_place(seconds);
  EXPECT_DOUBLE_EQ(seconds[0], p - 1);
  EXPECT_DOUBLE_EQ(seconds[1], 0);
  std::array<uint32_t, 2> low{static_cast<uint32_t>(10 + r), static_cast<uint32_t>(100 - r)};
  comm.min_in_place(low);
  EXPECT_EQ(low, (std::array<uint32_t, 2>{10u, static_cast<uint32_t>(100 - (p - 1))}));
  std::vector<double> empty;
  comm.sum_in_place(empty);  // a call on every rank, nothing moved
  EXPECT_TRUE(empty.empty());
}

// 1000 elements under a 24-byte limit: the range moves in rounds of 3 elements, with the same result.
TEST(TypedComm, RangesInRounds) {
  const Communicator comm(MPI_COMM_WORLD, util::MessageLimits{24});
  const int r = comm.rank(), p = comm.size();
  std::vector<int64_t> values(1000);
  for (size_t k = 0; k < values.size(); ++k) values[k] = static_cast<int64_t>(k) * (r + 1);
  comm.sum_in_place(values);
  for (size_t k = 0; k < values.size(); ++k) ASSERT_EQ(values[k], static_cast<int64_t>(k) * p * (p + 1) / 2) << k;
  std::vector<double> broadcast(1000, r == 0 ? 2.5 : -1.0);
  if (r == 0) broadcast[999] = 7;
  comm.broadcast(broadcast, 0);
  EXPECT_DOUBLE_EQ(broadcast[0], 2.5);
  EXPECT_DOUBLE_EQ(broadcast[998], 2.5);
  EXPECT_DOUBLE_EQ(broadcast[999], 7);
}

TEST(TypedComm, BroadcastFromEveryRoot) {
  const Communicator comm = world();
  const int r = comm.rank(), p = comm.size();
  for (int root = 0; root < p; ++root) {
    EXPECT_EQ(comm.broadcast(int64_t{1000} + r, root), 1000 + root);
    std::vector<int> values{r, 2 * r, 3 * r};
    comm.broadcast(values, root);
    EXPECT_EQ(values, (std::vector<int>{root, 2 * root, 3 * root}));
  }
}

TEST(TypedComm, AllgatherInRankOrder) {
  const Communicator comm = world();
  const int r = comm.rank(), p = comm.size();
  const std::vector<int64_t> gathered = comm.allgather((int64_t{r} << 33) + 7);
  ASSERT_EQ(static_cast<int>(gathered.size()), p);
  for (int k = 0; k < p; ++k) EXPECT_EQ(gathered[k], (int64_t{k} << 33) + 7);
  const std::vector<double> halves = comm.allgather(0.5 * r);
  for (int k = 0; k < p; ++k) EXPECT_DOUBLE_EQ(halves[k], 0.5 * k);
}

// A sub-communicator: the value is the communicator's, not the world's.
TEST(TypedComm, WorksOnAnyCommunicator) {
  const int r = world().rank();
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
  const Communicator comm(half);
  int expected = 0;
  for (int k = r % 2; k < world().size(); k += 2) expected += k;
  EXPECT_EQ(comm.sum(r), expected);
  EXPECT_EQ(comm.rank(), r / 2);
  MPI_Comm_free(&half);
}

}  // namespace
}  // namespace g500::comm
