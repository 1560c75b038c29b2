#!/usr/bin/env bash
# Regenerates the small result files under tests/report/fixtures with the real binary (SCALE 8..12,
# 4 roots each): a strong series (SCALE 10 on 1, 2, 4 ranks), a weak series (SCALE 10 per rank on
# 1, 2, 4 ranks), both traced, an ablation set at 1 rank, traced top-down-only and bottom-up-only
# runs, and two SSSP runs; and tests/report/current: one untraced 2-rank run in today's format.
# usage: tests/report/make_fixtures.sh [build/g500]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
source "$here/scripts/env.sh"
binary=${1:-$here/build/g500}
dir=$here/tests/report/fixtures
rm -rf "$dir" && mkdir -p "$dir"
run() {  # run NAME RANKS KERNEL ARGS...
  local name=$1 np=$2; shift 2
  nice -n 19 mpiexec "${G500_MPIEXEC_FLAGS[@]}" --bind-to none -n "$np" "$binary" "$@" --roots 4 --threads 1 \
    --json "$dir/$name.json" > /dev/null
}
run bfs-s10-np1 1 bfs --scale 10 --trace
run bfs-s10-np2 2 bfs --scale 10 --trace
run bfs-s10-np4 4 bfs --scale 10 --trace
run bfs-s11-np2 2 bfs --scale 11 --trace
run bfs-s12-np4 4 bfs --scale 12 --trace
for off in bcsr degree-sort lb-topdown,bu-alltoallv bcsr,degree-sort,lb-topdown,bu-alltoallv; do
  run "bfs-s10-np1-off-${off//,/-}" 1 bfs --scale 10 --disable "$off"
done
# One direction only (for the top-down / bottom-up / hybrid comparison of slide 002)
run bfs-s10-np1-top-down-only 1 bfs --scale 10 --trace --alpha 1e-12
run bfs-s10-np1-bottom-up-only 1 bfs --scale 10 --trace --alpha 1e12 --beta 1e12
run sssp-s8-np1 1 sssp --scale 8
run sssp-s8-np2 2 sssp --scale 8
ls -l "$dir"
# A run in today's format (provenance, volumes, memory estimates) for the run's own tables.
dir=$here/tests/report/current
rm -rf "$dir" && mkdir -p "$dir"
run bfs-s10-np2 2 bfs --scale 10
ls -l "$dir"
