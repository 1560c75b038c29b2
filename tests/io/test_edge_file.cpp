// Collective edge-file writer and bin reader (run at 1, 2, 4 and 6 ranks).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "gen/kronecker.hpp"
#include "io/edge_file.hpp"
#include "testvectors.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"

using namespace g500::gen;
using namespace g500::io;
namespace fs = std::filesystem;

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// A scratch directory created by rank 0 and shared by all ranks (same node).
std::string shared_scratch_dir() {
  char name[256] = {0};
  if (world_rank() == 0) {
    std::string tmpl = (fs::temp_directory_path() / "g500_gen_test_XXXXXX").string();
    std::strncpy(name, tmpl.c_str(), sizeof name - 1);
    if (!mkdtemp(name)) name[0] = 0;
  }
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  return name;
}

struct ScratchDir {
  std::string path = shared_scratch_dir();
  ~ScratchDir() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0 && !path.empty()) fs::remove_all(path);
  }
};

std::vector<g500::testing::TsvEdge> parse_tsv(const std::string& file, bool weights) {
  std::ifstream in(file);
  std::vector<g500::testing::TsvEdge> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    g500::testing::TsvEdge e{};
    int got = std::sscanf(line.c_str(), "%ld\t%ld\t%f", &e.v0, &e.v1, &e.weight);
    EXPECT_EQ(got, weights ? 3 : 2) << line;
    out.push_back(e);
  }
  return out;
}

std::string read_all(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

KroneckerSpec spec_for(int scale) {
  KroneckerSpec s;
  s.scale = scale;
  return s;
}

}  // namespace

TEST(EdgeFile, TsvWithWeightsEqualsTestVector) {
  ScratchDir dir;
  ASSERT_FALSE(dir.path.empty());
  for (int scale : {8, 10}) {
    const std::string out = dir.path + "/s" + std::to_string(scale) + ".tsv";
    EdgeWriteOptions opt;
    opt.weights = true;
    opt.chunk_edges = 777;  // several chunks per rank, odd boundaries
    auto res = write_generated_edges(spec_for(scale), out, opt, MPI_COMM_WORLD);
    EXPECT_EQ(res.bytes, static_cast<int64_t>(fs::file_size(out)));
    if (world_rank() == 0) {
      auto got = parse_tsv(out, true);
      auto ref = g500::testing::load_kron_tsv(scale);
      ASSERT_EQ(got.size(), ref.size());
      for (size_t i = 0; i < ref.size(); ++i)
        ASSERT_TRUE(got[i].v0 == ref[i].v0 && got[i].v1 == ref[i].v1 &&
                    std::bit_cast<uint32_t>(got[i].weight) == std::bit_cast<uint32_t>(ref[i].weight))
            << "scale " << scale << " line " << i;
      // The edge lines are textually the test vector's lines.
      auto strip = [](const std::string& text) {
        std::string body;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
          if (!line.empty() && line[0] != '#') body += line + "\n";
        return body;
      };
      EXPECT_EQ(
          strip(read_all(out)),
          strip(read_all(g500::testing::testvector_path("kron_s" + std::to_string(scale) + "_ef16_weighted.tsv"))));
      for (const auto& entry : fs::directory_iterator(dir.path))
        EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
    }
  }
}

TEST(EdgeFile, TsvWithoutWeights) {
  ScratchDir dir;
  const std::string out = dir.path + "/s8.tsv";
  write_generated_edges(spec_for(8), out, EdgeWriteOptions{}, MPI_COMM_WORLD);
  if (world_rank() == 0) {
    auto got = parse_tsv(out, false);
    auto ref = g500::testing::load_kron_tsv(8);
    ASSERT_EQ(got.size(), ref.size());
    for (size_t i = 0; i < ref.size(); ++i) ASSERT_TRUE(got[i].v0 == ref[i].v0 && got[i].v1 == ref[i].v1);
  }
}

TEST(EdgeFile, BinRoundTripsThroughReader) {
  ScratchDir dir;
  for (bool weights : {true, false}) {
    const KroneckerSpec spec = spec_for(10);
    const std::string out = dir.path + (weights ? "/w.bin" : "/n.bin");
    EdgeWriteOptions opt;
    opt.format = EdgeFormat::bin;
    opt.weights = weights;
    opt.chunk_edges = 1000;
    auto res = write_generated_edges(spec, out, opt, MPI_COMM_WORLD);
    EXPECT_EQ(res.bytes, kBinHeaderBytes + spec.nedges() * bin_record_bytes(weights));
    // Every rank reads the file back independently.
    BinEdgeReader reader;
    ASSERT_EQ(reader.open(out), "");
    EXPECT_EQ(reader.header().version, 1u);
    EXPECT_EQ(reader.header().has_weights(), weights);
    EXPECT_EQ(reader.header().nvertices, spec.nvertices());
    EXPECT_EQ(reader.header().nedges, spec.nedges());
    const int64_t n = spec.nedges();
    std::vector<Edge> got(n), want(n);
    std::vector<float> gw(n), ww(n);
    reader.read(0, n, got.data(), gw.data());
    KroneckerGenerator(spec).generate(0, n, want.data(), ww.data());
    EXPECT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(Edge)));
    if (weights) {
      EXPECT_EQ(0, std::memcmp(gw.data(), ww.data(), n * sizeof(float)));
    }
    // A partial range.
    std::vector<Edge> part(100);
    reader.read(12345, 100, part.data(), nullptr);
    EXPECT_EQ(0, std::memcmp(part.data(), want.data() + 12345, 100 * sizeof(Edge)));
    EXPECT_THROW(reader.read(n - 5, 10, part.data(), nullptr), g500::util::UsageError);
    // Header bytes as documented.
    if (world_rank() == 0) {
      std::string bytes = read_all(out);
      ASSERT_GE(bytes.size(), 32u);
      EXPECT_EQ(bytes.substr(0, 8), "G500EDGE");
      uint32_t version, flags;
      int64_t nv, ne;
      std::memcpy(&version, bytes.data() + 8, 4);
      std::memcpy(&flags, bytes.data() + 12, 4);
      std::memcpy(&nv, bytes.data() + 16, 8);
      std::memcpy(&ne, bytes.data() + 24, 8);
      EXPECT_EQ(version, 1u);
      EXPECT_EQ(flags, weights ? 1u : 0u);
      EXPECT_EQ(nv, 1024);
      EXPECT_EQ(ne, 16384);
      int64_t v0;
      std::memcpy(&v0, bytes.data() + 32 + bin_record_bytes(weights) * 7, 8);
      EXPECT_EQ(v0, want[7].v0);
    }
  }
}

TEST(EdgeFile, ReaderRejectsBadFiles) {
  ScratchDir dir;
  BinEdgeReader reader;
  EXPECT_NE(reader.open(dir.path + "/missing.bin").find("cannot open"), std::string::npos);
  if (world_rank() == 0) {
    std::ofstream(dir.path + "/junk.bin") << "this is not an edge file at all, just text....";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_NE(reader.open(dir.path + "/junk.bin").find("bad magic"), std::string::npos);
  // A truncated file.
  if (world_rank() == 0) {
    EdgeWriteOptions opt;
    opt.format = EdgeFormat::bin;
    write_generated_edges(spec_for(4), dir.path + "/t.bin", opt, MPI_COMM_SELF);
    fs::resize_file(dir.path + "/t.bin", 32 + 16 * 10 + 3);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_NE(reader.open(dir.path + "/t.bin").find("truncated"), std::string::npos);
}

TEST(EdgeFile, ReaderRefusesNonRegularFilesAndImpossibleVertexCounts) {
  ScratchDir dir;
  const std::string fifo = dir.path + "/edges.bin";
  int writer = -1;
  if (world_rank() == 0) {
    EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // A writer exists (O_RDWR does not wait), so even a blocking open would return.
    writer = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
    EXPECT_GE(writer, 0);
    std::string header("G500EDGE\x01\0\0\0\0\0\0\0", 16);
    const int64_t n = INT64_MAX, m = 1;
    header.append(reinterpret_cast<const char*>(&n), 8).append(reinterpret_cast<const char*>(&m), 8);
    std::ofstream(dir.path + "/huge.bin", std::ios::binary) << header << std::string(16, '\0');
  }
  MPI_Barrier(MPI_COMM_WORLD);
  BinEdgeReader reader;
  EXPECT_NE(reader.open(fifo).find("a FIFO/pipe cannot be read"), std::string::npos) << reader.open(fifo);
  EXPECT_NE(reader.open("/dev/null").find("is a character device, not a regular file"), std::string::npos);
  EXPECT_NE(reader.open(dir.path + "/huge.bin").find("bad header (nvertices=9223372036854775807"), std::string::npos);
  MPI_Barrier(MPI_COMM_WORLD);
  if (writer >= 0) ::close(writer);
}

TEST(EdgeFile, UnwritableOutputThrowsOnEveryRankAndLeavesNothing) {
  ScratchDir dir;
  EdgeWriteOptions opt;
  try {
    write_generated_edges(spec_for(6), dir.path + "/no/such/dir/out.tsv", opt, MPI_COMM_WORLD);
    ADD_FAILURE() << "no error";
  } catch (const g500::util::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
  try {
    write_generated_edges(spec_for(6), dir.path, opt, MPI_COMM_WORLD);
    ADD_FAILURE() << "no error";
  } catch (const g500::util::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
  if (world_rank() == 0) {
    EXPECT_TRUE(fs::is_empty(dir.path));
  }
}

TEST(EdgeFile, OneRankFailureReachesAllRanks) {
  // An error seen by the last rank only must surface everywhere (no hang).
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  BinEdgeReader reader;
  std::string err = rank == size - 1 ? reader.open("/nonexistent/file.bin") : std::string();
  EXPECT_THROW(g500::util::agree_or_throw(err, MPI_COMM_WORLD), g500::util::UsageError);
}

TEST(EdgeFile, TsvWeightFormatMatchesPrintf) {
  std::mt19937 rng(42);
  std::vector<Edge> e(1, Edge{123, 4567});
  for (int i = 0; i < 20000; ++i) {
    float w = i < 10000 ? std::bit_cast<float>(static_cast<uint32_t>(rng() % 0x3F800000u))  // [0, 1)
                        : static_cast<float>(rng()) * 4.6566128752457969e-10f;
    if (i == 0) w = 0.0f;
    std::string got;
    format_tsv(e.data(), &w, 1, got);
    char want[64];
    std::snprintf(want, sizeof want, "123\t4567\t%.9g\n", w);
    ASSERT_EQ(got, want) << i;
  }
}
