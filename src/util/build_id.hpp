// The id of this g500 build: the commit it was built from (git describe, plus a digest of
// uncommitted changes), the compiler and the build type, e.g. "a938e8e (GNU 12.2.0, Release)".
// Defined in a source generated at every build (cmake/build_id.cmake). The literal is preceded by
// kBuildIdMarker in the executable.
#pragma once

namespace g500 {

inline constexpr char kBuildIdMarker[] = "g500-build-id:";

const char* build_id();

}  // namespace g500
