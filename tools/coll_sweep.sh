#!/usr/bin/env bash
# Sweep `g500 coll` over operations x algorithms x shapes x segment sizes and collect one CSV.
# usage: tools/coll_sweep.sh G500_BINARY NP OUT.csv [MAX_SIZE]
# Also times Open MPI's own algorithms by forcing them with coll_tuned MCA parameters.
# OUT.csv is replaced whole when the sweep is complete.
set -euo pipefail
source "$(dirname "$0")/../scripts/env.sh"
[[ $# -ge 3 ]] || { echo "coll_sweep: usage: tools/coll_sweep.sh G500_BINARY NP OUT.csv [MAX_SIZE]" >&2; exit 2; }
binary=$1; np=$2; out=$3; max=${4:-256K}
whole_number coll_sweep NP "$np" 2 65536  # NP/2 is a grid side below
np=$((10#$np))
reps=${REPS:-10}; warmup=${WARMUP:-2}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
count=0
run() {  # run [mpiexec options] -- g500 coll options...
  count=$((count + 1))
  local name=r$(printf %03d $count)
  local mpi_options=()
  while [[ $# -gt 0 && $1 != -- ]]; do mpi_options+=("$1"); shift; done
  shift
  mpiexec --oversubscribe -n "$np" "${mpi_options[@]}" "$binary" coll --reps "$reps" --warmup "$warmup" \
    --csv "$tmp/$name.csv" "$@" > /dev/null
}
for algo in mpi linear pairwise; do run -- --op alltoallv --algo $algo --sizes 1:$max; done
for shape in "$np" 2x$((np / 2)) ${SHAPE3D:-}; do
  run -- --op alltoallv --algo dimwise --shape "$shape" --sizes 1:$max
done
for algo in mpi linear pairwise bruck; do run -- --op alltoall --algo $algo --sizes 1:$max; done
for algo in mpi ring recdbl bruck; do run -- --op allgatherv --algo $algo --sizes 1:$max; done
for algo in mpi linear chain binomial; do run -- --op bcast --algo $algo --sizes 1:4M; done
for segment in 4K 16K 64K; do
  for algo in pipeline bintree splitbintree; do
    run -- --op bcast --algo $algo --segment $segment --sizes 1:4M
  done
  for shape in "$np" 2x$((np / 2)) ${SHAPE3D:-}; do
    for algo in bintree3d ktree3 ktree6; do
      run -- --op bcast --algo $algo --shape "$shape" --segment $segment --sizes 1:4M
    done
  done
done
# Open MPI's built-in algorithms, forced at start-up (coll_tuned dynamic rules).
for n in 1 2; do
  run --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_alltoallv_algorithm $n -- \
    --op alltoallv --algo ompi:$n --sizes 1:$max
done
for n in 1 3 6; do
  run --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm $n \
    --mca coll_tuned_bcast_algorithm_segmentsize 16384 -- --op bcast --algo ompi:$n --sizes 1:4M
done
head -1 "$tmp/r001.csv" > "$tmp/all.csv"
for f in "$tmp"/r*.csv; do tail -n +2 "$f"; done >> "$tmp/all.csv"
cp "$tmp/all.csv" "$out.g500-tmp.$$" && mv "$out.g500-tmp.$$" "$out"
echo "wrote $(($(wc -l < "$out") - 1)) rows to $out"
