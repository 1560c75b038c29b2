// The AVX2 path of the Kronecker generator on builds for processors other than x86-64: never
// available, so generate() always takes the portable path (gen/kronecker.cpp).
#include <stdexcept>

#include "gen/kronecker_detail.hpp"

namespace g500::gen::detail {

bool avx2_supported() { return false; }

void generate_avx2(const mrg::State&, int, uint64_t, uint64_t, int64_t, Edge*, float*) {
  throw std::logic_error("the AVX2 generator is not part of this build");
}

}  // namespace g500::gen::detail
