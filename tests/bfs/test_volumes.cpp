// The bytes the BFS counts as sent in each phase (PhaseProfile::bytes_sent, docs/volumes.md)
// against an independent count: a PMPI layer (mpi_send_counter.*) sums the payload bytes each
// rank hands to MPI_Allgatherv, MPI_Alltoallv and the point-to-point calls, level by level.
// With the library's own collectives (`mpi`, the default) those are the calls that carry the
// BFS's data: comm/large_count.hpp calls them once, or in rounds whose pieces add up to the same.
// Then Table 3 of Nakao et al. 2021 (comm/table3.hpp) beside the measured bytes: within 10 % where
// its assumptions hold, and the factors by which it departs elsewhere.
// Grids 1x2 and 2x1 run at 2 ranks, 2x2 at 4, 3x2 and 2x3 at 6, 4x2 at 8.
#include <gtest/gtest.h>
#include <mpi.h>
#include <omp.h>

#include <string>

#include "bfs/bfs.hpp"
#include "bfs/volumes.hpp"
#include "local_graph_fixture.hpp"
#include "mpi_send_counter.hpp"
#include "run/roots.hpp"
#include "run/run_setup.hpp"

namespace g500::bfs {
namespace {

using testing::SendBytes;
using testing::SendKind;
using util::Phase;

constexpr int kRootsPerCase = 4;

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int64_t phase_bytes(const util::PhaseBytes& b, util::Phase p) { return b[static_cast<size_t>(p)]; }

// The phase whose bytes the counter's kind must equal.
constexpr std::pair<SendKind, util::Phase> kKindPhases[] = {{SendKind::kAllgatherv, util::Phase::kAllgatherv},
                                                            {SendKind::kAlltoallv, util::Phase::kAlltoallv},
                                                            {SendKind::kPointToPoint, util::Phase::kSendrecv}};

// This rank's bytes of every level equal the counter's segment of that level; nothing is sent
// before the first level or after the last, and no phase but the three patterns has bytes.
void expect_levels_counted(const BfsRun& run, const std::vector<SendBytes>& segments, const std::string& what) {
  ASSERT_EQ(segments.size(), run.levels.size() + 2) << what << ": one barrier at the start and one per level";
  EXPECT_EQ(segments.front(), SendBytes{}) << what;
  EXPECT_EQ(segments.back(), SendBytes{}) << what;
  for (size_t l = 0; l < run.levels.size(); ++l) {
    const util::PhaseBytes& measured = run.levels[l].bytes_sent;
    for (const auto& [kind, phase] : kKindPhases)
      EXPECT_EQ(phase_bytes(measured, phase), bytes_of(segments[l + 1], kind))
          << what << ", level " << l << ", " << util::phase_name(phase);
    EXPECT_EQ(phase_bytes(measured, util::Phase::kCalculation), 0) << what;
    EXPECT_EQ(phase_bytes(measured, util::Phase::kImbalance), 0) << what;
  }
}

// The counter's bytes per direction and kind, summed over the ranks.
comm::table3::DirectionVolumes counted_over_ranks(const BfsRun& run, const std::vector<SendBytes>& segments) {
  std::vector<int64_t> sums(2 * util::kPhaseCount, 0);
  for (size_t l = 0; l < run.levels.size() && l + 1 < segments.size(); ++l) {
    const size_t d = run.levels[l].direction == Direction::kBottomUp ? 1 : 0;
    for (const auto& [kind, phase] : kKindPhases)
      sums[d * util::kPhaseCount + static_cast<size_t>(phase)] += bytes_of(segments[l + 1], kind);
  }
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  comm::table3::DirectionVolumes v{};
  for (size_t d = 0; d < 2; ++d)
    for (size_t p = 0; p < util::kPhaseCount; ++p) v[d][p] = static_cast<double>(sums[d * util::kPhaseCount + p]);
  return v;
}

double total_bytes(const comm::table3::DirectionVolumes& v) {
  double sum = 0;
  for (const comm::table3::Volume& direction : v)
    for (double bytes : direction) sum += bytes;
  return sum;
}

struct Case {
  int scale = 14;
  util::GridShape shape;
  BfsOptions bfs;
  graph::GraphOptions graph;
  util::MessageLimits limits;
  std::string name;
};

// A searched root: its levels (bytes summed over the ranks) and volumes.
struct CountedRun {
  std::vector<LevelTrace> levels;
  std::vector<int64_t> level_sizes;
  BfsVolumes volumes;
};

struct CountedCase {
  comm::table3::Model model;
  graph::Distribution dist;
  std::vector<CountedRun> runs;
};

// Runs the first roots of the case's graph with the counter on; checks every level of every
// rank, and the sums over ranks the report shows. Returns the runs for further checks.
CountedCase check_case(const Case& c) {
  omp_set_num_threads(1);
  auto built = testing::build_test_graph(c.scale, c.shape, c.graph, c.limits);
  const graph::LocalGraph& graph = built->graph;
  const graph::ProcessGrid& grid = *built->grid;
  comm::table3::Model model;
  model.n = built->spec.nvertices();
  model.m = built->spec.nedges();
  model.R = graph.dist.R;
  model.C = graph.dist.C;
  model.vertices_with_edges = run::global_vertices_with_edges(graph, MPI_COMM_WORLD);
  model.sparse_switch = c.bfs.sparse_switch;
  model.pairs_by_alltoallv = c.bfs.bu_alltoallv;
  DistributedBfs bfs(graph, grid, c.bfs);
  CountedCase counted_case{model, graph.dist, {}};
  for (const int64_t root : run::choose_roots(built->spec, kRootsPerCase, graph, grid)) {
    const std::string what = c.name + " SCALE " + std::to_string(c.scale) + " root " + std::to_string(root);
    bfs.prepare();
    testing::start_send_counter();
    BfsRun run = bfs.run(root);
    testing::stop_send_counter();
    const std::vector<SendBytes> segments = testing::send_counter_segments();
    expect_levels_counted(run, segments, what);
    const comm::table3::DirectionVolumes counted = counted_over_ranks(run, segments);
    sum_level_bytes(run.levels, MPI_COMM_WORLD);
    CountedRun counted_run{run.levels, run.level_sizes, run_volumes(run.levels, run.level_sizes, model)};
    EXPECT_EQ(counted_run.volumes.measured, counted) << what << ": sums over the ranks";
    EXPECT_GT(total_bytes(counted), 0) << what << ": every search sends something on 2 ranks or more";
    counted_case.runs.push_back(std::move(counted_run));
  }
  return counted_case;
}

// The case's grid, when it matches the number of ranks (else the test has nothing to run).
bool runs_here(const util::GridShape& shape) { return shape.size() == world_size(); }

const std::vector<util::GridShape>& test_grids() {
  static const std::vector<util::GridShape> grids{{1, 2}, {2, 1}, {2, 2}, {3, 2}, {2, 3}, {4, 2}};
  return grids;
}

std::string grid_name(const util::GridShape& shape) {
  return std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
}

TEST(Volumes, EveryLevelEqualsTheMpiCallsAtScale14And16) {
  for (const util::GridShape& shape : test_grids()) {
    if (!runs_here(shape)) continue;
    for (int scale : {14, 16}) check_case(Case{scale, shape, {}, {}, {}, grid_name(shape)});
  }
}

TEST(Volumes, EveryLevelEqualsTheMpiCallsAtScale18) {
  for (const util::GridShape& shape : {util::GridShape{1, 2}, util::GridShape{2, 2}, util::GridShape{4, 2}}) {
    if (!runs_here(shape)) continue;
    check_case(Case{18, shape, {}, {}, {}, grid_name(shape)});
  }
}

// Each switch of section 4.5 and the row-major layout change what travels; the count follows.
TEST(Volumes, EveryLevelEqualsTheMpiCallsWithTechniquesOff) {
  BfsOptions bitmaps;
  bitmaps.sparse_switch = false;
  BfsOptions pairs_by_sendrecv;
  pairs_by_sendrecv.bu_alltoallv = false;
  BfsOptions one_segment;
  one_segment.overlap = false;
  BfsOptions three_segments;
  three_segments.substeps = 3;
  graph::GraphOptions row_major;
  row_major.layout = graph::Layout::kRowMajor;
  for (const util::GridShape& shape : test_grids()) {
    if (!runs_here(shape)) continue;
    const std::string name = grid_name(shape);
    check_case(Case{14, shape, bitmaps, {}, {}, name + " sparse-switch off"});
    check_case(Case{14, shape, pairs_by_sendrecv, {}, {}, name + " bu-alltoallv off"});
    check_case(Case{14, shape, one_segment, {}, {}, name + " overlap off"});
    check_case(Case{14, shape, three_segments, {}, {}, name + " 3 substeps"});
    check_case(Case{14, shape, {}, row_major, {}, name + " row-major layout"});
  }
}

// Messages cut into rounds of 64 bytes: many calls per exchange, the same bytes.
TEST(Volumes, EveryLevelEqualsTheMpiCallsInRounds) {
  for (const util::GridShape& shape : test_grids()) {
    if (!runs_here(shape)) continue;
    check_case(Case{14, shape, {}, {}, util::MessageLimits{64}, grid_name(shape) + " 64-byte rounds"});
  }
}

// Another collective algorithm sends other messages (point-to-point ones, forwarded blocks), but
// the bytes counted are what the BFS hands to the collective: the same as with MPI's own.
std::vector<std::vector<util::PhaseBytes>> level_bytes_of_runs(const Case& c) {
  omp_set_num_threads(1);
  auto built = testing::build_test_graph(c.scale, c.shape, c.graph, c.limits);
  DistributedBfs bfs(built->graph, *built->grid, c.bfs);
  std::vector<std::vector<util::PhaseBytes>> runs;
  for (const int64_t root : run::choose_roots(built->spec, kRootsPerCase, built->graph, *built->grid)) {
    bfs.prepare();
    runs.emplace_back();
    for (const LevelTrace& level : bfs.run(root).levels) runs.back().push_back(level.bytes_sent);
  }
  return runs;
}

TEST(Volumes, OtherCollectiveAlgorithmsCountTheSameBytes) {
  for (const util::GridShape& shape : test_grids()) {
    if (!runs_here(shape)) continue;
    const auto with_mpi = level_bytes_of_runs(Case{14, shape, {}, {}, {}, grid_name(shape)});
    for (const auto& [alltoallv, allgatherv] : {std::pair{"pairwise", "ring"}, {"dimwise", "bruck"}}) {
      BfsOptions options;
      options.alltoallv = alltoallv;
      options.allgatherv = allgatherv;
      EXPECT_EQ(level_bytes_of_runs(Case{14, shape, options, {}, {}, grid_name(shape)}), with_mpi)
          << grid_name(shape) << " " << alltoallv << ", " << allgatherv;
    }
  }
}

// Table 3 of Nakao et al. 2021 beside the measured bytes (comm/table3.hpp, docs/volumes.md).

double sent(const LevelTrace& level, util::Phase p) { return static_cast<double>(phase_bytes(level.bytes_sent, p)); }
double predicted(const comm::table3::Volume& v, util::Phase p) { return v[static_cast<size_t>(p)]; }

// Where its assumptions hold, level by level: the frontier bitmap gathered along the column
// (when Table 3 takes the bitmap, and always with sparse-switch off) and the visited bitmap
// rotated along the row (sparse-switch off) are what Table 3 counts, plus a header word per
// message and the blocks' padding to 64 vertices: within 10 % at SCALE 16 (the header words
// alone are 12.5 % of the rotated bitmaps at SCALE 14 on 4x2, with 4 segments per block).
void expect_bitmaps_within_ten_percent(const CountedCase& c, const std::string& what) {
  const comm::table3::Model& model = c.model;
  for (const CountedRun& run : c.runs)
    for (size_t l = 0; l < run.levels.size(); ++l) {
      const LevelTrace& level = run.levels[l];
      if (level.direction != Direction::kBottomUp) continue;
      const comm::table3::Volume table3 =
          comm::table3::level_bytes(model, table3_level(run.levels, run.level_sizes, l, model.vertices_with_edges));
      const std::string where = what + ", level " + std::to_string(l);
      if (model.R > 1 && !comm::table3::sparse(model, level.frontier_size)) {
        EXPECT_NEAR(sent(level, util::Phase::kAllgatherv) / predicted(table3, util::Phase::kAllgatherv), 1.0, 0.1)
            << where;
      }
      if (model.C > 1 && !model.sparse_switch) {
        EXPECT_NEAR(sent(level, util::Phase::kSendrecv) / predicted(table3, util::Phase::kSendrecv), 1.0, 0.1) << where;
      }
    }
}

TEST(VolumesBesideTable3, BottomUpBitmapsWithinTenPercent) {
  BfsOptions bitmaps;
  bitmaps.sparse_switch = false;
  for (const util::GridShape& shape : test_grids()) {
    if (!runs_here(shape)) continue;
    expect_bitmaps_within_ten_percent(check_case(Case{16, shape, {}, {}, {}, grid_name(shape)}), grid_name(shape));
    expect_bitmaps_within_ten_percent(check_case(Case{16, shape, bitmaps, {}, {}, grid_name(shape)}),
                                      grid_name(shape) + " sparse-switch off");
  }
}

// Where it departs by the roles of the top-down step: g500 gathers the frontier along the grid
// row as 32-bit ids (Table 3: along the column, a word per vertex), or as the row set's bitmap
// where run::top_down_row_frontier_as_bitmap says (B/8 bytes per process to each other one of its row), and
// sends the candidates along the column as one word per (vertex, parent) pair, none to the
// process itself (Table 3: along the row, two words). Over a run, with F the frontier vertices
// of the levels listed, L the levels gathered as bitmaps and e the frontier's edges:
//   allgatherv  measured 4 (C-1) F + L R C (C-1) B/8   Table 3 8 F over all levels
//   alltoallv   measured ~ 8 e (R-1)/R                 Table 3 16 e (C-1)/C
void expect_top_down_departures(const CountedCase& c, const std::string& what) {
  const double R = c.model.R, C = c.model.C;
  double frontier = 0, listed = 0, bitmap_levels = 0, allgatherv = 0, allgatherv_table3 = 0, alltoallv = 0,
         alltoallv_table3 = 0;
  for (const CountedRun& run : c.runs) {
    for (const LevelTrace& level : run.levels) {
      if (level.direction != Direction::kTopDown) continue;
      frontier += static_cast<double>(level.frontier_size);
      if (run::top_down_row_frontier_as_bitmap(level.frontier_size, c.dist))
        ++bitmap_levels;
      else
        listed += static_cast<double>(level.frontier_size);
    }
    allgatherv += run.volumes.measured[comm::table3::kTopDown][static_cast<size_t>(util::Phase::kAllgatherv)];
    allgatherv_table3 += run.volumes.table3[comm::table3::kTopDown][static_cast<size_t>(util::Phase::kAllgatherv)];
    alltoallv += run.volumes.measured[comm::table3::kTopDown][static_cast<size_t>(util::Phase::kAlltoallv)];
    alltoallv_table3 += run.volumes.table3[comm::table3::kTopDown][static_cast<size_t>(util::Phase::kAlltoallv)];
  }
  const double bitmap_bytes = R * C * (C - 1) * static_cast<double>(c.dist.block) / 8;
  EXPECT_EQ(allgatherv, sizeof(graph::LocalId) * (C - 1) * listed + bitmap_levels * bitmap_bytes) << what;
  EXPECT_EQ(allgatherv_table3, 8 * (R - 1) * frontier) << what;
  if (R == 1) {
    EXPECT_EQ(alltoallv, 0) << what;
  }
  if (C == 1) {
    EXPECT_EQ(alltoallv_table3, 0) << what;
  }
  if (R > 1 && C > 1) {
    const double expected_ratio = ((R - 1) / R) / (2 * (C - 1) / C);
    EXPECT_NEAR(alltoallv / alltoallv_table3, expected_ratio, 0.1 * expected_ratio) << what;
  }
}

TEST(VolumesBesideTable3, TopDownDepartsByItsTransposedRoles) {
  for (const util::GridShape& shape : test_grids()) {
    if (!runs_here(shape)) continue;
    for (int scale : {14, 16}) {
      const CountedCase counted = check_case(Case{scale, shape, {}, {}, {}, grid_name(shape)});
      expect_top_down_departures(counted, grid_name(shape));
      // Both forms met on a grid of several columns (the bitmap in the levels after the largest).
      if (shape.cols > 1) {
        int bitmap_levels = 0, listed_levels = 0;
        for (const CountedRun& run : counted.runs)
          for (const LevelTrace& level : run.levels)
            if (level.direction == Direction::kTopDown)
              ++(run::top_down_row_frontier_as_bitmap(level.frontier_size, counted.dist) ? bitmap_levels
                                                                                         : listed_levels);
        EXPECT_GT(bitmap_levels, 0) << grid_name(shape) << " SCALE " << scale;
        EXPECT_GT(listed_levels, 0) << grid_name(shape) << " SCALE " << scale;
      }
    }
  }
}

}  // namespace
}  // namespace g500::bfs
