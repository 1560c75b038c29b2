#include "bfs/table3.hpp"

namespace g500::table3 {

namespace {
constexpr size_t index_of(comm::Phase p) { return static_cast<size_t>(p); }
}  // namespace

bool sparse(const Model& model, int64_t vertices) {
  return model.sparse_switch && static_cast<double>(vertices) < static_cast<double>(model.n) / 64;
}

Volume level_bytes(const Model& model, const Level& level) {
  using comm::Phase;
  const double n = static_cast<double>(model.n), R = model.R, C = model.C;
  const double row_share = (C - 1) / C;  // what a process sends to the others of its grid row
  Volume words{};
  if (!level.bottom_up) {
    words[index_of(Phase::kAllgatherv)] = static_cast<double>(level.frontier) * (R - 1);
    words[index_of(Phase::kAlltoallv)] = 2 * static_cast<double>(level.frontier_edges) * row_share;
  } else {
    const double frontier = sparse(model, level.frontier) ? static_cast<double>(level.frontier) : n / 64;
    const double unvisited = sparse(model, level.unvisited) ? static_cast<double>(level.unvisited) : n / 64;
    words[index_of(Phase::kAllgatherv)] = (R - 1) * frontier;
    words[index_of(Phase::kSendrecv)] = (C - 1) * unvisited;
    const Phase pairs = model.pairs_by_alltoallv ? Phase::kAlltoallv : Phase::kSendrecv;
    words[index_of(pairs)] += 2 * static_cast<double>(level.discovered) * row_share;
  }
  for (double& w : words) w *= kWordBytes;
  return words;
}

DirectionVolumes as_printed(const Model& model, double bottom_up_levels) {
  using comm::Phase;
  const double n = static_cast<double>(model.n), m = static_cast<double>(model.m), R = model.R, C = model.C;
  DirectionVolumes words{};
  words[kTopDown][index_of(Phase::kAllgatherv)] = n * R;
  words[kTopDown][index_of(Phase::kAlltoallv)] = 4 * m;
  words[kBottomUp][index_of(Phase::kAllgatherv)] = bottom_up_levels * n * R / 64;
  words[kBottomUp][index_of(Phase::kSendrecv)] = bottom_up_levels * n * C / 64;
  words[kBottomUp][index_of(Phase::kAlltoallv)] = 2 * n;
  for (Volume& v : words)
    for (double& w : v) w *= kWordBytes;
  return words;
}

}  // namespace g500::table3
