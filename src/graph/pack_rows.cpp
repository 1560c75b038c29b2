#include "graph/pack_rows.hpp"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace g500 {
namespace {

constexpr int64_t kRowsPerTask = 256;  // dynamic-schedule unit over rows (hub rows are long)
// Rows are packed in slabs of about this many entries; after each slab the pages of the neighbour
// array it has read are given back, so packing adds about one slab to the CSR's memory.
constexpr int64_t kSlabEntries = int64_t{1} << 24;

// Rows in arrival order sorted by column id, with their first neighbours updated.
void sort_rows_by_column(LocalGraph& g) {
  const int64_t slots = g.rows.num_slots();
  const int64_t* starts = g.rows.starts();
  LocalId* columns = g.neighbors.data();
  const bool renumbered = !g.first_neighbors_original.empty();
#pragma omp parallel for schedule(dynamic, kRowsPerTask)
  for (int64_t r = 0; r < slots; ++r) {
    if (starts[r + 1] == starts[r]) continue;
    std::sort(columns + starts[r], columns + starts[r + 1]);
    g.first_neighbors[r] = columns[starts[r]];
    if (renumbered) g.first_neighbors_original[r] = g.renumbering.col_original[columns[starts[r]]];
  }
}

// In-place exclusive prefix sum of sizes[0, n); returns the total.
uint64_t exclusive_prefix_sum(uint64_t* sizes, int64_t n) {
  const int T = omp_get_max_threads();
  std::vector<uint64_t> part_total(T + 1, 0);
#pragma omp parallel num_threads(T)
  {
    const int t = omp_get_thread_num();
    const int64_t lo = n * t / T, hi = n * (t + 1) / T;
    uint64_t sum = 0;
    for (int64_t k = lo; k < hi; ++k) sum += sizes[k];
    part_total[t + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int u = 0; u < T; ++u) part_total[u + 1] += part_total[u];
    uint64_t running = part_total[t];
    for (int64_t k = lo; k < hi; ++k) {
      const uint64_t here = sizes[k];
      sizes[k] = running;
      running += here;
    }
  }
  return part_total[T];
}

// Gives the whole pages of [begin, end) back to the system (their contents are no longer needed;
// the allocation itself stays until it is freed).
void release_pages(void* begin, void* end) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t first = (reinterpret_cast<uintptr_t>(begin) + page - 1) / page * page;
  const uintptr_t last = reinterpret_cast<uintptr_t>(end) / page * page;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace

void pack_rows(LocalGraph& g, RowOrder order) {
  PackedRows& packed = g.packed;
  const int64_t slots = g.rows.num_slots();
  const int64_t* starts = g.rows.starts();
  if (!order.by_key) {
    sort_rows_by_column(g);
    order.key_of_column.clear();
    order.column_of_key.clear();
  }
  packed.key_of_column = std::move(order.key_of_column);
  packed.column_of_key = std::move(order.column_of_key);
  LocalId* columns = g.neighbors.data();
  const LocalId* key_of = packed.key_of_column.empty() ? nullptr : packed.key_of_column.data();
  auto key = [key_of](LocalId column) { return key_of ? key_of[column] : column; };

  // Every row's size, then their prefix sums: the rows lie in the stream in slot order.
  packed.offset.resize(slots);
  uint64_t* offset = packed.offset.data();
#pragma omp parallel for schedule(dynamic, kRowsPerTask)
  for (int64_t r = 0; r < slots; ++r)
    offset[r] = static_cast<uint64_t>(packed_row_bytes(columns + starts[r], starts[r + 1] - starts[r], key));
  packed.bytes.resize(exclusive_prefix_sum(offset, slots));

  uint8_t* bytes = packed.bytes.data();
  for (int64_t slab_begin = 0; slab_begin < slots;) {
    const int64_t* slab_end_start =
        std::upper_bound(starts + slab_begin + 1, starts + slots + 1, starts[slab_begin] + kSlabEntries);
    const int64_t slab_end = std::max<int64_t>(slab_begin + 1, slab_end_start - starts - 1);
#pragma omp parallel for schedule(dynamic, kRowsPerTask)
    for (int64_t r = slab_begin; r < slab_end; ++r)
      pack_row_gaps(columns + starts[r], starts[r + 1] - starts[r], key, bytes + offset[r]);
    release_pages(columns + starts[slab_begin], columns + starts[slab_end]);
    slab_begin = slab_end;
  }
  LargeArray<LocalId>().swap(g.neighbors);
  packed.in_use = true;
}

}  // namespace g500
