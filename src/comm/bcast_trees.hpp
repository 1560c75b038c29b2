// Broadcast trees of Hosono et al. 2021 as pure functions: given the root, the process count (or the
// logical X x Y x Z shape) and a rank, return that rank's parent and its children in sending order.
// Used by the MPI implementations (coll_bcast.cpp) and by the Fugaku-scale simulation
// (torus_model.cpp), so both see the same trees.
#pragma once
#include <vector>

#include "comm/coll_common.hpp"

namespace g500::comm {

struct TreeLinks {
  int parent = -1;            // -1 at the root
  std::vector<int> children;  // in the order the rank sends to them
};

// Basic linear: the root sends to everyone.
TreeLinks linear_tree(int rank, int root, int size);
// Chain: root -> root+1 -> root+2 -> ...
TreeLinks chain_tree(int rank, int root, int size);
// Binary tree in heap order over ranks relative to the root: children of v are 2v+1 and 2v+2.
TreeLinks binary_tree(int rank, int root, int size);
// Binomial tree: relative rank v receives from v minus its lowest set bit and sends to v + 2^k for
// every 2^k below that bit, largest subtree first.
TreeLinks binomial_tree(int rank, int root, int size);
// Bintree3d: a binary tree along X through the root, from each of its ranks a binary tree along Y,
// and from each rank of that plane a binary tree along Z (coordinates relative to the root).
TreeLinks bintree3d_tree(int rank, int root, const Shape3& shape);
// Tree number `tree` of the k-tree broadcast (the Trinaryx3/x6 idea): a chain along the first
// dimension of a rotated order (X,Y,Z / Y,Z,X / Z,X,Y for tree % 3), chains along the second
// dimension from every rank of that line and chains along the third from every rank of that
// plane; trees 3..5 run in the minus direction. Depth NX+NY+NZ-3.
TreeLinks dimension_chain_tree(int rank, int root, const Shape3& shape, int tree);

// Groups of the split binary tree: the non-root ranks relative to the root, 1..P-1, split into a
// left half (first half of the message) and a right half (second half).
struct SplitHalves {
  int left_size = 0;   // relative ranks 1..left_size
  int right_size = 0;  // relative ranks left_size+1..P-1
};
SplitHalves split_halves(int size);
// The tree of one half: heap-ordered binary tree over its ranks, hung below the root.
TreeLinks split_half_tree(int rank, int root, int size);

}  // namespace g500::comm
