// Switching data structure by vertex concentration (Nakao et al. 2021, section 4.5, switch `sparse-switch`).
//
// The bottom-up step sends two bitmaps: the frontier (allgather along the column) and the visited
// bitmap (rotated along the row). When few vertices matter (few frontier members, few unvisited
// vertices) a list of their positions is smaller than the bitmap: with 32-bit positions the list
// wins below one vertex in 64 bits' worth, the paper's n/64. A message is one header word (the
// list length, or kBitmapMessage) followed by the bitmap words or the positions, two per word.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace g500::bfs::sparse_switch {

constexpr uint64_t kBitmapMessage = ~uint64_t{0};

// Which bits a list names: the set ones (frontier) or the clear ones (unvisited vertices).
enum class Listed { kSetBits, kClearBits };

// Largest message for a run of nwords bitmap words.
inline size_t max_message_words(int64_t nwords) { return static_cast<size_t>(nwords) + 1; }

// Writes the message for words[0, nwords) to out (at least max_message_words) and returns its
// length in words. With allow_list false the bitmap is always sent.
size_t encode(const uint64_t* words, int64_t nwords, Listed listed, bool allow_list, uint64_t* out);

// Rebuilds words[0, nwords) from a message made by encode with the same `listed`.
void decode(const uint64_t* message, int64_t nwords, Listed listed, uint64_t* words);

// The messages of `counts.size()` parts of nwords words each, gathered packed at the front of
// `buffer` (part q's `counts[q]` words after those before it), decoded in place into consecutive
// bitmaps of nwords words that begin counts.size() words into `buffer`, which holds counts.size()
// * (nwords + 1) words: a message takes at most nwords + 1, so those of parts q and below end
// before part q + 1's bitmap begins, and decoding from the last part to the first never writes
// over a message not yet read. A list is first copied to `scratch` (max_message_words(nwords)),
// since its bitmap may cover it. Returns where the bitmaps begin. The gathered frontier so takes
// the buffer's counts.size() words beyond its bitmaps, not a second copy.
uint64_t* decode_gathered_in_place(uint64_t* buffer, const std::vector<int64_t>& counts, int64_t nwords, Listed listed,
                                   uint64_t* scratch);
// Words of the buffer decode_gathered_in_place needs for `parts` parts of nwords words.
inline size_t gathered_buffer_words(int parts, int64_t nwords) {
  return static_cast<size_t>(parts) * static_cast<size_t>(nwords + 1);
}

// True when a message is a list (for statistics and tests).
inline bool is_list(const uint64_t* message) { return message[0] != kBitmapMessage; }

}  // namespace g500::bfs::sparse_switch
