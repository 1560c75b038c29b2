#!/usr/bin/env bash
# The build id of a tree without git (cmake/build_id.cmake): from cmake/source_commit.txt when
# git archive filled it in, else VERSION-unknown-commit, also inside another git repository; and git
# archive does fill it in.
# Usage: test_build_id.sh CMAKE SOURCE_DIR
set -euo pipefail
cmake=$1 source=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "test_build_id: $*" >&2; exit 1; }
id_of() {  # id_of TREE: the build id the script writes for TREE
  "$cmake" -DSOURCE_DIR="$1" -DOUTPUT="$dir/id.cpp" "-DCONFIG=GNU 12.2.0, Release" -DVERSION=1.2.3 \
           "-DCOMPILER=GNU 12.2.0" -DARCH_FLAGS= -DBUILD_ID_MARKER=g500-build-id: -P "$source/cmake/build_id.cmake"
  sed -n 's/.*"g500-build-id:\(.*\)";$/\1/p' "$dir/id.cpp"
}
mkdir -p "$dir/plain/cmake"
cp "$source/cmake/source_commit.txt" "$dir/plain/cmake/"
got=$(id_of "$dir/plain")
[ "$got" = "1.2.3-unknown-commit (GNU 12.2.0, Release)" ] || fail "a copied tree gave '$got'"
grep -q 'build_version() { return "1.2.3"; }' "$dir/id.cpp" || fail "no version in the generated source"
commit=0123456789abcdef0123456789abcdef01234567
echo "$commit" > "$dir/plain/cmake/source_commit.txt"
got=$(id_of "$dir/plain")
[ "$got" = "$commit (GNU 12.2.0, Release)" ] || fail "a filled source_commit.txt gave '$got'"
# Unpacked inside another git repository (a home directory kept in git), untracked there: still
# the archive's commit, not that repository's.
if command -v git >/dev/null; then
  git init -q "$dir/outer"
  git -C "$dir/outer" -c user.name=t -c user.email=t@t commit -q --allow-empty -m outer
  cp -r "$dir/plain" "$dir/outer/g500"
  got=$(id_of "$dir/outer/g500")
  [ "$got" = "$commit (GNU 12.2.0, Release)" ] || fail "a tree inside another repository gave '$got'"
fi
if git -C "$source" rev-parse HEAD >/dev/null 2>&1; then
  mkdir "$dir/archive"
  git -C "$source" archive HEAD cmake | tar -x -C "$dir/archive"
  head=$(git -C "$source" rev-parse HEAD)
  got=$(id_of "$dir/archive")
  [ "$got" = "$head (GNU 12.2.0, Release)" ] || fail "git archive of HEAD ($head) gave '$got'"
fi
echo "test_build_id: ok"
