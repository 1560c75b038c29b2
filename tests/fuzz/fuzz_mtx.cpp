// libFuzzer target for the mtx parser (src/io/parse.hpp): any bytes give edges or a message,
// never a crash, a sanitizer report or a hang; an accepted integer or real file has one finite
// float weight per entry (values at and beyond the float limits are seeded and in the
// dictionary). Built by tests/fuzz/run.sh with clang.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace g500::io;
  ParsedEdges out;
  MtxHeader header;
  const std::string message = parse_mtx_text(std::string_view(reinterpret_cast<const char*>(data), size), header, out);
  if (message.empty()) {
    if (static_cast<int64_t>(out.edges.size()) != header.entries) __builtin_trap();
    const size_t weights = header.field == MtxField::pattern ? 0 : out.edges.size();
    if (out.weights.size() != weights) __builtin_trap();
    for (const float w : out.weights)
      if (!std::isfinite(w)) __builtin_trap();
    for (const RawEdge& e : out.edges)
      if (e.src < 1 || e.dst < 1 || e.src > static_cast<uint64_t>(header.rows) ||
          e.dst > static_cast<uint64_t>(header.cols))
        __builtin_trap();
  }
  return 0;
}
