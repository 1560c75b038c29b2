// g500 bfs --input end to end through mpiexec at 1 and 4 ranks: each format on small hand-written
// files with known BFS depths (sparse ids, comments, symmetric mtx, byte-order marks), the
// gen -> bin -> bfs and test-vector tsv round trips, result files, and every kind of bad input (one
// error line from one rank, exit status 2, no result file left behind): malformed lines, inputs
// that are not regular files (FIFOs, standard input, devices, sockets) and headers whose sizes
// cannot be true, for bfs and sssp.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "graph/local_id.hpp"
#include "run_command.hpp"
#include "testvectors.hpp"

namespace g500::io {
namespace {

using testing::read_file;
using testing::run_g500;

std::string write(const std::string& dir, const std::string& name, const std::string& contents) {
  return testing::write_file(dir, name, contents);
}

// "id value" lines after one comment line.
std::map<std::string, std::string> read_values(const std::string& path) {
  std::istringstream in(read_file(path));
  std::string line;
  std::map<std::string, std::string> values;
  std::getline(in, line);
  EXPECT_EQ(line.rfind("# g500 bfs", 0), 0u) << line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, value;
    fields >> id >> value;
    EXPECT_TRUE(values.emplace(id, value).second) << "repeated " << id;
  }
  return values;
}

int count_lines_starting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) n += line.rfind(prefix, 0) == 0;
  return n;
}

void expect_depths(int ranks, const std::string& args, const std::map<std::string, std::string>& depths) {
  const std::string dir = testing::make_temp_dir();
  auto r = run_g500(ranks, "bfs " + args + " --output-depths " + dir + "/d.txt --output-parents " + dir + "/p.txt");
  ASSERT_EQ(r.status, 0) << args << "\n" << r.err;
  EXPECT_EQ(r.err, "");  // no progress lines when stderr is not a terminal
  // On a few edges the peak is MPI's and the libraries' memory: divided by the edges it would read
  // millions of bytes per input edge, so the peak line gives none.
  const size_t peak = r.out.find("\npeak memory per rank: ");
  ASSERT_NE(peak, std::string::npos) << r.out;
  const std::string peak_line = r.out.substr(peak + 1, r.out.find('\n', peak + 1) - peak - 1);
  EXPECT_EQ(peak_line.find("per input edge"), std::string::npos) << peak_line;
  EXPECT_EQ(read_values(dir + "/d.txt"), depths) << args;
  const auto parents = read_values(dir + "/p.txt");
  for (const auto& [id, depth] : depths) {
    ASSERT_TRUE(parents.count(id)) << id;
    if (depth == "-1") {
      EXPECT_EQ(parents.at(id), "-1");
    } else if (depth != "0") {
      EXPECT_EQ(std::stoi(depths.at(parents.at(id))), std::stoi(depth) - 1) << id;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/d.txt.tmp")) << "temporaries left";
  int files = 0;
  for ([[maybe_unused]] auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 2);
}

TEST(InputCli, EachFormatGivesTheKnownDepths) {
  const std::string dir = testing::make_temp_dir();
  // A path 10 - 20 - 30 - 40 plus a triangle 30 - 50 - 60 and a separate edge 1000000000000 - 7.
  const std::string tsv = write(dir, "g.tsv",
                                "# sparse ids\n10\t20\n20 30\n% comment\n30 40\n\n30 50\n50 60\n60 30\n"
                                "1000000000000 7\n40 40\n");
  const std::map<std::string, std::string> from10 = {{"10", "0"}, {"20", "1"}, {"30", "2"}, {"40", "3"},
                                                     {"50", "3"}, {"60", "3"}, {"7", "-1"}, {"1000000000000", "-1"}};
  const std::string snap =
      write(dir, "g.snap",
            "# Directed graph (each unordered pair of nodes is saved once)\n# FromNodeId\tToNodeId\n"
            "20\t10\n30\t20\n40\t30\n50\t30\n60\t50\n30\t60\n7\t1000000000000\n");
  // Symmetric mtx: lower triangle only, vertex 6 isolated but kept (declared size 6).
  const std::string mtx = write(dir, "g.mtx",
                                "%%MatrixMarket matrix coordinate real symmetric\n% c\n6 6 4\n2 1 0.5\n3 2 1.5\n"
                                "4 2 2\n5 4 1\n");
  const std::map<std::string, std::string> from1 = {{"1", "0"}, {"2", "1"}, {"3", "2"},
                                                    {"4", "2"}, {"5", "3"}, {"6", "-1"}};
  // bin: a path 0 - 1 - 2 - 3 with weights, vertex 4 isolated (n = 5 from the header).
  std::string bin("G500EDGE\x01\0\0\0\x01\0\0\0", 16);
  const int64_t n = 5, m = 3;
  bin.append(reinterpret_cast<const char*>(&n), 8).append(reinterpret_cast<const char*>(&m), 8);
  for (int64_t k = 0; k < m; ++k) {
    const int64_t a = k + 1, b = k;
    const float w = 0.25f;
    bin.append(reinterpret_cast<const char*>(&a), 8).append(reinterpret_cast<const char*>(&b), 8);
    bin.append(reinterpret_cast<const char*>(&w), 4);
  }
  const std::string binfile = write(dir, "g.bin", bin);
  const std::map<std::string, std::string> from0 = {{"0", "0"}, {"1", "1"}, {"2", "2"}, {"3", "3"}, {"4", "-1"}};
  for (int ranks : {1, 4}) {
    expect_depths(ranks, "--input " + binfile + " --root 0", from0);
    expect_depths(ranks, "--input " + tsv + " --root 10", from10);
    expect_depths(ranks, "--input " + snap + " --format snap --directed-as-undirected --root 10", from10);
    expect_depths(ranks, "--input " + mtx + " --root 1", from1);
    expect_depths(ranks, "--input " + tsv + " --format tsv --root 10 --root 7 --no-validate", from10);
  }
}

TEST(InputCli, SampledRootsAreNonIsolatedAndIndependentOfRanks) {
  const std::string dir = testing::make_temp_dir();
  const std::string tsv = write(dir, "g.tsv", "5 6\n6 7\n7 5\n100 101\n9 9\n");
  std::vector<int64_t> roots[2];
  for (int k = 0; k < 2; ++k) {
    auto r = run_g500(k == 0 ? 1 : 4, "bfs --input " + tsv + " --root-seed 7 --json " + dir + "/r.json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("6 vertices, 5 edges, 1 self-loops, 0 duplicate edges, 1 vertices without edges"),
              std::string::npos)
        << r.out;
    auto j = nlohmann::json::parse(read_file(dir + "/r.json"));
    for (auto& root : j["roots"]) roots[k].push_back(root["root"]);
    EXPECT_EQ(j["input"]["vertices"], 6);
  }
  EXPECT_EQ(roots[0], roots[1]);
  ASSERT_EQ(roots[0].size(), 5u);  // every vertex with an edge, once
  for (int64_t root : roots[0]) EXPECT_NE(root, 9);
}

TEST(InputCli, GenBinReproducesTheInMemoryRun) {
  const std::string dir = testing::make_temp_dir();
  auto g = run_g500(2, "gen --scale 10 --format bin --output " + dir + "/k10.bin");
  ASSERT_EQ(g.status, 0) << g.err;
  const auto vec = testing::load_graph_vector(10);
  for (int ranks : {1, 4}) {
    auto file = run_g500(
        ranks, "bfs --input " + dir + "/k10.bin --json " + dir + "/f.json --output-parents " + dir + "/pf.txt");
    ASSERT_EQ(file.status, 0) << file.err;
    auto memory = run_g500(ranks, "bfs --scale 10 --output-parents " + dir + "/pm.txt");
    ASSERT_EQ(memory.status, 0) << memory.err;
    auto j = nlohmann::json::parse(read_file(dir + "/f.json"));
    ASSERT_EQ(j["roots"].size(), 64u);
    for (size_t k = 0; k < 64; ++k) {
      EXPECT_EQ(j["roots"][k]["root"], vec.roots[k].root);
      EXPECT_EQ(j["roots"][k]["nedge"], vec.roots[k].nedge_for_teps);
      EXPECT_EQ(j["roots"][k]["level_sizes"].get<std::vector<int64_t>>(), vec.roots[k].level_sizes);
    }
    EXPECT_EQ(j["input"]["self_loops"], vec.self_loops);
    EXPECT_EQ(read_file(dir + "/pf.txt"), read_file(dir + "/pm.txt"));
  }
}

TEST(InputCli, TestVectorTsvWithItsRootsGivesTheVectorLevels) {
  const auto vec = testing::load_graph_vector(10);
  const std::string dir = testing::make_temp_dir();
  std::string roots;
  for (int k = 0; k < 4; ++k) roots += " --root " + std::to_string(vec.roots[k].root);
  for (int ranks : {1, 4}) {
    auto r = run_g500(ranks, "bfs --input " + testing::testvector_path("kron_s10_ef16_weighted.tsv") + roots +
                                 " --json " + dir + "/t.json");
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(read_file(dir + "/t.json"));
    ASSERT_EQ(j["roots"].size(), 4u);
    EXPECT_TRUE(j["input"]["weighted"]);
    EXPECT_EQ(j["input"]["vertices"], vec.non_isolated_vertices);
    for (size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(j["roots"][k]["root"], vec.roots[k].root);
      EXPECT_EQ(j["roots"][k]["nedge"], vec.roots[k].nedge_for_teps);
      EXPECT_EQ(j["roots"][k]["level_sizes"].get<std::vector<int64_t>>(), vec.roots[k].level_sizes);
    }
  }
}

// The run must end within this many seconds; a hang fails the test instead of stalling it.
constexpr int kErrorRunSeconds = 120;

// `g500 COMMAND ARGS` (bfs or sssp, with a result file in out_dir) fails with status 2 and one error
// line containing `message`, from rank 0 only, without an MPI abort, and leaves no result file.
void expect_refused(const std::string& command, int ranks, const std::string& args, const std::string& message,
                    const std::string& out_dir) {
  const std::string output = command == "bfs" ? " --output-depths " : " --output-distances ";
  auto r = ranks == 0 ? testing::run_g500_alone(command + " " + args + output + out_dir + "/out.txt", kErrorRunSeconds)
                      : run_g500(ranks, command + " " + args + output + out_dir + "/out.txt", kErrorRunSeconds);
  const std::string where = command + " " + args + " at " + std::to_string(ranks) + " ranks (0: without mpiexec)\n";
  EXPECT_EQ(r.status, 2) << where << r.err;
  EXPECT_EQ(count_lines_starting(r.err, "g500 " + command + ": error:"), 1) << where << r.err;
  EXPECT_EQ(count_lines_starting(r.err, "g500"), 1) << where << r.err;  // mpiexec adds its own note
  EXPECT_NE(r.err.find(message), std::string::npos) << where << r.err;
  EXPECT_EQ(r.err.find("MPI_ABORT"), std::string::npos) << where << r.err;
  int files = 0;
  for (auto& entry : std::filesystem::directory_iterator(out_dir))
    files += entry.path().filename().string().rfind("out.txt", 0) == 0;
  EXPECT_EQ(files, 0) << "a result file or temporary was left for " << where;
}

void expect_input_error(int ranks, const std::string& args, const std::string& message, const std::string& dir) {
  expect_refused("bfs", ranks, args, message, dir);
}

TEST(InputCli, BadInput) {
  const std::string dir = testing::make_temp_dir();
  const std::string out = testing::make_temp_dir();
  std::string lines;
  for (int k = 0; k < 300; ++k) lines += std::to_string(k) + " " + std::to_string(k + 1) + "\n";
  const std::string bad_line = write(dir, "bad.tsv", lines + "12 abc\n" + lines);
  const std::string negative = write(dir, "neg.tsv", lines + "-1 2\n");
  const std::string empty = write(dir, "empty.tsv", "");
  const std::string big =
      write(dir, "big.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 2\n2 1\n5 2\n");
  std::string bin = "G500EDGE";
  bin += std::string("\x01\0\0\0\0\0\0\0", 8);
  const int64_t n = 8, m = 100;
  bin.append(reinterpret_cast<const char*>(&n), 8).append(reinterpret_cast<const char*>(&m), 8);
  const std::string truncated = write(dir, "trunc.bin", bin + std::string(16 * 50, '\0'));
  std::string foreign_bytes = bin + std::string(16 * 100, '\0');
  foreign_bytes[8] = 9;  // version 9
  const std::string version = write(dir, "version.bin", foreign_bytes);
  const std::string foreign = write(dir, "foreign.bin", std::string(2000, 'Z'));
  const std::string good = write(dir, "good.tsv", "1 2\n2 3\n");
  for (int ranks : {0, 4}) {  // 0: alone (one process, without mpiexec's start-up)
    expect_input_error(ranks, "--input " + dir + "/missing.tsv", "cannot open '" + dir + "/missing.tsv'", out);
    expect_input_error(ranks, "--input " + dir, "'" + dir + "' is a directory, not a regular file", out);
    expect_input_error(ranks, "--input " + empty, "is empty", out);
    expect_input_error(ranks, "--input " + bad_line, bad_line + ":301: 'abc' is not a vertex id", out);
    expect_input_error(ranks, "--input " + negative, negative + ":301: negative vertex id '-1'", out);
    expect_input_error(ranks, "--input " + big, big + ":4: entry (5, 2) is beyond the declared size 4 x 4", out);
    expect_input_error(ranks, "--input " + truncated, "truncated or corrupt", out);
    expect_input_error(ranks, "--input " + version, "unsupported bin edge file version 9", out);
    expect_input_error(ranks, "--input " + foreign + " --format bin", "bad magic", out);
    expect_input_error(ranks, "--input " + foreign, "bad magic", out);  // bin from the extension
    expect_input_error(ranks, "--input " + foreign + " --format tsv", foreign + ":1: expected 'src dst [weight]'", out);
    expect_input_error(ranks, "--input " + good + " --root 9", "--root 9 is not a vertex", out);
    expect_input_error(ranks, "--input " + good + " --root x", "--root: 'x' is not a vertex id", out);
    expect_input_error(ranks, "--input " + good + " --scale 5", "do not apply with --input", out);
    expect_input_error(ranks, "--input " + good + " --format csv", "--format", out);
  }
  auto r = run_g500(1, "bfs --input " + good + " --output-parents /nonexistent-dir/p.txt");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cannot write '/nonexistent-dir/p.txt'"), std::string::npos) << r.err;
}

TEST(InputCli, ByteOrderMarkAtTheStartIsSkipped) {
  const std::string dir = testing::make_temp_dir();
  const std::string bom = "\xEF\xBB\xBF";
  const std::string tsv = write(dir, "bom.tsv", bom + "10 20\n20 30\n30 40\n");
  const std::string commented =
      write(dir, "bom-comment.snap", bom + "# FromNodeId\tToNodeId\n10\t20\n20\t30\n30\t40\n");
  const std::string mtx =
      write(dir, "bom.mtx", bom + "%%MatrixMarket matrix coordinate pattern general\n4 4 3\n1 2\n2 3\n3 4\n");
  const std::string inside = write(dir, "inside.tsv", "10 20\n" + bom + "20 30\n");
  const std::string out = testing::make_temp_dir();
  const std::map<std::string, std::string> from10 = {{"10", "0"}, {"20", "1"}, {"30", "2"}, {"40", "3"}};
  const std::map<std::string, std::string> from1 = {{"1", "0"}, {"2", "1"}, {"3", "2"}, {"4", "3"}};
  for (int ranks : {1, 4}) {
    expect_depths(ranks, "--input " + tsv + " --root 10", from10);
    expect_depths(ranks, "--input " + commented + " --root 10", from10);
    expect_depths(ranks, "--input " + mtx + " --root 1", from1);
    // Only the very start of the file: elsewhere the mark is not part of an id.
    expect_input_error(ranks, "--input " + inside, inside + ":2: '???20' is not a vertex id", out);
  }
}

TEST(InputCli, InputsThatCannotBeReadAtOffsetsAreRefusedWithoutWaiting) {
  const std::string dir = testing::make_temp_dir();
  const std::string out = testing::make_temp_dir();
  const std::string fifo = dir + "/edges.tsv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  const std::string fifo_message =
      "'" + fifo +
      "': a FIFO/pipe cannot be read: the input is read in parallel at file offsets; save it to a "
      "regular file first";
  const std::string socket_path = dir + "/edges.sock";
  const int socket_fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(socket_fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socket_path.c_str());
  ASSERT_EQ(::bind(socket_fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  // 0: g500 started without mpiexec (one process, as mpiexec -n 1 but without its start-up).
  for (int ranks : {0, 4}) {
    // Nobody writes to the FIFO: opening it to read would wait for a writer forever.
    expect_refused("bfs", ranks, "--input " + fifo, fifo_message, out);
    expect_refused("sssp", ranks, "--input " + fifo, fifo_message, out);
    expect_refused("bfs", ranks, "--input -",
                   "'-' (standard input) cannot be read: the input is read in parallel at file offsets", out);
    expect_refused("bfs", ranks, "--input /dev/null", "'/dev/null' is a character device, not a regular file", out);
    expect_refused("bfs", ranks, "--input " + socket_path, "'" + socket_path + "' is a socket, not a regular file",
                   out);
    expect_refused("bfs", ranks, "--input " + dir, "'" + dir + "' is a directory, not a regular file", out);
  }
  // With a writer (this process; O_RDWR does not wait for a reader) the answer is the same.
  const int writer = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(writer, 0) << std::strerror(errno);
  ASSERT_EQ(::write(writer, "1 2\n", 4), 4);
  for (int ranks : {1, 4}) expect_refused("bfs", ranks, "--input " + fifo, fifo_message, out);
  ::close(writer);
  ::close(socket_fd);
}

// A bin file: the 32-byte header as given, then `records` records of a path 0 - 1 - 2 ...
std::string bin_bytes(int64_t nvertices, int64_t nedges, int64_t records, uint32_t version = 1, uint32_t flags = 0) {
  std::string bytes = "G500EDGE";
  bytes.append(reinterpret_cast<const char*>(&version), 4).append(reinterpret_cast<const char*>(&flags), 4);
  bytes.append(reinterpret_cast<const char*>(&nvertices), 8).append(reinterpret_cast<const char*>(&nedges), 8);
  for (int64_t k = 0; k < records; ++k) {
    const int64_t a = k, b = k + 1;
    bytes.append(reinterpret_cast<const char*>(&a), 8).append(reinterpret_cast<const char*>(&b), 8);
  }
  return bytes;
}

TEST(InputCli, HeadersThatLieAboutSizesAreRefusedBeforeReading) {
  const std::string dir = testing::make_temp_dir();
  const std::string out = testing::make_temp_dir();
  const std::string banner = "%%MatrixMarket matrix coordinate pattern general\n";
  const std::string entries = "1 2\n2 3\n3 1\n";  // 12 bytes: room for at most 3 entries
  auto mtx = [&](const std::string& name, const std::string& size_line) {
    return write(dir, name, banner + size_line + "\n" + entries);
  };
  const std::string huge_mtx = mtx("huge.mtx", "9223372036854775807 9223372036854775807 3");
  const std::string too_big_mtx = mtx("too-big.mtx", "4398046511105 3 3");  // 2^42 + 1
  const std::string unsigned_max_mtx = mtx("u64.mtx", "3 18446744073709551615 3");
  const std::string negative_mtx = mtx("neg.mtx", "-1 3 3");
  const std::string many_entries_mtx = mtx("many.mtx", "3 3 9223372036854775807");
  const std::string entries_2_32_mtx = mtx("e32.mtx", "3 3 4294967296");
  const std::string memory_mtx = mtx("memory.mtx", "4398046511104 3 3");  // 2^42: allowed, but no node holds it
  const int64_t max = INT64_MAX;
  const std::string huge_bin = write(dir, "huge.bin", bin_bytes(max, 2, 2));
  const std::string minus_one_bin = write(dir, "minus-one.bin", bin_bytes(-1, 2, 2));  // 2^64-1 read as int64
  const std::string nedges_max_bin = write(dir, "nedges-max.bin", bin_bytes(3, max, 2));
  const std::string nedges_2_53_bin = write(dir, "nedges-2-53.bin", bin_bytes(3, int64_t{1} << 53, 2));
  const std::string nedges_negative_bin = write(dir, "nedges-neg.bin", bin_bytes(3, -1, 2));
  const std::string version_bin = write(dir, "version.bin", bin_bytes(3, 2, 2, 0x80000000u));
  const std::string flags_bin = write(dir, "flags.bin", bin_bytes(3, 2, 2, 1, 0xFFFFFFFFu));
  const std::string memory_bin = write(dir, "memory.bin", bin_bytes(int64_t{1} << 42, 2, 2));
  for (int ranks : {0, 4}) {  // 0: alone (one process, without mpiexec's start-up)
    for (const std::string command : {"bfs", "sssp"}) {
      expect_refused(command, ranks, "--input " + huge_mtx,
                     huge_mtx +
                         ":2: the size line declares 9223372036854775807 rows, more than the 2^42 vertices "
                         "g500 can run",
                     out);
      expect_refused(command, ranks, "--input " + huge_bin,
                     "'" + huge_bin + "': bad bin header: nvertices 9223372036854775807 is more than the 2^42 vertices",
                     out);
      // 2^42 vertices pass the limit but not the memory estimate (each kernel's own), which names
      // the header's fields.
      expect_refused(command, ranks, "--input " + memory_bin,
                     "'" + memory_bin + "' (header: nvertices 4398046511104, nedges 2) needs about ", out);
    }
    expect_input_error(ranks, "--input " + memory_mtx,
                       memory_mtx + ":2 (size line: 4398046511104 rows, 3 cols, 3 entries) needs about ", out);
    // --force skips the memory estimate, not the check of the 32-bit local ids.
    expect_input_error(ranks, "--input " + memory_bin + " --force",
                       "'" + memory_bin + "' (header: nvertices 4398046511104, nedges 2) on a " +
                           (ranks <= 1 ? "1x1" : "2x2") +
                           (graph::kWideIds ? " grid needs more than 64 bits for a vertex's offset in its block"
                                            : " grid needs more than 2^32 vertices per grid row or column"),
                       out);
    expect_input_error(ranks, "--input " + too_big_mtx,
                       too_big_mtx + ":2: the size line declares 4398046511105 rows, more than the 2^42 vertices", out);
    expect_input_error(ranks, "--input " + unsigned_max_mtx,
                       unsigned_max_mtx + ":2: bad size line: cols '18446744073709551615' is larger than 2^63-1", out);
    expect_input_error(ranks, "--input " + negative_mtx, negative_mtx + ":2: bad size line: rows '-1' is negative",
                       out);
    expect_input_error(ranks, "--input " + many_entries_mtx,
                       many_entries_mtx +
                           ":2: the size line declares 9223372036854775807 entries, but the 12 bytes "
                           "after it can hold at most 3",
                       out);
    expect_input_error(ranks, "--input " + entries_2_32_mtx,
                       entries_2_32_mtx +
                           ":2: the size line declares 4294967296 entries, but the 12 bytes after it "
                           "can hold at most 3",
                       out);
    expect_input_error(ranks, "--input " + minus_one_bin,
                       "'" + minus_one_bin + "': bad bin header: nvertices -1 (at least 1)", out);
    expect_input_error(ranks, "--input " + nedges_max_bin,
                       "'" + nedges_max_bin +
                           "': truncated or corrupt: 64 bytes, but nedges 9223372036854775807 in the "
                           "header needs 32 + 9223372036854775807 x 16 bytes",
                       out);
    expect_input_error(ranks, "--input " + nedges_2_53_bin,
                       "'" + nedges_2_53_bin + "': truncated or corrupt: 64 bytes, but nedges 9007199254740992", out);
    expect_input_error(ranks, "--input " + nedges_negative_bin,
                       "'" + nedges_negative_bin + "': bad bin header: nedges -1 is negative", out);
    expect_input_error(ranks, "--input " + version_bin, "unsupported bin edge file version 2147483648 (expected 1)",
                       out);
    expect_input_error(ranks, "--input " + flags_bin, "unknown flags 0xffffffff in the bin header", out);
  }
}

}  // namespace
}  // namespace g500::io
