// Duration texts of the command line (src/util/duration): units, numbers, and what is not one.
#include <gtest/gtest.h>

#include "util/duration.hpp"

namespace g500::util {
namespace {

TEST(Duration, ReadsANumberAndItsUnit) {
  EXPECT_EQ(duration_seconds("60s"), 60.0);
  EXPECT_EQ(duration_seconds("2m"), 120.0);
  EXPECT_EQ(duration_seconds("0.5s"), 0.5);
  EXPECT_EQ(duration_seconds("250ms"), 0.25);
  EXPECT_EQ(duration_seconds("1.5h"), 5400.0);
  EXPECT_EQ(duration_seconds("+3s"), 3.0);
  EXPECT_EQ(duration_seconds("1e2s"), 100.0);
  EXPECT_EQ(duration_seconds("0s"), 0.0);    // a duration; the option's range refuses it
  EXPECT_EQ(duration_seconds("-1s"), -1.0);  // likewise
}

TEST(Duration, RefusesWhatIsNotOne) {
  for (const char* text : {"",      "60",    "s",    "ms",   "1x",     "2 m",  " 2m",  "2m ",   "2M",   "1min",
                           "1h30m", "1.5.s", "--1s", "++1s", "1e999s", "nans", "infs", "0x10s", "1,5s", "10sec"})
    EXPECT_EQ(duration_seconds(text), std::nullopt) << "'" << text << "'";
}

}  // namespace
}  // namespace g500::util
