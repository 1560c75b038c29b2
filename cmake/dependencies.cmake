# The libraries g500 builds with, each found when installed and else fetched at a pinned version
# (FetchContent with FIND_PACKAGE_ARGS: find_package is tried first). Without network access, put
# the archives below in a folder under their file names and name it with G500_DEPS_DIR (an archive
# found there is used instead of the download, its SHA-256 still checked), or name an unpacked source tree with FETCHCONTENT_SOURCE_DIR_<NAME>
# (docs/install.md). CMAKE_DISABLE_FIND_PACKAGE_<Package> (or FETCHCONTENT_TRY_FIND_PACKAGE_MODE
# NEVER) fetches a library even when one is installed; G500_FETCH_DEPENDENCIES=OFF never fetches.
include(FetchContent)

set(G500_DEPS_DIR "" CACHE PATH "Folder of dependency archives, used instead of downloading them")
option(G500_FETCH_DEPENDENCIES "Fetch the libraries that are not installed (OFF: find_package only)" ON)

# The fetched projects build their library only: no tests, examples, docs or install rules.
set(FMT_INSTALL OFF CACHE INTERNAL "")
set(CLI11_INSTALL OFF CACHE INTERNAL "")
set(CLI11_BUILD_TESTS OFF CACHE INTERNAL "")
set(CLI11_BUILD_EXAMPLES OFF CACHE INTERNAL "")
set(CLI11_BUILD_DOCS OFF CACHE INTERNAL "")
set(JSON_Install OFF CACHE INTERNAL "")
set(JSON_BuildTests OFF CACHE INTERNAL "")
set(INSTALL_GTEST OFF CACHE INTERNAL "")
set(BUILD_GMOCK OFF CACHE INTERNAL "")

# g500_dependency(NAME PACKAGE VERSION URL SHA256): find_package(PACKAGE VERSION), or else the
# archive at URL (or of its name in G500_DEPS_DIR) with that hash, built as part of g500.
function(g500_dependency name package version url sha256)
  if(NOT G500_FETCH_DEPENDENCIES)
    find_package(${package} ${version} REQUIRED)
    return()
  endif()
  # The archive in G500_DEPS_DIR when it is there (CMake takes no local file in a list of URLs).
  set(from "${url}")
  if(G500_DEPS_DIR)
    get_filename_component(deps_dir "${G500_DEPS_DIR}" ABSOLUTE)
    get_filename_component(archive "${url}" NAME)
    if(EXISTS "${deps_dir}/${archive}")
      set(from "${deps_dir}/${archive}")
    endif()
  endif()
  FetchContent_Declare(${name} URL "${from}" URL_HASH SHA256=${sha256} DOWNLOAD_EXTRACT_TIMESTAMP ON
                       FIND_PACKAGE_ARGS ${version} NAMES ${package})
  FetchContent_MakeAvailable(${name})
  if(${name}_FOUND)  # find_package(NAME ... NAMES PACKAGE) sets NAME_FOUND
    message(STATUS "g500: ${package} ${${name}_VERSION} installed (${${name}_DIR})")
  else()
    string(TOUPPER "${name}" upper)
    if(FETCHCONTENT_SOURCE_DIR_${upper})
      set(from "${FETCHCONTENT_SOURCE_DIR_${upper}}")
    endif()
    message(STATUS "g500: ${package} ${version} built from ${from}")
  endif()
endfunction()

g500_dependency(fmt fmt 9.1.0 https://github.com/fmtlib/fmt/releases/download/9.1.0/fmt-9.1.0.zip
                cceb4cb9366e18a5742128cb3524ce5f50e88b476f1e54737a47ffdf4df4c996)
g500_dependency(CLI11 CLI11 2.1.2 https://github.com/CLIUtils/CLI11/archive/v2.1.2.tar.gz
                26291377e892ba0e5b4972cdfd4a2ab3bf53af8dac1f4ea8fe0d1376b625c8cb)
g500_dependency(nlohmann_json nlohmann_json 3.11.2 https://github.com/nlohmann/json/archive/v3.11.2.tar.gz
                d69f9deb6a75e2580465c6c4c5111b89c4dc2fa94e3a85fcd2ffcd9a143d9273)

# GoogleTest, for the tests only (BUILD_TESTING, on by default): without it and with fetching off,
# g500 builds and the tests are left out, with a warning saying so.
if(BUILD_TESTING)
  if(G500_FETCH_DEPENDENCIES)
    g500_dependency(GTest GTest 1.12.1 https://github.com/google/googletest/archive/release-1.12.1.tar.gz
                    81964fe578e9bd7c94dfdb09c8e4d6e6759e19967e397dbea48d1c10e45d0df2)
  else()
    find_package(GTest 1.12.1 QUIET)
    if(NOT GTest_FOUND)
      message(WARNING "g500: GoogleTest is not installed, so the tests are not built (install it, or configure with "
                      "-DG500_FETCH_DEPENDENCIES=ON to fetch it, or -DBUILD_TESTING=OFF to silence this)")
      set(BUILD_TESTING OFF CACHE BOOL "Build the tests" FORCE)
    endif()
  endif()
endif()
