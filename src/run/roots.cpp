#include "run/roots.hpp"

#include <algorithm>

#include "comm/large_count.hpp"
#include "gen/roots.hpp"
#include "util/error.hpp"
#include "util/splitmix64.hpp"

namespace g500::run {
namespace {

constexpr uint64_t kSampleStream = 0x6735A1D0E2C4B3F9ULL;  // keeps root samples apart from other uses of a seed
constexpr int kWordBits = 64;

// 1 for each candidate (the same list on every rank) whose owner sees a non-self-loop edge: each
// rank marks the candidates it owns, and one allreduce of a bit per candidate joins the marks.
std::vector<int> usable_flags(const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                              const std::vector<int64_t>& candidates) {
  const graph::Distribution& d = graph.dist;
  const int64_t first = d.owned_begin();
  std::vector<uint64_t> bits((candidates.size() + kWordBits - 1) / kWordBits, 0);
  for (size_t k = 0; k < candidates.size(); ++k) {
    const int64_t v = candidates[k];
    if (v >= first && v < first + d.block && graph.owned_degree[v - first] > 0)
      bits[k / kWordBits] |= uint64_t{1} << (k % kWordBits);
  }
  if (!bits.empty())
    comm::allreduce(MPI_IN_PLACE, bits.data(), static_cast<int64_t>(bits.size()), MPI_UINT64_T, MPI_BOR, grid.world(),
                    grid.limits());
  std::vector<int> flags(candidates.size());
  for (size_t k = 0; k < candidates.size(); ++k)
    flags[k] = static_cast<int>(bits[k / kWordBits] >> (k % kWordBits) & 1);
  return flags;
}

}  // namespace

std::vector<int64_t> choose_roots(const gen::KroneckerSpec& spec, int nroots, const graph::LocalGraph& graph,
                                  const graph::ProcessGrid& grid) {
  auto check = [&](const std::vector<int64_t>& candidates, std::vector<char>& usable) {
    const std::vector<int> flags = usable_flags(graph, grid, candidates);
    usable.assign(flags.begin(), flags.end());
  };
  return gen::select_roots(spec, nroots, check);
}

std::vector<int64_t> sample_roots(const graph::LocalGraph& graph, const graph::ProcessGrid& grid, int64_t nvertices,
                                  int nroots, uint64_t seed) {
  const int64_t limit = 2 * nvertices + 4096;
  std::vector<int64_t> roots;
  int64_t drawn = 0;
  const uint64_t key = util::splitmix64(seed ^ kSampleStream);
  for (int64_t index = 0; static_cast<int>(roots.size()) < nroots && drawn < limit; ++index) {
    std::vector<int64_t> batch;
    const int64_t batch_size = gen::root_batch_size(index);  // growing: see gen/roots.hpp
    for (int64_t k = 0; k < batch_size && drawn < limit; ++k, ++drawn)
      batch.push_back(static_cast<int64_t>(util::splitmix64(key + static_cast<uint64_t>(drawn)) %
                                           static_cast<uint64_t>(nvertices)));
    const std::vector<int> usable = usable_flags(graph, grid, batch);
    for (size_t k = 0; k < batch.size() && static_cast<int>(roots.size()) < nroots; ++k)
      if (usable[k] && std::find(roots.begin(), roots.end(), batch[k]) == roots.end()) roots.push_back(batch[k]);
  }
  return roots;
}

std::vector<int64_t> resolve_roots(const graph::LocalGraph& graph, const graph::ProcessGrid& grid,
                                   const io::VertexIdMap& ids, const std::vector<uint64_t>& file_ids,
                                   const std::string& path) {
  std::vector<int64_t> roots = ids.find(file_ids);
  for (size_t k = 0; k < roots.size(); ++k)
    if (roots[k] < 0)
      throw util::UsageError("--root " + std::to_string(file_ids[k]) + " is not a vertex of '" + path + "'");
  const std::vector<int> usable = usable_flags(graph, grid, roots);
  for (size_t k = 0; k < roots.size(); ++k)
    if (!usable[k])
      throw util::UsageError("--root " + std::to_string(file_ids[k]) + " has no edges (other than self-loops)");
  return roots;
}

}  // namespace g500::run
