// Paper Kuroda et al. 2013, Method A (section 4.2, Fig. 4, Tables 3 and 5): give each orthogonal sub-communicator
// a 3D cuboid of the 6D network. Each communicator size is factored onto up to 3 axes (a and c take
// at most 2, b exactly 3 when used; a factor 2 that would need b goes to "YB", a segment of the
// logical Y*b ring). An axis shared by two communicators is split into an inner (unprimed, faster)
// part and an outer (primed, X') part. Ranks are enumerated with the first communicator's axes
// fastest, each communicator's axes in listed order; rank r belongs to communicator-1 group
// r / n1 and to communicator-2 group r % n1 (for two communicators).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "topo/systems.hpp"

namespace g500::topo {

struct CuboidFactor {
  std::string axis;  // X, Y, Z, a, b, c or YB
  bool outer = false;
  int size = 1;
};
using CuboidComm = std::vector<CuboidFactor>;

struct CuboidSpec {
  std::vector<CuboidComm> comms;
};

// "a2,Y4,c2/X8,Z8,b3": communicators separated by '/', factors AXIS[']SIZE (A/B/C accepted for
// a/b/c). Throws UsageError on malformed text.
CuboidSpec parse_cuboid_spec(const std::string& text);
std::string format_cuboid_spec(const CuboidSpec& spec);  // e.g. "(a2,Y4,c2)(X8,Z8,b3)"

// Checks the spec against a Tofu system's axis sizes; throws UsageError naming the problem.
void validate_cuboid_spec(const CuboidSpec& spec, const SystemSpec& system);

// Finds a valid factorisation of the communicator sizes (first size = fastest communicator).
// Throws UsageError when none exists.
CuboidSpec auto_cuboid_spec(const std::vector<int>& comm_sizes, const SystemSpec& system);

struct CuboidLayout {
  std::array<int, 6> extents{};    // physical box (X,Y,Z,a,b,c) holding the ranks
  std::array<int, 3> job_shape{};  // logical 3D job shape (X*a, Y*b or YB, Z*c)
  std::vector<int> comm_sizes;
  std::vector<std::array<int, 6>> coord_of_rank;    // physical 6D coordinate, box-relative
  std::vector<std::array<int, 3>> logical_of_rank;  // logical 3D job coordinate
};

CuboidLayout enumerate_cuboid(const CuboidSpec& spec, const SystemSpec& system);

}  // namespace g500::topo
