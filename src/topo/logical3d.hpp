// Conversion of 6D Tofu coordinates (X,Y,Z,a,b,c) to the job's logical 3D torus coordinate
// (Kuroda et al. 2013, section 4.2, Fig. 4 bottom; Kuroda et al. 2013 "Method A" step 3). The job's logical axes pair
// X with a, Y with b, Z with c. A 2-node axis folds its partner out and back:
//   iX(X,a) = X when a = 0, 2*Lx - 1 - X when a = 1 (Lx = extent of X), the same for iZ(Z,c).
// The Y*b ring (b a 3-ring) runs (y,0) for y = 0..Ly-1, then for y = Ly-1 down to 0 the pair
// (y,2),(y,1) when Ly-1-y is even, else (y,1),(y,2) (derived in the notes; fits every Fig. 4 point).
#pragma once
#include <array>
#include <utility>

namespace g500::topo {

// x in 0..extent-1, partner in 0..partner_extent-1 (partner_extent 1 or 2).
int fold_pair(int x, int partner, int extent, int partner_extent);
int yb_ring_position(int y, int b, int y_extent);               // b_extent 3
std::pair<int, int> yb_ring_coord(int position, int y_extent);  // inverse: (y, b)

// Logical 3D coordinate of a 6D coordinate inside a box with the given 6 extents.
std::array<int, 3> logical_job_coord(const std::array<int, 6>& c6, const std::array<int, 6>& ext6);
std::array<int, 3> logical_job_shape(const std::array<int, 6>& ext6);

}  // namespace g500::topo
