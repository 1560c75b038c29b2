// graph/in_block_id.hpp: an id kept as its offset inside its block reads back as the same id
// beside any id of that block, on blocks of a power of two and not, at the first and last offsets
// and past 2^32 with 64-bit ids; what is kept fits 32 bits.
#include <gtest/gtest.h>

#include <limits>

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

}  // namespace
}  // namespace g500::graph
