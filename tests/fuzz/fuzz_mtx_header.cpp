// libFuzzer target for the mtx header parsers with sizes near the integer limits (input layout in
// header_inputs.hpp): any bytes give an accepted header that keeps the parsers' promises or a
// message, never a crash, a sanitizer report or a hang. Built by tests/fuzz/run.sh with clang.
#include <cstddef>
#include <cstdint>

#include "header_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!g500::io::fuzz::run_mtx_header_input(data, size).consistent) __builtin_trap();
  return 0;
}
