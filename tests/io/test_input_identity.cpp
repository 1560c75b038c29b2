// io::identity_problem: what a rank found (fstat) against what the ranks agreed on (rank 0's
// fstat), on hand-made stat records: the same file unchanged, another file at the path (inode,
// or device on one host only), and a file that grew or was rewritten while it was read.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "io/input_file.hpp"

namespace g500::io {
namespace {

struct stat record(dev_t device, ino_t inode, off_t size, time_t seconds, long nanoseconds) {
  struct stat st {};
  st.st_dev = device;
  st.st_ino = inode;
  st.st_size = size;
  st.st_mtim.tv_sec = seconds;
  st.st_mtim.tv_nsec = nanoseconds;
  st.st_mode = S_IFREG | 0644;
  return st;
}

const struct stat kAgreed = record(2049, 1234567, 1234, 1700000000, 500);

TEST(InputIdentity, TheSameFileUnchangedIsFine) {
  EXPECT_EQ(identity_problem("g.tsv", kAgreed, kAgreed, true), "");
  struct stat later_access = kAgreed;
  later_access.st_atim.tv_sec += 60;  // reading it is no change
  EXPECT_EQ(identity_problem("g.tsv", kAgreed, later_access, true), "");
}

TEST(InputIdentity, AnotherFileAtThePathIsNamed) {
  const std::string advice = "; the ranks must read one file on a shared file system";
  EXPECT_EQ(identity_problem("g.tsv", kAgreed, record(2049, 7654321, 1234, 1700000000, 500), true),
            "'g.tsv' is not the same file on every rank (inode 7654321 on device 2049 here, inode 1234567 on device "
            "2049 on rank 0)" +
                advice);
  EXPECT_EQ(identity_problem("g.tsv", kAgreed, record(2049, 7654321, 1234, 1700000000, 500), false),
            "'g.tsv' is not the same file on every rank (inode 7654321 here, inode 1234567 on rank 0)" + advice);
  // The same inode on another device: another file on this host; on another host the device
  // number of one shared file system may differ, so only the inode counts there.
  const struct stat other_device = record(2050, 1234567, 1234, 1700000000, 500);
  EXPECT_EQ(identity_problem("g.tsv", kAgreed, other_device, true),
            "'g.tsv' is not the same file on every rank (inode 1234567 on device 2050 here, inode 1234567 on device "
            "2049 on rank 0)" +
                advice);
  EXPECT_EQ(identity_problem("g.tsv", kAgreed, other_device, false), "");
}

TEST(InputIdentity, AChangeWhileReadingIsNamedWithTheSizes) {
  EXPECT_EQ(identity_problem("g.tsv", kAgreed, record(2049, 1234567, 5678, 1700000001, 0), true),
            "'g.tsv' changed while it was read (size 1234 -> 5678 bytes); read a file that is not being written");
  EXPECT_EQ(identity_problem("g.tsv", kAgreed, record(2049, 1234567, 1000, 1700000000, 500), false),
            "'g.tsv' changed while it was read (size 1234 -> 1000 bytes); read a file that is not being written");
  // Rewritten in place at the same size: only the modification time tells, to the nanosecond.
  EXPECT_EQ(identity_problem("g.tsv", kAgreed, record(2049, 1234567, 1234, 1700000000, 501), true),
            "'g.tsv' changed while it was read (modified again, size 1234 bytes); read a file that is not being "
            "written");
}

}  // namespace
}  // namespace g500::io
