// comm/large_count.hpp at 1, 2, 4 and 6 ranks: every wrapper gives MPI's result whether the
// message goes in one call or in rounds forced by tiny limits (1 byte, 7 bytes, 64 bytes), with
// every alltoallv and allgatherv algorithm, in place and not, with empty blocks, ranks that send
// nothing and exchanges that are empty everywhere; the number of rounds is the one the limit
// implies.
#include <gtest/gtest.h>
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "comm/coll_algorithms.hpp"
#include "comm/collectives.hpp"
#include "comm/large_count.hpp"

namespace g500::comm {
namespace {

constexpr int64_t kTinyLimits[] = {1, 7, 64};

struct World {
  int rank = 0, size = 1;
  World() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
};

util::MessageLimits limit(int64_t bytes) { return util::MessageLimits{bytes}; }

// The value of element i of the block that `from` sends to `to`: distinct for every element.
uint64_t value(int from, int to, int64_t i) { return (uint64_t(from) << 48) | (uint64_t(to) << 32) | uint64_t(i); }

// Block lengths of a skewed exchange: some blocks empty, rank 1 sends nothing at all, the block
// from r to p has (3r + 5p + salt) % 11 elements otherwise.
int64_t block_length(int from, int to, int salt) {
  if (from == 1) return 0;
  const int64_t n = (3 * from + 5 * to + salt) % 11;
  return n == 4 ? 0 : n;
}

// Expected rounds when blocks of at most `largest` elements of `bytes` go to `parts` peers.
int64_t expected_rounds(int64_t largest, int64_t bytes, int64_t parts, const util::MessageLimits& l) {
  const int64_t per = l.elements_per_part(bytes, parts);
  return largest <= per ? 1 : (largest + per - 1) / per;
}

void run_alltoallv(AlltoallvFn algorithm, const std::string& name, const util::MessageLimits& l, int salt) {
  World w;
  AlltoallvLayout layout;
  layout.send_counts.resize(w.size);
  std::vector<uint64_t> send;
  int64_t largest = 0;
  for (int p = 0; p < w.size; ++p) {
    layout.send_counts[p] = block_length(w.rank, p, salt);
    for (int64_t i = 0; i < layout.send_counts[p]; ++i) send.push_back(value(w.rank, p, i));
    for (int q = 0; q < w.size; ++q) largest = std::max(largest, block_length(q, p, salt));
  }
  exchange_counts(layout, MPI_COMM_WORLD);
  ASSERT_EQ(layout.largest_block, largest);
  std::vector<uint64_t> recv(layout.recv_total, ~uint64_t{0});
  const int64_t rounds = alltoallv(send.data(), recv.data(), MPI_UINT64_T, layout, MPI_COMM_WORLD, algorithm, l);
  EXPECT_EQ(rounds, expected_rounds(largest, 8, w.size, l)) << name << " limit " << l.max_message_bytes;
  std::vector<uint64_t> want;
  for (int q = 0; q < w.size; ++q)
    for (int64_t i = 0; i < block_length(q, w.rank, salt); ++i) want.push_back(value(q, w.rank, i));
  EXPECT_EQ(recv, want) << name << " limit " << l.max_message_bytes;
}

TEST(LargeCount, AlltoallvEveryAlgorithmEveryLimit) {
  for (const std::string& name : alltoallv_names()) {
    for (int64_t bytes : kTinyLimits) run_alltoallv(find_alltoallv(name), name, limit(bytes), 0);
    run_alltoallv(find_alltoallv(name), name, util::MessageLimits{}, 2);
  }
}

TEST(LargeCount, AlltoallvEmptyEverywhereIsOneCall) {
  World w;
  AlltoallvLayout layout;
  layout.send_counts.assign(w.size, 0);
  exchange_counts(layout, MPI_COMM_WORLD);
  EXPECT_EQ(layout.recv_total, 0);
  EXPECT_EQ(layout.largest_block, 0);
  EXPECT_EQ(alltoallv(nullptr, nullptr, MPI_UINT64_T, layout, MPI_COMM_WORLD, find_alltoallv("mpi"), limit(1)), 1);
}

// Byte records of 12 bytes (as kernel 1 of SSSP sends them): a round may cut a record in two.
TEST(LargeCount, AlltoallvOfBytesCutsRecordsAndRejoinsThem) {
  World w;
  constexpr int kRecord = 12;
  AlltoallvLayout layout;
  layout.send_counts.resize(w.size);
  std::vector<unsigned char> send;
  for (int p = 0; p < w.size; ++p) {
    layout.send_counts[p] = kRecord * (p + 1);
    for (int64_t i = 0; i < layout.send_counts[p]; ++i)
      send.push_back(static_cast<unsigned char>(w.rank * 31 + p * 7 + i));
  }
  exchange_counts(layout, MPI_COMM_WORLD);
  std::vector<unsigned char> recv(layout.recv_total);
  EXPECT_GT(alltoallv(send.data(), recv.data(), MPI_BYTE, layout, MPI_COMM_WORLD, find_alltoallv("mpi"), limit(5)), 1);
  std::vector<unsigned char> want;
  for (int q = 0; q < w.size; ++q)
    for (int64_t i = 0; i < kRecord * (w.rank + 1); ++i)
      want.push_back(static_cast<unsigned char>(q * 31 + w.rank * 7 + i));
  EXPECT_EQ(recv, want);
}

void run_allgatherv(const std::string& name, const util::MessageLimits& l, bool in_place) {
  World w;
  auto length = [](int r) -> int64_t { return r == 1 ? 0 : (5 * r + 3) % 9; };
  const std::vector<int64_t> counts = allgather_counts(length(w.rank), MPI_COMM_WORLD);
  const std::vector<int64_t> displs = packed_displacements(counts);
  int64_t largest = 0, total = 0;
  for (int r = 0; r < w.size; ++r) {
    ASSERT_EQ(counts[r], length(r));
    largest = std::max(largest, counts[r]);
    total += counts[r];
  }
  std::vector<uint32_t> mine, want, recv(total, 0xdeadbeef);
  for (int r = 0; r < w.size; ++r)
    for (int64_t i = 0; i < counts[r]; ++i) want.push_back(static_cast<uint32_t>(1000 * r + i));
  for (int64_t i = 0; i < counts[w.rank]; ++i) mine.push_back(static_cast<uint32_t>(1000 * w.rank + i));
  if (in_place) std::copy(mine.begin(), mine.end(), recv.begin() + displs[w.rank]);
  const int64_t rounds = allgatherv(in_place ? MPI_IN_PLACE : mine.data(), recv.data(), counts, MPI_UINT32_T,
                                    MPI_COMM_WORLD, find_allgatherv(name), l);
  const bool direct = total * 4 <= l.max_message_bytes;
  EXPECT_EQ(rounds, direct ? 1 : expected_rounds(largest, 4, w.size, l)) << name;
  EXPECT_EQ(recv, want) << name << " limit " << l.max_message_bytes << (in_place ? " in place" : "");
}

TEST(LargeCount, AllgathervEveryAlgorithmEveryLimit) {
  for (const std::string& name : allgatherv_names())
    for (bool in_place : {false, true}) {
      for (int64_t bytes : kTinyLimits) run_allgatherv(name, limit(bytes), in_place);
      run_allgatherv(name, util::MessageLimits{}, in_place);
    }
}

TEST(LargeCount, GathervToEveryRoot) {
  World w;
  const int64_t mine_count = w.rank == 0 ? 0 : 3 * w.rank + 1;
  const std::vector<int64_t> counts = allgather_counts(mine_count, MPI_COMM_WORLD);
  std::vector<double> mine(mine_count);
  for (int64_t i = 0; i < mine_count; ++i) mine[i] = w.rank + i / 16.0;
  for (int root = 0; root < w.size; ++root)
    for (int64_t bytes : {int64_t{8}, int64_t{64}, util::MessageLimits::kDefaultBytes}) {
      std::vector<double> all(w.rank == root ? std::accumulate(counts.begin(), counts.end(), int64_t{0}) : 0);
      gatherv(mine.data(), all.data(), counts, MPI_DOUBLE, root, MPI_COMM_WORLD, limit(bytes));
      if (w.rank != root) continue;
      std::vector<double> want;
      for (int r = 0; r < w.size; ++r)
        for (int64_t i = 0; i < counts[r]; ++i) want.push_back(r + i / 16.0);
      EXPECT_EQ(all, want) << "root " << root << " limit " << bytes;
    }
}

TEST(LargeCount, AllgatherInPlaceAndNot) {
  World w;
  constexpr int64_t kCount = 37;
  for (int64_t bytes : {int64_t{1}, int64_t{64}, int64_t{1000}, util::MessageLimits::kDefaultBytes})
    for (bool in_place : {false, true}) {
      std::vector<int64_t> mine(kCount), all(kCount * w.size, -1), want;
      for (int64_t i = 0; i < kCount; ++i) mine[i] = 100 * w.rank + i;
      for (int r = 0; r < w.size; ++r)
        for (int64_t i = 0; i < kCount; ++i) want.push_back(100 * r + i);
      if (in_place) std::copy(mine.begin(), mine.end(), all.begin() + kCount * w.rank);
      const int64_t rounds = allgather(in_place ? MPI_IN_PLACE : mine.data(), all.data(), kCount, MPI_INT64_T,
                                       MPI_COMM_WORLD, limit(bytes));
      EXPECT_EQ(rounds, expected_rounds(kCount, 8, w.size, limit(bytes)));
      EXPECT_EQ(all, want) << "limit " << bytes;
    }
}

TEST(LargeCount, ReduceScatterBlockAllreduceAndBcast) {
  World w;
  constexpr int64_t kCount = 29;
  for (int64_t bytes : {int64_t{1}, int64_t{24}, util::MessageLimits::kDefaultBytes}) {
    const util::MessageLimits l = limit(bytes);
    // reduce_scatter_block: rank r gets the sum over ranks of block r.
    std::vector<int64_t> send(kCount * w.size), got(kCount);
    for (int p = 0; p < w.size; ++p)
      for (int64_t i = 0; i < kCount; ++i) send[p * kCount + i] = (w.rank + 1) * (p * 1000 + i);
    const int64_t rounds =
        reduce_scatter_block(send.data(), got.data(), kCount, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD, l);
    EXPECT_EQ(rounds, expected_rounds(kCount, 8, w.size, l));
    const int64_t rank_sum = int64_t{w.size} * (w.size + 1) / 2;
    for (int64_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], rank_sum * (w.rank * 1000 + i)) << "limit " << bytes;
    // allreduce, in place and not.
    std::vector<int64_t> values(kCount), sums(kCount);
    for (int64_t i = 0; i < kCount; ++i) values[i] = w.rank * i;
    EXPECT_EQ(allreduce(values.data(), sums.data(), kCount, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD, l),
              expected_rounds(kCount, 8, 1, l));
    allreduce(MPI_IN_PLACE, values.data(), kCount, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD, l);
    for (int64_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(sums[i], (rank_sum - w.size) * i);
      ASSERT_EQ(values[i], (w.size - 1) * i);
    }
    // bcast from the last rank.
    std::vector<char> text(kCount, w.rank == w.size - 1 ? 'x' : '-');
    EXPECT_EQ(bcast(text.data(), kCount, MPI_CHAR, w.size - 1, MPI_COMM_WORLD, l), expected_rounds(kCount, 1, 1, l));
    EXPECT_EQ(std::string(text.begin(), text.end()), std::string(kCount, 'x'));
  }
}

// A ring where each rank sends a different length (rank r sends 5r + 2 elements to r + 1), so
// neighbours make different numbers of pieces in the two directions.
TEST(LargeCount, SendrecvRingWithUnequalLengths) {
  World w;
  const int to = (w.rank + 1) % w.size, from = (w.rank - 1 + w.size) % w.size;
  for (int64_t bytes : {int64_t{4}, int64_t{12}, util::MessageLimits::kDefaultBytes}) {
    std::vector<int32_t> out(5 * w.rank + 2), in(5 * from + 2, -1);
    std::iota(out.begin(), out.end(), 100 * w.rank);
    sendrecv(out.data(), static_cast<int64_t>(out.size()), to, in.data(), static_cast<int64_t>(in.size()), from,
             MPI_INT32_T, 17, MPI_COMM_WORLD, limit(bytes));
    std::vector<int32_t> want(in.size());
    std::iota(want.begin(), want.end(), 100 * from);
    EXPECT_EQ(in, want) << "limit " << bytes;
  }
}

// The messages the dimension-wise alltoallv and Bruck's alltoall build themselves (forwarded
// parcels, half of all blocks) go in pieces of CollOptions::limits: with 8-byte pieces the results
// are still MPI's.
TEST(LargeCount, AlgorithmsCutTheirOwnMessagesIntoPieces) {
  World w;
  CollOptions options;
  options.limits = limit(8);
  std::vector<int> counts(w.size), displs(w.size), recv_counts(w.size), recv_displs(w.size);
  for (int p = 0; p < w.size; ++p) {
    counts[p] = static_cast<int>(block_length(w.rank, p, 1));
    recv_counts[p] = static_cast<int>(block_length(p, w.rank, 1));
  }
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_displs.begin(), 0);
  std::vector<uint64_t> send, want;
  for (int p = 0; p < w.size; ++p)
    for (int64_t i = 0; i < counts[p]; ++i) send.push_back(value(w.rank, p, i));
  for (int q = 0; q < w.size; ++q)
    for (int64_t i = 0; i < recv_counts[q]; ++i) want.push_back(value(q, w.rank, i));
  std::vector<uint64_t> recv(want.size());
  ASSERT_EQ(alltoallv_dimwise(send.data(), counts.data(), displs.data(), MPI_UINT64_T, recv.data(), recv_counts.data(),
                              recv_displs.data(), MPI_UINT64_T, MPI_COMM_WORLD, options),
            MPI_SUCCESS);
  EXPECT_EQ(recv, want);

  constexpr int kBlock = 5;
  std::vector<uint64_t> blocks(kBlock * w.size), gathered(kBlock * w.size), expected;
  for (int p = 0; p < w.size; ++p)
    for (int i = 0; i < kBlock; ++i) blocks[p * kBlock + i] = value(w.rank, p, i);
  for (int q = 0; q < w.size; ++q)
    for (int i = 0; i < kBlock; ++i) expected.push_back(value(q, w.rank, i));
  ASSERT_EQ(alltoall_bruck(blocks.data(), kBlock, MPI_UINT64_T, gathered.data(), kBlock, MPI_UINT64_T, MPI_COMM_WORLD,
                           options),
            MPI_SUCCESS);
  EXPECT_EQ(gathered, expected);
}

// Equal-block layouts keep 64-bit offsets: an alltoall whose blocks add up to more than 2^31-1
// elements has offsets beyond an int (nothing is sent here, the layout is only computed).
TEST(LargeCount, EqualBlockOffsetsAreSixtyFourBit) {
  constexpr int kPeers = 3;
  const BlockLayout layout = equal_layout(INT_MAX, MPI_UINT64_T, kPeers);
  EXPECT_EQ(layout.offsets[2], MPI_Aint{2} * INT_MAX * 8);
  const int counts[kPeers] = {1, 2, 3}, displs[kPeers] = {INT_MAX - 3, 0, INT_MAX - 1};
  EXPECT_EQ(v_layout(counts, displs, MPI_UINT64_T, kPeers).offsets[2], MPI_Aint{INT_MAX - 1} * 8);
}

TEST(LargeCount, LimitsAndNarrowing) {
  EXPECT_EQ(util::MessageLimits{}.check(), "");
  EXPECT_EQ(limit(util::MessageLimits::kLargestBytes).check(), "");
  EXPECT_NE(limit(0).check(), "");
  EXPECT_NE(limit(int64_t{INT_MAX} + 1).check(), "");
  EXPECT_EQ(limit(64).elements_per_part(8, 6), 1);  // never zero
  EXPECT_EQ(limit(64).elements_per_part(8, 2), 4);
  EXPECT_EQ(util::MessageLimits{}.elements_per_part(8, 2), int64_t{1} << 26);
  EXPECT_EQ(narrow_count(INT_MAX, "x"), INT_MAX);
  try {
    narrow_count(int64_t{INT_MAX} + 1, "bottom-up segment");
    FAIL() << "no exception";
  } catch (const std::length_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "bottom-up segment: 2147483648 elements do not fit MPI's int count (at most 2147483647)");
  }
}

}  // namespace
}  // namespace g500::comm
