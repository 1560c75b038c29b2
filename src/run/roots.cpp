#include "run/roots.hpp"

#include "gen/roots.hpp"

namespace g500 {

std::vector<int64_t> choose_roots(const gen::KroneckerSpec& spec, int nroots, const LocalGraph& graph,
                                  const ProcessGrid& grid) {
  const Distribution& d = graph.dist;
  const int64_t first = d.owned_begin();
  auto check = [&](const std::vector<int64_t>& candidates, std::vector<char>& usable) {
    std::vector<int> flags(candidates.size(), 0);
    for (size_t k = 0; k < candidates.size(); ++k) {
      const int64_t v = candidates[k];
      if (v >= first && v < first + d.block) flags[k] = graph.owned_degree[v - first] > 0 ? 1 : 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, flags.data(), static_cast<int>(flags.size()), MPI_INT, MPI_MAX, grid.world());
    usable.assign(candidates.size(), 0);
    for (size_t k = 0; k < candidates.size(); ++k) usable[k] = static_cast<char>(flags[k]);
  };
  return gen::select_roots(spec, nroots, check);
}

}  // namespace g500
