#!/usr/bin/env bash
# A clean clone built and tested as a user without root, with the installed fmt, CLI11,
# nlohmann-json and GoogleTest hidden from CMake (CMAKE_DISABLE_FIND_PACKAGE_<Package>), so the
# build fetches all four: from a local mirror (G500_DEPS_DIR, archives under their upstream file
# names) and, for libraries given as unpacked sources, FETCHCONTENT_SOURCE_DIR_<NAME>. Then
# cmake --install into a prefix in the user's home and g500 --version from there.
# Run as root (it makes the user); a full build: minutes, so not part of ctest.
# Usage: tests/build/clean_build_as_user.sh MIRROR [CTEST_REGEX]
#   MIRROR/archives/  the archives of cmake/dependencies.cmake (any of them)
#   MIRROR/src/NAME/  unpacked sources, NAME one of fmt, CLI11, nlohmann_json, GTest
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
mirror=$(cd "$1" && pwd)
tests=${2:-}
user=g500-build-check
id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
home=$(getent passwd "$user" | cut -d: -f6)
rm -rf "$home/g500" "$home/g500-prefix"
# The user clones a bundle of HEAD: git refuses to read a repository another user owns.
bundle=$(mktemp /tmp/g500-XXXXXX.bundle)
trap 'rm -f "$bundle"' EXIT
git -C "$repo" bundle create --quiet "$bundle" HEAD
chmod a+r "$bundle"
runuser -u "$user" -- git -c advice.detachedHead=false clone --quiet "$bundle" "$home/g500"
options=(-DCMAKE_DISABLE_FIND_PACKAGE_fmt=ON -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON
         -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON
         -DG500_DEPS_DIR="$mirror/archives" -DCMAKE_INSTALL_PREFIX="$home/g500-prefix")
for name in fmt CLI11 nlohmann_json GTest; do
  [ -d "$mirror/src/$name" ] && options+=("-DFETCHCONTENT_SOURCE_DIR_${name^^}=$mirror/src/$name")
done
# The user's own environment, not root's: root's PATH names folders under /root that the user
# cannot search (a command that is not there is then "Permission denied", not "not found").
runuser -u "$user" -- env -i -C "$home/g500" HOME="$home" USER="$user" LOGNAME="$user" LANG=C.UTF-8 \
  PATH=/usr/local/bin:/usr/bin:/bin G500_CHECK_TESTS="$tests" bash -c '
  set -euo pipefail
  echo "as $(id -un) (uid $(id -u)), sudo: $(command -v sudo || echo none), PATH=$PATH"
  cmake -S . -B build -G Ninja "$@" | grep -E "^-- g500|Error" || true
  cmake --build build
  cd build
  ctest --output-on-failure ${G500_CHECK_TESTS:+-R "$G500_CHECK_TESTS"}
  cmake --install . >/dev/null
  ~/g500-prefix/bin/g500 --version' bash "${options[@]}"
