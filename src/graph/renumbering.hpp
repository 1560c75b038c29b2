// Degree-order renumbering of the vertices inside each process (Nakao et al. 2021, section 4.2, switch `reorder`).
//
// A Kronecker graph's few high-degree vertices are touched far more often than the rest. Kernel 1
// renumbers the vertices of every owned block by descending degree (ties by original offset), so
// the busy vertices share the first words of every bitmap and the first entries of every per-
// vertex array, and vertices without edges sit together at the block's end. The BFS works in the
// new ids; these tables translate back whenever a parent is written, so the output stays in the
// original vertex ids. Only the position inside a block changes: the owner of a vertex does not.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/grid.hpp"
#include "graph/id_table.hpp"
#include "graph/in_block_id.hpp"
#include "graph/set_map.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

struct Renumbering {
  IdTable owned_new;       // original owned offset -> new offset (B entries)
  IdTable owned_original;  // new owned offset -> original offset (B)
  IdTable row_original;    // new row-local id -> original row-local id (C x B; the owned table when C = 1);
                           // empty when kept by row slot instead:
  // The original row-local id of every non-empty row, by its slot in the bitmap-based row index
  // (Nakao et al. 2021, section 4.1): the rows a search can reach a vertex from are the ones with
  // edges, so the table is O(m/P) instead of a word per row-set vertex. The row's block is its
  // new id's: the offset inside it is enough (graph/in_block_id.hpp).
  InBlockIds row_original_by_slot;
  IdTable col_original;     // new column-local id -> original column-local id (R x B; the owned table when R = 1):
                            // the SSSP graph's (gather_column_maps); the BFS graph keeps instead
  SetMap column_originals;  // the same for the columns its entries use (make_column_originals)

  bool active() const { return !owned_new.empty(); }
  // Bytes of the distinct tables.
  size_t memory_bytes() const {
    size_t bytes = (owned_new.size() + owned_original.size()) * sizeof(LocalId) + row_original_by_slot.memory_bytes();
    if (!row_original.shares_with(owned_original)) bytes += row_original.size() * sizeof(LocalId);
    if (!col_original.shares_with(owned_original) && !col_original.shares_with(row_original))
      bytes += col_original.size() * sizeof(LocalId);
    return bytes + column_originals.memory_bytes();
  }
};

// The forward maps of the row and column sets, needed only while the SSSP's kernel 1 places the
// edges (shared like the tables above).
struct ForwardMaps {
  IdTable row_new;  // original row-local id -> new row-local id
  IdTable col_new;  // original column-local id -> new column-local id
};

// A per-owned-vertex array in the graph's (new) order written in original order:
// by_original[o] = by_graph[owned_new[o]]. A gather (sequential writes; random reads, which the
// core overlaps, prefetched a few entries ahead) rather than a scatter.
template <class T>
void gather_in_original_order(const T* by_graph, const LocalId* owned_new, int64_t n, T* by_original, int threads) {
  constexpr int64_t kAhead = 16;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t o = 0; o < n; ++o) {
    if (o + kAhead < n) __builtin_prefetch(by_graph + owned_new[o + kAhead]);
    by_original[o] = by_graph[owned_new[o]];
  }
}

// The permutation of one block: owned offsets by descending degree, ties by offset (a stable
// counting sort by degree, in parallel). Returns new offset -> original offset.
std::vector<LocalId> degree_order(const std::vector<int64_t>& degree);
// The same into order[0, degree.size()).
void degree_order(const std::vector<int64_t>& degree, LocalId* order);

// This process's renumbering tables from its owned degrees (original order). The row and column
// sets' maps are the users' to make: the BFS graph keeps those of the rows and columns in use
// (graph/set_map.hpp), the SSSP graph gathers the whole tables (gather_set_maps).
Renumbering build_renumbering(const std::vector<int64_t>& owned_degree);
// Collective over the grid: the whole row and column sets' maps, forward.row_new, r.row_original,
// forward.col_new and r.col_original.
void gather_set_maps(Renumbering& r, const Distribution& d, const ProcessGrid& grid, ForwardMaps& forward);

}  // namespace g500::graph
