// The build's description with the MPI library and OpenMP version of the run (util/build_info.hpp).
#include "util/build_info.hpp"

#include <mpi.h>

#include <array>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "util/build_id.hpp"

namespace g500::util {
namespace {

// The OpenMP specification versions by the date the compiler's _OPENMP macro carries.
struct OpenMpRelease {
  long date;
  std::string_view version;
};
constexpr std::array<OpenMpRelease, 8> kOpenMpReleases{{{200505, "2.5"},
                                                        {200805, "3.0"},
                                                        {201107, "3.1"},
                                                        {201307, "4.0"},
                                                        {201511, "4.5"},
                                                        {201811, "5.0"},
                                                        {202011, "5.1"},
                                                        {202111, "5.2"}}};

std::string openmp_version() {
  const long date = _OPENMP;
  for (const OpenMpRelease& release : kOpenMpReleases)
    if (release.date == date) return std::string(release.version) + " (" + std::to_string(date) + ")";
  return std::to_string(date);
}

}  // namespace

std::string mpi_library_version() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string text = library;  // up to its terminating null (some libraries count it in `length`)
  text = text.substr(0, text.find('\n'));
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

BuildInfo build_info() {
  return {build_version(), build_id(), build_compiler(), build_arch_flags(), mpi_library_version(), openmp_version()};
}

std::string installed_binary() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::canonical("/proc/self/exe", error);
  if (error || self.parent_path().filename() != "bin") return "";
  const std::filesystem::path share = self.parent_path().parent_path() / "share" / "g500";
  return std::filesystem::is_directory(share, error) ? self.string() : "";
}

std::string version_text(const BuildInfo& info) {
  return "g500 " + info.version + "\n" + "build: " + info.build + "\n" + "compiler: " + info.compiler +
         ", instruction-set flags: " +
         (info.arch_flags.empty() ? std::string("none (the compiler's default)") : info.arch_flags) + "\n" +
         "MPI library: " + info.mpi_library + "\n" + "OpenMP: " + info.openmp + "\n";
}

}  // namespace g500::util
