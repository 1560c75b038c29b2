// Giving memory back to the system before the array that holds it is freed: an array read once
// from front to back (kernel 1's kept entries, consumed bucket by bucket while the graph they
// become grows) releases what it has read, so the two do not count in memory at once.
#pragma once
#include <cstddef>

namespace g500::util {

// madvise(MADV_DONTNEED) on the whole pages inside [p, p + bytes): their memory goes back to the
// system and the range reads as zeros afterwards. Only for anonymous memory that is not read
// again (or whose zeros are harmless). Best effort: where the call fails, nothing changes.
void release_pages(void* p, size_t bytes);

// Gives the whole free pages of the C library's heap back to the system (glibc's malloc_trim;
// elsewhere nothing). Freed blocks below malloc's mapping threshold stay in its heap, where they
// would count in memory until reused.
void release_free_heap();

}  // namespace g500::util
