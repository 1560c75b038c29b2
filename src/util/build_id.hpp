// What this g500 build is, fixed when it was built: its id, the commit it was built from (git
// describe, plus a digest of uncommitted changes) with the compiler and the build type, e.g.
// "a938e8e (GNU 12.2.0, Release)"; the release version; the compiler; the instruction-set flags.
// Defined in a source generated at every build (cmake/build_id.cmake). The id's literal is
// preceded by kBuildIdMarker in the executable. util/build_info.hpp adds what only a run knows.
#pragma once

namespace g500::util {

inline constexpr char kBuildIdMarker[] = "g500-build-id:";

const char* build_id();
const char* build_version();     // "0.9.0": project(VERSION) of CMakeLists.txt
const char* build_compiler();    // "GNU 12.2.0"
const char* build_arch_flags();  // G500_ARCH_FLAGS, e.g. "-march=native" ("" for none)

}  // namespace g500::util
