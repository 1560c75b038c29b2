// Kronecker graph generator, bit-identical to the Graph500 reference 3.0 generator.
// (interface fixed here; implementation in kronecker.cpp)
#pragma once
#include <cstdint>

#include "gen/mrg.hpp"

namespace g500::gen {

// The largest SCALE g500 accepts: vertex ids, edge counts and the distribution's arithmetic stay
// within 64 bits, and 2^42 vertices is far beyond any machine's memory today.
inline constexpr int kMaxScale = 42;

struct KroneckerSpec {
  int scale = 16;
  int edgefactor = 16;
  uint64_t seed1 = 2;
  uint64_t seed2 = 3;
  int64_t nvertices() const { return int64_t{1} << scale; }
  int64_t nedges() const { return static_cast<int64_t>(edgefactor) << scale; }
};

struct Edge {
  int64_t v0;
  int64_t v1;
};

class KroneckerGenerator {
 public:
  explicit KroneckerGenerator(const KroneckerSpec& spec);
  const KroneckerSpec& spec() const { return spec_; }
  // Writes edges with indices [begin, end) in generation order (labels already scrambled), and
  // their SSSP weights when `weights` is not null. Thread-safe; any range, in any order.
  void generate(int64_t begin, int64_t end, Edge* edges, float* weights) const;
  // Same result as generate(), split over the OpenMP threads (call from outside a parallel region).
  void generate_parallel(int64_t begin, int64_t end, Edge* edges, float* weights) const;
  // Straightforward one-edge-at-a-time version of generate() (slow; used to cross-check).
  void generate_simple(int64_t begin, int64_t end, Edge* edges, float* weights) const;
  // The non-SIMD blocked version (what generate() uses on processors without AVX2); for tests.
  void generate_portable(int64_t begin, int64_t end, Edge* edges, float* weights) const;
  // The vertex-label permutation applied to every generated endpoint.
  int64_t scramble(int64_t v) const;

 private:
  KroneckerSpec spec_;
  mrg::State origin_;       // stream state before any jump (from the seeds)
  uint64_t scramble0_ = 0;  // the two 64-bit scramble keys drawn from the stream
  uint64_t scramble1_ = 0;
  void generate_block_range(int64_t begin, int64_t end, Edge* edges, float* weights) const;
};

// The path generate() takes on this processor: "AVX2" (x86-64 processors with AVX2) or "portable".
const char* generator_path();

// The reference's make_random_numbers(count, seed1, seed2, position): `count` doubles in [0,1)
// drawn from the splittable MRG stream starting at `position` (each double takes two outputs).
void make_random_numbers(int64_t count, uint64_t seed1, uint64_t seed2, int64_t position, double* out);

}  // namespace g500::gen
