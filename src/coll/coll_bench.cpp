#include "coll/coll_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "coll/ompi_tuned.hpp"
#include "comm/typed.hpp"
#include "util/error.hpp"
#include "util/output_file.hpp"

namespace g500::coll {

namespace {

constexpr std::int64_t kKibi = 1024;
// A single buffer above this is refused: MPI counts are int, and this machine is small.
constexpr std::int64_t kMaxBufferBytes = std::int64_t{1} << 30;

// Buffers and arguments for one message size, filled with a pattern so pages are touched.
struct Buffers {
  std::vector<char> send, recv;
  std::vector<int> counts, displs;
};

std::int64_t buffer_bytes(CollOp op, std::int64_t bytes, int processes) {
  return op == CollOp::bcast ? bytes : bytes * processes;
}

void check_buffer_bytes(CollOp op, std::int64_t bytes, int processes) {
  const std::int64_t total = buffer_bytes(op, bytes, processes);
  if (total > kMaxBufferBytes || bytes > INT32_MAX)
    throw util::UsageError(fmt::format("--sizes: message size {} B needs a {} B buffer; the limit is {} B", bytes,
                                       total, kMaxBufferBytes));
}

// Refuses a run whose buffers would pass more than kMaxBenchBytes (sizes checked by check_buffer_bytes
// already, so the sum stays far below 2^63: 2 * 10^6 runs of 64 sizes of at most 2^30 bytes).
void check_total_bytes(const BenchConfig& config, int processes) {
  std::int64_t per_run = 0;
  for (std::int64_t bytes : config.sizes) per_run += buffer_bytes(config.op, bytes, processes);
  const std::int64_t runs = static_cast<std::int64_t>(config.warmup) + config.reps;
  if (per_run > 0 && runs > kMaxBenchBytes / per_run)
    throw util::UsageError(
        fmt::format("--reps {} and --warmup {} with these --sizes pass {} bytes per rank; the limit is {} "
                    "(fewer repetitions or smaller sizes)",
                    config.reps, config.warmup, runs * per_run, kMaxBenchBytes));
}

// The sizes were checked with check_buffer_bytes.
Buffers make_buffers(CollOp op, std::int64_t bytes, int processes) {
  const std::int64_t total = buffer_bytes(op, bytes, processes);
  Buffers b;
  b.counts.assign(processes, static_cast<int>(bytes));
  b.displs.resize(processes);
  for (int p = 0; p < processes; ++p) b.displs[p] = static_cast<int>(bytes * p);
  b.send.assign(static_cast<std::size_t>(op == CollOp::allgatherv ? bytes : total), 'g');
  b.recv.assign(static_cast<std::size_t>(op == CollOp::bcast ? 0 : total), 0);
  return b;
}

// Runs the op once with the MPI library or with a catalog algorithm.
int run_once(CollOp op, const AlgoEntry& algo, const CollOptions& options, Buffers& b, int bytes, int root,
             MPI_Comm comm) {
  switch (op) {
    case CollOp::alltoallv:
      return algo.alltoallv(b.send.data(), b.counts.data(), b.displs.data(), MPI_BYTE, b.recv.data(), b.counts.data(),
                            b.displs.data(), MPI_BYTE, comm, options);
    case CollOp::alltoall:
      return algo.alltoall(b.send.data(), bytes, MPI_BYTE, b.recv.data(), bytes, MPI_BYTE, comm, options);
    case CollOp::allgatherv:
      return algo.allgatherv(b.send.data(), bytes, MPI_BYTE, b.recv.data(), b.counts.data(), b.displs.data(), MPI_BYTE,
                             comm, options);
    case CollOp::bcast:
      return algo.bcast(b.send.data(), bytes, MPI_BYTE, root, comm, options);
  }
  return MPI_ERR_OTHER;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, separator)) out.push_back(field);
  if (!line.empty() && line.back() == separator) out.emplace_back();
  return out;
}

}  // namespace

std::int64_t parse_bytes(const std::string& text, const std::string& option) {
  std::size_t used = 0;
  std::int64_t value = -1;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::string suffix = text.substr(used);
  const std::map<std::string, std::int64_t> scale{
      {"", 1}, {"K", kKibi}, {"M", kKibi * kKibi}, {"G", kKibi * kKibi * kKibi}, {"B", 1}};
  if (used == 0 || value < 0 || !scale.count(suffix))
    throw util::UsageError(
        fmt::format("{}: '{}' is not a byte count (a number with optional K, M or G)", option, text));
  if (value > INT64_MAX / scale.at(suffix)) throw util::UsageError(fmt::format("{}: '{}' is too large", option, text));
  return value * scale.at(suffix);
}

std::vector<std::int64_t> parse_size_range(const std::string& text) {
  const auto parts = split(text, ':');
  if (parts.size() != 2) throw util::UsageError(fmt::format("bad --sizes '{}': expected MIN:MAX such as 1:1M", text));
  const std::int64_t low = parse_bytes(parts[0], "--sizes"), high = parse_bytes(parts[1], "--sizes");
  if (high < low) throw util::UsageError(fmt::format("bad --sizes '{}': MAX is below MIN", text));
  std::vector<std::int64_t> sizes;
  if (low == 0) sizes.push_back(0);
  for (std::int64_t m = std::max<std::int64_t>(low, 1); m <= high; m *= 2) {
    sizes.push_back(m);
    if (m > INT64_MAX / 2) break;  // the next doubling would overflow
  }
  return sizes;
}

double throughput_of(CollOp op, int processes, int ranks_per_node, std::int64_t bytes, double seconds) {
  if (seconds <= 0) return 0;
  const double m = static_cast<double>(bytes);
  switch (op) {
    case CollOp::alltoall:
    case CollOp::alltoallv:
      return static_cast<double>(processes - ranks_per_node) * ranks_per_node * m / seconds;
    case CollOp::allgatherv:
      return (processes - 1) * m / seconds;
    case CollOp::bcast:
      return m / seconds;
  }
  return 0;
}

namespace {
// Checks the repetition, rank and root options against the communicator's size.
void check_run_options(const BenchConfig& config, int size) {
  if (config.reps < 1 || config.warmup < 0) throw util::UsageError("--reps must be at least 1 and --warmup at least 0");
  if (config.reps > kMaxRepetitions || config.warmup > kMaxRepetitions)
    throw util::UsageError(fmt::format("--reps and --warmup must be at most {}", kMaxRepetitions));
  if (config.ranks_per_node < 1 || config.ranks_per_node > size)
    throw util::UsageError(fmt::format("--ranks-per-node must be between 1 and {}", size));
  if (config.root < 0 || config.root >= size) throw util::UsageError(fmt::format("--root must be below {}", size));
  if (config.segment_bytes < 0) throw util::UsageError("--segment must not be negative");
}

// The catalog entry --algo names; ompi:N forces Open MPI's tuned algorithm N and runs the MPI library's.
const AlgoEntry* resolve_algorithm(const BenchConfig& config) {
  constexpr std::string_view kOmpiPrefix = "ompi:";
  if (config.algorithm.rfind(kOmpiPrefix, 0) == 0) {
    int forced = 0;
    try {
      forced = std::stoi(config.algorithm.substr(kOmpiPrefix.size()));
    } catch (const std::exception&) {
      throw util::UsageError(
          fmt::format("bad --algo '{}': expected ompi:N with N an Open MPI algorithm number", config.algorithm));
    }
    require_tuned_algorithm(config.op, forced);
    return find_algorithm(config.op, kMpiAlgorithm);
  }
  const AlgoEntry* algo = find_algorithm(config.op, config.algorithm);
  if (!algo) {
    std::string names;
    for (const auto& a : algorithms(config.op)) names += (names.empty() ? "" : ", ") + a.name;
    throw util::UsageError(fmt::format("unknown --algo '{}' for {} (expected one of: {}, ompi:N)", config.algorithm,
                                       op_name(config.op), names));
  }
  return algo;
}

// A given --shape must hold the job's ranks and suit an algorithm that uses one.
void check_shape(const BenchConfig& config, const AlgoEntry& algo, int size) {
  if (!config.shape_given) return;
  if (config.shape.size() != size)
    throw util::UsageError(fmt::format("--shape {} has {} processes but the job has {} rank{}", config.shape.text(),
                                       config.shape.size(), size, size == 1 ? "" : "s"));
  if (!algo.uses_shape) {
    std::string users;
    for (const auto& a : algorithms(config.op))
      if (a.uses_shape) users += (users.empty() ? "" : ", ") + a.name;
    throw util::UsageError(fmt::format("--shape {}: --algo {} does not use a shape (for {}: {})", config.shape.text(),
                                       config.algorithm, op_name(config.op), users.empty() ? "none does" : users));
  }
}

// What ran, as the CSV's ran column says: the MPI library's choice or g500's algorithm (and its trees).
std::string describe_run(const BenchConfig& config, const AlgoEntry& algo) {
  std::string ran = algo.name == kMpiAlgorithm ? describe_mpi_choice(config.op) : "g500:" + algo.name;
  if (algo.trees > 0) ran += fmt::format(";trees={}", algo.trees);
  return ran;
}

// The slowest rank's time of each measured repetition of one message size (warm-up runs dropped).
std::vector<double> time_repetitions(const BenchConfig& config, const AlgoEntry& algo, const CollOptions& options,
                                     std::int64_t bytes, int size, const std::string& ran, MPI_Comm comm) {
  Buffers buffers = make_buffers(config.op, bytes, size);
  std::vector<double> times;
  for (int rep = 0; rep < config.warmup + config.reps; ++rep) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    int status = run_once(config.op, algo, options, buffers, static_cast<int>(bytes), config.root, comm);
    const double elapsed = MPI_Wtime() - start;
    if (status != MPI_SUCCESS) throw std::runtime_error(fmt::format("MPI error {} in {}", status, ran));
    const double slowest = comm::Communicator(comm).max(elapsed);
    if (rep >= config.warmup) times.push_back(slowest);
  }
  return times;
}
}  // namespace

std::vector<BenchRow> run_bench(const BenchConfig& config, MPI_Comm comm) {
  const int size = comm_facts(comm).size;
  check_run_options(config, size);
  const AlgoEntry* algo = resolve_algorithm(config);
  check_shape(config, *algo, size);
  for (std::int64_t bytes : config.sizes) check_buffer_bytes(config.op, bytes, size);
  check_total_bytes(config, size);
  const CollOptions options = options_for(*algo, config.segment_bytes, config.shape);
  std::string shape_text = "-";
  if (algo->uses_shape) shape_text = shape_for(config.shape, size).text();
  const std::string ran = describe_run(config, *algo);

  std::vector<BenchRow> rows;
  for (std::int64_t bytes : config.sizes) {
    const std::vector<double> times = time_repetitions(config, *algo, options, bytes, size, ran, comm);
    BenchRow row;
    row.op = op_name(config.op);
    row.algorithm = config.algorithm;
    row.ran = ran;
    row.shape = shape_text;
    row.segment_bytes = options.segment_bytes;
    row.processes = size;
    row.ranks_per_node = config.ranks_per_node;
    row.bytes = bytes;
    row.reps = config.reps;
    row.median_seconds = median(times);
    row.min_seconds = *std::min_element(times.begin(), times.end());
    row.max_seconds = *std::max_element(times.begin(), times.end());
    row.throughput = throughput_of(config.op, size, config.ranks_per_node, bytes, row.median_seconds);
    rows.push_back(row);
  }
  return rows;
}

std::string bench_csv_header() {
  return "op,algo,ran,shape,segment,np,nlp,bytes,reps,t_median_s,t_min_s,t_max_s,throughput_Bps";
}

void write_bench_csv(const std::string& path, const std::vector<BenchRow>& rows) {
  std::string text = bench_csv_header() + "\n";
  for (const BenchRow& r : rows)
    text += fmt::format("{},{},{},{},{},{},{},{},{},{:.9g},{:.9g},{:.9g},{:.9g}\n", r.op, r.algorithm, r.ran, r.shape,
                        r.segment_bytes, r.processes, r.ranks_per_node, r.bytes, r.reps, r.median_seconds,
                        r.min_seconds, r.max_seconds, r.throughput);
  util::write_whole_file(path, text);
}

std::vector<BenchRow> read_bench_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw util::UsageError(fmt::format("cannot read '{}'", path));
  std::string line;
  std::getline(in, line);
  const auto header = split(line, ',');
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  for (const auto& name : split(bench_csv_header(), ','))
    if (!column.count(name))
      throw util::UsageError(fmt::format("'{}' is not a g500 coll CSV (no column '{}')", path, name));
  std::vector<BenchRow> rows;
  int line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    const auto f = split(line, ',');
    if (f.size() != header.size())
      throw util::UsageError(fmt::format("{}:{}: wrong number of fields", path, line_number));
    try {
      BenchRow r;
      r.op = f[column["op"]];
      r.algorithm = f[column["algo"]];
      r.ran = f[column["ran"]];
      r.shape = f[column["shape"]];
      r.segment_bytes = std::stoi(f[column["segment"]]);
      r.processes = std::stoi(f[column["np"]]);
      r.ranks_per_node = std::stoi(f[column["nlp"]]);
      r.bytes = std::stoll(f[column["bytes"]]);
      r.reps = std::stoi(f[column["reps"]]);
      r.median_seconds = std::stod(f[column["t_median_s"]]);
      r.min_seconds = std::stod(f[column["t_min_s"]]);
      r.max_seconds = std::stod(f[column["t_max_s"]]);
      r.throughput = std::stod(f[column["throughput_Bps"]]);
      rows.push_back(r);
    } catch (const std::exception&) {
      throw util::UsageError(fmt::format("{}:{}: malformed number", path, line_number));
    }
  }
  return rows;
}

}  // namespace g500::coll
