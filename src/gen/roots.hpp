// BFS/SSSP root selection following the Graph500 reference 3.0 rule (see the test vectors'
// README, "Root selection rule"): candidates come from make_random_numbers at counter 0, 2, 4, ...
// (two doubles d0, d1 each; root = (int64)((d0 + d1) * N) % N); a candidate is skipped when it
// is already a root or has no non-self-loop edge; the search stops once counter exceeds 2N, in
// which case fewer roots than asked are returned.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "gen/kronecker.hpp"

namespace g500::gen {

// Receives candidate vertices (in draw order) and must set usable[k] = 1 when candidates[k] has
// at least one non-self-loop edge (usable arrives sized and zeroed). Under MPI it must give the
// same answer on every rank; select_roots calls it the same number of times, with the same
// batches, on every rank (batches depend only on the spec, nroots and earlier answers).
using RootCheck = std::function<void(const std::vector<int64_t>& candidates, std::vector<char>& usable)>;

// Candidates are checked in batches that start at kRootBatch and double up to kMaxRootBatch:
// a usual graph finds its roots in the first batch, and a graph of mostly isolated vertices
// (where nearly every candidate is skipped) needs a few dozen checks, not one per 64 candidates
// (each check is a collective call). Batches only group the candidates; the roots are those of
// checking them one at a time.
inline constexpr int64_t kRootBatch = 64;
inline constexpr int64_t kMaxRootBatch = int64_t{1} << 18;
// The size of batch number `index` (0, 1, ...).
int64_t root_batch_size(int64_t index);

// The k-th candidate vertex (counter = 2k) of the reference's root stream.
int64_t root_candidate(const KroneckerSpec& spec, int64_t k);

std::vector<int64_t> select_roots(const KroneckerSpec& spec, int nroots, const RootCheck& check);

}  // namespace g500::gen
