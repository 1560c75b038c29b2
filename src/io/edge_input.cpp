// Distributed reading of an edge-list file: each rank reads its byte range with pread (text
// formats split at line ends, bin at whole records), checks and parses it (io/parse.hpp), then the
// ranks agree on the vertex count, relabel sparse ids to 0..n-1 through a sorted id table split
// over the ranks, and count self-loops, duplicates and vertices without edges.
#include "io/edge_input.hpp"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <type_traits>

#include "io/input_file.hpp"
#include "io/mpi_util.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"

namespace g500::io {
namespace {

constexpr int64_t kPieceBytes = int64_t{4} << 20;

// count * r / nranks without overflow: where rank r's share of `count` items begins.
int64_t share(int64_t count, int r, int nranks) {
  return static_cast<int64_t>(static_cast<__int128>(count) * r / nranks);
}

// ---- files --------------------------------------------------------------------------------------

struct File {
  int fd = -1;
  int64_t size = 0;       // rank 0's size when it opened the file: no rank reads past it
  struct stat agreed {};  // rank 0's status of the file then
  bool same_host = true;  // this rank runs on rank 0's host (their device numbers compare)
  ~File() {
    if (fd >= 0) ::close(fd);
  }
};

struct HostName {
  char text[HOST_NAME_MAX + 1] = {};
};

HostName this_host() {
  HostName host;
  ::gethostname(host.text, sizeof host.text - 1);
  return host;
}

// Every rank opens the file; rank 0's status decides the size every rank reads up to (so the
// ranks cut one file at one size), and each rank checks that it opened that file, unchanged.
// Collective; throws the first rank's problem on every rank.
void open_agreed(const std::string& path, File& file, MPI_Comm comm) {
  struct stat mine {};
  util::agree_or_throw(open_input_file(path, file.fd, mine), comm);
  struct Agreed {
    struct stat status;
    HostName host;
  } agreed{mine, this_host()};
  const HostName host = agreed.host;
  MPI_Bcast(&agreed, sizeof agreed, MPI_BYTE, 0, comm);  // one build on every rank (util/fingerprint.hpp)
  file.agreed = agreed.status;
  file.size = static_cast<int64_t>(agreed.status.st_size);
  file.same_host = std::strncmp(agreed.host.text, host.text, sizeof host.text) == 0;
  std::string problem = identity_problem(path, file.agreed, mine, file.same_host);
  if (problem.empty() && file.size == 0) problem = "'" + path + "' is empty";
  util::agree_or_throw(problem, comm);
}

// After this rank read its part: "" when the file is still as the ranks agreed, else the problem
// (a file that grew or was rewritten meanwhile fails the read rather than be read in part).
std::string changed_since_open(const std::string& path, const File& file) {
  struct stat now {};
  if (::fstat(file.fd, &now) != 0) return "cannot stat '" + path + "': " + std::strerror(errno);
  return identity_problem(path, file.agreed, now, file.same_host);
}

std::string pread_all(const File& file, const std::string& path, char* out, int64_t len, int64_t offset) {
  int64_t done = 0;
  while (done < len) {
    const ssize_t n = ::pread(file.fd, out + done, static_cast<size_t>(len - done), offset + done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return "reading '" + path + "' failed: " + std::strerror(errno);
    if (n == 0) return "reading '" + path + "' failed: the file ended early (changed while reading?)";
    done += n;
  }
  return {};
}

// The lines that start in [lo, hi) of a file, read in pieces; the text (and its first line)
// starts at `text_start` (after a byte-order mark).
class LineReader {
 public:
  LineReader(const File& file, const std::string& path, int64_t lo, int64_t hi, int64_t text_start)
      : file_(file), path_(path), hi_(hi), read_pos_(lo), buf_off_(lo) {
    if (lo >= hi) {
      done_ = true;
    } else if (lo > text_start) {
      char before = 0;
      error = pread_all(file_, path_, &before, 1, lo - 1);
      skip_ = before != '\n';
    }
  }
  // 1: a line, 0: no more lines, -1: error (in `error`).
  int next(std::string_view& line) {
    if (done_) return 0;
    if (!error.empty()) return -1;
    for (;;) {
      if (skip_) {
        const size_t nl = buf_.find('\n', i_);
        if (nl == std::string::npos) {
          i_ = buf_.size();
          if (!fill()) return finish();
          continue;
        }
        i_ = nl + 1;
        skip_ = false;
      }
      if (buf_off_ + static_cast<int64_t>(i_) >= hi_) return finish();
      const size_t nl = buf_.find('\n', i_);
      if (nl != std::string::npos) {
        if (nl - i_ > kMaxLineBytes) return too_long();
        line = std::string_view(buf_).substr(i_, nl - i_);
        i_ = nl + 1;
        return 1;
      }
      if (buf_.size() - i_ > kMaxLineBytes) return too_long();
      if (!fill()) {
        if (!error.empty()) return -1;
        if (i_ < buf_.size()) {
          line = std::string_view(buf_).substr(i_);
          i_ = buf_.size();
          return 1;
        }
        return finish();
      }
    }
  }
  int64_t offset() const { return buf_off_ + static_cast<int64_t>(i_); }  // of the next unread byte
  std::string error;
  bool line_too_long = false;

 private:
  int finish() {
    done_ = true;
    return error.empty() ? 0 : -1;
  }
  int too_long() {
    line_too_long = true;
    error = "line longer than 1 MiB";
    return -1;
  }
  bool fill() {
    if (read_pos_ >= file_.size) return false;
    buf_.erase(0, i_);
    buf_off_ += static_cast<int64_t>(i_);
    i_ = 0;
    const int64_t n = std::min(kPieceBytes, file_.size - read_pos_);
    const size_t old = buf_.size();
    buf_.resize(old + static_cast<size_t>(n));
    error = pread_all(file_, path_, buf_.data() + old, n, read_pos_);
    if (!error.empty()) return false;
    read_pos_ += n;
    return true;
  }
  const File& file_;
  const std::string& path_;
  int64_t hi_, read_pos_, buf_off_;
  std::string buf_;
  size_t i_ = 0;
  bool skip_ = false, done_ = false;
};

// ---- text formats ------------------------------------------------------------------------------

struct LocalText {
  std::vector<RawEdge> edges;
  std::vector<float> weights;
  int64_t lines = 0;
  int first_columns = 0;
  int64_t first_edge_line = -1;  // local 0-based line index
  int64_t mismatch_line = -1;    // first edge line whose column count differs from first_columns
  int mismatch_columns = 0;
  int64_t error_line = -1;
  std::string error;
};

template <class ParseLine>
void parse_range(const File& file, const std::string& path, int64_t lo, int64_t hi, int64_t text_start, ParseLine parse,
                 LocalText& out) {
  LineReader reader(file, path, lo, hi, text_start);
  std::string_view line;
  int status;
  while ((status = reader.next(line)) == 1) {
    const int64_t index = out.lines++;
    LineResult r = parse(line);
    if (r.kind == LineKind::error) {
      out.error_line = index;
      out.error = r.error;
      return;
    }
    if (r.kind != LineKind::edge) continue;
    if (out.first_columns == 0) {
      out.first_columns = r.columns;
      out.first_edge_line = index;
    } else if (r.columns != out.first_columns && out.mismatch_line < 0) {
      out.mismatch_line = index;
      out.mismatch_columns = r.columns;
    }
    out.edges.push_back(r.edge);
    if (r.columns == 3) out.weights.push_back(r.weight);
  }
  if (status < 0) {
    if (reader.line_too_long) {
      out.error_line = out.lines;
      out.error = reader.error;
    } else {
      out.error = reader.error;
    }
  }
}

// Agrees on parse errors (file:line), mixed column counts and emptiness; returns the column count.
int check_text(const LocalText& local, const std::string& path, int64_t first_line_number, MPI_Comm comm) {
  const int64_t before = exclusive_scan(local.lines, comm);
  std::string error;
  if (!local.error.empty())
    error = local.error_line >= 0
                ? path + ":" + std::to_string(first_line_number + before + local.error_line) + ": " + local.error
                : local.error;
  util::agree_or_throw(error, comm);
  const std::vector<int> columns = comm::Communicator(comm).allgather(local.first_columns);
  int global = 0;
  for (int c : columns)
    if (global == 0) global = c;
  if (global == 0) throw util::UsageError("'" + path + "' contains no edges");
  int64_t bad = -1;
  int bad_columns = 0;
  if (local.first_columns != 0 && local.first_columns != global)
    bad = local.first_edge_line, bad_columns = local.first_columns;
  else if (local.mismatch_line >= 0)
    bad = local.mismatch_line, bad_columns = local.mismatch_columns;
  error.clear();
  if (bad >= 0)
    error = path + ":" + std::to_string(first_line_number + before + bad) + ": " + std::to_string(bad_columns) +
            " fields, but the first edge line has " + std::to_string(global) +
            " (a weight must be on every line or on none)";
  util::agree_or_throw(error, comm);
  return global;
}

// ---- relabelling ------------------------------------------------------------------------------

// Renumbers the file ids of `raw` to 0..n-1 in increasing id order; fills out.edges and out.ids.
void relabel(const std::vector<RawEdge>& raw, EdgeInput& out, MPI_Comm comm) {
  int nranks = 1;
  MPI_Comm_size(comm, &nranks);
  std::vector<uint64_t> mine;
  mine.reserve(raw.size() * 2);
  for (const RawEdge& e : raw) {
    mine.push_back(e.src);
    mine.push_back(e.dst);
  }
  std::sort(mine.begin(), mine.end());
  mine.erase(std::unique(mine.begin(), mine.end()), mine.end());

  // Splitters from a regular sample of every rank's distinct ids.
  constexpr int kSamples = 64;
  std::vector<uint64_t> sample;
  for (int k = 0; k < kSamples && !mine.empty(); ++k) sample.push_back(mine[mine.size() * k / kSamples]);
  const util::MessageLimits& limits = out.spec.messages;
  const std::vector<int64_t> sample_counts = comm::allgather_counts(static_cast<int64_t>(sample.size()), comm);
  int64_t nsamples = 0;
  for (int64_t c : sample_counts) nsamples += c;
  std::vector<uint64_t> all_samples(static_cast<size_t>(nsamples));
  comm::allgatherv(sample.data(), all_samples.data(), sample_counts, MPI_UINT64_T, comm, comm::find_allgatherv("mpi"),
                   limits);
  std::sort(all_samples.begin(), all_samples.end());
  std::vector<uint64_t> splitters;  // rank r owns ids in [splitters[r-1], splitters[r])
  for (int r = 1; r < nranks; ++r)
    splitters.push_back(all_samples.empty() ? 0 : all_samples[all_samples.size() * r / nranks]);

  std::vector<int64_t> counts(nranks, 0);
  {
    size_t k = 0;
    for (int r = 0; r < nranks; ++r) {
      const size_t end =
          r + 1 < nranks ? static_cast<size_t>(std::lower_bound(mine.begin(), mine.end(), splitters[r]) - mine.begin())
                         : mine.size();
      counts[r] = static_cast<int64_t>(std::max(end, k) - k);
      k = std::max(end, k);
    }
  }
  std::vector<int64_t> recv_counts;
  std::vector<uint64_t> received = alltoallv(mine, counts, recv_counts, comm, limits);
  std::vector<uint64_t> owned(received);
  std::sort(owned.begin(), owned.end());
  owned.erase(std::unique(owned.begin(), owned.end()), owned.end());
  const int64_t base = exclusive_scan(static_cast<int64_t>(owned.size()), comm);
  std::vector<int64_t> answers(received.size());
  for (size_t k = 0; k < received.size(); ++k)
    answers[k] = base + (std::lower_bound(owned.begin(), owned.end(), received[k]) - owned.begin());
  std::vector<int64_t> back_counts;
  std::vector<int64_t> new_ids = alltoallv(answers, recv_counts, back_counts, comm, limits);

  out.edges.resize(raw.size());
  auto lookup = [&](uint64_t id) { return new_ids[std::lower_bound(mine.begin(), mine.end(), id) - mine.begin()]; };
  for (size_t k = 0; k < raw.size(); ++k) out.edges[k] = {lookup(raw[k].src), lookup(raw[k].dst)};
  out.ids = VertexIdMap::table(std::move(owned), comm, limits);
  out.nvertices = out.ids.nvertices();
}

// ---- statistics ---------------------------------------------------------------------------------

void count_statistics(EdgeInput& in, MPI_Comm comm) {
  int nranks = 1;
  MPI_Comm_size(comm, &nranks);
  int64_t loops = 0;
  struct Pair {
    int64_t a, b;
    bool operator<(const Pair& o) const { return a != o.a ? a < o.a : b < o.b; }
    bool operator==(const Pair& o) const { return a == o.a && b == o.b; }
  };
  auto owner = [&](const Pair& p) {
    uint64_t h =
        static_cast<uint64_t>(p.a) * 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(p.b) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return static_cast<int>(h % static_cast<uint64_t>(nranks));
  };
  std::vector<int64_t> counts(nranks, 0);
  for (const gen::Edge& e : in.edges) {
    loops += e.v0 == e.v1;
    ++counts[owner({std::min(e.v0, e.v1), std::max(e.v0, e.v1)})];
  }
  std::vector<Pair> send(in.edges.size());
  {
    std::vector<int64_t> cursor(nranks, 0);
    for (int r = 1; r < nranks; ++r) cursor[r] = cursor[r - 1] + counts[r - 1];
    for (const gen::Edge& e : in.edges) {
      const Pair p{std::min(e.v0, e.v1), std::max(e.v0, e.v1)};
      send[cursor[owner(p)]++] = p;
    }
  }
  std::vector<int64_t> recv_counts;
  std::vector<Pair> pairs = alltoallv(send, counts, recv_counts, comm, in.spec.messages);
  send = {};
  std::sort(pairs.begin(), pairs.end());
  int64_t dups = 0;
  for (size_t k = 1; k < pairs.size(); ++k) dups += pairs[k] == pairs[k - 1];
  const comm::Communicator ranks(comm);
  in.stats.self_loops = ranks.sum(loops);
  in.stats.duplicates = ranks.sum(dups);
}

// Every rank reads the (small) Matrix Market header itself, banner to size line; returns where the entries start.
int64_t read_mtx_header(const File& file, EdgeInput& out, int64_t text_start, MtxHeader& header, int64_t& header_lines,
                        MPI_Comm comm) {
  const std::string& path = out.spec.path;
  std::string error;
  int64_t size_line = 0;
  LineReader reader(file, path, text_start, file.size, text_start);
  std::string_view line;
  int stage = 0, status;
  while (stage < 2 && (status = reader.next(line)) == 1) {
    ++header_lines;
    if (stage == 0) {
      error = parse_mtx_banner(line, header);
      stage = 1;
    } else {
      const size_t at = line.find_first_not_of(" \t\r\v\f");
      if (at == std::string_view::npos || line[at] == '%') continue;
      error = parse_mtx_size_line(line, header);
      if (error.empty()) error = check_mtx_entries_fit(header, file.size - reader.offset());
      size_line = header_lines;
      stage = 2;
    }
    if (!error.empty()) {
      error = path + ":" + std::to_string(header_lines) + ": " + error;
      break;
    }
  }
  if (error.empty() && !reader.error.empty())
    error = path + ":" + std::to_string(header_lines + 1) + ": " + reader.error;
  if (error.empty() && stage < 2) error = path + ": missing Matrix Market size line";
  const int64_t data_start = reader.offset();
  util::agree_or_throw(error, comm);
  if (out.spec.check_declared_size)
    out.spec.check_declared_size(
        {header.nvertices(), header.entries,
         path + ":" + std::to_string(size_line) + " (size line: " + std::to_string(header.rows) + " rows, " +
             std::to_string(header.cols) + " cols, " + std::to_string(header.entries) + " entries)"});
  return data_start;
}

void load_text(const File& file, EdgeInput& out, MPI_Comm comm) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  const std::string& path = out.spec.path;
  const bool mtx = out.spec.format == Format::mtx;
  // A UTF-8 byte-order mark is skipped, only at the very start of the file.
  char start[3] = {};
  const int64_t start_bytes = std::min<int64_t>(3, file.size);
  std::string error = pread_all(file, path, start, start_bytes, 0);
  util::agree_or_throw(error, comm);
  const int64_t text_start = static_cast<int64_t>(utf8_bom_length(std::string_view(start, start_bytes)));
  MtxHeader header;
  int64_t data_start = text_start, header_lines = 0;
  if (mtx) data_start = read_mtx_header(file, out, text_start, header, header_lines, comm);
  const int64_t span = file.size - data_start;
  const int64_t lo = data_start + share(span, rank, nranks), hi = data_start + share(span, rank + 1, nranks);
  LocalText local;
  if (mtx)
    parse_range(
        file, path, lo, hi, text_start, [&](std::string_view l) { return parse_mtx_entry(l, header); }, local);
  else
    parse_range(file, path, lo, hi, text_start, parse_edge_line, local);
  util::agree_or_throw(changed_since_open(path, file), comm);  // before a change shows as a bad line
  const int columns = check_text(local, path, header_lines + 1, comm);
  const int64_t total = comm::Communicator(comm).sum(static_cast<int64_t>(local.edges.size()));
  if (mtx && total != header.entries)
    throw util::UsageError(path + ": the size line declares " + std::to_string(header.entries) +
                           " entries but the file has " + std::to_string(total));
  out.global_edges = total;
  out.local_begin = exclusive_scan(static_cast<int64_t>(local.edges.size()), comm);
  out.stats.weighted = columns == 3;
  if (out.stats.weighted) out.weights = std::move(local.weights);
  if (mtx) {
    out.nvertices = header.nvertices();
    out.edges.resize(local.edges.size());
    for (size_t k = 0; k < local.edges.size(); ++k)
      out.edges[k] = {static_cast<int64_t>(local.edges[k].src) - 1, static_cast<int64_t>(local.edges[k].dst) - 1};
    out.ids = VertexIdMap::offset(out.nvertices, 1, comm, out.spec.messages);
  } else {
    relabel(local.edges, out, comm);
    out.stats.relabelled = true;
  }
}

void load_bin(const File& file, EdgeInput& out, MPI_Comm comm) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  const std::string& path = out.spec.path;
  unsigned char head[kBinHeaderBytes] = {};
  BinHeader header;
  std::string error;
  if (file.size >= kBinHeaderBytes) error = pread_all(file, path, reinterpret_cast<char*>(head), kBinHeaderBytes, 0);
  if (error.empty()) {
    error = parse_bin_header(head, file.size >= kBinHeaderBytes ? kBinHeaderBytes : 0, file.size, header);
    if (!error.empty()) error = "'" + path + "': " + error;
  }
  util::agree_or_throw(error, comm);
  if (header.nedges == 0) throw util::UsageError("'" + path + "' contains no edges");
  if (out.spec.check_declared_size)
    out.spec.check_declared_size({header.nvertices, header.nedges,
                                  "'" + path + "' (header: nvertices " + std::to_string(header.nvertices) +
                                      ", nedges " + std::to_string(header.nedges) + ")"});
  const int64_t m = header.nedges;
  const int64_t begin = share(m, rank, nranks), end = share(m, rank + 1, nranks);
  const int64_t rec = header.record_bytes();
  std::vector<RawEdge> raw;
  raw.reserve(static_cast<size_t>(end - begin));
  std::vector<unsigned char> buffer;
  for (int64_t k = begin; k < end && error.empty();) {
    const int64_t n = std::min<int64_t>(end - k, kPieceBytes / rec);
    buffer.resize(static_cast<size_t>(n * rec));
    error = pread_all(file, path, reinterpret_cast<char*>(buffer.data()), n * rec, kBinHeaderBytes + k * rec);
    if (error.empty()) {
      error = decode_bin_records(buffer.data(), n, header, k, raw, &out.weights);
      if (!error.empty()) error = "'" + path + "': " + error;
    }
    k += n;
  }
  util::agree_or_throw(changed_since_open(path, file), comm);  // before a change shows as a bad record
  util::agree_or_throw(error, comm);
  out.nvertices = header.nvertices;
  out.bin_header_nvertices = header.nvertices;
  out.global_edges = m;
  out.local_begin = begin;
  out.stats.weighted = header.has_weights();
  out.edges.resize(raw.size());
  for (size_t k = 0; k < raw.size(); ++k)
    out.edges[k] = {static_cast<int64_t>(raw[k].src), static_cast<int64_t>(raw[k].dst)};
  out.ids = VertexIdMap::offset(out.nvertices, 0, comm, out.spec.messages);
}

}  // namespace

// ---- VertexIdMap --------------------------------------------------------------------------------

VertexIdMap VertexIdMap::offset(int64_t n, uint64_t add, MPI_Comm comm, const util::MessageLimits& limits) {
  VertexIdMap map;
  map.comm_ = comm;
  map.limits_ = limits;
  MPI_Comm_rank(comm, &map.rank_);
  MPI_Comm_size(comm, &map.nranks_);
  map.n_ = n;
  map.add_ = add;
  map.starts_.resize(map.nranks_ + 1);
  for (int r = 0; r <= map.nranks_; ++r) map.starts_[r] = share(n, r, map.nranks_);
  return map;
}

VertexIdMap VertexIdMap::table(std::vector<uint64_t> sorted_ids, MPI_Comm comm, const util::MessageLimits& limits) {
  VertexIdMap map;
  map.comm_ = comm;
  map.limits_ = limits;
  map.table_ = true;
  MPI_Comm_rank(comm, &map.rank_);
  MPI_Comm_size(comm, &map.nranks_);
  const std::vector<int64_t> counts =
      comm::Communicator(comm, limits).allgather(static_cast<int64_t>(sorted_ids.size()));
  map.starts_.assign(map.nranks_ + 1, 0);
  for (int r = 0; r < map.nranks_; ++r) map.starts_[r + 1] = map.starts_[r] + counts[r];
  map.n_ = map.starts_[map.nranks_];
  map.ids_ = std::move(sorted_ids);
  return map;
}

int VertexIdMap::owner_of(int64_t v) const {
  return static_cast<int>(std::upper_bound(starts_.begin(), starts_.end(), v) - starts_.begin()) - 1;
}

std::vector<uint64_t> VertexIdMap::to_file_ids(const std::vector<int64_t>& ids) const {
  std::vector<uint64_t> out(ids.size());
  if (!table_) {
    for (size_t k = 0; k < ids.size(); ++k) out[k] = static_cast<uint64_t>(ids[k]) + add_;
    return out;
  }
  std::vector<int64_t> counts(nranks_, 0);
  std::vector<int> owner(ids.size());
  for (size_t k = 0; k < ids.size(); ++k) ++counts[owner[k] = owner_of(ids[k])];
  std::vector<int64_t> cursor(nranks_, 0);
  for (int r = 1; r < nranks_; ++r) cursor[r] = cursor[r - 1] + counts[r - 1];
  std::vector<int64_t> place(ids.size());
  std::vector<int64_t> requests(ids.size());
  for (size_t k = 0; k < ids.size(); ++k) {
    place[k] = cursor[owner[k]]++;
    requests[place[k]] = ids[k];
  }
  std::vector<int64_t> recv_counts, back_counts;
  std::vector<int64_t> asked = alltoallv(requests, counts, recv_counts, comm_, limits_);
  std::vector<uint64_t> answers(asked.size());
  for (size_t k = 0; k < asked.size(); ++k) answers[k] = ids_[asked[k] - local_begin()];
  std::vector<uint64_t> got = alltoallv(answers, recv_counts, back_counts, comm_, limits_);
  for (size_t k = 0; k < ids.size(); ++k) out[k] = got[place[k]];
  return out;
}

std::vector<int64_t> VertexIdMap::find(const std::vector<uint64_t>& file_ids) const {
  std::vector<int64_t> out(file_ids.size(), -1);
  for (size_t k = 0; k < file_ids.size(); ++k) {
    const uint64_t f = file_ids[k];
    if (table_) {
      auto it = std::lower_bound(ids_.begin(), ids_.end(), f);
      if (it != ids_.end() && *it == f) out[k] = local_begin() + (it - ids_.begin());
    } else if (rank_ == 0 && f >= add_ && f - add_ < static_cast<uint64_t>(n_)) {
      out[k] = static_cast<int64_t>(f - add_);
    }
  }
  if (!out.empty()) comm::Communicator(comm_, limits_).max_in_place(out);
  return out;
}

// ---- loading ------------------------------------------------------------------------------------

graph::EdgeSource EdgeInput::edge_source() const {
  graph::EdgeSource source;
  source.global_edges = global_edges;
  source.local_begin = local_begin;
  source.local_count = static_cast<int64_t>(edges.size());
  const gen::Edge* data = edges.data();
  source.read = [data](int64_t offset, int64_t count, gen::Edge* out) {
    std::copy(data + offset, data + offset + count, out);
  };
  return source;
}

EdgeInput load_edge_input(const InputSpec& spec, MPI_Comm comm) {
  const double start = MPI_Wtime();
  EdgeInput in;
  in.spec = spec;
  File file;
  open_agreed(spec.path, file, comm);
  if (spec.format == Format::bin)
    load_bin(file, in, comm);
  else
    load_text(file, in, comm);
  in.stats.vertices = in.nvertices;
  in.stats.edges = in.global_edges;
  count_statistics(in, comm);
  in.stats.read_seconds = comm::Communicator(comm).max(MPI_Wtime() - start);
  return in;
}

}  // namespace g500::io
