// One exchange that MPI's int counts cannot describe, at 2 ranks: rank 0 sends 2^31 + 4096 bytes
// to rank 1 (a count above 2^31 - 1), and rank 1's block to itself lands behind them (a
// displacement above 2^31 - 1). comm/large_count.hpp moves it in rounds of at most 256 MiB; every
// byte must arrive. About 4.5 GiB of memory in all.
#include <gtest/gtest.h>
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/large_count.hpp"

namespace g500::comm {
namespace {

constexpr int64_t kLarge = (int64_t{1} << 31) + 4096;
constexpr int64_t kSmall = 100;
constexpr int64_t kRoundBytes = int64_t{1} << 28;

unsigned char pattern(int64_t i, int from) { return static_cast<unsigned char>((i * 2654435761u >> 13) + 17 * from); }

TEST(LargeCountReal, AlltoallvBeyondIntCountsAndDisplacements) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ASSERT_EQ(size, 2) << "this test runs at 2 ranks";
  AlltoallvLayout layout;
  // rank 0: kSmall to itself, kLarge to rank 1; rank 1: kSmall to rank 0 and kSmall to itself.
  layout.send_counts = rank == 0 ? std::vector<int64_t>{kSmall, kLarge} : std::vector<int64_t>{kSmall, kSmall};
  std::vector<unsigned char> send(static_cast<size_t>(layout.send_counts[0] + layout.send_counts[1]));
  for (int64_t i = 0; i < static_cast<int64_t>(send.size()); ++i) send[i] = pattern(i, rank);
  exchange_counts(layout, MPI_COMM_WORLD);
  ASSERT_EQ(layout.largest_block, kLarge);
  ASSERT_EQ(layout.recv_total, rank == 0 ? 2 * kSmall : kLarge + kSmall);
  if (rank == 1) {
    ASSERT_GT(layout.recv_displs[1], INT_MAX);
  }
  std::vector<unsigned char> recv(static_cast<size_t>(layout.recv_total));
  const int64_t rounds = alltoallv(send.data(), recv.data(), MPI_BYTE, layout, MPI_COMM_WORLD, find_alltoallv("mpi"),
                                   util::MessageLimits{kRoundBytes});
  EXPECT_EQ(rounds, (kLarge + kRoundBytes / 2 - 1) / (kRoundBytes / 2));
  int64_t wrong = 0;
  if (rank == 0) {
    for (int64_t i = 0; i < kSmall; ++i) wrong += recv[i] != pattern(i, 0);
    for (int64_t i = 0; i < kSmall; ++i) wrong += recv[kSmall + i] != pattern(i, 1);
  } else {
    for (int64_t i = 0; i < kLarge; ++i) wrong += recv[i] != pattern(kSmall + i, 0);
    for (int64_t i = 0; i < kSmall; ++i) wrong += recv[kLarge + i] != pattern(kSmall + i, 1);
  }
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace g500::comm
