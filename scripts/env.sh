# Sourced by the scripts: lets Open MPI run as root (CI runs as root) and makes ranks yield the
# core while waiting, which keeps oversubscribed runs (more ranks than cores) fast.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
# OpenMP threads that wait by spinning start the next parallel region at once; sleeping ones can
# take a few hundred microseconds to wake (virtual machines especially), which shows in a 5 ms BFS.
# Usage: OMP_WAIT_POLICY=$(omp_wait_policy RANKS THREADS): spin when the threads fit the cores.
omp_wait_policy() { if (( $1 * $2 <= $(nproc) )); then echo active; else echo passive; fi; }
# Open MPI needs --oversubscribe to place more ranks than cores; MPICH has no such flag.
if mpiexec --version 2>/dev/null | grep -q -E "Open MPI|OpenRTE"; then
  G500_MPIEXEC_FLAGS=(--oversubscribe)
else
  G500_MPIEXEC_FLAGS=()
fi
