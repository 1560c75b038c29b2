// Every point-to-point collective algorithm must reproduce MPI's own result (run at 1..8 ranks).
#include <gtest/gtest.h>
#include <mpi.h>

#include <numeric>
#include <vector>

#include "coll/coll_check.hpp"
#include "comm/collectives.hpp"

namespace {

using g500::coll::CollOp;

// A communicator unlike MPI_COMM_WORLD: two halves with rank order reversed.
MPI_Comm reversed_halves() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &comm);
  return comm;
}

void expect_all_match(CollOp op, MPI_Comm comm) {
  for (const auto& algorithm : g500::coll::algorithms(op)) {
    auto result = g500::coll::check_algorithm(op, algorithm, comm);
    EXPECT_TRUE(result.first_mismatch.empty()) << result.first_mismatch;
    EXPECT_GT(result.cases, 0) << algorithm.name;
  }
}

TEST(CollAlgorithms, AlltoallvMatchesMpi) { expect_all_match(CollOp::alltoallv, MPI_COMM_WORLD); }
TEST(CollAlgorithms, AlltoallMatchesMpi) { expect_all_match(CollOp::alltoall, MPI_COMM_WORLD); }
TEST(CollAlgorithms, AllgathervMatchesMpi) { expect_all_match(CollOp::allgatherv, MPI_COMM_WORLD); }
TEST(CollAlgorithms, BcastMatchesMpi) { expect_all_match(CollOp::bcast, MPI_COMM_WORLD); }

TEST(CollAlgorithms, AllMatchOnSubCommunicator) {
  MPI_Comm comm = reversed_halves();
  auto result = g500::coll::check_everything(comm);
  EXPECT_TRUE(result.first_mismatch.empty()) << result.first_mismatch;
  MPI_Comm_free(&comm);
}

// The BFS tables: every registered name works, including MPI_IN_PLACE alltoallv.
TEST(CollAlgorithms, BfsTablesWork) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ASSERT_NE(g500::comm::find_alltoallv("mpi"), nullptr);
  ASSERT_EQ(g500::comm::find_alltoallv("no-such"), nullptr);
  std::vector<int> counts(size), displs(size);
  for (int p = 0; p < size; ++p) counts[p] = (rank + p) % 3;
  std::vector<int> recvcounts(size), rdispls(size);
  for (int p = 0; p < size; ++p) recvcounts[p] = (p + rank) % 3;
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::exclusive_scan(recvcounts.begin(), recvcounts.end(), rdispls.begin(), 0);
  std::vector<std::uint64_t> send(std::accumulate(counts.begin(), counts.end(), 0));
  for (int p = 0; p < size; ++p)
    for (int i = 0; i < counts[p]; ++i) send[displs[p] + i] = 1000000ull * rank + 1000ull * p + i;
  const std::size_t received = std::accumulate(recvcounts.begin(), recvcounts.end(), 0);
  std::vector<std::uint64_t> want(received);
  MPI_Alltoallv(send.data(), counts.data(), displs.data(), MPI_UINT64_T, want.data(), recvcounts.data(), rdispls.data(),
                MPI_UINT64_T, MPI_COMM_WORLD);
  for (const auto& name : g500::comm::alltoallv_names()) {
    std::vector<std::uint64_t> got(received);
    g500::comm::find_alltoallv(name)(send.data(), counts.data(), displs.data(), MPI_UINT64_T, got.data(),
                                     recvcounts.data(), rdispls.data(), MPI_UINT64_T, MPI_COMM_WORLD);
    EXPECT_EQ(got, want) << name;
  }
  for (const auto& name : g500::comm::allgatherv_names()) {
    std::vector<int> each(size), at(size);
    for (int p = 0; p < size; ++p) each[p] = p % 2 + 1;
    std::exclusive_scan(each.begin(), each.end(), at.begin(), 0);
    std::vector<std::int64_t> got(at[size - 1] + each[size - 1], -1), mine(each[rank], rank);
    g500::comm::find_allgatherv(name)(mine.data(), each[rank], MPI_INT64_T, got.data(), each.data(), at.data(),
                                      MPI_INT64_T, MPI_COMM_WORLD);
    for (int p = 0; p < size; ++p)
      for (int i = 0; i < each[p]; ++i) EXPECT_EQ(got[at[p] + i], p) << name;
  }
}

}  // namespace
