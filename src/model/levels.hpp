// The level structure of the BFS at any SCALE: how many levels, which direction, how large each
// frontier is and how many edges each level examines, for the model's per-level costs.
//
// Measured with `g500 bfs --trace --json` at SCALE 14-24 (the built-in table, level_table.cpp)
// and extrapolated to SCALE 30-42, which cannot be run here (docs/model.md):
//  * levels are aligned at the peak (the level with the largest frontier) of each root and
//    averaged over the roots, per relative level and direction: the share of roots whose level ran
//    in that direction, and (given that) the frontier and the edges examined per reached vertex;
//  * the reached vertices are the vertices with an edge, from the Kronecker degree distribution
//    (kronecker_reached_fraction; the measured reached counts agree within 0.3 %);
//  * per relative level and direction, the share is fitted linearly in SCALE (clamped to [0, 1])
//    and the logarithms of the per-vertex counts linearly in SCALE (weighted by the roots), then
//    evaluated at the target SCALE; the frontiers are rescaled so that every reached vertex is in
//    one frontier.
#pragma once
#include <string>
#include <vector>

#include "model/trace.hpp"
#include "model/volumes.hpp"

namespace g500::model {

// Expected fraction of the 2^scale vertices with at least one edge in the Graph500 Kronecker
// graph (initiator A = 0.57, B = C = 0.19, D = 0.05; scrambled labels): a vertex whose label has k
// one-bits receives each edge end with probability q_k = (A+B)^(scale-k) (C+D)^k, so its degree is
// Poisson with mean 2 m q_k.
double kronecker_reached_fraction(int scale, int edgefactor);
// Sum of squared expected degrees over the squared sum, ((A+B)^2 + (C+D)^2)^scale: the
// concentration of the edges on few vertices (used for the load imbalance).
double kronecker_degree_concentration(int scale);

// One (SCALE, relative level, direction) of the measured traces.
struct LevelRow {
  int scale = 0;
  int relative = 0;  // level index minus the peak level's
  Direction direction = Direction::kTopDown;
  int roots = 0;        // roots traced at this SCALE
  double share = 0;     // of those roots, the fraction whose level `relative` ran in `direction`
  double frontier = 0;  // mean frontier of those levels per reached vertex
  double examined = 0;  // mean edges examined per reached vertex
};

// Rows of one traced run (one SCALE); throws UsageError when the run has no per-level trace.
std::vector<LevelRow> level_rows(const TraceRun& run);
// CSV form: header "scale,relative,direction,roots,share,frontier,examined", one row a line.
std::string level_rows_csv(const std::vector<LevelRow>& rows);
std::vector<LevelRow> parse_level_rows_csv(const std::string& text, const std::string& what);
// The built-in rows (SCALE 14-24, level_table.cpp).
const std::vector<LevelRow>& measured_level_rows();

// One level of the modelled BFS in one direction: its counts over the whole graph (given that the
// level runs in this direction) and the share of BFS runs in which it does.
struct ModelLevel {
  int relative = 0;
  double share = 0;
  LevelCounts counts;
};

struct LevelStructure {
  int scale = 0;
  int edgefactor = 0;
  double vertices = 0;             // n = 2^scale
  double edges = 0;                // m = edgefactor n (input edges; the traversed edges of TEPS)
  double reached = 0;              // vertices with an edge
  std::vector<ModelLevel> levels;  // by relative level, top-down before bottom-up
};

// The level structure at `scale` from rows of several SCALEs (extrapolated as described above).
LevelStructure level_structure(const std::vector<LevelRow>& rows, int scale, int edgefactor);

// Least-squares line y = a + b x through weighted points (the extrapolation's fit; b = 0 when the
// x do not vary). Exposed for the tests.
struct Line {
  double intercept = 0, slope = 0;
  double at(double x) const { return intercept + slope * x; }
};
Line fit_line(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& weight);

}  // namespace g500::model
