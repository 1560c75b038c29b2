// Root selection following the Graph500 reference 3.0 rule; see roots.hpp.
#include "gen/roots.hpp"

#include <algorithm>
#include <unordered_set>

namespace g500::gen {

namespace {
int64_t candidate_from(double d0, double d1, int64_t n) {
  return static_cast<int64_t>((d0 + d1) * static_cast<double>(n)) % n;
}
}  // namespace

int64_t root_batch_size(int64_t index) {
  int64_t size = kRootBatch;
  for (int64_t k = 0; k < index && size < kMaxRootBatch; ++k) size *= 2;
  return size;
}

int64_t root_candidate(const KroneckerSpec& spec, int64_t k) {
  double d[2];
  make_random_numbers(2, spec.seed1, spec.seed2, 2 * k, d);
  return candidate_from(d[0], d[1], spec.nvertices());
}

std::vector<int64_t> select_roots(const KroneckerSpec& spec, int nroots, const RootCheck& check) {
  const int64_t n = spec.nvertices();
  // Candidate k is drawn at counter 2k; afterwards the counter is 2k + 2, and the search ends
  // when that exceeds 2N, so only candidates k < N are ever considered.
  const int64_t ncandidates = n;
  std::vector<int64_t> roots;
  std::unordered_set<int64_t> chosen;
  std::vector<double> draws;
  std::vector<int64_t> batch;
  std::vector<char> usable;
  int64_t count = 0;
  for (int64_t first = 0, index = 0; first < ncandidates && static_cast<int>(roots.size()) < nroots;
       first += count, ++index) {
    count = std::min(root_batch_size(index), ncandidates - first);
    // The stream is contiguous: candidate k uses doubles 2k and 2k + 1.
    draws.resize(2 * count);
    make_random_numbers(2 * count, spec.seed1, spec.seed2, 2 * first, draws.data());
    batch.resize(count);
    for (int64_t k = 0; k < count; ++k) batch[k] = candidate_from(draws[2 * k], draws[2 * k + 1], n);
    usable.assign(count, 0);
    check(batch, usable);
    for (int64_t k = 0; k < count && static_cast<int>(roots.size()) < nroots; ++k) {
      if (!usable[k] || chosen.count(batch[k])) continue;
      chosen.insert(batch[k]);
      roots.push_back(batch[k]);
    }
  }
  return roots;
}

}  // namespace g500::gen
