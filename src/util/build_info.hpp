// What this g500 is and what it runs with, in one place for `g500 --version`, the provenance of
// every JSON and text report (util/provenance.hpp) and the ranks' fingerprint
// (util/fingerprint.hpp): the build's fixed description (util/build_id.hpp) and the MPI library
// and OpenMP version it finds at run time.
#pragma once
#include <string>

namespace g500::util {

struct BuildInfo {
  std::string version;      // "0.9.0"
  std::string build;        // build_id(): commit, compiler, build type
  std::string compiler;     // "GNU 12.2.0"
  std::string arch_flags;   // "-march=native", "" for the compiler's default
  std::string mpi_library;  // first line of MPI_Get_library_version: "Open MPI v4.1.4, package: ..."
  std::string openmp;       // "4.5 (201511)": the OpenMP version the compiler implements
};

BuildInfo build_info();

// The MPI library this process runs with, as MPI_Get_library_version names it on its first line
// (callable before MPI_Init).
std::string mpi_library_version();

// The absolute path of this g500 when it runs from an installed prefix (PREFIX/bin/g500 beside
// PREFIX/share/g500, as `cmake --install` lays it out), else "" (a build tree, or no /proc).
std::string installed_binary();

// The lines of `g500 --version`, each ending in a newline.
std::string version_text(const BuildInfo& info);

}  // namespace g500::util
