// Memory facts of this node and process: physical memory, ranks sharing the node, peak RSS.
#pragma once
#include <mpi.h>

#include <cstddef>

namespace g500::util {

size_t physical_memory_bytes();
// What a run starting now can use on this node: the kernel's estimate of memory available
// (MemAvailable), within the control group's limit when one is set (cgroup v2 memory.max less
// memory.current), at most the physical memory; physical_memory_bytes() where neither is known.
size_t available_memory_bytes();
size_t resident_bytes();  // this process now (VmRSS)
size_t peak_rss_bytes();  // this process (VmHWM)
// Starts peak_rss_bytes() again from the current resident size (Linux: "5" to
// /proc/self/clear_refs); false where that is not possible.
bool reset_peak_rss();
int ranks_on_this_node(MPI_Comm comm);
// Collective: the memory a run of `comm`'s ranks can use on this node: available_memory_bytes()
// plus what the node's ranks already hold (their runtime, which estimates count in).
double node_memory_for_run_bytes(MPI_Comm comm);
// Collective: whether every rank can hold `bytes_per_rank` more while all the ranks of each node
// together use at most `share` of that node's physical memory.
bool every_node_has_room(double bytes_per_rank, double share, MPI_Comm comm);

}  // namespace g500::util
