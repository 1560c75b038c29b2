// gen::Edge-list writers (tsv, bin) for the reference-3.0-compatible Kronecker generator, and the bin
// reader; formats are documented in edge_file.hpp.
#include "io/edge_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <vector>

#include "comm/typed.hpp"
#include "io/input_file.hpp"
#include "io/parse.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/output_file.hpp"

namespace g500::io {

namespace {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big);

template <typename T>
void put_le(char* p, T value) {
  if constexpr (std::endian::native == std::endian::big) {
    for (size_t i = 0; i < sizeof(T); ++i) p[i] = static_cast<char>((static_cast<uint64_t>(value) >> (8 * i)) & 0xFF);
  } else {
    std::memcpy(p, &value, sizeof(T));
  }
}

template <typename T>
T get_le(const char* p) {
  T value;
  if constexpr (std::endian::native == std::endian::big) {
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    value = static_cast<T>(v);
  } else {
    std::memcpy(&value, p, sizeof(T));
  }
  return value;
}

void put_float_le(char* p, float w) { put_le<uint32_t>(p, std::bit_cast<uint32_t>(w)); }
float get_float_le(const char* p) { return std::bit_cast<float>(get_le<uint32_t>(p)); }

std::string bin_header_bytes(const gen::KroneckerSpec& spec, bool weights) {
  std::string h(kBinHeaderBytes, '\0');
  std::memcpy(h.data(), kBinMagic, 8);
  put_le<uint32_t>(h.data() + 8, kBinVersion);
  put_le<uint32_t>(h.data() + 12, weights ? kBinFlagWeights : 0);
  put_le<int64_t>(h.data() + 16, spec.nvertices());
  put_le<int64_t>(h.data() + 24, spec.nedges());
  return h;
}

void format_bin(const gen::Edge* edges, const float* weights, int64_t count, std::string& out) {
  const int64_t rec = bin_record_bytes(weights != nullptr);
  const size_t start = out.size();
  out.resize(start + count * rec);
  char* p = out.data() + start;
  for (int64_t i = 0; i < count; ++i, p += rec) {
    put_le<int64_t>(p, edges[i].v0);
    put_le<int64_t>(p + 8, edges[i].v1);
    if (weights) put_float_le(p + 16, weights[i]);
  }
}

std::string tsv_header(const gen::KroneckerSpec& spec, bool weights) {
  return fmt::format(
      "# Graph500 Kronecker edge list (g500 gen), SCALE={} edgefactor={} seeds=({},{}), in generation order\n"
      "# v0\tv1{}\n",
      spec.scale, spec.edgefactor, spec.seed1, spec.seed2, weights ? "\tweight(float32, printed with %.9g)" : "");
}

// Free space for `bytes` more in the directory of `target` (rank 0 only); "" when it fits, or
// when force.
std::string check_free_space(const std::string& path, const std::string& target, int64_t bytes, bool approximate,
                             bool force) {
  if (force) return "";
  const auto slash = target.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) != 0) return "";
  const auto free_bytes = static_cast<unsigned long long>(vfs.f_bavail) * vfs.f_frsize;
  if (static_cast<unsigned long long>(bytes) <= free_bytes) return "";
  return fmt::format("output '{}' needs {}{} bytes but only {} bytes are free in '{}' (use --force to try anyway)",
                     path, approximate ? "about " : "", bytes, free_bytes, dir);
}

struct RankRange {
  int64_t begin, end;
};
RankRange rank_range(int64_t n, int rank, int size) {
  auto cut = [&](int r) { return static_cast<int64_t>(static_cast<__int128>(n) * r / size); };
  return {cut(rank), cut(rank + 1)};
}

}  // namespace

size_t format_tsv(const gen::Edge* edges, const float* weights, int64_t count, std::string& out) {
  const size_t start = out.size();
  out.resize(start + static_cast<size_t>(count) * 64);  // 2 x 20 digits + weight (<= 16) + separators
  char* p = out.data() + start;
  for (int64_t i = 0; i < count; ++i) {
    p = std::to_chars(p, p + 20, edges[i].v0).ptr;
    *p++ = '\t';
    p = std::to_chars(p, p + 20, edges[i].v1).ptr;
    if (weights) {
      *p++ = '\t';
      // chars_format::general with precision 9 is specified to match printf("%.9g").
      p = std::to_chars(p, p + 20, weights[i], std::chars_format::general, 9).ptr;
    }
    *p++ = '\n';
  }
  const size_t added = static_cast<size_t>(p - (out.data() + start));
  out.resize(start + added);
  return added;
}

namespace {

// Rank 0: the size of a generated file. bin sizes are exact; tsv lines vary, so this estimates
// from 64 samples of 64 edges spread over the whole graph.
int64_t estimate_file_bytes(const gen::KroneckerGenerator& gen, const gen::KroneckerSpec& spec,
                            const EdgeWriteOptions& options, int64_t header_bytes) {
  const int64_t nedges = spec.nedges();
  if (options.format == EdgeFormat::bin) return header_bytes + nedges * bin_record_bytes(options.weights);
  const int64_t runs = 64, run = std::min<int64_t>(64, nedges);
  std::vector<gen::Edge> e(run);
  std::vector<float> w(run);
  float* wptr = options.weights ? w.data() : nullptr;
  int64_t sampled_bytes = 0;
  std::string text;
  for (int64_t r = 0; r < runs; ++r) {
    const int64_t lo = static_cast<int64_t>(static_cast<__int128>(nedges - run) * r / (runs - 1));
    gen.generate(lo, lo + run, e.data(), wptr);
    text.clear();
    sampled_bytes += static_cast<int64_t>(format_tsv(e.data(), wptr, run, text));
  }
  return header_bytes + static_cast<int64_t>(static_cast<long double>(sampled_bytes) / (runs * run) * nedges);
}

// One rank's edges a chunk at a time: generated (the generation timed) and formatted into a reused buffer.
struct ChunkFormatter {
  const gen::KroneckerGenerator& gen;
  const bool tsv;
  std::vector<gen::Edge> edges;
  std::vector<float> weights;
  float* const wptr;
  std::string buffer;
  double gen_seconds = 0;

  ChunkFormatter(const gen::KroneckerGenerator& generator, bool tsv_format, bool with_weights, size_t max_edges)
      : gen(generator), tsv(tsv_format), edges(max_edges), weights(with_weights ? edges.size() : 0),
        wptr(with_weights ? weights.data() : nullptr) {}

  // Edges [lo, hi) into `buffer`, formatted.
  void format(int64_t lo, int64_t hi) {
    double t0 = MPI_Wtime();
    gen.generate_parallel(lo, hi, edges.data(), wptr);
    gen_seconds += MPI_Wtime() - t0;
    buffer.clear();
    if (tsv)
      format_tsv(edges.data(), wptr, hi - lo, buffer);
    else
      format_bin(edges.data(), wptr, hi - lo, buffer);
  }
};

// Where this rank's part of a file starts (after the header and the lower ranks' parts); a tsv
// output, whose size is known only now, is checked against the free space again.
int64_t part_offset(const util::OutputFile& out, ChunkFormatter& chunks, RankRange mine, int64_t chunk,
                    const std::string& header, const std::string& path, const EdgeWriteOptions& options, int rank,
                    MPI_Comm comm) {
  const bool tsv = chunks.tsv;
  std::string error;
  int64_t local_bytes = (mine.end - mine.begin) * bin_record_bytes(options.weights);
  if (tsv) {
    // tsv lines have varying length: a first pass measures this rank's part (regenerating
    // later is cheaper than keeping it).
    local_bytes = 0;
    for (int64_t lo = mine.begin; lo < mine.end; lo += chunk) {
      chunks.format(lo, std::min(mine.end, lo + chunk));
      local_bytes += static_cast<int64_t>(chunks.buffer.size());
    }
  }
  const int64_t before = comm::Communicator(comm).sum_before(local_bytes);
  const int64_t total = comm::Communicator(comm).sum(local_bytes);
  const int64_t my_offset = static_cast<int64_t>(header.size()) + before;
  if (tsv && rank == 0)
    error = check_free_space(path, out.target(), total + static_cast<int64_t>(header.size()), false, options.force);
  util::agree_or_throw(error, comm);
  return my_offset;
}

// Writes this rank's part at my_offset (rank 0 the header first) and commits; returns the bytes written.
int64_t write_part(util::OutputFile& out, ChunkFormatter& chunks, RankRange mine, int64_t chunk,
                   const std::string& header, int64_t my_offset, int rank) {
  int64_t written = 0;
  if (rank == 0) {
    out.start_part(0);
    out.append(header.data(), header.size());
    written += static_cast<int64_t>(header.size());
  } else {
    out.start_part(my_offset);
  }
  for (int64_t lo = mine.begin; lo < mine.end && !out.failed(); lo += chunk) {
    chunks.format(lo, std::min(mine.end, lo + chunk));
    out.append(chunks.buffer.data(), chunks.buffer.size());
    written += static_cast<int64_t>(chunks.buffer.size());
  }
  out.commit();
  return written;
}

}  // namespace

EdgeWriteResult write_generated_edges(const gen::KroneckerSpec& spec, const std::string& path,
                                      const EdgeWriteOptions& options, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const double t_start = MPI_Wtime();
  const bool tsv = options.format == EdgeFormat::tsv;
  const gen::KroneckerGenerator gen(spec);
  const RankRange mine = rank_range(spec.nedges(), rank, size);
  const int64_t chunk = std::max<int64_t>(1, options.chunk_edges);
  ChunkFormatter chunks(gen, tsv, options.weights,
                        static_cast<size_t>(std::min<int64_t>(chunk, mine.end - mine.begin)));

  // Byte layout: header, then the ranks' parts in rank order.
  const std::string header = tsv ? tsv_header(spec, options.weights) : bin_header_bytes(spec, options.weights);
  util::OutputFile out(path, comm, util::OutputFile::kNewFileMode,
                       options.messages);  // checks the path before any real work
  std::string error;
  if (rank == 0 && !out.is_stream())
    error = check_free_space(path, out.target(),
                             estimate_file_bytes(gen, spec, options, static_cast<int64_t>(header.size())), tsv,
                             options.force);
  util::agree_or_throw(error, comm);

  // A file is written in parallel, each rank at its offset; a stream goes through rank 0 in order.
  int64_t my_offset = 0;
  if (!out.is_stream()) my_offset = part_offset(out, chunks, mine, chunk, header, path, options, rank, comm);
  const int64_t written = write_part(out, chunks, mine, chunk, header, my_offset, rank);

  EdgeWriteResult result;
  const comm::Communicator ranks(comm);
  result.bytes = ranks.sum(written);
  result.generate_seconds = ranks.max(chunks.gen_seconds);
  result.total_seconds = MPI_Wtime() - t_start;
  return result;
}

BinEdgeReader::~BinEdgeReader() { close(); }

void BinEdgeReader::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string BinEdgeReader::open(const std::string& path) {
  close();
  path_ = path;
  struct stat status {};
  if (std::string problem = io::open_input_file(path, fd_, status); !problem.empty()) return problem;
  const int64_t size = static_cast<int64_t>(status.st_size);
  auto fail = [&](std::string message) {
    close();
    return message;
  };
  char h[kBinHeaderBytes];
  if (size < kBinHeaderBytes || ::pread(fd_, h, sizeof h, 0) != static_cast<ssize_t>(sizeof h))
    return fail(fmt::format("'{}' is not a g500 bin edge file (too short for the header)", path));
  if (std::memcmp(h, kBinMagic, 8) != 0) return fail(fmt::format("'{}' is not a g500 bin edge file (bad magic)", path));
  header_.version = get_le<uint32_t>(h + 8);
  header_.flags = get_le<uint32_t>(h + 12);
  header_.nvertices = get_le<int64_t>(h + 16);
  header_.nedges = get_le<int64_t>(h + 24);
  if (header_.version != kBinVersion)
    return fail(
        fmt::format("'{}' has unsupported bin edge file version {} (expected {})", path, header_.version, kBinVersion));
  if (header_.flags & ~kBinFlagWeights) return fail(fmt::format("'{}' has unknown flags {:#x}", path, header_.flags));
  if (header_.nvertices < 1 || header_.nvertices > io::kMaxDeclaredVertices || header_.nedges < 0)
    return fail(
        fmt::format("'{}' has a bad header (nvertices={}, nedges={})", path, header_.nvertices, header_.nedges));
  const int64_t rec = bin_record_bytes(header_.has_weights());
  if (header_.nedges > (INT64_MAX - kBinHeaderBytes) / rec || size != kBinHeaderBytes + header_.nedges * rec)
    return fail(fmt::format("'{}' is truncated or corrupt: {} bytes, header says {} edges of {} bytes", path, size,
                            header_.nedges, rec));
  return "";
}

void BinEdgeReader::read(int64_t begin, int64_t count, gen::Edge* edges, float* weights) const {
  if (fd_ < 0) throw util::UsageError("BinEdgeReader::read on a closed file");
  if (begin < 0 || count < 0 || begin > header_.nedges || count > header_.nedges - begin)
    throw util::UsageError(fmt::format("'{}': edge range [{}, {}) outside the file's {} edges", path_, begin,
                                       begin + count, header_.nedges));
  const bool has_w = header_.has_weights();
  const int64_t rec = bin_record_bytes(has_w);
  const int64_t step = 1 << 16;
  std::vector<char> buf(static_cast<size_t>(std::min(count, step) * rec));
  for (int64_t done = 0; done < count; done += step) {
    const int64_t n = std::min(step, count - done);
    size_t want = static_cast<size_t>(n * rec), got = 0;
    int64_t off = kBinHeaderBytes + (begin + done) * rec;
    while (got < want) {
      ssize_t r = ::pread(fd_, buf.data() + got, want - got, off + static_cast<int64_t>(got));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0)
        throw util::UsageError(
            fmt::format("cannot read '{}': {}", path_, r < 0 ? std::strerror(errno) : "unexpected end of file"));
      got += static_cast<size_t>(r);
    }
    const char* p = buf.data();
    for (int64_t i = 0; i < n; ++i, p += rec) {
      edges[done + i].v0 = get_le<int64_t>(p);
      edges[done + i].v1 = get_le<int64_t>(p + 8);
      if (weights) weights[done + i] = has_w ? get_float_le(p + 16) : 0.0f;
    }
  }
}

}  // namespace g500::io
