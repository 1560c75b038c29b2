// BFS roots by the reference 3.0 rule (testvectors README): candidates drawn from the generator's
// random stream, skipping vertices without a non-self-loop edge and repeats.
#pragma once
#include <cstdint>
#include <vector>

#include "gen/kronecker.hpp"
#include "graph/local_graph.hpp"

namespace g500 {

// Collective: a candidate is usable when its owner sees a positive degree.
std::vector<int64_t> choose_roots(const gen::KroneckerSpec& spec, int nroots, const LocalGraph& graph,
                                  const ProcessGrid& grid);

}  // namespace g500
