#!/usr/bin/env bash
# `cmake --install` into a fresh prefix: bin/g500 runs and names this version, bin/g500report
# finds its modules through its link into share/g500/tools.
# Usage: test_install.sh CMAKE BUILD_DIR VERSION
set -euo pipefail
cmake=$1 build=$2 version=$3
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
fail() { echo "test_install: $*" >&2; exit 1; }
[ -x "$prefix/bin/g500" ] || fail "no bin/g500 in the prefix"
first=$("$prefix/bin/g500" --version | head -n 1)
[ "$first" = "g500 $version" ] || fail "g500 --version printed '$first', expected 'g500 $version'"
[ "$(readlink "$prefix/bin/g500report")" = "../share/g500/tools/g500report" ] || fail "bin/g500report is not a link to the tools"
for module in input_check.py output_file.py requirements.txt; do
  [ -f "$prefix/share/g500/tools/$module" ] || fail "share/g500/tools/$module is missing"
done
"$prefix/bin/g500report" --help | grep -q "^usage: g500report" || fail "g500report --help did not print its usage"
# Nothing else: no headers or libraries of the fetched or found libraries.
extra=$(cd "$prefix" && find . -type f -o -type l | grep -v -E '^\./(bin/g500|bin/g500report|share/g500/tools/.*)$' || true)
[ -z "$extra" ] || fail "unexpected files installed: $extra"
echo "test_install: ok ($prefix)"
