#!/usr/bin/env bash
# `cmake --install` into a fresh prefix: bin/g500 runs and names this version, bin/g500report
# finds its modules through its link into share/g500/tools, and g500 jobscript's scripts run the
# installed g500.
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
for module in input_check.py output_file.py plotting.py report_figure.py report_page.py report_run.py report_scaling.py \
    report_sssp.py requirements.txt; do
  [ -f "$prefix/share/g500/tools/$module" ] || fail "share/g500/tools/$module is missing"
done
# Job scripts run the installed g500 itself; from the build tree, ./build/g500.
script=$("$prefix/bin/g500" jobscript --system slurm --nodes 1 --scale 10)
grep -q "^    $prefix/bin/g500 bfs --scale 10 " <<< "$script" || fail "the installed g500's job script does not run it: $script"
grep -q "^    \./build/g500 bfs --scale 10 " <<< "$("$build/g500" jobscript --system slurm --nodes 1 --scale 10)" ||
  fail "the build tree's job script does not run ./build/g500"
"$prefix/bin/g500report" --help | grep -q "^usage: g500report" || fail "g500report --help did not print its usage"
for tool in coll_plot plot_link_loads; do
  "$prefix/share/g500/tools/$tool.py" --help | grep -q "^usage: $tool" || fail "share/g500/tools/$tool.py --help did not print its usage"
done
# Nothing else: no headers or libraries of the fetched or found libraries.
extra=$(cd "$prefix" && find . -type f -o -type l | grep -v -E '^\./(bin/g500|bin/g500report|share/g500/tools/.*)$' || true)
[ -z "$extra" ] || fail "unexpected files installed: $extra"
echo "test_install: ok ($prefix)"
