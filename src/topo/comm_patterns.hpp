// Communication patterns of the BFS on an R x C process grid (Nakao et al. 2021, section 4, Table 3 and Fig. 6)
// plus generic collectives, as point-to-point messages for the link-load simulator.
// Rank r sits at (row = r / C, col = r % C); a process row holds C ranks, a process column R ranks.
//   col-allgatherv  every rank sends its block to every other rank of its process column (direct)
//   row-alltoallv   every rank sends to every other rank of its process row
//   row-ring        every rank sends to (row, col+1) and (row, col-1) (sendrecv both directions)
//   alltoall        every rank sends to every other rank
//   bcast           binomial tree from rank 0: rank s sends to s + 2^k for every 2^k > s
// Message sizes follow Nakao et al. 2021, Table 3 with a per-rank block B (one rank's share of the frontier
// bitmap, n/(8RC) bytes, independent of the grid shape):
//   col-allgatherv  B to each of the R-1 column peers
//   row-alltoallv   B in total per rank, split evenly over the C-1 row peers (Table 3: the
//                   bottom-up alltoallv moves 2n words per BFS in all, a fixed volume per rank)
//   row-ring        B/2 per direction per sub-step; a bottom-up step runs C sub-steps (rounds)
//   alltoall, bcast B per message
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace g500::topo {

enum class Pattern { ColAllgatherv, RowAlltoallv, RowRing, Alltoall, Bcast };

const std::vector<Pattern>& all_patterns();
std::string pattern_name(Pattern p);
Pattern parse_pattern(const std::string& name);  // throws UsageError; "all" is handled by callers

int64_t message_count(Pattern p, int rows, int cols);
double message_bytes(Pattern p, int rows, int cols, double block_bytes);
int rounds_per_step(Pattern p, int rows, int cols);  // C for the row ring, else 1
// Calls dest(rank) for every message sent by `src`.
template <class Dest>
void for_each_destination(Pattern p, int rows, int cols, int src, Dest&& dest) {
  const int row = src / cols, col = src % cols;
  const int64_t n = static_cast<int64_t>(rows) * cols;
  switch (p) {
    case Pattern::ColAllgatherv:
      for (int r = 0; r < rows; ++r)
        if (r != row) dest(r * cols + col);
      break;
    case Pattern::RowAlltoallv:
      for (int c = 0; c < cols; ++c)
        if (c != col) dest(row * cols + c);
      break;
    case Pattern::RowRing:
      if (cols > 1) {
        dest(row * cols + (col + 1) % cols);
        dest(row * cols + (col + cols - 1) % cols);
      }
      break;
    case Pattern::Alltoall:
      for (int64_t r = 0; r < n; ++r)
        if (r != src) dest(static_cast<int>(r));
      break;
    case Pattern::Bcast: {
      int64_t step = 1;
      while (step <= src) step <<= 1;
      for (; src + step < n; step <<= 1) dest(static_cast<int>(src + step));
      break;
    }
  }
}

}  // namespace g500::topo
