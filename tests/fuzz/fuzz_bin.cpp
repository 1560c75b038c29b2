// libFuzzer target for the bin parser (src/io/parse.hpp): any bytes give edges or a message,
// never a crash, a sanitizer report or a hang; an accepted file with the weight flag has one
// finite float32 weight per record (NaN, infinities, the largest float, -0 and denormals are
// seeded and in the dictionary). Built by tests/fuzz/run.sh with clang.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace g500::io;
  ParsedEdges out;
  BinHeader header;
  const std::string message = parse_bin_buffer(data, size, header, out);
  if (message.empty()) {
    if (static_cast<int64_t>(out.edges.size()) != header.nedges) __builtin_trap();
    if (out.weights.size() != (header.has_weights() ? out.edges.size() : 0)) __builtin_trap();
    for (const float w : out.weights)
      if (!std::isfinite(w)) __builtin_trap();
    for (const RawEdge& e : out.edges)
      if (e.src >= static_cast<uint64_t>(header.nvertices) || e.dst >= static_cast<uint64_t>(header.nvertices))
        __builtin_trap();
  }
  return 0;
}
