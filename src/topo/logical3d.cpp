// 6D -> logical 3D job coordinates (Kuroda et al. 2013, section 4.2, Fig. 4).
#include "topo/logical3d.hpp"

#include <stdexcept>

namespace g500::topo {

namespace {
constexpr int kRingB = 3;  // the b axis is a 3-ring
enum { X, Y, Z, A, B, C };
}  // namespace

int fold_pair(int x, int partner, int extent, int partner_extent) {
  if (partner_extent == 1) return x;
  if (partner_extent == 2) return partner == 0 ? x : 2 * extent - 1 - x;
  throw std::invalid_argument("fold_pair: partner extent must be 1 or 2");
}

int yb_ring_position(int y, int b, int y_extent) {
  if (b == 0) return y;
  const int back = y_extent - 1 - y;  // how far back along the return path
  const bool two_first = back % 2 == 0;
  const int offset = (b == 2) == two_first ? 0 : 1;
  return y_extent + 2 * back + offset;
}

std::pair<int, int> yb_ring_coord(int position, int y_extent) {
  if (position < y_extent) return {position, 0};
  const int back = (position - y_extent) / 2, offset = (position - y_extent) % 2;
  const bool two_first = back % 2 == 0;
  const int b = (offset == 0) == two_first ? 2 : 1;
  return {y_extent - 1 - back, b};
}

std::array<int, 3> logical_job_coord(const std::array<int, 6>& c, const std::array<int, 6>& e) {
  int iy = 0;
  if (e[B] == kRingB)
    iy = yb_ring_position(c[Y], c[B], e[Y]);
  else
    iy = fold_pair(c[Y], c[B], e[Y], e[B]);
  return {fold_pair(c[X], c[A], e[X], e[A]), iy, fold_pair(c[Z], c[C], e[Z], e[C])};
}

std::array<int, 3> logical_job_shape(const std::array<int, 6>& e) { return {e[X] * e[A], e[Y] * e[B], e[Z] * e[C]}; }

}  // namespace g500::topo
