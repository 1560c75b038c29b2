#include "comm/bcast_trees.hpp"

#include <algorithm>

namespace g500::comm {

namespace {
int relative(int rank, int root, int size) { return (rank - root + size) % size; }
int absolute(int relative_rank, int root, int size) { return (relative_rank + root) % size; }

// Heap-ordered binary tree over positions 0..n-1 of a line: appends the children of `position`.
void line_binary_children(int position, int n, std::vector<int>& out) {
  for (int child : {2 * position + 1, 2 * position + 2})
    if (child < n) out.push_back(child);
}
}  // namespace

TreeLinks linear_tree(int rank, int root, int size) {
  TreeLinks links;
  if (rank != root) {
    links.parent = root;
    return links;
  }
  for (int v = 1; v < size; ++v) links.children.push_back(absolute(v, root, size));
  return links;
}

TreeLinks chain_tree(int rank, int root, int size) {
  TreeLinks links;
  const int v = relative(rank, root, size);
  if (v > 0) links.parent = absolute(v - 1, root, size);
  if (v + 1 < size) links.children.push_back(absolute(v + 1, root, size));
  return links;
}

TreeLinks binary_tree(int rank, int root, int size) {
  TreeLinks links;
  const int v = relative(rank, root, size);
  if (v > 0) links.parent = absolute((v - 1) / 2, root, size);
  std::vector<int> children;
  line_binary_children(v, size, children);
  for (int c : children) links.children.push_back(absolute(c, root, size));
  return links;
}

TreeLinks binomial_tree(int rank, int root, int size) {
  TreeLinks links;
  const int v = relative(rank, root, size);
  int lowest = 1;
  while (lowest < size && !(v & lowest)) lowest <<= 1;
  if (v > 0) links.parent = absolute(v - lowest, root, size);
  for (int step = lowest >> 1; step >= 1; step >>= 1)
    if (v + step < size) links.children.push_back(absolute(v + step, root, size));
  return links;
}

TreeLinks bintree3d_tree(int rank, int root, const Shape3& shape) {
  const auto me = shape.coords_of(rank), origin = shape.coords_of(root);
  std::array<int, 3> position{};
  for (int d = 0; d < 3; ++d) position[d] = (me[d] - origin[d] + shape.n[d]) % shape.n[d];
  auto rank_at = [&](std::array<int, 3> p) {
    for (int d = 0; d < 3; ++d) p[d] = (p[d] + origin[d]) % shape.n[d];
    return shape.rank_of(p);
  };
  TreeLinks links;
  // The tree along dimension d is entered when all later coordinates are zero.
  for (int d = 2; d >= 0; --d) {
    if (position[d] > 0) {
      auto parent = position;
      parent[d] = (position[d] - 1) / 2;
      links.parent = rank_at(parent);
      break;
    }
  }
  for (int d = 0; d < 3; ++d) {
    bool on_this_tree = true;  // the tree along d holds the ranks whose later coordinates are 0
    for (int later = d + 1; later < 3; ++later) on_this_tree = on_this_tree && position[later] == 0;
    if (!on_this_tree) continue;
    std::vector<int> children;
    line_binary_children(position[d], shape.n[d], children);
    for (int c : children) {
      auto child = position;
      child[d] = c;
      links.children.push_back(rank_at(child));
    }
  }
  return links;
}

TreeLinks dimension_chain_tree(int rank, int root, const Shape3& shape, int tree) {
  constexpr int kDimensions = 3;
  const int first = tree % kDimensions;
  const std::array<int, 3> order{first, (first + 1) % kDimensions, (first + 2) % kDimensions};
  const bool minus = tree >= kDimensions;
  const auto me = shape.coords_of(rank), origin = shape.coords_of(root);
  // step[i]: how far along its chain this rank sits in dimension order[i].
  std::array<int, 3> step{};
  for (int i = 0; i < 3; ++i) {
    const int d = order[i], n = shape.n[d];
    const int offset = (me[d] - origin[d] + n) % n;
    step[i] = minus ? (n - offset) % n : offset;
  }
  auto rank_at = [&](const std::array<int, 3>& s) {
    std::array<int, 3> c{};
    for (int i = 0; i < 3; ++i) {
      const int d = order[i], n = shape.n[d];
      c[d] = (origin[d] + (minus ? n - s[i] : s[i])) % n;
    }
    return shape.rank_of(c);
  };
  TreeLinks links;
  for (int i = 2; i >= 0; --i) {
    if (step[i] > 0) {
      auto parent = step;
      --parent[i];
      links.parent = rank_at(parent);
      break;
    }
  }
  for (int i = 0; i < 3; ++i) {
    bool later_zero = true;
    for (int j = i + 1; j < 3; ++j) later_zero = later_zero && step[j] == 0;
    if (later_zero && step[i] + 1 < shape.n[order[i]]) {
      auto child = step;
      ++child[i];
      links.children.push_back(rank_at(child));
    }
  }
  return links;
}

SplitHalves split_halves(int size) {
  const int others = size - 1;
  return SplitHalves{(others + 1) / 2, others / 2};
}

TreeLinks split_half_tree(int rank, int root, int size) {
  const SplitHalves halves = split_halves(size);
  TreeLinks links;
  const int v = relative(rank, root, size);
  if (v == 0) {
    if (halves.left_size > 0) links.children.push_back(absolute(1, root, size));
    if (halves.right_size > 0) links.children.push_back(absolute(1 + halves.left_size, root, size));
    return links;
  }
  const bool left = v <= halves.left_size;
  const int base = left ? 1 : 1 + halves.left_size;
  const int n = left ? halves.left_size : halves.right_size;
  const int position = v - base;
  links.parent = position == 0 ? root : absolute(base + (position - 1) / 2, root, size);
  std::vector<int> children;
  line_binary_children(position, n, children);
  for (int c : children) links.children.push_back(absolute(base + c, root, size));
  return links;
}

}  // namespace g500::comm
