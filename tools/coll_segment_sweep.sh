#!/usr/bin/env bash
# Time bcast algorithms at one message size over a range of segment sizes (data for 004's Fig. 8
# with measurements): tools/coll_segment_sweep.sh G500_BINARY NP SHAPE MESSAGE OUT.csv [ALGO...]
# OUT.csv is replaced whole when the sweep is complete.
set -euo pipefail
source "$(dirname "$0")/../scripts/env.sh"
[[ $# -ge 5 ]] || { echo "coll_segment_sweep: usage: tools/coll_segment_sweep.sh G500_BINARY NP SHAPE MESSAGE OUT.csv [ALGO...]" >&2; exit 2; }
binary=$1; np=$2; shape=$3; message=$4; out=$5; shift 5
whole_number coll_segment_sweep NP "$np" 1 65536
algos=("$@"); [[ ${#algos[@]} -gt 0 ]] || algos=(ktree6 bintree3d)
reps=${REPS:-10}; warmup=${WARMUP:-2}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
for algo in "${algos[@]}"; do
  for segment in 256 512 1K 2K 4K 8K 16K 32K 64K 128K 256K 512K 1M; do
    n=$((n + 1))
    mpiexec --oversubscribe -n "$np" "$binary" coll --op bcast --algo "$algo" --shape "$shape" \
      --segment "$segment" --sizes "$message:$message" --reps "$reps" --warmup "$warmup" \
      --csv "$tmp/$(printf %03d $n).csv" > /dev/null
  done
done
head -1 "$tmp/001.csv" > "$tmp/all"
for f in "$tmp"/*.csv; do tail -n +2 "$f"; done >> "$tmp/all"
cp "$tmp/all" "$out.g500-tmp.$$" && mv "$out.g500-tmp.$$" "$out"
echo "wrote $(($(wc -l < "$out") - 1)) rows to $out"
