#include "comm/table3.hpp"

namespace g500::comm::table3 {

namespace {
constexpr size_t index_of(util::Phase p) { return static_cast<size_t>(p); }
}  // namespace

namespace {
constexpr double kBitsPerByte = 8;
}  // namespace

bool sparse(const Model& model, double vertices) {
  return model.sparse_switch &&
         vertices * model.encoding.list_entry_bytes < static_cast<double>(model.n) / kBitsPerByte;
}

Volume level_bytes(const Model& model, const Level& level) {
  using util::Phase;
  const Encoding& e = model.encoding;
  const double n = static_cast<double>(model.n), R = model.R, C = model.C;
  const double row_share = (C - 1) / C, column_share = (R - 1) / R;  // what a process sends to the others of its group
  const double bitmap_bytes = n / kBitsPerByte;
  Volume bytes{};
  if (!level.bottom_up) {
    const double frontier = level.frontier * e.list_entry_bytes;
    const double pairs = level.frontier_edges * e.pair_bytes;
    bytes[index_of(util::Phase::kAllgatherv)] = frontier * (e.topdown_transposed ? C - 1 : R - 1);
    bytes[index_of(util::Phase::kAlltoallv)] = pairs * (e.topdown_transposed ? column_share : row_share);
  } else {
    const auto bitmap_or_list = [&](double vertices) {
      return sparse(model, vertices) ? vertices * e.list_entry_bytes : bitmap_bytes;
    };
    bytes[index_of(util::Phase::kAllgatherv)] = (R - 1) * bitmap_or_list(level.frontier);
    bytes[index_of(util::Phase::kSendrecv)] = (C - 1) * bitmap_or_list(level.unvisited);
    const util::Phase pairs = model.pairs_by_alltoallv ? util::Phase::kAlltoallv : util::Phase::kSendrecv;
    bytes[index_of(pairs)] += level.discovered * e.pair_bytes * row_share;
  }
  return bytes;
}

DirectionVolumes as_printed(const Model& model, double bottom_up_levels) {
  using util::Phase;
  const double n = static_cast<double>(model.n), m = static_cast<double>(model.m), R = model.R, C = model.C;
  DirectionVolumes words{};
  words[kTopDown][index_of(util::Phase::kAllgatherv)] = n * R;
  words[kTopDown][index_of(util::Phase::kAlltoallv)] = 4 * m;
  words[kBottomUp][index_of(util::Phase::kAllgatherv)] = bottom_up_levels * n * R / 64;
  words[kBottomUp][index_of(util::Phase::kSendrecv)] = bottom_up_levels * n * C / 64;
  words[kBottomUp][index_of(util::Phase::kAlltoallv)] = 2 * n;
  for (Volume& v : words)
    for (double& w : v) w *= kWordBytes;
  return words;
}

}  // namespace g500::comm::table3
