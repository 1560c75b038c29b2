// A row- or column-local id kept in 32 bits as its offset inside its block, where the block is
// known from an id kept beside it.
//
// A row set is C blocks of B vertices and a column set R blocks (graph/distribution.hpp), and the
// degree-order renumbering moves a vertex only inside its block (graph/renumbering.hpp). So a table
// that keeps, for a vertex x of a set, another id of x's block (x's original id; the original id of
// a neighbour whose new id is kept too) needs only the offset inside the block: the block is x's.
// With 64-bit local ids (sets beyond 2^32 vertices, at the papers' largest runs) this halves the
// tables kept per row with edges and per column in use, which grow with m/P; with 32-bit ids the
// id itself fits the same 32 bits and is kept whole, with no arithmetic to read it.
#pragma once
#include <cstdint>

#include "graph/distribution.hpp"
#include "graph/local_id.hpp"

namespace g500::graph {

using InBlockId = uint32_t;

// The stored form of `id` (Distribution::ids_fit checks that an offset fits 32 bits).
inline InBlockId keep_in_block(LocalId id, const Distribution& d) {
  if constexpr (kWideIds)
    return static_cast<InBlockId>(d.by_block.remainder(id));
  else
    return id;
}

// The id kept as `stored` beside `beside`, an id of the same block.
inline LocalId read_in_block(InBlockId stored, LocalId beside, const Distribution& d) {
  if constexpr (kWideIds)
    return static_cast<LocalId>(beside - d.by_block.remainder(beside) + stored);
  else
    return stored;
}

}  // namespace g500::graph
