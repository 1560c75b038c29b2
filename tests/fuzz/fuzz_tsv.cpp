// libFuzzer target for the tsv parser (src/io/parse.hpp): any bytes give edges or a message,
// never a crash, a sanitizer report or a hang; accepted weights (the third column, seeded and in
// the dictionary with values at and beyond the float limits) are finite floats, one per edge.
// Built by tests/fuzz/run.sh with clang.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace g500::io;
  ParsedEdges out;
  const std::string message = parse_edge_text(std::string_view(reinterpret_cast<const char*>(data), size), out);
  if (message.empty() && !out.weights.empty() && out.weights.size() != out.edges.size()) __builtin_trap();
  for (const float w : out.weights)
    if (!std::isfinite(w)) __builtin_trap();
  for (const RawEdge& e : out.edges)
    if (e.src > kMaxFileId || e.dst > kMaxFileId) __builtin_trap();
  return 0;
}
