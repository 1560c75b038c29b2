// Output paths of every kind through the subcommands, at 1 and 4 ranks: FIFOs, standard output,
// character devices and symlinks receive exactly what a regular file would, write errors on them
// are one error line and exit status 2, no device or FIFO is ever replaced, and the temporary of
// a killed run is removed by the next run writing to the same file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.hpp"
#include "usage_error.hpp"

namespace g500::util {
namespace {

using testing::read_file;
using testing::run_command;
using testing::run_g500;

std::string mpiexec(int ranks) {
  return std::string(G500_MPIEXEC) + " -n " + std::to_string(ranks) + " " + G500_MPIEXEC_FLAGS + " " + G500_BINARY;
}

// A shell command that copies `fifo` to `copy` in the background while `command` runs, and exits
// with the command's status. The reader gives up after 60 s, so a broken writer fails the test
// instead of hanging it.
std::string while_reading_fifo(const std::string& fifo, const std::string& copy, const std::string& command) {
  return "(timeout 60 cat " + fifo + " > " + copy + " & reader=$!; " + command +
         "; status=$?; wait $reader; exit $status)";
}

bool is_kind(const std::string& path, mode_t kind) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && (st.st_mode & S_IFMT) == kind;
}

int64_t roots_in_json(const std::string& text) { return nlohmann::json::parse(text)["roots"].size(); }

// The JSON document printed after the result block on standard output.
std::string json_after_result_block(const std::string& out) {
  const auto start = out.find("\n{\n");
  return start == std::string::npos ? "" : out.substr(start + 1);
}

TEST(OutputCli, JsonThroughAFifoArrivesWholeAndTheFifoStays) {
  for (int ranks : {1, 4}) {
    const std::string dir = testing::make_temp_dir();
    ASSERT_EQ(::mkfifo((dir + "/pipe").c_str(), 0600), 0);
    auto r = run_command(while_reading_fifo(dir + "/pipe", dir + "/copy.json",
                                            mpiexec(ranks) + " bfs --scale 8 --roots 2 --json " + dir + "/pipe"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(roots_in_json(read_file(dir + "/copy.json")), 2);
    EXPECT_TRUE(is_kind(dir + "/pipe", S_IFIFO));
  }
}

TEST(OutputCli, AFifoNobodyReadsIsRefusedWithoutWaiting) {
  for (int ranks : {1, 4}) {
    const std::string dir = testing::make_temp_dir();
    ASSERT_EQ(::mkfifo((dir + "/pipe").c_str(), 0600), 0);
    testing::expect_usage_error("bfs", ranks, "--scale 8 --roots 2 --json " + dir + "/pipe",
                                "cannot write '" + dir + "/pipe': it is a FIFO that no process is reading");
    EXPECT_TRUE(is_kind(dir + "/pipe", S_IFIFO));
  }
}

TEST(OutputCli, DashAndDevStdoutWriteToStandardOutput) {
  for (int ranks : {1, 4}) {
    auto r = run_g500(ranks, "bfs --scale 8 --roots 2 --json -");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("SCALE:"), std::string::npos);
    EXPECT_EQ(roots_in_json(json_after_result_block(r.out)), 2) << r.out;
  }
  // A single process whose standard output is a regular file: /dev/stdout names that file, which
  // must be appended to in place, not replaced (the result block printed before stays).
  const std::string dir = testing::make_temp_dir();
  auto r = run_command(std::string("(") + G500_BINARY + " bfs --scale 8 --roots 2 --json /dev/stdout > " + dir +
                       "/all.txt)");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string all = read_file(dir + "/all.txt");
  EXPECT_NE(all.find("SCALE:"), std::string::npos) << all;
  EXPECT_EQ(roots_in_json(json_after_result_block(all)), 2) << all;
}

// Devices made in the test's own directory (root only): c 1 3 acts as /dev/null, c 1 7 as /dev/full.
TEST(OutputCli, CharacterDevicesAreWrittenInPlaceAndAFullOneIsAnError) {
  const std::string dir = testing::make_temp_dir();
  const std::string null_dev = dir + "/null", full_dev = dir + "/full";
  if (::mknod(null_dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
      ::mknod(full_dev.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "mknod is not permitted here (needs root): character devices not tested";
  for (int ranks : {1, 4}) {
    auto r = run_g500(ranks, "bfs --scale 8 --roots 2 --json " + null_dev);
    EXPECT_EQ(r.status, 0) << r.err;
    // The JSON is written after the runs, whose result block has been printed by then.
    auto full = run_g500(ranks, "bfs --scale 8 --roots 2 --json " + full_dev);
    EXPECT_EQ(full.status, 2) << full.err;
    EXPECT_EQ(testing::count_lines_starting(
                  full.err, "g500 bfs: error: writing '" + full_dev + "' failed: No space left on device"),
              1)
        << full.err;
    EXPECT_EQ(testing::count_lines_starting(full.err, "g500 bfs: error:"), 1) << full.err;
    EXPECT_EQ(full.err.find("MPI_ABORT"), std::string::npos) << full.err;
    testing::expect_usage_error("gen", ranks, "--scale 8 --output " + full_dev,
                                "writing '" + full_dev + "' failed: No space left on device");
    EXPECT_TRUE(is_kind(null_dev, S_IFCHR));
    EXPECT_TRUE(is_kind(full_dev, S_IFCHR));
  }
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 2) << "no temporary or other file was left beside the devices";
}

TEST(OutputCli, ASymlinkedOutputWritesItsTarget) {
  for (int ranks : {1, 4}) {
    const std::string dir = testing::make_temp_dir();
    std::filesystem::create_directory(dir + "/results");
    std::filesystem::create_symlink("results/run.json", dir + "/latest.json");
    auto r = run_g500(ranks, "bfs --scale 8 --roots 2 --json " + dir + "/latest.json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(is_kind(dir + "/latest.json", S_IFLNK));
    EXPECT_EQ(roots_in_json(read_file(dir + "/results/run.json")), 2);
  }
}

TEST(OutputCli, GeneratedEdgesStreamedInOrderEqualTheFile) {
  const std::string dir = testing::make_temp_dir();
  ASSERT_EQ(run_g500(1, "gen --scale 10 --output " + dir + "/file.tsv").status, 0);
  ASSERT_EQ(run_g500(1, "gen --scale 10 --format bin --weights --output " + dir + "/file.bin").status, 0);
  ASSERT_EQ(::mkfifo((dir + "/pipe").c_str(), 0600), 0);
  for (int ranks : {1, 4}) {
    auto tsv = run_command(while_reading_fifo(dir + "/pipe", dir + "/streamed.tsv",
                                              mpiexec(ranks) + " gen --scale 10 --output " + dir + "/pipe"));
    ASSERT_EQ(tsv.status, 0) << tsv.err;
    EXPECT_TRUE(read_file(dir + "/streamed.tsv") == read_file(dir + "/file.tsv")) << ranks << " ranks";
    auto bin = run_g500(ranks, "gen --scale 10 --format bin --weights --output -");
    ASSERT_EQ(bin.status, 0) << bin.err;
    EXPECT_TRUE(bin.out == read_file(dir + "/file.bin")) << ranks << " ranks";
  }
}

TEST(OutputCli, VertexFilesStreamedEqualTheFile) {
  const std::string dir = testing::make_temp_dir();
  ASSERT_EQ(run_g500(1, "gen --scale 9 --output " + dir + "/graph.tsv").status, 0);
  const std::string input = " bfs --input " + dir + "/graph.tsv --root 3 --output-depths ";
  auto file = run_command(mpiexec(1) + input + dir + "/depths.txt");
  ASSERT_EQ(file.status, 0) << file.err;
  ASSERT_EQ(::mkfifo((dir + "/pipe").c_str(), 0600), 0);
  for (int ranks : {1, 4}) {
    auto r =
        run_command(while_reading_fifo(dir + "/pipe", dir + "/streamed.txt", mpiexec(ranks) + input + dir + "/pipe"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(read_file(dir + "/streamed.txt") == read_file(dir + "/depths.txt")) << ranks << " ranks";
  }
}

TEST(OutputCli, JobscriptToStandardOutputIsTheScriptAlone) {
  auto r = run_g500(1, "jobscript --system slurm --nodes 2 --scale 20 --output -");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("#!", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find("wrote "), std::string::npos) << r.out;
}

TEST(OutputCli, ADirectoryIsRefused) {
  const std::string dir = testing::make_temp_dir();
  for (int ranks : {1, 4})
    testing::expect_usage_error("bfs", ranks, "--scale 8 --roots 2 --json " + dir,
                                "cannot write '" + dir + "': it is a directory");
}

// A run killed by SIGKILL cannot remove its temporary; the next run writing there does.
TEST(OutputCli, TheTemporaryOfAKilledRunIsRemovedByTheNextRun) {
  const std::string dir = testing::make_temp_dir();
  const std::string json = dir + "/run.json";
  auto killed = run_command(
      std::string("(") + G500_BINARY + " bfs --scale 16 --json " + json + " & pid=$!; for i in $(seq 300); do ls " +
      json + ".g500-tmp.* >/dev/null 2>&1 && break; sleep 0.1; done; kill -9 $pid; wait $pid; ls " + dir + ")");
  EXPECT_NE(killed.out.find("run.json.g500-tmp."), std::string::npos) << killed.out;
  auto next = run_g500(4, "bfs --scale 8 --roots 2 --json " + json);
  ASSERT_EQ(next.status, 0) << next.err;
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++entries;
    EXPECT_EQ(e.path().filename(), "run.json");
  }
  EXPECT_EQ(entries, 1);
  EXPECT_EQ(roots_in_json(read_file(json)), 2);
}

}  // namespace
}  // namespace g500::util
