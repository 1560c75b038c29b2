// The root loop (run/root_loop.hpp) gives the heap that a root's validation freed back to the
// system. The stand-in validation frees a 24 MiB block (which raises glibc's mapping threshold to
// it and its trim threshold to twice that, as the real validation's large buffers do), then
// touches and frees an 8 MiB buffer, a little larger each root, while keeping a small block, as
// MPI keeps its own: without the release the freed buffers stay resident (32 MiB after 16 roots
// here; a real run at SCALE 18 on 8 ranks held 480 MiB after 64 roots against 60 MiB after 4).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "run/root_loop.hpp"
#include "util/memory.hpp"

namespace g500::run {
namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kBuffer = 8 * kMiB;  // a root's validation buffer, 64 KiB larger each root
constexpr int kRoots = 16;

// Keeps the compiler from leaving out an allocation that nothing else reads.
void keep(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

struct StandInRun {
  double seconds = 1e-3;
};
struct StandInResult {
  int64_t root = 0;
  double seconds = 1e-3;
  int64_t nedge = 1000;
  double teps = 0;
};

struct FragmentingKernel {
  using Run = StandInRun;
  using Result = StandInResult;
  std::vector<std::unique_ptr<char[]>> kept;  // the small blocks allocated after each buffer

  void prepare() {}
  Run search(int64_t) { return {}; }
  Result collect(Run& run) { return Result{0, run.seconds}; }
  int64_t count_edges() { return 1000; }
  void after_first_root(int64_t) {}
  std::string check(int64_t root, Result&) {
    // A freed block above glibc's mapping threshold raises it, so the buffers below come from its heap.
    auto large = std::make_unique<char[]>(24 * kMiB);
    keep(large.get());
    large.reset();
    const size_t bytes = kBuffer + static_cast<size_t>(root) * 64 * 1024;
    auto buffer = std::make_unique<char[]>(bytes);
    std::memset(buffer.get(), 1, bytes);  // resident
    keep(buffer.get());
    kept.push_back(std::make_unique<char[]>(1024));
    keep(kept.back().get());
    return {};
  }
};

TEST(RootLoop, TheHeapAValidationFreedGoesBackToTheSystem) {
#if !defined(__GLIBC__)
  GTEST_SKIP() << "the release is glibc's malloc_trim";
#endif
  RunConfig config;  // validating, with the warm-up search, no progress lines
  RunRoots roots;
  for (int64_t r = 0; r < kRoots; ++r) {
    roots.roots.push_back(r);
    roots.reported.push_back(r);
  }
  const comm::Communicator world(MPI_COMM_WORLD);
  FragmentingKernel kernel;
  std::vector<StandInResult> results;
  RunSummary summary;
  const size_t before = util::resident_bytes();
  run_root_loop(kernel, "BFS", config, roots, world, results, summary);
  const size_t after = util::resident_bytes();
  const size_t grown = after > before ? after - before : 0;
  ASSERT_EQ(results.size(), static_cast<size_t>(kRoots));
  EXPECT_FALSE(summary.validation_failed);
  // Released: not even the last buffer's pages are left (16 KiB grown here with the release).
  EXPECT_LT(grown, kBuffer / 2) << "resident memory grew by " << grown / kMiB << " MiB over " << kRoots << " roots";
}

}  // namespace
}  // namespace g500::run
