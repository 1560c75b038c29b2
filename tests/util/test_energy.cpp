// RAPL energy reading (src/util/energy): zone discovery, wrap-around via max_energy_range_uj and
// accumulation over intervals, against a fake powercap directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "run_command.hpp"
#include "util/energy.hpp"

namespace g500::util {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text << "\n";
}

// A zone directory intel-rapl:ID with its name, counter and range.
fs::path make_zone(const fs::path& root, const std::string& id, const std::string& name, uint64_t energy,
                   uint64_t range) {
  const fs::path zone = root / ("intel-rapl:" + id);
  fs::create_directories(zone);
  write(zone / "name", name);
  write(zone / "energy_uj", std::to_string(energy));
  write(zone / "max_energy_range_uj", std::to_string(range));
  return zone;
}

TEST(Energy, DeltaHandlesWrapAround) {
  EXPECT_EQ(energy_delta_uj(100, 350, 1000), 250u);
  EXPECT_EQ(energy_delta_uj(900, 100, 1000), 200u);  // 900 -> 1000, then 0 -> 100
  EXPECT_EQ(energy_delta_uj(1000, 0, 1000), 0u);
  EXPECT_EQ(energy_delta_uj(5, 5, 1000), 0u);
  EXPECT_EQ(energy_delta_uj(900, 100, 0), 100u);  // no range known: what was counted since the reset
}

TEST(Energy, FindsPackagesAndDramButNotSubzonesOrPsys) {
  const fs::path root = testing::make_temp_dir();
  make_zone(root, "0", "package-0", 1000, 262143328850);
  make_zone(root, "0:0", "core", 500, 262143328850);
  make_zone(root, "0:1", "dram", 200, 65712999613);
  make_zone(root, "1", "package-1", 3000, 262143328850);
  make_zone(root, "2", "psys", 9000, 262143328850);
  fs::create_directories(root / "intel-rapl");    // the control type, no counter
  fs::create_directories(root / "intel-rapl:3");  // a zone without a readable counter
  write(root / "intel-rapl:3" / "name", "package-3");
  const auto domains = find_rapl_domains(root.string());
  ASSERT_EQ(domains.size(), 3u);
  EXPECT_EQ(domains[0].name, "package-0");
  EXPECT_EQ(domains[1].name, "dram");
  EXPECT_EQ(domains[1].max_range_uj, 65712999613u);
  EXPECT_EQ(domains[2].name, "package-1");
  uint64_t value = 0;
  EXPECT_TRUE(read_energy_uj(domains[2].path, value));
  EXPECT_EQ(value, 3000u);
  fs::remove_all(root);
}

TEST(Energy, MeterSumsIntervalsAcrossDomainsAndWraps) {
  const fs::path root = testing::make_temp_dir();
  const fs::path package = make_zone(root, "0", "package-0", 999000000, 1000000000);  // near its range
  const fs::path dram = make_zone(root, "0:2", "dram", 10, 1000000000);
  EnergyMeter meter(root.string());
  ASSERT_TRUE(meter.available());
  ASSERT_EQ(meter.domains().size(), 2u);
  meter.begin();
  write(package / "energy_uj", "2000000");  // wrapped: 1,000,000 + 2,000,000 uJ
  write(dram / "energy_uj", "500010");      // 0.5 J
  meter.end();
  EXPECT_DOUBLE_EQ(meter.joules(), 3.5);
  // Energy between end() and the next begin() (validation) is not counted.
  write(package / "energy_uj", "9000000");
  meter.begin();
  write(package / "energy_uj", "10000000");  // 1 J
  meter.end();
  EXPECT_DOUBLE_EQ(meter.joules(), 4.5);
  EXPECT_GE(meter.seconds(), 0.0);

  EnergyReport report;
  report.available = true;
  report.nodes = 1;
  report.joules = 4.5;
  report.seconds = 0.5;
  EXPECT_DOUBLE_EQ(report.watts(), 9.0);
  EXPECT_DOUBLE_EQ(report.teps_per_watt(9e9), 1e9);
  EXPECT_EQ(
      energy_line(report, 9e9),
      "energy of the timed BFS searches only (0.500 s in all, too short for an average power: see --energy-loop): "
      "4.500 J, 9.0 W, 1e+09 TEPS/W (RAPL: package and DRAM of 1 node, not the whole system)");
  const auto j = energy_json(report, 9e9);
  EXPECT_EQ(j["available"], true);
  EXPECT_DOUBLE_EQ(j["watts"].get<double>(), 9.0);
  EXPECT_DOUBLE_EQ(j["teps_per_watt"].get<double>(), 1e9);
  fs::remove_all(root);
}

TEST(Energy, NotAvailableWithoutCountersOrWhenOneDisappears) {
  const fs::path root = testing::make_temp_dir();
  EXPECT_FALSE(EnergyMeter(root.string()).available());
  EXPECT_FALSE(EnergyMeter((root / "missing").string()).available());
  EXPECT_FALSE(EnergyMeter(root.string(), false).measuring());
  EXPECT_EQ(energy_line(EnergyReport{}, 1e9),
            "energy: not available (no readable RAPL counters; --energy-loop with --power-command measures a system's "
            "power)");
  EXPECT_EQ(energy_json(EnergyReport{}, 1e9).dump(), "{\"available\":false}");
  const fs::path package = make_zone(root, "0", "package-0", 100, 1000);
  EnergyMeter meter(root.string());
  ASSERT_TRUE(meter.available());
  meter.begin();
  fs::remove(package / "energy_uj");
  meter.end();
  EXPECT_FALSE(meter.available());
  fs::remove_all(root);
}

}  // namespace
}  // namespace g500::util
