// agree_run_plan (run/run_plan.hpp) on ranks whose nodes differ: plain rows that do not fit one
// rank's node are packed on every rank, and every rank takes the most passes any rank needs.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "run/run_plan.hpp"
#include "util/grid_shape.hpp"

namespace g500::run {
namespace {

TEST(RunPlanAgreement, OneRowFormatAndPassCountForAllRanks) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  constexpr int kScale = 14;
  const util::GridShape grid = util::closest_factor_shape(nranks);
  const int64_t nedges = int64_t{16} << kScale;
  PlanInput input;
  input.shape = graph::GraphShape{nedges, kScale, nedges / nranks};
  input.d = graph::Distribution(int64_t{1} << kScale, grid.rows, grid.cols, rank / grid.cols, rank % grid.cols);
  input.threads = 1;
  input.packed_rows = PackedRowsChoice::kAuto;
  // The last rank's node is small: plain rows do not fit there, even in the most passes.
  input.node_bytes_per_rank = 1024.0 * 1024 * 1024 * 1024;
  PlanInput small = input;
  small.packed_rows = PackedRowsChoice::kOff;
  constexpr int64_t kMostPasses = 256;
  small.graph.passes = kMostPasses;
  const double plain_peak = plan_run(small).peak_bytes();
  if (rank == nranks - 1) input.node_bytes_per_rank = plain_peak;
  const RunPlan local = plan_run(input);
  EXPECT_EQ(local.plain_rows_fit, rank != nranks - 1);
  const RunPlan plan = agree_run_plan(input, MPI_COMM_WORLD);
  EXPECT_FALSE(plan.plain_rows_fit);
  EXPECT_TRUE(plan.packed_rows);
  int64_t passes[] = {plan.passes, -plan.passes, local.packed_passes};
  MPI_Allreduce(MPI_IN_PLACE, passes, 3, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(passes[0], -passes[1]);  // the same on every rank
  EXPECT_EQ(passes[0], passes[2]);   // the most any rank's packed rows need
}

}  // namespace
}  // namespace g500::run
