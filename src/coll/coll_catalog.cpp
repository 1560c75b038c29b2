#include "coll/coll_catalog.hpp"

#include <fmt/format.h>

#include "util/error.hpp"

namespace g500::coll {

namespace {

int mpi_alltoallv(const void* sb, const int* sc, const int* sd, MPI_Datatype st, void* rb, const int* rc, const int* rd,
                  MPI_Datatype rt, MPI_Comm comm, const CollOptions&) {
  return MPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, comm);
}
int mpi_alltoall(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm comm,
                 const CollOptions&) {
  return MPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
}
int mpi_allgatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int* rc, const int* rd, MPI_Datatype rt,
                   MPI_Comm comm, const CollOptions&) {
  return MPI_Allgatherv(sb, sc, st, rb, rc, rd, rt, comm);
}
int mpi_bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions&) {
  return MPI_Bcast(buf, count, type, root, comm);
}

std::vector<AlgoEntry> make_alltoallv() {
  return {
      {kMpiAlgorithm, "MPI library's MPI_Alltoallv", mpi_alltoallv},
      {"linear", "basic linear: all Irecv/Isend posted, then Waitall", alltoallv_linear},
      {"pairwise", "pairwise exchange: round R sends to rank+R, receives from rank-R", alltoallv_pairwise},
      {"dimwise", "dimension-wise exchange over the logical shape (--shape)", alltoallv_dimwise, nullptr, nullptr,
       nullptr, 0, false, true},
  };
}
std::vector<AlgoEntry> make_alltoall() {
  std::vector<AlgoEntry> out{{kMpiAlgorithm, "MPI library's MPI_Alltoall"},
                             {"linear", "basic linear"},
                             {"pairwise", "pairwise exchange"},
                             {"bruck", "Bruck: ceil(log2 P) rounds"}};
  out[0].alltoall = mpi_alltoall;
  out[1].alltoall = alltoall_linear;
  out[2].alltoall = alltoall_pairwise;
  out[3].alltoall = alltoall_bruck;
  return out;
}
std::vector<AlgoEntry> make_allgatherv() {
  std::vector<AlgoEntry> out{{kMpiAlgorithm, "MPI library's MPI_Allgatherv"},
                             {"ring", "ring: P-1 neighbour steps"},
                             {"recdbl", "recursive doubling (any P)"},
                             {"bruck", "Bruck: ceil(log2 P) rounds"}};
  out[0].allgatherv = mpi_allgatherv;
  out[1].allgatherv = allgatherv_ring;
  out[2].allgatherv = allgatherv_recursive_doubling;
  out[3].allgatherv = allgatherv_bruck;
  return out;
}
std::vector<AlgoEntry> make_bcast() {
  auto entry = [](std::string name, std::string text, BcastAlgo fn, bool segment, bool shape, int trees = 0) {
    AlgoEntry e{std::move(name), std::move(text)};
    e.bcast = fn;
    e.uses_segment = segment;
    e.uses_shape = shape;
    e.trees = trees;
    return e;
  };
  return {
      entry(kMpiAlgorithm, "MPI library's MPI_Bcast", mpi_bcast, false, false),
      entry("linear", "basic linear: root sends to everyone", bcast_linear, false, false),
      entry("chain", "chain, whole message per step", bcast_chain, false, false),
      entry("pipeline", "segmented chain (--segment)", bcast_pipeline, true, false),
      entry("bintree", "binary tree (--segment optional)", bcast_binary_tree, true, false),
      entry("splitbintree", "split binary tree: halves down two trees, then swapped", bcast_split_binary_tree, true,
            false),
      entry("binomial", "binomial tree", bcast_binomial, true, false),
      entry("bintree3d", "binary trees along X, then Y, then Z of --shape", bcast_bintree3d, true, true),
      entry("ktree3", "3 dimension-chain trees over --shape, message split 3 ways (Trinaryx3 idea)", bcast_ktree, true,
            true, 3),
      entry("ktree6", "6 dimension-chain trees (+ and - directions), split 6 ways (Trinaryx6 idea)", bcast_ktree, true,
            true, 6),
  };
}

}  // namespace

std::string op_name(CollOp op) {
  switch (op) {
    case CollOp::alltoallv:
      return "alltoallv";
    case CollOp::alltoall:
      return "alltoall";
    case CollOp::allgatherv:
      return "allgatherv";
    case CollOp::bcast:
      return "bcast";
  }
  return "?";
}

std::vector<CollOp> all_ops() { return {CollOp::alltoallv, CollOp::alltoall, CollOp::allgatherv, CollOp::bcast}; }

CollOp parse_op(const std::string& name) {
  for (CollOp op : all_ops())
    if (op_name(op) == name) return op;
  throw util::UsageError(fmt::format("unknown --op '{}' (expected alltoallv, alltoall, allgatherv or bcast)", name));
}

const std::vector<AlgoEntry>& algorithms(CollOp op) {
  static const std::vector<AlgoEntry> alltoallv = make_alltoallv(), alltoall = make_alltoall(),
                                      allgatherv = make_allgatherv(), bcast = make_bcast();
  switch (op) {
    case CollOp::alltoallv:
      return alltoallv;
    case CollOp::alltoall:
      return alltoall;
    case CollOp::allgatherv:
      return allgatherv;
    case CollOp::bcast:
      return bcast;
  }
  return bcast;
}

const AlgoEntry* find_algorithm(CollOp op, const std::string& name) {
  for (const AlgoEntry& entry : algorithms(op))
    if (entry.name == name) return &entry;
  return nullptr;
}

CollOptions options_for(const AlgoEntry& entry, int segment_bytes, const Shape3& shape) {
  CollOptions options;
  options.segment_bytes = entry.uses_segment ? segment_bytes : 0;
  options.shape = shape;
  if (entry.trees > 0) options.trees = entry.trees;
  return options;
}

}  // namespace g500::coll
