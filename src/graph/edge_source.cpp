#include "graph/edge_source.hpp"

#include <omp.h>

namespace g500::graph {

EdgeSource kronecker_edge_source(const gen::KroneckerGenerator& generator, int rank, int nranks) {
  EdgeSource source;
  source.global_edges = generator.spec().nedges();
  const int64_t begin = source.global_edges * rank / nranks;
  const int64_t end = source.global_edges * (rank + 1) / nranks;
  source.local_begin = begin;
  source.local_count = end - begin;
  source.kronecker_scale = generator.spec().scale;
  source.read = [&generator, begin](int64_t offset, int64_t count, gen::Edge* out) {
    constexpr int64_t kPiece = 4096;  // edges per task: small enough to balance threads
    const int64_t pieces = (count + kPiece - 1) / kPiece;
#pragma omp parallel for schedule(dynamic, 4)
    for (int64_t p = 0; p < pieces; ++p) {
      const int64_t first = p * kPiece;
      const int64_t last = std::min(count, first + kPiece);
      generator.generate(begin + offset + first, begin + offset + last, out + first, nullptr);
    }
  };
  return source;
}

}  // namespace g500::graph
