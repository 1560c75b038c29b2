// Memory facts of this node and process: physical memory, ranks sharing the node, peak RSS.
#pragma once
#include <mpi.h>

#include <cstddef>

namespace g500 {

size_t physical_memory_bytes();
size_t peak_rss_bytes();  // this process (VmHWM)
// Starts peak_rss_bytes() again from the current resident size (Linux: "5" to
// /proc/self/clear_refs); false where that is not possible.
bool reset_peak_rss();
int ranks_on_this_node(MPI_Comm comm);
// Collective: whether every rank can hold `bytes_per_rank` more while all the ranks of each node
// together use at most `share` of that node's physical memory.
bool every_node_has_room(double bytes_per_rank, double share, MPI_Comm comm);

}  // namespace g500
