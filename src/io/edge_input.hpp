// Edge-list files as BFS/SSSP input (`g500 bfs --input FILE`; formats and rules in docs/input.md).
//
// load_edge_input() is collective: every rank reads its own byte range of the file (text formats:
// the lines that start in the range; bin: a contiguous record range), parses it, and the file's
// vertex ids are relabelled to 0..n-1 without any rank holding all ids:
//   - tsv/snap: distinct ids are range-partitioned by sampled splitters (a sample sort), each
//     owner sorts and numbers its ids, an exclusive scan makes the numbers global, and the edges
//     are rewritten from the owners' answers. The new id of a file id is its rank among the
//     file's distinct ids in increasing order (independent of the rank count), so n = number of
//     distinct ids and no vertex is isolated unless it only has self-loops;
//   - mtx: the declared size is kept: n = max(rows, cols), file index i becomes i-1 (isolated
//     vertices included);
//   - bin: ids are already 0..n-1 (n from the header) and are kept; rank r takes records
//     [m*r/P, m*(r+1)/P), the same share as the in-memory Kronecker source, so a file written by
//     `g500 gen --format bin` gives kernel 1 exactly the in-memory edges.
// Every problem (missing file, malformed line, bad header, ...) becomes one UsageError thrown on
// every rank with the same message naming the file (and line or record).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gen/kronecker.hpp"
#include "graph/edge_source.hpp"
#include "io/parse.hpp"
#include "util/message_limits.hpp"

namespace g500::io {

// The sizes a file's header declares (mtx: the size line; bin: the header), known before any
// edge is read.
struct DeclaredSize {
  int64_t nvertices = 0;
  int64_t nedges = 0;
  std::string what;  // the file and the header fields with their values, for messages
};

struct InputSpec {
  std::string path;
  Format format = Format::tsv;
  // Every line is one undirected edge either way (docs/input.md); recorded for the report.
  bool directed_as_undirected = false;
  // Called collectively with the declared sizes once the header passed its own checks, before
  // anything is read or allocated for them; throws UsageError (on every rank alike) to refuse a
  // graph that cannot run, e.g. one whose memory estimate does not fit. tsv/snap declare nothing.
  std::function<void(const DeclaredSize&)> check_declared_size;
  // The largest message of one MPI call while loading and translating ids (comm/large_count.hpp).
  util::MessageLimits messages;
};

struct InputStats {
  int64_t vertices = 0;    // n after relabelling (mtx: declared size)
  int64_t edges = 0;       // edge lines / entries / records
  int64_t self_loops = 0;  // edges {v, v} (kernel 1 drops them)
  int64_t duplicates = 0;  // edges whose unordered pair {u, v} appeared earlier (kept, as the reference does)
  bool weighted = false;
  bool relabelled = false;  // tsv/snap: ids were renumbered
  double read_seconds = 0;  // reading, parsing and relabelling (max over ranks)
};

// New ids 0..n-1 <-> file ids. The new ids are split into one contiguous slice per rank (the
// rank that can translate them); slices follow the rank order and file ids increase with new ids.
class VertexIdMap {
 public:
  VertexIdMap() = default;
  // file id = new id + add; slices n*r/P .. n*(r+1)/P. `limits`: the largest message of the
  // translations' MPI calls.
  static VertexIdMap offset(int64_t n, uint64_t add, MPI_Comm comm, const util::MessageLimits& limits);
  // `sorted_ids` are this rank's file ids (sorted, distinct, above every id of lower ranks);
  // collective.
  static VertexIdMap table(std::vector<uint64_t> sorted_ids, MPI_Comm comm, const util::MessageLimits& limits);

  int64_t nvertices() const { return n_; }
  int64_t local_begin() const { return starts_[rank_]; }
  int64_t local_count() const { return starts_[rank_ + 1] - starts_[rank_]; }
  int owner_of(int64_t v) const;  // the rank whose slice holds new id v
  uint64_t local_file_id(int64_t k) const { return table_ ? ids_[k] : static_cast<uint64_t>(local_begin() + k) + add_; }
  // Collective: the file ids of any new ids (each rank its own list).
  std::vector<uint64_t> to_file_ids(const std::vector<int64_t>& ids) const;
  // Collective, the same list on every rank: new ids of file ids, -1 when not a vertex.
  std::vector<int64_t> find(const std::vector<uint64_t>& file_ids) const;

 private:
  bool table_ = false;
  int64_t n_ = 0;
  uint64_t add_ = 0;
  MPI_Comm comm_ = MPI_COMM_NULL;
  util::MessageLimits limits_;
  int rank_ = 0, nranks_ = 1;
  std::vector<int64_t> starts_{0, 0};  // nranks + 1 slice boundaries
  std::vector<uint64_t> ids_;          // table: file ids of this rank's slice
};

struct EdgeInput {
  InputSpec spec;
  int64_t nvertices = 0;
  int64_t global_edges = 0;
  int64_t local_begin = 0;       // this rank's share of the global edge list
  std::vector<gen::Edge> edges;  // this rank's edges in file order, ids 0..n-1
  std::vector<float> weights;    // one per edge when the file has weights, else empty
  VertexIdMap ids;
  InputStats stats;
  int64_t bin_header_nvertices = 0;  // bin only

  // Kernel 1's view of the edges (keeps a reference to *this).
  graph::EdgeSource edge_source() const;
};

// Collective over comm; throws UsageError (on every rank, same message) on any problem.
EdgeInput load_edge_input(const InputSpec& spec, MPI_Comm comm);

}  // namespace g500::io
