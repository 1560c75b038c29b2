// One machine's cores shared by the ranks (host_sharing.hpp).
#include "model/host_sharing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "util/error.hpp"

namespace g500::model {

namespace {
double& at(PhaseSeconds& s, Phase p) { return s[static_cast<int>(p)]; }
// The ranks of a core wait for each other half before and half after a segment (header).
constexpr double kWaitBefore = 0.5, kWaitAfter = 0.5;
constexpr double kMicro = 1e-6, kGiga = 1e9;

const NetworkSpec::MeasuredAtRanks* measured(const NetworkSpec& net, int ranks) {
  for (const auto& m : net.measured_at_ranks)
    if (m.ranks == ranks) return &m;
  return nullptr;
}
}  // namespace

double ranks_per_core(double ranks, double threads, int cores) {
  return std::max(1.0, ranks * std::max(1.0, threads) / std::max(1, cores));
}

double shared_step_latency(const NetworkSpec& net, int ranks, double q) {
  if (const auto* m = measured(net, ranks)) return m->latency;
  return net.latency + (std::max(1.0, q) - 1) * net.switch_latency;
}

double shared_bandwidth(const NetworkSpec& net, int ranks, double q) {
  if (const auto* m = measured(net, ranks)) return m->bandwidth;
  return net.link_bandwidth / std::max(1.0, q);
}

std::vector<NetworkSpec::MeasuredAtRanks> parse_measured_at_ranks(const std::string& text, const std::string& what) {
  std::vector<NetworkSpec::MeasuredAtRanks> rows;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (number == 1 || line.empty()) continue;  // the header
    NetworkSpec::MeasuredAtRanks m;
    char comma1 = 0, comma2 = 0;
    std::istringstream fields(line);
    if (!(fields >> m.ranks >> comma1 >> m.latency >> comma2 >> m.bandwidth) || comma1 != ',' || comma2 != ',' ||
        m.ranks < 1 || m.latency <= 0 || m.bandwidth <= 0)
      throw util::UsageError(fmt::format("{}: bad line {} (expected ranks,latency_us,bandwidth_gbs)", what, number));
    m.latency *= kMicro;
    m.bandwidth *= kGiga;
    rows.push_back(m);
  }
  if (rows.empty()) throw util::UsageError(what + ": no measurements");
  return rows;
}

void add_core_waits(PhaseSeconds& s, double calculation, double q, const LevelSynchronisation& sync) {
  if (q <= 1 || calculation <= 0) return;
  const double waiting = q - 1;
  const Phase first = sync.gathers ? Phase::kAllgatherv : Phase::kImbalance;
  const Phase last = sync.exchanges ? Phase::kAlltoallv : Phase::kImbalance;
  const int segments = sync.bottom_up ? std::max(1, sync.substeps) : 1;
  const double each = calculation / segments;
  for (int k = 0; k < segments; ++k) {
    // Bottom-up: sub-step k > 0 starts when its segment of the visited bitmap arrives (sendrecv);
    // every sub-step but the last ends by passing it on.
    const Phase before = k == 0 ? first : Phase::kSendrecv;
    const Phase after = k + 1 < segments ? Phase::kSendrecv : last;
    at(s, before) += kWaitBefore * waiting * each;
    at(s, after) += kWaitAfter * waiting * each;
  }
}

}  // namespace g500::model
