#include "bfs/sparse_switch.hpp"

#include <bit>
#include <cstring>

namespace g500::bfs::sparse_switch {

namespace {
inline uint64_t listed_bits(uint64_t word, Listed listed) { return listed == Listed::kSetBits ? word : ~word; }
}  // namespace

size_t encode(const uint64_t* words, int64_t nwords, Listed listed, bool allow_list, uint64_t* out) {
  if (allow_list) {
    int64_t count = 0;
    for (int64_t w = 0; w < nwords; ++w) count += std::popcount(listed_bits(words[w], listed));
    // A list of `count` 32-bit positions takes (count + 1) / 2 words: use it below n/64 vertices.
    if (count < nwords) {
      out[0] = static_cast<uint64_t>(count);
      out[1 + count / 2] = 0;  // the unused half of the last word, when count is odd
      char* positions = reinterpret_cast<char*>(out + 1);
      int64_t at = 0;
      for (int64_t w = 0; w < nwords; ++w)
        for (uint64_t bits = listed_bits(words[w], listed); bits; bits &= bits - 1) {
          const uint32_t position = static_cast<uint32_t>(w * 64 + std::countr_zero(bits));
          std::memcpy(positions + sizeof(uint32_t) * at++, &position, sizeof(uint32_t));
        }
      return 1 + static_cast<size_t>((count + 1) / 2);
    }
  }
  out[0] = kBitmapMessage;
  std::memcpy(out + 1, words, static_cast<size_t>(nwords) * sizeof(uint64_t));
  return 1 + static_cast<size_t>(nwords);
}

void decode(const uint64_t* message, int64_t nwords, Listed listed, uint64_t* words) {
  if (message[0] == kBitmapMessage) {
    std::memcpy(words, message + 1, static_cast<size_t>(nwords) * sizeof(uint64_t));
    return;
  }
  const int64_t count = static_cast<int64_t>(message[0]);
  std::memset(words, listed == Listed::kSetBits ? 0x00 : 0xff, static_cast<size_t>(nwords) * sizeof(uint64_t));
  const char* positions = reinterpret_cast<const char*>(message + 1);
  for (int64_t k = 0; k < count; ++k) {
    uint32_t position;
    std::memcpy(&position, positions + sizeof(uint32_t) * k, sizeof(uint32_t));
    words[position / 64] ^= uint64_t{1} << (position % 64);
  }
}

uint64_t* decode_gathered_in_place(uint64_t* buffer, const std::vector<int64_t>& counts, int64_t nwords, Listed listed,
                                   uint64_t* scratch) {
  const int64_t parts = static_cast<int64_t>(counts.size());
  uint64_t* bitmaps = buffer + parts;
  int64_t message_end = 0;
  for (const int64_t count : counts) message_end += count;
  for (int64_t q = parts - 1; q >= 0; --q) {
    const int64_t message_begin = message_end - counts[q];
    const uint64_t* message = buffer + message_begin;
    uint64_t* words = bitmaps + q * nwords;
    if (is_list(message)) {
      std::memcpy(scratch, message, static_cast<size_t>(counts[q]) * sizeof(uint64_t));
      decode(scratch, nwords, listed, words);
    } else {
      std::memmove(words, message + 1, static_cast<size_t>(nwords) * sizeof(uint64_t));
    }
    message_end = message_begin;
  }
  return bitmaps;
}

}  // namespace g500::bfs::sparse_switch
