// Text reports of `g500 coll`: the model fit of a harness CSV (L and B per algorithm, predicted
// versus measured), the segment-size study of Eqs. 4-7 (Fig. 8) and the Table 1 simulation.
#pragma once
#include <string>
#include <vector>

#include "coll/coll_bench.hpp"
#include "coll/coll_model.hpp"
#include "coll/torus_model.hpp"

namespace g500::coll {

// One fitted group: rows with equal op, algo, ran, shape, segment and np.
struct FittedGroup {
  std::string op, algorithm, ran, shape;
  int segment_bytes = 0, processes = 0;
  LatencyBandwidth fit;
  std::vector<BenchRow> rows;
  std::vector<double> predicted;
};
std::vector<FittedGroup> fit_bench_rows(const std::vector<BenchRow>& rows);
std::string format_fit_report(const std::vector<FittedGroup>& groups);
// CSV: one line per measured row with its prediction.
void write_fit_csv(const std::string& path, const std::vector<FittedGroup>& groups);

// Fig. 8: cost of Eq. 4 (k = 6) and Eq. 6 versus segment size for several M, with the optimal
// segment by the derivation (-3), as printed in Hosono et al. 2021's Eq. 5 (-2), Eq. 7, and numeric minimisation.
struct LinkCost {
  double latency;    // L [s]
  double bandwidth;  // B [bytes/s]
};
std::string format_segment_study(const LinkCost& ktree, const LinkCost& bintree3d, const Shape3& shape,
                                 const std::vector<double>& messages, const std::string& csv_path);

std::string format_simulation(const std::vector<SimulationRow>& rows);
void write_simulation_csv(const std::string& path, const std::vector<SimulationRow>& rows);

}  // namespace g500::coll
