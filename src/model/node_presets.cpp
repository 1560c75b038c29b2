// The nodes of `g500 model --node` (node_presets.hpp).
#include "model/node_presets.hpp"

#include "util/error.hpp"

namespace g500::model {

namespace {
constexpr double kGB = 1e9;
constexpr double kGiB = 1024.0 * 1024 * 1024;
// Peak bandwidth of one DDR channel: transfers per second times 8 bytes.
constexpr double kDdr4_3200Channel = 3200e6 * 8;
constexpr double kDdr5_4800Channel = 4800e6 * 8;
constexpr int kChannelsPerSocket = 8;
// The x86 servers' memory: one 32 GiB module per channel, a common configuration (the vendors'
// maxima are terabytes); --node-memory gives another.
constexpr double kModuleBytes = 32 * kGiB;
constexpr double kSocketModules = kChannelsPerSocket * kModuleBytes;
constexpr double kX86LineBytes = 64, kArmLineBytes = 64;
constexpr double kA64fxLineBytes = 256, kKLineBytes = 128;

std::vector<NodePreset> make_presets() {
  return {
      {"a64fx", "Fujitsu A64FX (Fugaku)", 48, 2.0, 1024 * kGB, kA64fxLineBytes, 32 * kGiB,
       "Nakao et al. 2021, Table 1: 48 cores, 2.0 GHz, HBM2 1,024 GB/s, 32 GiB; Fujitsu A64FX "
       "Microarchitecture Manual: 256-byte cache lines"},
      {"k", "Fujitsu SPARC64 VIIIfx (K computer)", 8, 2.0, 64 * kGB, kKLineBytes, 16 * kGiB,
       "Nakao et al. 2021, Table 1: 8 cores, 2.0 GHz, 64 GB/s; 16 GiB DDR3 per node; 128-byte cache lines"},
      {"epyc-7763", "2 x AMD EPYC 7763 (Milan)", 2 * 64, 2.45, 2 * kChannelsPerSocket * kDdr4_3200Channel,
       kX86LineBytes, 2 * kSocketModules,
       "AMD EPYC 7763 product page: 64 cores, 2.45 GHz base, 8 channels of DDR4-3200 (204.8 GB/s) per socket"},
      {"xeon-8380", "2 x Intel Xeon Platinum 8380 (Ice Lake)", 2 * 40, 2.3, 2 * kChannelsPerSocket * kDdr4_3200Channel,
       kX86LineBytes, 2 * kSocketModules,
       "Intel ARK, Xeon Platinum 8380: 40 cores, 2.30 GHz base, 8 channels of DDR4-3200 per socket"},
      {"xeon-8480", "2 x Intel Xeon Platinum 8480+ (Sapphire Rapids)", 2 * 56, 2.0,
       2 * kChannelsPerSocket * kDdr5_4800Channel, kX86LineBytes, 2 * kSocketModules,
       "Intel ARK, Xeon Platinum 8480+: 56 cores, 2.00 GHz base, 8 channels of DDR5-4800 per socket"},
      {"grace", "NVIDIA Grace CPU Superchip", 144, 3.1, 1000 * kGB, kArmLineBytes, 240 * kGB,
       "NVIDIA Grace CPU Superchip: 144 Neoverse V2 cores, LPDDR5X up to 1 TB/s, 240, 480 or 960 GB "
       "(240 GB as on Isambard 3); 3.1 GHz"},
      {"graviton3", "AWS Graviton3 (hpc7g.16xlarge)", 64, 2.6, kChannelsPerSocket * kDdr5_4800Channel, kArmLineBytes,
       128 * kGiB, "AWS Graviton3: 64 Neoverse V1 cores at 2.6 GHz, 8 channels of DDR5-4800; hpc7g.16xlarge: 128 GiB"},
  };
}
}  // namespace

const std::vector<NodePreset>& node_presets() {
  static const std::vector<NodePreset> presets = make_presets();
  return presets;
}

std::string node_preset_names() {
  std::string names;
  for (const NodePreset& p : node_presets()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

const NodePreset& node_preset(const std::string& name) {
  for (const NodePreset& p : node_presets())
    if (p.name == name) return p;
  throw util::UsageError("unknown --node '" + name + "' (expected " + node_preset_names() + ")");
}

NodeProfile preset_profile(const NodePreset& node, const NodeProfile& a64fx) {
  if (node.name == "a64fx") return a64fx;
  if (node.name == "k") return k_profile(a64fx);
  const NodePreset& a64fx_node = node_preset("a64fx");
  // The share of the A64FX's peak bandwidth its calibrated random accesses use, a line each.
  const double bandwidth_share =
      a64fx.bottomup_rate * a64fx.cores * a64fx_node.cache_line_bytes / a64fx_node.memory_bandwidth;
  NodeProfile p =
      with_bottomup_rate(NodeProfile{}, bandwidth_share * node.memory_bandwidth / node.cache_line_bytes / node.cores);
  p.name = node.name;
  p.source = node.label +
             ": memory-bound rates, one cache line per access at the A64FX's share of the peak "
             "bandwidth (docs/model.md, \"The nodes\")";
  p.cores = node.cores;
  p.clock_ghz = node.clock_ghz;
  p.topdown_word_rate = p.bottomup_word_rate = node.memory_bandwidth / kScanBytesPerWord / node.cores;
  p.level_time_spread = a64fx.level_time_spread;
  p.variant = a64fx.variant;
  return p;
}

}  // namespace g500::model
