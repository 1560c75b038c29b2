// Per-level communication volumes of Nakao et al. 2021, Table 3 (see volumes.hpp): the formulas of
// comm/table3.hpp, in the variant's encoding, divided among the processes.
#include "model/volumes.hpp"

#include "comm/table3.hpp"

namespace g500::model {

BfsVariant paper_variant() { return BfsVariant{comm::table3::kWordBytes, 2 * comm::table3::kWordBytes, false, false}; }
BfsVariant g500_variant() { return BfsVariant{comm::table3::kWordBytes / 2, comm::table3::kWordBytes, true, true}; }

LevelVolumes level_volumes(const LevelCounts& level, int rows, int cols, const BfsVariant& variant) {
  comm::table3::Model model;
  model.n = static_cast<int64_t>(level.vertices);
  model.R = rows;
  model.C = cols;
  model.encoding = {variant.list_entry_bytes, variant.pair_bytes, variant.topdown_transposed};
  comm::table3::Level terms;
  terms.bottom_up = level.direction == Direction::kBottomUp;
  terms.frontier = level.frontier;
  terms.frontier_edges = level.examined;
  terms.discovered = level.found;
  terms.unvisited = level.unvisited;
  const comm::table3::Volume total = comm::table3::level_bytes(model, terms);
  const double processes = static_cast<double>(rows) * cols;
  const auto per_process = [&](util::Phase p) { return total[static_cast<size_t>(p)] / processes; };
  LevelVolumes v;
  v.transposed = !terms.bottom_up && variant.topdown_transposed;
  v.allgatherv = per_process(util::Phase::kAllgatherv);
  v.alltoallv = per_process(util::Phase::kAlltoallv);
  v.sendrecv = per_process(util::Phase::kSendrecv);
  v.frontier_is_bitmap = terms.bottom_up && !comm::table3::sparse(model, level.frontier);
  v.unvisited_is_bitmap = terms.bottom_up && !comm::table3::sparse(model, level.unvisited);
  return v;
}

}  // namespace g500::model
