// The run's plan (run/run_plan.hpp), pure: the row format and kernel 1's passes it chooses, its
// parts in Table 2's terms against the formulas they come from, the peak g500 jobscript refuses
// the papers' SCALE 37 run with, and the SSSP's kernel 1 keeping its entries or not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "graph/in_block_id.hpp"
#include "graph/local_id.hpp"
#include "graph/present_index.hpp"
#include "graph/slot_starts.hpp"
#include "graph/sparse_present_index.hpp"
#include "run/plan_report.hpp"
#include "run/run_plan.hpp"
#include "run/run_setup.hpp"

namespace g500::run {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr int kThreads = 2;

PlanInput kronecker_input(int scale, int R, int C, double node_bytes_per_rank) {
  const int64_t nedges = int64_t{16} << scale;
  PlanInput input;
  input.shape = graph::GraphShape{nedges, scale, nedges / (R * C)};
  input.d = graph::Distribution(int64_t{1} << scale, R, C, 0, 0);
  input.threads = kThreads;
  input.node_bytes_per_rank = node_bytes_per_rank;
  return input;
}

const util::MemoryPart* find_part(const std::vector<util::MemoryPart>& parts, const std::string& name) {
  for (const util::MemoryPart& part : parts)
    if (part.name == name) return &part;
  return nullptr;
}

TEST(RunPlan, ChoosesTheRowFormatAndThePasses) {
  // SCALE 26 on one process of a 24 GiB node: plain rows need 4 passes, packed rows 1, so `auto`
  // packs them (one grid row: the sort keys are the column ids).
  PlanInput input = kronecker_input(26, 1, 1, 24 * kGiB);
  RunPlan plan = plan_run(input);
  EXPECT_TRUE(plan.packed_rows);
  EXPECT_EQ(plan.passes, 1);
  EXPECT_EQ(plan.plain_passes, 4);
  EXPECT_EQ(plan.packed_passes, 1);
  EXPECT_TRUE(plan.plain_rows_fit);
  input.packed_rows = PackedRowsChoice::kOff;
  plan = plan_run(input);
  EXPECT_FALSE(plan.packed_rows);
  EXPECT_EQ(plan.passes, 4);
  input.graph.passes = 3;  // --kernel1-passes
  EXPECT_EQ(plan_run(input).passes, 3);
  // SCALE 20 on a large node: one pass either way, the plain rows stay.
  plan = plan_run(kronecker_input(20, 1, 1, 24 * kGiB));
  EXPECT_FALSE(plan.packed_rows);
  EXPECT_EQ(plan.passes, 1);
  // Two grid rows: packed rows only when plain ones do not fit.
  plan = plan_run(kronecker_input(26, 2, 1, 1 * kGiB));
  EXPECT_FALSE(plan.plain_rows_fit);
  EXPECT_TRUE(plan.packed_rows);
}

// The papers' SCALE 37 on 9936 Fugaku nodes (138x72): it fits a 32 GiB node, and its parts by
// the size they grow with. The search holds nothing of word size per row-set or column-set
// vertex: BCSR's non-empty rows and the columns in use in bucketed offsets
// (graph/sparse_present_index.hpp: 1/16 bit per vertex of the set), the top-down frontier of the
// row (1/8 bit) and the column frontier (a bit).
TEST(RunPlan, PartsInTable2Terms) {
  const RunPlan plan = plan_run(kronecker_input(37, 138, 72, 32 * kGiB));
  EXPECT_EQ(plan.passes, 1);
  EXPECT_NEAR(plan.peak_bytes() / kGiB, graph::kWideIds ? 5.21 : 4.51, 0.05);
  EXPECT_DOUBLE_EQ(plan.peak_bytes(), graph::kWideIds ? plan.search_bytes() : plan.kernel1_bytes());
  EXPECT_DOUBLE_EQ(plan.row_set, 72.0 * plan.owned);
  EXPECT_DOUBLE_EQ(plan.column_set, 138.0 * plan.owned);
  EXPECT_DOUBLE_EQ(plan.edge_share, static_cast<double>(int64_t{16} << 37) / (138 * 72));
  // The rows' original ids per row with edges, the columns' per column in use: both O(m/P); a
  // PresentIndex of the column set; the parents: a word per owned vertex.
  const util::MemoryPart* rows = find_part(plan.search, "renumbering: rows' original ids");
  ASSERT_NE(rows, nullptr);
  EXPECT_EQ(rows->grows_with, util::GrowsWith::kEdgeShare);
  const util::MemoryPart* columns = find_part(plan.search, "renumbering: columns in use, ids");
  ASSERT_NE(columns, nullptr);
  EXPECT_EQ(columns->grows_with, util::GrowsWith::kEdgeShare);
  EXPECT_LT(columns->bytes, 4 * 2 * plan.edge_share);  // at most one per entry
  // Their index: bucketed offsets, a byte per column in use and 1/128 byte per column of the set,
  // under a third of rank9's bytes.
  const util::MemoryPart* column_index = find_part(plan.search, "renumbering: columns in use, index");
  const util::MemoryPart* column_offsets = find_part(plan.search, "renumbering: columns in use, index offsets");
  ASSERT_NE(column_index, nullptr);
  ASSERT_NE(column_offsets, nullptr);
  const double in_use = columns->bytes / graph::in_block_id_bytes(static_cast<int64_t>(plan.owned));
  EXPECT_NEAR(column_index->bytes, graph::SparsePresentIndex::bytes_for(plan.column_set, 0), 1);
  EXPECT_NEAR(column_offsets->bytes, in_use, 1);
  EXPECT_EQ(column_offsets->grows_with, util::GrowsWith::kEdgeShare);
  EXPECT_LT(column_index->bytes + column_offsets->bytes, graph::PresentIndex::bytes_for(plan.column_set) / 3);
  const util::MemoryPart* keys = find_part(plan.search, "packed rows' key tables");
  EXPECT_TRUE(keys == nullptr || keys->bytes == 0);  // the keys follow from the ids
  const util::MemoryPart* parents = find_part(plan.search, "BFS: parents");
  ASSERT_NE(parents, nullptr);
  EXPECT_DOUBLE_EQ(parents->bytes, 8 * plan.owned);
  // The BFS's frontier of the column set: a bit per vertex beside the PresentIndex, and a word per
  // grid row for the messages decoded in place.
  const util::MemoryPart* column_frontier = find_part(plan.search, "BFS: column frontier");
  ASSERT_NE(column_frontier, nullptr);
  EXPECT_DOUBLE_EQ(column_frontier->bytes, plan.column_set / 8 + 138 * 8);
  // A top-down level's frontier of the grid row: listed in at most 1/8 bit per vertex of the row
  // set, its bitmap in the column frontier's words (72 columns, 138 rows); its work items, one per
  // row with entries of a frontier below N/beta.
  const util::MemoryPart* row_frontier = find_part(plan.search, "BFS: top-down frontier of the row");
  ASSERT_NE(row_frontier, nullptr);
  EXPECT_DOUBLE_EQ(row_frontier->bytes, plan.row_set / 64);
  const util::MemoryPart* items = find_part(plan.search, "BFS: top-down work items");
  ASSERT_NE(items, nullptr);
  EXPECT_EQ(items->grows_with, util::GrowsWith::kEdgeShare);
  const util::MemoryPart* starts = find_part(plan.search, "row index: starts");
  ASSERT_NE(starts, nullptr);
  EXPECT_NEAR(items->bytes, (starts->bytes / graph::SlotStarts::kBytesPerSlot) / 24 * kTopDownItemBytes,
              1e-6 * items->bytes);
  // A top-down level's candidates in rounds: at this scale a round's (1/128 of the entries, 8
  // bytes each, in the buckets grown to twice, packed and received) is below 1/14 of the entries.
  const util::MemoryPart* candidates = find_part(plan.search, "BFS: top-down candidates");
  ASSERT_NE(candidates, nullptr);
  EXPECT_DOUBLE_EQ(candidates->bytes, 4.0 * 8 *
                                          static_cast<double>(top_down_candidates_per_round(
                                              static_cast<int64_t>(2 * plan.edge_share * 138 * 72), 138 * 72)));
  EXPECT_NEAR(candidates->bytes / (2 * plan.edge_share), 4.0 * 8 / kEntriesPerTopDownCandidate, 1e-6);
  const PartsBySize search = parts_by_size(plan.search);
  EXPECT_NEAR(search.column_set / plan.column_set,
              graph::SparsePresentIndex::bytes_for(plan.column_set, 0) / plan.column_set + 1.0 / 8, 1e-6);
  EXPECT_NEAR(search.row_set / plan.row_set,
              graph::SparsePresentIndex::bytes_for(plan.row_set, 0) / plan.row_set + 1.0 / 64, 1e-6);
  EXPECT_DOUBLE_EQ(search.fixed, kRuntimeBytesPerRank);
  const std::string text = plan_parts_text(plan, "# ");
  EXPECT_NE(text.find("# memory plan per process, 138x72 grid: plain rows, kernel 1 in 1 pass\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("1.06 bits per N/C"), std::string::npos) << text;
  for (size_t start = 0; start < text.size(); start = text.find('\n', start) + 1)
    EXPECT_EQ(text.compare(start, 2, "# "), 0) << text.substr(start);
}

// The search's level buffers are freed while its output is validated, so the phase's peak is the
// larger of the two moments, the graph, the parents and the owned bitmaps held in both: on one
// process at SCALE 26 the validation (its depths and edge check), on 138x72 at SCALE 37 the
// search (its column frontier and a top-down level's buffers).
TEST(RunPlan, SearchAndValidationPeakApart) {
  auto has_prefix = [](const std::vector<util::MemoryPart>& parts, const std::string& prefix) {
    return std::any_of(parts.begin(), parts.end(),
                       [&](const util::MemoryPart& p) { return p.name.starts_with(prefix); });
  };
  const RunPlan one = plan_run(kronecker_input(26, 1, 1, 24 * kGiB));
  EXPECT_TRUE(has_prefix(one.search, "validation: depths"));
  EXPECT_FALSE(has_prefix(one.search, "BFS: top-down"));
  EXPECT_TRUE(has_prefix(one.search, "BFS: parents"));
  const RunPlan grid = plan_run(kronecker_input(37, 138, 72, 32 * kGiB));
  EXPECT_TRUE(has_prefix(grid.search, "BFS: column frontier"));
  EXPECT_TRUE(has_prefix(grid.search, "BFS: top-down work items"));
  EXPECT_FALSE(has_prefix(grid.search, "validation:"));
  EXPECT_TRUE(has_prefix(grid.search, "BFS: bitmaps of the owned"));
}

// Level buffers by direction hold the larger direction's (a top-down level's candidates, frontier
// list and work items, or the bottom-up column frontier) instead of both: at SCALE 24 on 2x2 the
// search's levels stay its peak and lose the smaller direction's parts. `auto` takes them only
// where the run with kept ones does not fit and they lower the peak: SCALE 34 on 64x1 with 1 GiB
// per process, not with 64 GiB; on SCALE 37's 138x72 where the kept ones do not fit and they
// lower the peak (not where kernel 1 sets it), and not with the papers' 32 GiB.
TEST(RunPlan, LevelBuffersByDirectionWhereOnlyTheyLowerThePeak) {
  auto bytes_of = [](const std::vector<util::MemoryPart>& parts, const std::string& prefix) {
    double sum = 0;
    for (const util::MemoryPart& p : parts)
      if (p.name.starts_with(prefix)) sum += p.bytes;
    return sum;
  };
  auto planned = [](PlanInput input, LevelBuffersChoice choice) {
    input.level_buffers = choice;
    return plan_run(input);
  };
  const PlanInput small = kronecker_input(24, 2, 2, 1 * kGiB);
  const RunPlan kept = planned(small, LevelBuffersChoice::kKept),
                by_direction = planned(small, LevelBuffersChoice::kByDirection);
  EXPECT_FALSE(kept.level_buffers_by_direction);
  EXPECT_TRUE(by_direction.level_buffers_by_direction);
  const double top_down = bytes_of(kept.search, "BFS: top-down"),
               bottom_up = bytes_of(kept.search, "BFS: column frontier");
  ASSERT_GT(top_down, 0);
  ASSERT_GT(bottom_up, 0);
  EXPECT_NEAR(by_direction.search_bytes(), kept.search_bytes() - std::min(top_down, bottom_up), 1.0);
  EXPECT_EQ(bytes_of(by_direction.search, "BFS: top-down"), top_down >= bottom_up ? top_down : 0);
  EXPECT_EQ(bytes_of(by_direction.search, "BFS: column frontier"), top_down >= bottom_up ? 0 : bottom_up);
  EXPECT_EQ(by_direction.kernel1_bytes(), kept.kernel1_bytes());

  PlanInput large = kronecker_input(34, 64, 1, 1 * kGiB);
  const RunPlan short_of_memory = planned(large, LevelBuffersChoice::kAuto);
  EXPECT_TRUE(short_of_memory.level_buffers_by_direction);
  EXPECT_LT(short_of_memory.peak_bytes(), planned(large, LevelBuffersChoice::kKept).peak_bytes());
  large.node_bytes_per_rank = 64 * kGiB;
  EXPECT_FALSE(plan_run(large).level_buffers_by_direction);
  for (const double node : {1 * kGiB, 3 * kGiB, 32 * kGiB}) {
    const PlanInput papers = kronecker_input(37, 138, 72, node);
    const RunPlan chosen = plan_run(papers), kept_papers = planned(papers, LevelBuffersChoice::kKept),
                  by_direction_papers = planned(papers, LevelBuffersChoice::kByDirection);
    const bool lower = kept_papers.peak_bytes() > graph::kMostMemoryShare * node &&
                       by_direction_papers.peak_bytes() < kept_papers.peak_bytes();
    EXPECT_EQ(chosen.level_buffers_by_direction, lower) << node / kGiB << " GiB";
    EXPECT_DOUBLE_EQ(chosen.peak_bytes(), lower ? by_direction_papers.peak_bytes() : kept_papers.peak_bytes());
  }
  EXPECT_FALSE(plan_run(kronecker_input(37, 138, 72, 32 * kGiB)).level_buffers_by_direction);
}

TEST(RunPlan, SsspKeepsItsEntriesWhenTheyFit) {
  PlanInput input = kronecker_input(20, 2, 2, 8 * kGiB);
  input.kernel = PlanKernel::kSssp;
  RunPlan plan = plan_run(input);
  EXPECT_TRUE(plan.keeps_entries);
  const double entries = 2.0 * static_cast<double>(int64_t{16} << 20) / 4;
  const util::MemoryPart* kept = find_part(plan.kernel1, "kernel 1: kept entries");
  ASSERT_NE(kept, nullptr);
  // Row and column ids and the weight, 4 bytes each (8 with 64-bit ids, the weight padded).
  EXPECT_DOUBLE_EQ(kept->bytes, entries * (graph::kWideIds ? 24 : 12));
  EXPECT_DOUBLE_EQ(plan.peak_bytes(), std::max(plan.kernel1_bytes(), plan.search_bytes()));
  input.node_bytes_per_rank = 64.0 * 1024 * 1024;  // 64 MiB: the entries are read again instead
  plan = plan_run(input);
  EXPECT_FALSE(plan.keeps_entries);
  EXPECT_EQ(find_part(plan.kernel1, "kernel 1: kept entries"), nullptr);
  // Dijkstra's serial graph on rank 0 counts in both phases.
  input.compare_dijkstra = 1;
  const RunPlan compared = plan_run(input);
  const util::MemoryPart* serial = find_part(compared.search, "serial Dijkstra's graph (rank 0)");
  ASSERT_NE(serial, nullptr);
  EXPECT_NEAR(compared.peak_bytes() - plan.peak_bytes(), serial->bytes, 1e-6 * serial->bytes);
}

}  // namespace
}  // namespace g500::run
