// Kernel 1's memory model (graph/memory_plan.hpp): the Kronecker graph's rows with edges, the
// entries a process holds while it fills a slab, and the number of slabs a node's memory allows;
// plan_graph_memory's steps are in graph/graph_memory_planner.cpp.
#include "graph/memory_plan.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "graph/edge_router.hpp"
#include "graph/packed_rows.hpp"
#include "graph/present_index.hpp"
#include "graph/row_buckets.hpp"
#include "util/bitmap.hpp"

namespace g500::graph {

namespace {

// Calls f(vertices, mean) for the classes of a Kronecker graph's vertices by their number k of
// one-bits: C(scale, k) vertices, each with about `mean` entries in one of the C blocks of its row.
template <class F>
void for_each_kronecker_row_class(int scale, int64_t nedges, int grid_cols, F f) {
  // The generator's initiator A, B, C, D = 0.57, 0.19, 0.19, 0.05 (reference 3.0): a bit of an
  // endpoint is 0 with probability A + B = 0.76.
  constexpr double kZeroBit = 0.76, kOneBit = 0.24;
  const double per_block = 2.0 * static_cast<double>(nedges) / std::max(1, grid_cols);
  double binomial = 1;  // C(scale, k)
  for (int k = 0; k <= scale; ++k) {
    f(binomial, per_block * std::pow(kZeroBit, scale - k) * std::pow(kOneBit, k));
    binomial = binomial * (scale - k) / (k + 1);
  }
}

}  // namespace

double kronecker_nonempty_row_share(int scale, int64_t nedges, int grid_cols) {
  double nonempty = 0;
  for_each_kronecker_row_class(scale, nedges, grid_cols,
                               [&](double vertices, double mean) { nonempty += vertices * -std::expm1(-mean); });
  return nonempty / std::ldexp(1.0, scale);
}

double kronecker_short_row_id_share(int scale, int64_t nedges, int grid_cols, int64_t longest_short_row) {
  double short_ids = 0, entries = 0;
  for_each_kronecker_row_class(scale, nedges, grid_cols, [&](double vertices, double mean) {
    double poisson = std::exp(-mean), ids = 0;  // P(X = x), then the ids after the first up to x
    for (int64_t x = 1; x <= longest_short_row; ++x) {
      poisson *= mean / static_cast<double>(x);
      if (x >= 2) ids += static_cast<double>(x - 1) * poisson;
    }
    short_ids += vertices * ids;
    entries += vertices * mean;
  });
  return entries > 0 ? short_ids / entries : 0;
}

bool lengths_of_rows_met(const GraphShape& shape, const Distribution& d, const GraphOptions& options) {
  const double rows = static_cast<double>(d.row_set_size());
  const double entries = static_cast<double>(expected_entries_per_rank(shape.nedges, d.R * d.C));
  const double rows_met =
      shape.scale > 0 ? rows * kronecker_nonempty_row_share(shape.scale, shape.nedges, d.C) : entries;
  const RowBuckets buckets(d.row_set_size(), expected_entries_per_rank(shape.nedges, d.R * d.C));
  return count_rows_met_only(options.row_counting, rows, entries, rows_met, compact_entry_bytes(buckets, 1), d.C);
}

double kept_buffer_share(double kept, int threads) {
  const double T = std::max(1, threads);
  double beyond_front = 0;  // what the threads write past [0, kept), where the entries end up
  for (int t = 1; t < threads; ++t) {
    const double begin = t / T, end = (t + kept) / T;
    beyond_front += end - std::clamp(kept, begin, end);
  }
  return std::min(1.0, kept + beyond_front);
}

double KeptEntryShares::mass(double lo, double hi) const {
  double m = 0;
  for (const auto& [j, w] : blocks_)
    m += w * C_ * std::max(0.0, std::min(hi, (j + 1.0) / C_) - std::max(lo, j / static_cast<double>(C_)));
  return m;
}

double KeptEntryShares::moment(double lo, double hi) const {
  double m = 0;
  for (const auto& [j, w] : blocks_) {
    const double from = std::max(lo, j / static_cast<double>(C_)), to = std::min(hi, (j + 1.0) / C_);
    if (to > from) m += w * C_ * (to * to - from * from) / 2;
  }
  return m;
}

double KeptEntryShares::held(double b, double p) const {
  if (!mirror_) return b - p;
  return (b - p) - (b * mass(p, b) - moment(p, b));  // less the entries p <= u < v < b
}

double KeptEntryShares::mirrors_made(double a, double b) const {
  return mirror_ ? moment(a, b) - a * mass(a, b) : 0;  // entries a <= v < u < b
}

std::vector<KeptEntryShares> kept_entry_shares(const Distribution& d, Layout layout, bool mirror) {
  // Column c's set holds the blocks c R + t (t < R), whose row-local ids start at the block's row
  // position (graph/distribution.hpp): c under Yoo's layout; row-major (c R + t) mod C, a run of R
  // positions from (c R) mod C around the C blocks, the same for the columns of one start.
  std::vector<KeptEntryShares> shares;
  if (!mirror || d.C == 1) {
    shares.emplace_back(1, std::vector<std::pair<int, double>>{{0, 1.0}}, mirror);
    return shares;
  }
  if (layout == Layout::kYoo) {
    for (int c = 0; c < d.C; ++c) shares.emplace_back(d.C, std::vector<std::pair<int, double>>{{c, 1.0}}, mirror);
    return shares;
  }
  std::set<int> starts;
  for (int c = 0; c < d.C; ++c) starts.insert(static_cast<int>(int64_t{c} * d.R % d.C));
  for (const int start : starts) {
    std::vector<double> weight(static_cast<size_t>(d.C), static_cast<double>(d.R / d.C) / d.R);  // whole turns
    for (int t = 0; t < d.R % d.C; ++t) weight[static_cast<size_t>((start + t) % d.C)] += 1.0 / d.R;
    std::vector<std::pair<int, double>> blocks;
    for (int j = 0; j < d.C; ++j)
      if (weight[j] > 0) blocks.emplace_back(j, weight[j]);
    shares.emplace_back(d.C, std::move(blocks), mirror);
  }
  return shares;
}

FullestColumn::FullestColumn(std::vector<KeptEntryShares> columns) : columns_(std::move(columns)) {
  for (const KeptEntryShares& column : columns_) {
    first_support_end_ = std::min(first_support_end_, column.support_end());
    last_support_begin_ = std::max(last_support_begin_, column.support_begin());
  }
}

double FullestColumn::held(double b, double p) const {
  if (first_support_end_ <= p || last_support_begin_ >= b) return b - p;  // a column with none in [p, b)
  double most = 0;
  for (const KeptEntryShares& column : columns_) most = std::max(most, column.held(b, p));
  return most;
}

double FullestColumn::mirrors_made(int64_t slabs) const {
  const double S = static_cast<double>(slabs);
  double most = 0;
  for (const KeptEntryShares& column : columns_) {  // only the slabs its other ends reach
    const int64_t first =
        std::clamp<int64_t>(static_cast<int64_t>(std::floor(column.support_begin() * S)), 0, slabs - 1);
    const int64_t last = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(column.support_end() * S)), 1, slabs);
    for (int64_t s = first; s < last; ++s) most = std::max(most, column.mirrors_made(s / S, (s + 1) / S));
  }
  return most;
}

double packed_bytes_per_entry(int scale) {
  // Measured on the Kronecker graphs with the degree sort, one process, the gaps and the short
  // rows' ids together (graph/packed_rows.hpp): SCALE 16 1.496, 18 1.499, 20 1.542, 22 1.685, 24
  // 1.813; odd SCALEs halfway. The gaps shrink relative to the column count as hubs grow, but the
  // count grows: about 0.07 more per SCALE, taken as 0.08 beyond the measured range.
  constexpr int kFirst = 16, kLast = 24;
  constexpr double kMeasured[] = {1.496, 1.498, 1.499, 1.521, 1.542, 1.614, 1.685, 1.749, 1.813};
  constexpr double kPerScaleBeyond = 0.08;
  if (scale <= kFirst) return kMeasured[0];
  if (scale <= kLast) return kMeasured[scale - kFirst];
  return kMeasured[kLast - kFirst] + kPerScaleBeyond * (scale - kLast);
}

int64_t choose_passes(const GraphShape& shape, const Distribution& d, const GraphOptions& options,
                      double node_bytes_per_rank, int threads) {
  if (options.passes > 0) return options.passes;  // the number the user or the run's plan fixed
  // The kernel-1 peak falls with the slabs (kept entries take more bytes than the rows they
  // become): the fewest slabs whose peak fits the share.
  auto fewest_within = [&](double share, int64_t first, int64_t last) -> int64_t {
    for (int64_t slabs = first; slabs <= last; ++slabs)
      if (plan_graph_memory(shape, d, options, slabs, threads).kernel1_peak() <= share * node_bytes_per_rank)
        return slabs;
    return 0;
  };
  if (const int64_t modest = fewest_within(kModestMemoryShare, 1, kPreferredMostSlabs)) return modest;
  // Beyond, the slabs halve the kept entries each time they double: a few dozen cover any case
  // where the graph itself fits.
  constexpr int64_t kMostSlabs = 256;
  if (const int64_t most = fewest_within(kMostMemoryShare, kPreferredMostSlabs, kMostSlabs)) return most;
  return kPreferredMostSlabs;  // the graph alone does not fit: the run's memory check says so
}

}  // namespace g500::graph
