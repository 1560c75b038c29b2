#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz_tsv, fuzz_mtx, fuzz_bin, and fuzz_bin_header and
# fuzz_mtx_header for the header fields near the integer limits) with clang and, for each:
#   1. replays every kept crashing input in regressions/<target>/ (they must pass now);
#   2. fuzzes for --seconds (default 5) from the seeds in corpus/<target>/ (working copy in the
#      build directory, so the repository's corpus is not changed), with the dictionary
#      dict/<target>.dict when there is one.
# A crash found in step 2 is copied into regressions/<target>/ (commit it: it is then replayed
# here and by test_input_parse in the normal build) and the script fails.
# Without a clang++ that supports -fsanitize=fuzzer it prints "fuzz: SKIPPED ..." and exits 0
# (Debian: apt-get install clang).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seconds=5
build="$here/../../build/fuzz"
while (($#)); do
  case "$1" in
    --seconds) [[ $# -ge 2 ]] || set -- "$1" ""; seconds=$2; shift 2 ;;
    --build-dir) [[ $# -ge 2 && -n $2 ]] || { echo "fuzz: --build-dir needs a value" >&2; exit 2; }; build=$2; shift 2 ;;
    *) echo "usage: $0 [--seconds N] [--build-dir DIR]" >&2; exit 2 ;;
  esac
done
[[ $seconds =~ ^[1-9][0-9]{0,4}$ ]] || { echo "fuzz: --seconds must be a whole number from 1 to 99999 (got '$seconds')" >&2; exit 2; }

cxx=${CXX_FUZZ:-}
if [ -z "$cxx" ]; then
  for candidate in clang++ clang++-19 clang++-18 clang++-17 clang++-16 clang++-15 clang++-14; do
    if command -v "$candidate" >/dev/null 2>&1; then cxx=$(command -v "$candidate"); break; fi
  done
fi
if [ -z "$cxx" ]; then
  echo "fuzz: SKIPPED: clang++ not found (install clang to build the libFuzzer targets)"
  exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' > "$probe/p.cpp"
if ! "$cxx" -fsanitize=fuzzer,address "$probe/p.cpp" -o "$probe/p" >/dev/null 2>&1; then
  echo "fuzz: SKIPPED: $cxx cannot build with -fsanitize=fuzzer (libFuzzer missing)"
  exit 0
fi

generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S "$here/project" -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" >/dev/null

status=0
for target in tsv mtx bin bin_header mtx_header; do
  exe="$build/fuzz_$target"
  mapfile -t kept < <(find "$here/regressions/$target" -type f ! -name '.*' 2>/dev/null | sort)
  if ((${#kept[@]})); then
    if ! "$exe" -runs=0 "${kept[@]}" >"$build/regressions_$target.log" 2>&1; then
      echo "fuzz: $target: a kept regression input fails again (log: $build/regressions_$target.log)"
      status=1
      continue
    fi
  fi
  work="$build/corpus_$target"
  artifacts="$build/artifacts_$target"
  mkdir -p "$work" "$artifacts"
  rm -f "$artifacts"/*
  dict=()
  [ -f "$here/dict/$target.dict" ] && dict=(-dict="$here/dict/$target.dict")
  if "$exe" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
       -artifact_prefix="$artifacts/" "$work" "$here/corpus/$target" >"$build/fuzz_$target.log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/fuzz_$target.log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz: $target: ok (${seconds}s, $runs inputs, ${#kept[@]} regression inputs replayed)"
  else
    status=1
    mkdir -p "$here/regressions/$target"
    for f in "$artifacts"/*; do
      [ -e "$f" ] || continue
      cp "$f" "$here/regressions/$target/$(basename "$f")"
      echo "fuzz: $target: FAILED; input kept as tests/fuzz/regressions/$target/$(basename "$f") (log: $build/fuzz_$target.log)"
    done
  fi
done
exit $status
