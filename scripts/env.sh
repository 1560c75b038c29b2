# Sourced by the scripts, and by a user before the README's examples: lets Open MPI run as root
# (CI runs as root) and start more ranks than cores, and makes ranks yield the core while
# waiting, which keeps oversubscribed runs (more ranks than cores) fast.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
# Open MPI refuses more ranks than cores ("not enough slots") unless told: a laptop or a 2-core
# machine runs the examples' 4, 6 and 8 ranks time-shared. (MPICH needs nothing.)
export OMPI_MCA_rmaps_base_oversubscribe=${OMPI_MCA_rmaps_base_oversubscribe:-1}
# OpenMP threads that wait by spinning start the next parallel region at once; sleeping ones can
# take a few hundred microseconds to wake (virtual machines especially), which shows in a 5 ms BFS.
# Usage: OMP_WAIT_POLICY=$(omp_wait_policy RANKS THREADS): spin when the threads fit the cores.
omp_wait_policy() {
  whole_number omp_wait_policy ranks "$1" 1 "$g500_largest_count" && whole_number omp_wait_policy threads "$2" 1 "$g500_largest_count"
  if (( 10#$1 * 10#$2 <= $(nproc) )); then echo active; else echo passive; fi
}
# Usage: whole_number SCRIPT OPTION VALUE MIN MAX: exits 2 with one line unless VALUE is a decimal
# whole number from MIN to MAX. The text is matched before any arithmetic sees it: bash evaluates
# a name inside $(( )), (( )), let or [[ -gt ]] as an expression, so a value like 'x[$(cmd)]'
# would run cmd. Leading zeros are decimal (010 is ten, not octal eight).
g500_largest_count=2147483647
whole_number() {
  if [[ ! $3 =~ ^[0-9]{1,18}$ ]] || (( 10#$3 < $4 || 10#$3 > $5 )); then
    echo "$1: error: $2 must be a whole number from $4 to $5 (got '$3')" >&2
    exit 2
  fi
}
# Usage: whole_numbers SCRIPT OPTION "LIST" MIN MAX: the same for each item of a list separated
# by spaces or commas (no glob expansion); prints the items as plain decimals, one per line.
whole_numbers() {
  local items item
  IFS=' ,' read -r -a items <<< "$3"
  [[ ${#items[@]} -gt 0 ]] || { echo "$1: error: $2 is empty" >&2; exit 2; }
  for item in "${items[@]}"; do
    whole_number "$1" "$2" "$item" "$4" "$5"
    echo "$((10#$item))"
  done
}
# Open MPI needs --oversubscribe to place more ranks than cores; MPICH has no such flag.
if mpiexec --version 2>/dev/null | grep -q -E "Open MPI|OpenRTE"; then
  G500_MPIEXEC_FLAGS=(--oversubscribe)
else
  G500_MPIEXEC_FLAGS=()
fi
