// Level structure of the BFS: measured rows, their CSV form and the extrapolation (levels.hpp).
#include "model/levels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "gen/kronecker_detail.hpp"
#include "util/error.hpp"

namespace g500::model {

namespace {
// Graph500 initiator as the generator uses it (gen/kronecker_detail.hpp): a row (or column) bit is
// 0 with probability A + B and 1 with probability C + D.
constexpr double kBitZero = static_cast<double>(gen::detail::kDenominator - gen::detail::kBC - gen::detail::kD) /
                            gen::detail::kDenominator;  // A + B = 0.76
constexpr double kBitOne = 1 - kBitZero;                // C + D = 0.24
constexpr double kEndsPerEdge = 2;
constexpr double kMinShare = 1e-3;  // levels run by fewer BFS runs than this are left out
const char* const kCsvHeader = "scale,relative,direction,roots,share,frontier,examined";

const char* direction_text(Direction d) { return d == Direction::kTopDown ? "top-down" : "bottom-up"; }

double log_binomial(int n, int k) { return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0); }

using Key = std::pair<int, Direction>;  // relative level, direction

struct Fitted {
  double share = 0, frontier = 0, examined = 0;
};

// Share, frontier and edges examined of one (relative level, direction) at `scale`.
Fitted fit_key(const std::vector<LevelRow>& rows, const Key& key, const std::map<int, int>& roots_at, int scale) {
  std::vector<double> sx, sy, sw, fx, fy, fw, ex, ey, ew;
  for (const auto& [s, roots] : roots_at) {
    const LevelRow* row = nullptr;
    for (const auto& r : rows)
      if (r.scale == s && r.relative == key.first && r.direction == key.second) row = &r;
    sx.push_back(s);
    sy.push_back(row ? row->share : 0.0);
    sw.push_back(roots);
    if (!row || row->share <= 0) continue;
    const double weight = row->share * roots;
    if (row->frontier > 0) {
      fx.push_back(s);
      fy.push_back(std::log(row->frontier));
      fw.push_back(weight);
    }
    if (row->examined > 0) {
      ex.push_back(s);
      ey.push_back(std::log(row->examined));
      ew.push_back(weight);
    }
  }
  Fitted f;
  f.share = std::clamp(fit_line(sx, sy, sw).at(scale), 0.0, 1.0);
  if (!fx.empty()) f.frontier = std::exp(fit_line(fx, fy, fw).at(scale));
  if (!ex.empty()) f.examined = std::exp(fit_line(ex, ey, ew).at(scale));
  return f;
}

// Fills found and unvisited of every level from the (renormalised) frontiers, per reached vertex.
void chain_levels(std::vector<ModelLevel>& levels, double reached) {
  std::map<int, double> mixed_frontier, presence;  // per relative level, over the directions
  for (const auto& l : levels) {
    mixed_frontier[l.relative] += l.share * l.counts.frontier;
    presence[l.relative] += l.share;
  }
  for (auto& l : levels) {
    double visited = 0;  // the frontiers up to this one are visited when it starts
    for (const auto& [j, f] : mixed_frontier)
      if (j <= l.relative) visited += f;
    l.counts.unvisited = std::max(0.0, reached - visited);
    const auto next = mixed_frontier.find(l.relative + 1);
    l.counts.found = next == mixed_frontier.end() ? 0.0 : next->second / presence[l.relative];
  }
}
}  // namespace

double kronecker_reached_fraction(int scale, int edgefactor) {
  const double edge_ends = kEndsPerEdge * edgefactor * std::ldexp(1.0, scale);
  double isolated = 0;
  for (int k = 0; k <= scale; ++k) {
    const double hit = std::pow(kBitZero, scale - k) * std::pow(kBitOne, k);  // q_k
    isolated += std::exp(log_binomial(scale, k) - scale * std::log(2.0) - edge_ends * hit);
  }
  return 1 - isolated;
}

double kronecker_degree_concentration(int scale) { return std::pow(kBitZero * kBitZero + kBitOne * kBitOne, scale); }

Line fit_line(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& weight) {
  double sw = 0, sx = 0, sy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sw += weight[i];
    sx += weight[i] * x[i];
    sy += weight[i] * y[i];
  }
  if (sw <= 0) return {};
  const double mx = sx / sw, my = sy / sw;
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxx += weight[i] * (x[i] - mx) * (x[i] - mx);
    sxy += weight[i] * (x[i] - mx) * (y[i] - my);
  }
  const double slope = sxx > 0 ? sxy / sxx : 0.0;
  return Line{my - slope * mx, slope};
}

std::vector<LevelRow> level_rows(const TraceRun& run) {
  struct Sum {
    int count = 0;
    double frontier = 0, examined = 0;
  };
  std::map<Key, Sum> sums;
  int traced = 0;
  const double reached_guess = kronecker_reached_fraction(run.scale, run.edgefactor) * std::ldexp(1.0, run.scale);
  for (const auto& root : run.roots) {
    if (root.levels.empty()) continue;
    ++traced;
    const double reached = root.reached > 0 ? root.reached : reached_guess;
    size_t peak = 0;
    for (size_t k = 1; k < root.levels.size(); ++k)
      if (root.levels[k].frontier > root.levels[peak].frontier) peak = k;
    for (size_t k = 0; k < root.levels.size(); ++k) {
      Sum& s = sums[{static_cast<int>(k) - static_cast<int>(peak), root.levels[k].direction}];
      ++s.count;
      s.frontier += root.levels[k].frontier / reached;
      s.examined += root.levels[k].examined / reached;
    }
  }
  if (traced == 0) throw util::UsageError(run.path + ": no per-level trace (run g500 bfs with --trace)");
  std::vector<LevelRow> rows;
  for (const auto& [key, s] : sums)
    rows.push_back(LevelRow{run.scale, key.first, key.second, traced, static_cast<double>(s.count) / traced,
                            s.frontier / s.count, s.examined / s.count});
  return rows;
}

std::string level_rows_csv(const std::vector<LevelRow>& rows) {
  std::string text = std::string(kCsvHeader) + "\n";
  for (const auto& r : rows)
    text += fmt::format("{},{},{},{},{:.6g},{:.6g},{:.6g}\n", r.scale, r.relative, direction_text(r.direction), r.roots,
                        r.share, r.frontier, r.examined);
  return text;
}

std::vector<LevelRow> parse_level_rows_csv(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::string line;
  std::vector<LevelRow> rows;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line == kCsvHeader) continue;
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream fields(line);
    LevelRow r;
    std::string direction;
    if (!(fields >> r.scale >> r.relative >> direction >> r.roots >> r.share >> r.frontier >> r.examined) ||
        (direction != "top-down" && direction != "bottom-up") || r.roots < 1 || r.share < 0 || r.share > 1)
      throw util::UsageError(fmt::format("{}: bad level row at line {} (expected {})", what, number, kCsvHeader));
    r.direction = direction == "top-down" ? Direction::kTopDown : Direction::kBottomUp;
    rows.push_back(r);
  }
  if (rows.empty()) throw util::UsageError(what + ": no level rows");
  return rows;
}

LevelStructure level_structure(const std::vector<LevelRow>& rows, int scale, int edgefactor) {
  std::map<int, int> roots_at;
  std::set<Key> keys;
  for (const auto& r : rows) {
    roots_at[r.scale] = r.roots;
    keys.insert({r.relative, r.direction});
  }
  LevelStructure s;
  s.scale = scale;
  s.edgefactor = edgefactor;
  s.vertices = std::ldexp(1.0, scale);
  s.edges = edgefactor * s.vertices;
  s.reached = kronecker_reached_fraction(scale, edgefactor) * s.vertices;
  double frontier_total = 0;
  for (const Key& key : keys) {
    const Fitted f = fit_key(rows, key, roots_at, scale);
    if (f.share < kMinShare) continue;
    ModelLevel level;
    level.relative = key.first;
    level.share = f.share;
    level.counts.direction = key.second;
    level.counts.vertices = s.vertices;
    level.counts.frontier = f.frontier;  // per reached vertex until rescaled below
    level.counts.examined = f.examined * s.reached;
    frontier_total += f.share * f.frontier;
    s.levels.push_back(level);
  }
  for (auto& l : s.levels) l.counts.frontier *= s.reached / frontier_total;
  chain_levels(s.levels, s.reached);
  return s;
}

}  // namespace g500::model
