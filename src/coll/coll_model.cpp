#include "coll/coll_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "util/error.hpp"

namespace g500::coll {

namespace {

// A pipeline of `depth` hops carrying M in segments of mS: (depth + M/mS - 1) steps of mS bytes,
// each step costing `per_step` sends (the fan-out a rank serves one after another).
CostTerms pipelined(double depth, double message, double segment, double per_step = 1) {
  if (depth <= 0 || message <= 0) return CostTerms{std::max(depth, 0.0) * per_step, 0};
  const double piece = segment > 0 ? std::min(segment, message) : message;
  const double steps = (depth + message / piece - 1) * per_step;
  return CostTerms{steps, steps * piece};
}

CostTerms rounds_of(double rounds, double bytes_per_round) { return CostTerms{rounds, rounds * bytes_per_round}; }

CostTerms bcast_terms(const std::string& algorithm, int p, const Shape3& shape, double m, double segment, int trees) {
  if (p <= 1) return {};
  if (algorithm == "linear") return rounds_of(p - 1, m);
  if (algorithm == "chain") return rounds_of(p - 1, m);
  if (algorithm == "pipeline") return pipelined(p - 1, m, segment);
  if (algorithm == "bintree") return pipelined(floor_log2(p), m, segment, 2);
  if (algorithm == "splitbintree") {
    CostTerms down = pipelined(floor_log2(std::max(1, (p - 1) / 2)) + 1, m / 2, segment, 2);
    return CostTerms{down.steps + 1, down.bytes + m / 2};
  }
  if (algorithm == "binomial") {
    const double piece = segment > 0 ? std::min(segment, m) : m;
    return rounds_of(ceil_log2(p) * std::max(1.0, m / piece), piece);
  }
  if (algorithm == "bintree3d") {
    const double depth = floor_log2(shape.n[0]) + floor_log2(shape.n[1]) + floor_log2(shape.n[2]);
    return pipelined(depth, m, segment > 0 ? segment : m);
  }
  if (algorithm.rfind("ktree", 0) == 0) {
    const int k = trees > 0 ? trees : 3;
    // Eq. 4 counts NX+NY+NZ-2 steps before the pipeline fills (one more than the NX+NY+NZ-3 hops
    // of the deepest rank of our trees); we keep the paper's count so fitted L, B are comparable.
    const double depth = shape.n[0] + shape.n[1] + shape.n[2] - 2;
    return pipelined(depth, m / k, segment > 0 ? segment : m / k);
  }
  throw util::UsageError(fmt::format("no cost model for bcast algorithm '{}'", algorithm));
}

CostTerms alltoall_terms(const std::string& algorithm, int p, const Shape3& shape, double m) {
  if (algorithm == "linear" || algorithm == "pairwise") return rounds_of(p - 1, m);
  if (algorithm == "bruck") {
    CostTerms t;
    for (int distance = 1; distance < p; distance <<= 1) {
      int blocks = 0;
      for (int i = 0; i < p; ++i) blocks += (i & distance) ? 1 : 0;
      t.steps += 1;
      t.bytes += blocks * m;
    }
    return t;
  }
  if (algorithm == "dimwise") {
    CostTerms t;
    for (int d = 0; d < 3; ++d)
      if (shape.n[d] > 1) {
        t.steps += shape.n[d] - 1;
        t.bytes += (shape.n[d] - 1) * (static_cast<double>(p) / shape.n[d]) * m;
      }
    return t;
  }
  throw util::UsageError(fmt::format("no cost model for alltoall(v) algorithm '{}'", algorithm));
}

CostTerms allgatherv_terms(const std::string& algorithm, int p, double m) {
  if (algorithm == "ring") return rounds_of(p - 1, m);
  if (algorithm == "bruck") return CostTerms{static_cast<double>(ceil_log2(p)), (p - 1) * m};
  if (algorithm == "recdbl") {
    int p2 = 1;
    while (p2 * 2 <= p) p2 *= 2;
    const bool extras = p2 != p;
    return CostTerms{floor_log2(p2) + (extras ? 2.0 : 0.0), (p - 1) * m + (extras ? (p - 1) * m : 0.0)};
  }
  throw util::UsageError(fmt::format("no cost model for allgatherv algorithm '{}'", algorithm));
}

}  // namespace

int floor_log2(int n) {
  int log = 0;
  while ((2 << log) <= n) ++log;
  return n >= 1 ? log : 0;
}
int ceil_log2(int n) {
  int log = 0;
  while ((1 << log) < n) ++log;
  return log;
}

CostTerms cost_terms(CollOp op, const std::string& algorithm, int processes, const Shape3& shape, double message_bytes,
                     double segment_bytes, int trees) {
  if (algorithm == kMpiAlgorithm || algorithm.rfind("ompi:", 0) == 0) return CostTerms{1, message_bytes};
  if (processes <= 1) return {};
  switch (op) {
    case CollOp::bcast:
      return bcast_terms(algorithm, processes, shape, message_bytes, segment_bytes, trees);
    case CollOp::alltoall:
    case CollOp::alltoallv:
      return alltoall_terms(algorithm, processes, shape, message_bytes);
    case CollOp::allgatherv:
      return allgatherv_terms(algorithm, processes, message_bytes);
  }
  return {};
}

LatencyBandwidth fit_latency_bandwidth(const std::vector<CostTerms>& terms, const std::vector<double>& seconds) {
  // Normal equations of min sum_i w_i (a_i L + b_i X - t_i)^2 with X = 1/B and w_i = 1/t_i^2.
  double saa = 0, sab = 0, sbb = 0, sat = 0, sbt = 0;
  LatencyBandwidth fit;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (seconds[i] <= 0) continue;
    const double w = 1 / (seconds[i] * seconds[i]), a = terms[i].steps, b = terms[i].bytes, t = seconds[i];
    saa += w * a * a;
    sab += w * a * b;
    sbb += w * b * b;
    sat += w * a * t;
    sbt += w * b * t;
    ++fit.points;
  }
  double latency = 0, inverse_bandwidth = 0;
  const double det = saa * sbb - sab * sab;
  if (fit.points >= 2 && std::abs(det) > 1e-12 * std::max(saa * sbb, 1e-300)) {
    latency = (sat * sbb - sbt * sab) / det;
    inverse_bandwidth = (saa * sbt - sab * sat) / det;
  } else if (saa > 0) {
    latency = sat / saa;  // sizes do not vary: latency only
  }
  fit.latency = latency;
  fit.bandwidth = inverse_bandwidth > 0 ? 1 / inverse_bandwidth : std::numeric_limits<double>::infinity();
  double squares = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (seconds[i] <= 0) continue;
    const double predicted = terms[i].steps * latency + terms[i].bytes * inverse_bandwidth;
    squares += std::pow((predicted - seconds[i]) / seconds[i], 2);
  }
  fit.rms_relative_error = fit.points > 0 ? std::sqrt(squares / fit.points) : 0;
  return fit;
}

double ktree_time(double latency, double bandwidth, double message, double segment, const Shape3& shape, int trees) {
  const double dimension_sum = shape.n[0] + shape.n[1] + shape.n[2];
  return (dimension_sum + message / (trees * segment) - 3) * (latency + segment / bandwidth);
}

double bintree3d_time(double latency, double bandwidth, double message, double segment, const Shape3& shape) {
  const double levels = floor_log2(shape.n[0]) + floor_log2(shape.n[1]) + floor_log2(shape.n[2]);
  return (levels + message / segment - 1) * (latency + segment / bandwidth);
}

double ktree_optimal_segment(double latency, double bandwidth, double message, const Shape3& shape, int trees,
                             bool as_printed) {
  const double offset = as_printed ? 2 : 3;
  const double denominator = trees * (shape.n[0] + shape.n[1] + shape.n[2] - offset);
  return denominator > 0 ? std::sqrt(latency * bandwidth * message / denominator) : message / trees;
}

double bintree3d_optimal_segment(double latency, double bandwidth, double message, const Shape3& shape) {
  const double denominator = floor_log2(shape.n[0]) + floor_log2(shape.n[1]) + floor_log2(shape.n[2]) - 1;
  return denominator > 0 ? std::sqrt(latency * bandwidth * message / denominator) : message;
}

double minimise_segment(const std::function<double(double)>& cost, double low, double high) {
  const double golden = (std::sqrt(5.0) - 1) / 2;
  constexpr int kIterations = 200;
  double a = std::log(low), b = std::log(high);
  double c = b - golden * (b - a), d = a + golden * (b - a);
  for (int i = 0; i < kIterations; ++i) {
    if (cost(std::exp(c)) < cost(std::exp(d)))
      b = d;
    else
      a = c;
    c = b - golden * (b - a);
    d = a + golden * (b - a);
  }
  return std::exp((a + b) / 2);
}

}  // namespace g500::coll
