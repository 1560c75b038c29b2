// graph/in_block_id.hpp: an id kept as its offset inside its block reads back as the same id
// beside any id of that block, on blocks of a power of two and not, at the first and last offsets
// and past 2^32 with 64-bit ids; what is kept fits 32 bits. An array of them keeps each in the
// bits its block's offsets need with 64-bit ids (32 with 32-bit ids) and reads back every value
// set, by several threads at once, at the widths 1 to 32.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "graph/in_block_id.hpp"

namespace g500::graph {
namespace {

TEST(InBlockId, ReadsBackBesideAnyIdOfItsBlock) {
  // 2^20 vertices on 3 x 5 (B = 69,952, not a power of two) and on 4 x 4 (B = 2^16).
  for (const auto& [rows, cols] : {std::pair{3, 5}, std::pair{4, 4}}) {
    const Distribution d(int64_t{1} << 20, rows, cols, 0, 0);
    const int64_t B = d.block;
    const int64_t positions = std::max(rows, cols);
    for (int64_t position = 0; position < positions; ++position)
      for (const int64_t offset : {int64_t{0}, int64_t{1}, B / 3, B - 1}) {
        const LocalId id = static_cast<LocalId>(position * B + offset);
        const InBlockId kept = keep_in_block(id, d);
        if constexpr (kWideIds) {
          EXPECT_EQ(kept, static_cast<InBlockId>(offset));
        }
        for (const int64_t beside : {int64_t{0}, B / 2, B - 1})
          ASSERT_EQ(read_in_block(kept, static_cast<LocalId>(position * B + beside), d), id)
              << rows << "x" << cols << " position " << position << " offset " << offset;
      }
  }
}

TEST(InBlockId, SetsBeyond32BitsWithWideIds) {
  if constexpr (!kWideIds) GTEST_SKIP() << "32-bit ids: sets of at most 2^32 vertices";
  // SCALE 41 on 552 x 288: 7.6e9 vertices per column set, B = 13,831,616.
  const Distribution d(int64_t{1} << 41, 552, 288, 0, 0);
  const int64_t B = d.block;
  const int64_t position = d.R - 1, offset = B - 7;
  const uint64_t id = static_cast<uint64_t>(position * B + offset);
  ASSERT_GT(id, std::numeric_limits<uint32_t>::max());
  const InBlockId kept = keep_in_block(static_cast<LocalId>(id), d);
  EXPECT_EQ(kept, static_cast<InBlockId>(offset));
  EXPECT_EQ(static_cast<uint64_t>(read_in_block(kept, static_cast<LocalId>(position * B), d)), id);
}

TEST(InBlockIds, KeepsTheBitsOfItsBlock) {
  EXPECT_EQ(in_block_id_bits(int64_t{1} << 26), kWideIds ? 26 : 32);        // SCALE 42 on 65,536 processes
  EXPECT_EQ(in_block_id_bits(13'831'616), kWideIds ? 24 : 32);              // SCALE 41 on 552 x 288
  EXPECT_EQ(in_block_id_bits((int64_t{1} << 26) + 1), kWideIds ? 27 : 32);  // one past a power of two
  EXPECT_EQ(in_block_id_bits(1), kWideIds ? 1 : 32);
  const int64_t n = 100'003;
  const InBlockIds ids(n, int64_t{1} << 26);
  EXPECT_LE(ids.memory_bytes(), static_cast<size_t>(n) * (kWideIds ? 26 : 32) / 8 + 16);
}

TEST(InBlockIds, ReadsBackWhatThreadsSet) {
  for (const int64_t block :
       std::vector<int64_t>{2, 3, int64_t{1} << 13, 69'952, int64_t{1} << 26, 13'831'616, int64_t{1} << 32}) {
    if (!kWideIds && block > (int64_t{1} << 31)) continue;
    const int64_t n = 10'007;
    InBlockIds ids(n, block);
    std::vector<InBlockId> expected(n);
    for (int64_t i = 0; i < n; ++i)  // the first and last offsets, and others spread over the block
      expected[i] = static_cast<InBlockId>(i % 3 == 0 ? block - 1 : i % 3 == 1 ? 0 : (i * 2654435761LL) % block);
      // Neighbouring indices set by different threads (they share words with 64-bit ids).
#pragma omp parallel for schedule(static, 1) num_threads(3)
    for (int64_t i = 0; i < n; ++i)
      if (i % 7 != 5) ids.set(i, expected[i]);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(ids[i], i % 7 == 5 ? 0 : expected[i]) << "block " << block << " index " << i;
    const InBlockIdsView view = ids.view();
    ASSERT_TRUE(view);
    EXPECT_EQ(view[n - 1], ids[n - 1]);
    EXPECT_FALSE(InBlockIds().view());
  }
}

}  // namespace
}  // namespace g500::graph
