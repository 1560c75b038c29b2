// Edge-list files written by `g500 gen` and read back by later stages (e.g. `g500 bfs --input`).
//
// tsv format (text, the same as the reference test vectors): optional '#' comment lines, then one
// line per generated edge in generation order: "v0<TAB>v1\n", or "v0<TAB>v1<TAB>weight\n" with
// the float32 weight printed like printf("%.9g") (which round-trips exactly).
//
// bin format (little-endian, packed, no padding):
//   offset  0: char[8]  magic "G500EDGE"
//   offset  8: uint32   version = 1
//   offset 12: uint32   flags (bit 0 set: every record carries a weight)
//   offset 16: int64    nvertices
//   offset 24: int64    nedges
//   offset 32: nedges records in edge order: int64 v0, int64 v1 [, float32 weight]
//              (16 bytes per record, 20 with weights)
//
// Writing is collective over an MPI communicator: each rank generates a contiguous range of edge
// indices. A file output is written in parallel, each rank at its offset, into a temporary beside
// it that replaces it only when complete; a device or FIFO output receives the ranks' parts in
// order through rank 0 (util/output_file.hpp).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>

#include "gen/kronecker.hpp"
#include "io/parse.hpp"  // kBinHeaderBytes
#include "util/message_limits.hpp"

namespace g500::io {

enum class EdgeFormat { tsv, bin };

inline constexpr char kBinMagic[8] = {'G', '5', '0', '0', 'E', 'D', 'G', 'E'};
inline constexpr uint32_t kBinVersion = 1;
inline constexpr uint32_t kBinFlagWeights = 1;
inline constexpr int64_t bin_record_bytes(bool weights) { return weights ? 20 : 16; }

struct EdgeWriteOptions {
  EdgeFormat format = EdgeFormat::tsv;
  bool weights = false;
  bool force = false;             // write even when the output looks larger than the free space
  int64_t chunk_edges = 1 << 20;  // edges generated and written per step on each rank
  util::MessageLimits messages;   // the largest message carrying a part of a streamed output
};

struct EdgeWriteResult {
  int64_t bytes = 0;            // size of the file written
  double generate_seconds = 0;  // max over ranks of time spent generating
  double total_seconds = 0;
};

// Collective over comm. Throws g500::UsageError (on every rank) on any failure, leaving no
// output file and no temporary file behind (a stream keeps what was written before the failure).
EdgeWriteResult write_generated_edges(const gen::KroneckerSpec& spec, const std::string& path,
                                      const EdgeWriteOptions& options, MPI_Comm comm);

// Appends one tsv line per edge to `out` (weights may be null). Returns the number of bytes added.
size_t format_tsv(const gen::Edge* edges, const float* weights, int64_t count, std::string& out);

struct BinEdgeHeader {
  uint32_t version = kBinVersion;
  uint32_t flags = 0;
  int64_t nvertices = 0;
  int64_t nedges = 0;
  bool has_weights() const { return flags & kBinFlagWeights; }
};

// Reader for the bin format; local to one process (each rank may open its own).
class BinEdgeReader {
 public:
  BinEdgeReader() = default;
  BinEdgeReader(const BinEdgeReader&) = delete;
  BinEdgeReader& operator=(const BinEdgeReader&) = delete;
  ~BinEdgeReader();
  // Opens and validates the file; returns an empty string on success, else a one-line problem
  // description (suitable for agree_or_throw).
  std::string open(const std::string& path);
  const BinEdgeHeader& header() const { return header_; }
  // Reads records [begin, begin + count); weights may be null (ignored when the file has none).
  // Throws g500::UsageError on a range outside the file or a read error.
  void read(int64_t begin, int64_t count, gen::Edge* edges, float* weights) const;
  void close();

 private:
  int fd_ = -1;
  std::string path_;
  BinEdgeHeader header_;
};

}  // namespace g500::io
