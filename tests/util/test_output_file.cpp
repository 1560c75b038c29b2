// OutputFile at every rank count: a regular file is replaced whole (or not at all), a symlink's
// target is written, devices and FIFOs are streamed in rank order and never replaced, write errors
// on a stream are reported, other file types are refused, and temporaries of killed runs are
// removed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "run_command.hpp"
#include "util/error.hpp"
#include "util/output_file.hpp"

namespace g500::util {
namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// A directory made by rank 0 and known to every rank.
std::string shared_temp_dir() {
  std::string dir = world_rank() == 0 ? testing::make_temp_dir() : std::string(64, '\0');
  int length = static_cast<int>(dir.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  dir.resize(length);
  MPI_Bcast(dir.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return dir;
}

// Each rank's part: distinct, and large enough (with `repeat`) to fill a pipe's buffer many times.
std::string part_of(int rank, int repeat) {
  std::string text;
  for (int k = 0; k < repeat; ++k) text += "rank " + std::to_string(rank) + " line " + std::to_string(k) + "\n";
  return text;
}

std::string all_parts(int repeat) {
  std::string text;
  for (int r = 0; r < world_size(); ++r) text += part_of(r, repeat);
  return text;
}

// Entries of `dir` whose name contains ".g500-tmp." (this module's temporaries).
int temporaries_in(const std::string& dir) {
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    n += entry.path().filename().string().find(".g500-tmp.") != std::string::npos;
  return n;
}

// Runs `body`, which must throw UsageError on every rank; returns the message.
template <class F>
std::string usage_error_of(F body) {
  try {
    body();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

bool is_barrier_ok() { return MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS; }

TEST(OutputFile, RegularFileIsReplacedOnlyWhenComplete) {
  const std::string dir = shared_temp_dir();
  const std::string path = dir + "/out.txt";
  if (world_rank() == 0) {
    testing::write_file(dir, "out.txt", "old contents\n");
    ::chmod(path.c_str(), 0600);
  }
  {
    OutputFile out(path, MPI_COMM_WORLD);
    ASSERT_FALSE(out.is_stream());
    if (world_rank() == 0) {
      EXPECT_EQ(testing::read_file(path), "old contents\n");  // untouched while the run goes on
      EXPECT_EQ(temporaries_in(dir), 1);
    }
    out.write_concatenated(part_of(world_rank(), 3));
  }
  if (world_rank() == 0) {
    EXPECT_EQ(testing::read_file(path), all_parts(3));
    EXPECT_EQ(temporaries_in(dir), 0);
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u) << "an existing file keeps its permissions";
  }
  ASSERT_TRUE(is_barrier_ok());
}

TEST(OutputFile, AnUncommittedOutputLeavesTheOldFileAndNoTemporary) {
  const std::string dir = shared_temp_dir();
  const std::string path = dir + "/out.txt";
  if (world_rank() == 0) testing::write_file(dir, "out.txt", "good result\n");
  { OutputFile out(path, MPI_COMM_WORLD); }  // a run that failed before writing
  if (world_rank() == 0) {
    EXPECT_EQ(testing::read_file(path), "good result\n");
    EXPECT_EQ(temporaries_in(dir), 0);
  }
  ASSERT_TRUE(is_barrier_ok());
}

TEST(OutputFile, SymlinkIsFollowedAndItsTargetReplaced) {
  const std::string dir = shared_temp_dir();
  if (world_rank() == 0) {
    std::filesystem::create_directory(dir + "/real");
    testing::write_file(dir + "/real", "target.txt", "old\n");
    std::filesystem::create_symlink("real/target.txt", dir + "/link.txt");
    std::filesystem::create_symlink("real/new.txt", dir + "/dangling.txt");
  }
  {
    OutputFile out(dir + "/link.txt", MPI_COMM_WORLD);
    out.write_concatenated(part_of(world_rank(), 2));
    OutputFile created(dir + "/dangling.txt", MPI_COMM_WORLD);
    created.write_from_rank0("made through a dangling link\n");
  }
  if (world_rank() == 0) {
    EXPECT_TRUE(std::filesystem::is_symlink(dir + "/link.txt"));
    EXPECT_EQ(testing::read_file(dir + "/real/target.txt"), all_parts(2));
    EXPECT_TRUE(std::filesystem::is_symlink(dir + "/dangling.txt"));
    EXPECT_EQ(testing::read_file(dir + "/real/new.txt"), "made through a dangling link\n");
    EXPECT_EQ(temporaries_in(dir + "/real"), 0);
  }
  ASSERT_TRUE(is_barrier_ok());
}

TEST(OutputFile, FifoIsStreamedInRankOrderAndStaysAFifo) {
  const std::string dir = shared_temp_dir();
  const std::string fifo = dir + "/pipe";
  constexpr int kLinesPerRank = 20000;  // about 300 KB per rank: many times a pipe's buffer
  std::string received;
  std::thread reader;
  if (world_rank() == 0) {
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // Opened for reading first (non-blocking open needs no writer), read to end of file.
    const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(fd, 0);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    reader = std::thread([fd, &received] {
      char buffer[1 << 16];
      bool writer_seen = false;
      while (true) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
          received.append(buffer, static_cast<size_t>(n));
          writer_seen = true;
        } else if (n == 0 && writer_seen) {
          break;
        } else if (n == 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));  // no writer yet
        } else if (errno != EINTR) {
          break;
        }
      }
      ::close(fd);
    });
  }
  {
    OutputFile out(fifo, MPI_COMM_WORLD);
    EXPECT_TRUE(out.is_stream());
    out.write_concatenated(part_of(world_rank(), kLinesPerRank));
  }
  if (world_rank() == 0) {
    reader.join();
    EXPECT_EQ(received.size(), all_parts(kLinesPerRank).size());
    EXPECT_TRUE(received == all_parts(kLinesPerRank));
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    EXPECT_EQ(temporaries_in(dir), 0);
  }
  ASSERT_TRUE(is_barrier_ok());
}

TEST(OutputFile, FifoWithoutReaderIsRefusedAtOnce) {
  const std::string dir = shared_temp_dir();
  const std::string fifo = dir + "/pipe";
  if (world_rank() == 0) {
    EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  }
  const std::string message = usage_error_of([&] { OutputFile out(fifo, MPI_COMM_WORLD); });
  EXPECT_NE(message.find("it is a FIFO that no process is reading"), std::string::npos) << message;
}

// Character devices made in the test's own directory (root only): c 1 3 behaves as /dev/null,
// c 1 7 as /dev/full, so no system device is ever at risk.
TEST(OutputFile, CharacterDevicesAreWrittenInPlaceAndTheirErrorsReported) {
  const std::string dir = shared_temp_dir();
  const std::string null_dev = dir + "/null", full_dev = dir + "/full";
  int made = 1;
  if (world_rank() == 0)
    made = ::mknod(null_dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0 &&
           ::mknod(full_dev.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0;
  MPI_Bcast(&made, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!made) GTEST_SKIP() << "mknod is not permitted here (needs root): character devices not tested";
  {
    OutputFile out(null_dev, MPI_COMM_WORLD);
    EXPECT_TRUE(out.is_stream());
    out.write_concatenated(part_of(world_rank(), 100));
  }
  const std::string message = usage_error_of([&] {
    OutputFile out(full_dev, MPI_COMM_WORLD);
    out.write_concatenated(part_of(world_rank(), 100));
  });
  EXPECT_EQ(message, "writing '" + full_dev + "' failed: " + std::strerror(ENOSPC));
  if (world_rank() == 0) {
    for (const std::string& dev : {null_dev, full_dev}) {
      struct stat st {};
      ASSERT_EQ(::lstat(dev.c_str(), &st), 0);
      EXPECT_TRUE(S_ISCHR(st.st_mode)) << dev << " was replaced";
    }
  }
  ASSERT_TRUE(is_barrier_ok());
}

TEST(OutputFile, DirectoriesMissingDirectoriesAndRepeatedTargetsAreRefused) {
  const std::string dir = shared_temp_dir();
  EXPECT_EQ(usage_error_of([&] { OutputFile out(dir, MPI_COMM_WORLD); }),
            "cannot write '" + dir +
                "': it is a directory (an output must be a regular file, a character device, "
                "a FIFO or -)");
  EXPECT_EQ(usage_error_of([&] { OutputFile out(dir + "/no/such/file", MPI_COMM_WORLD); }),
            "cannot write '" + dir + "/no/such/file': directory '" + dir + "/no/such' does not exist");
  EXPECT_EQ(usage_error_of([&] { OutputFile out("", MPI_COMM_WORLD); }), "an output path is empty");
  OutputFile first(dir + "/same", MPI_COMM_WORLD);
  EXPECT_EQ(usage_error_of([&] { OutputFile second(dir + "/./same", MPI_COMM_WORLD); }),
            "cannot write '" + dir + "/./same': another output of this run goes to the same file");
}

TEST(OutputFile, TemporariesOfGoneProcessesOfThisHostAreRemoved) {
  const std::string dir = shared_temp_dir();
  const std::string path = dir + "/out.txt";
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  // No process has id 999999999 (above any kernel's pid_max); process 1 always exists.
  const std::string gone = "out.txt.g500-tmp." + std::string(host) + ".999999999";
  const std::string alive = "out.txt.g500-tmp." + std::string(host) + ".1";
  const std::string other_host = "out.txt.g500-tmp.another-host.999999999";
  if (world_rank() == 0)
    for (const std::string& name : {gone, alive, other_host}) testing::write_file(dir, name, "");
  {
    OutputFile out(path, MPI_COMM_WORLD);
    out.write_from_rank0("fresh\n");
  }
  if (world_rank() == 0) {
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + gone));
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + alive));
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + other_host));
    EXPECT_EQ(testing::read_file(path), "fresh\n");
  }
  ASSERT_TRUE(is_barrier_ok());
}

TEST(OutputFile, PartsMadePieceByPieceTileTheFile) {
  const std::string dir = shared_temp_dir();
  const std::string path = dir + "/pieces.txt";
  // Rank r writes its part in three appends; offsets from the parts' known sizes.
  const std::string mine = part_of(world_rank(), 50);
  int64_t before = 0;
  for (int r = 0; r < world_rank(); ++r) before += static_cast<int64_t>(part_of(r, 50).size());
  OutputFile out(path, MPI_COMM_WORLD);
  out.start_part(before);
  const size_t third = mine.size() / 3;
  out.append(mine.data(), third);
  out.append(mine.data() + third, third);
  out.append(mine.data() + 2 * third, mine.size() - 2 * third);
  EXPECT_FALSE(out.failed());
  out.commit();
  if (world_rank() == 0) {
    EXPECT_EQ(testing::read_file(path), all_parts(50));
  }
  ASSERT_TRUE(is_barrier_ok());
}

}  // namespace
}  // namespace g500::util
