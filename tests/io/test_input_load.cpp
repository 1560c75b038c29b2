// load_edge_input at several rank counts: byte ranges split lines anywhere, relabelling gives the
// sorted order of the distinct ids whatever the rank count, statistics, and every bad input gives
// the same UsageError on every rank (no rank hangs in a collective).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "io/edge_input.hpp"
#include "run_command.hpp"
#include "util/error.hpp"

namespace g500::io {
namespace {

int rank_of_world() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// Rank 0 writes the file; every rank gets its path.
std::string shared_file(const std::string& name, const std::string& contents) {
  static std::string dir;
  if (dir.empty()) {
    char buffer[4096] = {};
    if (rank_of_world() == 0) {
      const std::string d = testing::make_temp_dir();
      std::snprintf(buffer, sizeof buffer, "%s", d.c_str());
    }
    MPI_Bcast(buffer, sizeof buffer, MPI_CHAR, 0, MPI_COMM_WORLD);
    dir = buffer;
  }
  const std::string path = dir + "/" + name;
  if (rank_of_world() == 0) {
    std::ofstream out(path, std::ios::binary);
    out << contents;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// All edges in global order, as file ids.
std::vector<std::pair<uint64_t, uint64_t>> gather_file_edges(const EdgeInput& in) {
  std::vector<int64_t> ends;
  for (const auto& e : in.edges) {
    ends.push_back(e.v0);
    ends.push_back(e.v1);
  }
  const std::vector<uint64_t> file = in.ids.to_file_ids(ends);
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int count = static_cast<int>(file.size());
  std::vector<int> counts(nranks), displs(nranks, 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 1; r < nranks; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<uint64_t> all(displs.back() + counts.back());
  MPI_Allgatherv(file.data(), count, MPI_UINT64_T, all.data(), counts.data(), displs.data(), MPI_UINT64_T,
                 MPI_COMM_WORLD);
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t k = 0; k < all.size(); k += 2) out.push_back({all[k], all[k + 1]});
  return out;
}

TEST(InputLoad, SparseIdsAreRelabelledInSortedOrder) {
  const std::string path = shared_file("sparse.tsv",
                                       "# SNAP style\n% and mtx style comment\n100 200\n200 300\n\n300 100\n"
                                       "300 9223372036854775807\n9223372036854775807 42\n7 7\n100 200\n200 100");
  EdgeInput in = load_edge_input({path, Format::snap, false, {}, {}}, MPI_COMM_WORLD);
  EXPECT_EQ(in.nvertices, 6);
  EXPECT_EQ(in.global_edges, 8);
  EXPECT_EQ(in.stats.self_loops, 1);
  EXPECT_EQ(in.stats.duplicates, 2);
  EXPECT_TRUE(in.stats.relabelled);
  EXPECT_FALSE(in.stats.weighted);
  const std::vector<uint64_t> file_ids = {7, 42, 100, 200, 300, 9223372036854775807ull, 5};
  EXPECT_EQ(in.ids.find(file_ids), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, -1}));
  const std::vector<std::pair<uint64_t, uint64_t>> expected = {
      {100, 200}, {200, 300}, {300, 100}, {300, 9223372036854775807ull}, {9223372036854775807ull, 42},
      {7, 7},     {100, 200}, {200, 100}};
  EXPECT_EQ(gather_file_edges(in), expected);
}

// Also with every exchange of the relabelling, the statistics and the id lookups cut into rounds of
// 16 bytes (comm/large_count.hpp): the same edges and ids.
TEST(InputLoad, ManyRandomIdsAtAnyRankCount) {
  std::mt19937_64 rng(5);
  std::string text;
  std::vector<std::pair<uint64_t, uint64_t>> expected;
  std::set<uint64_t> distinct;
  for (int k = 0; k < 3000; ++k) {
    const uint64_t a = rng() >> (1 + k % 50), b = k % 7 == 0 ? a : rng() % 1000;
    expected.push_back({a, b});
    distinct.insert(a);
    distinct.insert(b);
    text += std::to_string(a) + (k % 3 ? "\t" : "   ") + std::to_string(b) + " " + std::to_string(k) + ".5\r\n";
    if (k % 100 == 0) text += "# comment " + std::to_string(k) + "\n";
  }
  const std::string path = shared_file("random.tsv", text);
  for (const int64_t limit : {util::MessageLimits::kDefaultBytes, int64_t{16}}) {
    SCOPED_TRACE("message limit " + std::to_string(limit));
    EdgeInput in = load_edge_input({path, Format::tsv, false, {}, util::MessageLimits{limit}}, MPI_COMM_WORLD);
    EXPECT_EQ(in.nvertices, static_cast<int64_t>(distinct.size()));
    EXPECT_TRUE(in.stats.weighted);
    EXPECT_EQ(static_cast<int64_t>(in.weights.size()), static_cast<int64_t>(in.edges.size()));
    if (!in.weights.empty()) {
      EXPECT_FLOAT_EQ(in.weights[0], static_cast<float>(in.local_begin) + 0.5f);
    }
    EXPECT_EQ(gather_file_edges(in), expected);
    const std::vector<uint64_t> sorted(distinct.begin(), distinct.end());
    const int64_t last = static_cast<int64_t>(sorted.size()) - 1;
    const std::vector<int64_t> found = in.ids.find({sorted.front(), sorted[sorted.size() / 2], sorted.back()});
    EXPECT_EQ(found, (std::vector<int64_t>{0, static_cast<int64_t>(sorted.size() / 2), last}));
    EXPECT_EQ(in.ids.to_file_ids({0, last}), (std::vector<uint64_t>{sorted.front(), sorted.back()}));
  }
}

TEST(InputLoad, MatrixMarketKeepsTheDeclaredSize) {
  const std::string path = shared_file("sym.mtx",
                                       "%%MatrixMarket matrix coordinate integer symmetric\n% comment\n%\n"
                                       "8 8 4\n2 1 5\n3 2 -1\n4 3 7\n3 3 1\n");
  EdgeInput in = load_edge_input({path, Format::mtx, false, {}, {}}, MPI_COMM_WORLD);
  EXPECT_EQ(in.nvertices, 8);
  EXPECT_EQ(in.global_edges, 4);
  EXPECT_EQ(in.stats.self_loops, 1);
  EXPECT_TRUE(in.stats.weighted);
  EXPECT_FALSE(in.stats.relabelled);
  EXPECT_EQ(in.ids.find({1, 8, 9, 0}), (std::vector<int64_t>{0, 7, -1, -1}));
  const std::vector<std::pair<uint64_t, uint64_t>> expected = {{2, 1}, {3, 2}, {4, 3}, {3, 3}};
  EXPECT_EQ(gather_file_edges(in), expected);
}

std::string error_of(const std::string& path, Format format) {
  std::string message;
  try {
    load_edge_input({path, format, false, {}, {}}, MPI_COMM_WORLD);
  } catch (const util::UsageError& e) {
    message = e.what();
  }
  // Every rank saw the same message.
  int length = static_cast<int>(message.size()), max_length = 0, min_length = 0;
  MPI_Allreduce(&length, &max_length, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&length, &min_length, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(min_length, max_length) << message;
  return message;
}

TEST(InputLoad, BadInputIsOneErrorOnEveryRank) {
  EXPECT_NE(error_of("/nonexistent/graph.tsv", Format::tsv).find("cannot open '/nonexistent/graph.tsv'"),
            std::string::npos);
  EXPECT_NE(error_of(shared_file("empty.tsv", ""), Format::tsv).find("is empty"), std::string::npos);
  EXPECT_NE(error_of(shared_file("comments.tsv", "# only\n# comments\n"), Format::tsv).find("contains no edges"),
            std::string::npos);
  std::string many;
  for (int k = 0; k < 200; ++k) many += std::to_string(k) + " " + std::to_string(k + 1) + "\n";
  EXPECT_EQ(error_of(shared_file("bad.tsv", many + "1 x\n" + many), Format::tsv),
            shared_file("bad.tsv", many + "1 x\n" + many) + ":201: 'x' is not a vertex id");
  EXPECT_NE(error_of(shared_file("neg.tsv", many + "-5 1\n"), Format::tsv).find(":201: negative vertex id '-5'"),
            std::string::npos);
  EXPECT_NE(error_of(shared_file("mixed.tsv", many + "1 2 0.5\n" + many), Format::tsv).find(":201: 3 fields"),
            std::string::npos);
  EXPECT_NE(error_of(shared_file("big.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 2\n1 2\n6 1\n"),
                     Format::mtx)
                .find("big.mtx:4: entry (6, 1) is beyond the declared size 5 x 5"),
            std::string::npos);
  EXPECT_NE(
      error_of(shared_file("count.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 3\n1 2\n% room for 3\n"),
               Format::mtx)
          .find("declares 3 entries but the file has 1"),
      std::string::npos);
  // More entries than the bytes after the size line can hold: refused before any entry is read.
  EXPECT_EQ(error_of(shared_file("lie.mtx",
                                 "%%MatrixMarket matrix coordinate pattern general\n5 5 9223372036854775807\n1 2\n"),
                     Format::mtx),
            shared_file("lie.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 9223372036854775807\n1 2\n") +
                ":2: the size line declares 9223372036854775807 entries, but the 4 bytes after it can hold at most 1");
  EXPECT_NE(error_of(shared_file("foreign.bin", std::string(64, 'x')), Format::bin).find("bad magic"),
            std::string::npos);
  EXPECT_NE(error_of(shared_file("short.bin", "G500EDGE"), Format::bin).find("too short"), std::string::npos);
  std::string head("G500EDGE\x01\0\0\0\0\0\0\0", 16);
  const int64_t n = 4, m = 10;
  head.append(reinterpret_cast<const char*>(&n), 8).append(reinterpret_cast<const char*>(&m), 8);
  EXPECT_NE(error_of(shared_file("truncated.bin", head + std::string(16 * 9, '\0')), Format::bin).find("truncated"),
            std::string::npos);
  std::string records;
  for (int64_t k = 0; k < m; ++k) {
    const int64_t a = k == 7 ? 4 : k % 4, b = 0;
    records.append(reinterpret_cast<const char*>(&a), 8).append(reinterpret_cast<const char*>(&b), 8);
  }
  EXPECT_NE(error_of(shared_file("range.bin", head + records), Format::bin).find("edge 8: vertex id 4 outside 0..3"),
            std::string::npos);
  // A binary file read as text: a malformed line, never a crash or a huge buffer.
  EXPECT_NE(error_of(shared_file("binary.tsv", head + records), Format::tsv).find("binary.tsv:1:"), std::string::npos);
  EXPECT_NE(error_of(shared_file("long.tsv", std::string(3 << 20, '7')), Format::tsv).find("longer than 1 MiB"),
            std::string::npos);
}

TEST(InputLoad, ByteOrderMarkAtTheStartIsSkippedAtAnyRankCount) {
  std::string text;
  for (int k = 0; k < 500; ++k) text += std::to_string(k * 3) + " " + std::to_string(k * 3 + 1) + "\n";
  const std::string bom = "\xEF\xBB\xBF";
  const EdgeInput plain = load_edge_input({shared_file("plain.tsv", text), Format::tsv, false, {}, {}}, MPI_COMM_WORLD);
  const EdgeInput marked =
      load_edge_input({shared_file("marked.tsv", bom + text), Format::tsv, false, {}, {}}, MPI_COMM_WORLD);
  EXPECT_EQ(marked.nvertices, plain.nvertices);
  EXPECT_EQ(gather_file_edges(marked), gather_file_edges(plain));
  const std::string mtx_text = "%%MatrixMarket matrix coordinate pattern general\n4 4 2\n1 2\n3 4\n";
  const EdgeInput mtx =
      load_edge_input({shared_file("marked.mtx", bom + mtx_text), Format::mtx, false, {}, {}}, MPI_COMM_WORLD);
  EXPECT_EQ(mtx.nvertices, 4);
  EXPECT_EQ(gather_file_edges(mtx), (std::vector<std::pair<uint64_t, uint64_t>>{{1, 2}, {3, 4}}));
  // Elsewhere the mark is part of the line (numbered as usual).
  EXPECT_EQ(error_of(shared_file("inside.tsv", "1 2\n" + bom + "3 4\n"), Format::tsv),
            shared_file("inside.tsv", "1 2\n" + bom + "3 4\n") + ":2: '???3' is not a vertex id");
}

TEST(InputLoad, DeclaredSizesAreCheckedBeforeTheEdgesAreRead) {
  // A bin file whose record 1 is out of range: a refusal of its declared size comes first.
  std::string bin("G500EDGE\x01\0\0\0\0\0\0\0", 16);
  const int64_t n = 1000, m = 2;
  bin.append(reinterpret_cast<const char*>(&n), 8).append(reinterpret_cast<const char*>(&m), 8);
  for (int64_t id : {0, 1, 5000, 0}) bin.append(reinterpret_cast<const char*>(&id), 8);
  const std::string bin_path = shared_file("declared.bin", bin);
  const std::string mtx_path =
      shared_file("declared.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n7 9 2\n1 2 0.5\n7 9 1\n");
  std::vector<DeclaredSize> seen;
  InputSpec spec{bin_path,
                 Format::bin,
                 false,
                 [&](const DeclaredSize& size) {
                   seen.push_back(size);
                   throw util::UsageError("refused: " + size.what);
                 },
                 {}};
  try {
    load_edge_input(spec, MPI_COMM_WORLD);
    ADD_FAILURE() << "the check was not called";
  } catch (const util::UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "refused: '" + bin_path + "' (header: nvertices 1000, nedges 2)");
  }
  spec.path = mtx_path;
  spec.format = Format::mtx;
  EXPECT_THROW(load_edge_input(spec, MPI_COMM_WORLD), util::UsageError);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].nvertices, 1000);
  EXPECT_EQ(seen[0].nedges, 2);
  EXPECT_EQ(seen[1].nvertices, 9);  // max(rows, cols)
  EXPECT_EQ(seen[1].nedges, 2);
  EXPECT_EQ(seen[1].what, mtx_path + ":3 (size line: 7 rows, 9 cols, 2 entries)");
  // A check that accepts lets the reading go on; tsv declares nothing.
  int calls = 0;
  spec.check_declared_size = [&](const DeclaredSize&) { ++calls; };
  EXPECT_EQ(load_edge_input(spec, MPI_COMM_WORLD).global_edges, 2);
  spec.path = shared_file("declared.tsv", "1 2\n");
  spec.format = Format::tsv;
  EXPECT_EQ(load_edge_input(spec, MPI_COMM_WORLD).global_edges, 1);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace g500::io
