// The node's memory as the run's memory check sees it (util/memory.hpp): what is available now,
// within the physical memory, and with the node's ranks' own resident memory counted back in;
// the refusal's words say the figure is what is available.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "run/run_setup.hpp"
#include "util/memory.hpp"

namespace g500::util {
namespace {

TEST(NodeMemory, AvailableIsWithinThePhysicalMemory) {
  const double physical = static_cast<double>(physical_memory_bytes());
  const double available = static_cast<double>(available_memory_bytes());
  ASSERT_GT(physical, 0);
  EXPECT_GT(available, 0);
  EXPECT_LE(available, physical);
  EXPECT_GT(resident_bytes(), 0u);
  EXPECT_LE(resident_bytes(), peak_rss_bytes());
}

TEST(NodeMemory, TheRunCountsWhatItsRanksHoldAsItsOwn) {
  // (Other programs change the available memory at any time: only bounds are checked.)
  std::vector<char> block(64 << 20, 1);
  const double held = static_cast<double>(resident_bytes());
  const double for_run = node_memory_for_run_bytes(MPI_COMM_WORLD);
  EXPECT_GE(held, 64.0 * (1 << 20)) << "block " << block[12345];
  EXPECT_GE(for_run, held);
  EXPECT_LE(for_run, static_cast<double>(physical_memory_bytes()));
}

TEST(NodeMemory, TheRefusalNamesAvailableMemory) {
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  EXPECT_EQ(run::memory_shortfall("SCALE 30", 40 * kGiB, 20 * kGiB, "this node", false, true),
            "SCALE 30 needs about 40.0 GiB on this node but it has 20.0 GiB available (use more nodes, a smaller "
            "SCALE, or --force)");
  EXPECT_EQ(run::memory_shortfall("SCALE 30", 40 * kGiB, 64 * kGiB, "this node", false, true), "");
}

}  // namespace
}  // namespace g500::util
