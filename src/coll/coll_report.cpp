#include "coll/coll_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "util/error.hpp"
#include "util/output_file.hpp"

namespace g500::coll {

namespace {

int trees_in(const std::string& ran) {
  const auto at = ran.find("trees=");
  return at == std::string::npos ? 0 : std::stoi(ran.substr(at + 6));
}

Shape3 shape_of(const std::string& text, int processes) {
  if (text == "-" || text.empty()) return Shape3{{processes, 1, 1}};
  return parse_shape(text);
}

std::string human_bytes(double bytes) {
  if (bytes >= 1 << 20) return fmt::format("{:g}M", bytes / (1 << 20));
  if (bytes >= 1 << 10) return fmt::format("{:g}K", bytes / (1 << 10));
  return fmt::format("{:g}", bytes);
}

}  // namespace

std::vector<FittedGroup> fit_bench_rows(const std::vector<BenchRow>& rows) {
  std::map<std::tuple<std::string, std::string, std::string, std::string, int, int>, FittedGroup> groups;
  for (const BenchRow& r : rows) {
    auto& g = groups[{r.op, r.algorithm, r.ran, r.shape, r.segment_bytes, r.processes}];
    g.op = r.op;
    g.algorithm = r.algorithm;
    g.ran = r.ran;
    g.shape = r.shape;
    g.segment_bytes = r.segment_bytes;
    g.processes = r.processes;
    g.rows.push_back(r);
  }
  std::vector<FittedGroup> out;
  for (auto& [key, g] : groups) {
    std::vector<CostTerms> terms;
    std::vector<double> seconds;
    const CollOp op = parse_op(g.op);
    const Shape3 shape = shape_of(g.shape, g.processes);
    for (const BenchRow& r : g.rows) {
      terms.push_back(cost_terms(op, g.algorithm, g.processes, shape, static_cast<double>(r.bytes), g.segment_bytes,
                                 trees_in(g.ran)));
      seconds.push_back(r.median_seconds);
    }
    g.fit = fit_latency_bandwidth(terms, seconds);
    const double inverse_bandwidth = std::isinf(g.fit.bandwidth) ? 0 : 1 / g.fit.bandwidth;
    for (const CostTerms& t : terms) g.predicted.push_back(t.steps * g.fit.latency + t.bytes * inverse_bandwidth);
    out.push_back(std::move(g));
  }
  return out;
}

std::string format_fit_report(const std::vector<FittedGroup>& groups) {
  std::string text = fmt::format("{:<11} {:<13} {:<34} {:>7} {:>7} {:>4} {:>11} {:>11} {:>8}\n", "op", "algo", "ran",
                                 "shape", "segment", "np", "L [us]", "B [MB/s]", "rms err");
  for (const auto& g : groups)
    text += fmt::format("{:<11} {:<13} {:<34} {:>7} {:>7} {:>4} {:>11.3f} {:>11.1f} {:>7.1f}%\n", g.op, g.algorithm,
                        g.ran, g.shape, g.segment_bytes, g.processes, g.fit.latency * 1e6, g.fit.bandwidth / 1e6,
                        100 * g.fit.rms_relative_error);
  text += "\npredicted versus measured (median time per run):\n";
  text += fmt::format("{:<11} {:<13} {:>9} {:>13} {:>13} {:>7}\n", "op", "algo", "M [B]", "measured [us]", "model [us]",
                      "ratio");
  for (const auto& g : groups)
    for (std::size_t i = 0; i < g.rows.size(); ++i)
      text += fmt::format("{:<11} {:<13} {:>9} {:>13.2f} {:>13.2f} {:>7.2f}\n", g.op, g.algorithm, g.rows[i].bytes,
                          g.rows[i].median_seconds * 1e6, g.predicted[i] * 1e6,
                          g.rows[i].median_seconds > 0 ? g.predicted[i] / g.rows[i].median_seconds : 0.0);
  return text;
}

void write_fit_csv(const std::string& path, const std::vector<FittedGroup>& groups) {
  std::string text = "op,algo,ran,shape,segment,np,bytes,t_measured_s,t_model_s,L_s,B_Bps\n";
  for (const auto& g : groups)
    for (std::size_t i = 0; i < g.rows.size(); ++i)
      text += fmt::format("{},{},{},{},{},{},{},{:.9g},{:.9g},{:.9g},{:.9g}\n", g.op, g.algorithm, g.ran, g.shape,
                          g.segment_bytes, g.processes, g.rows[i].bytes, g.rows[i].median_seconds, g.predicted[i],
                          g.fit.latency, g.fit.bandwidth);
  util::write_whole_file(path, text);
}

std::string format_segment_study(const LinkCost& kt, const LinkCost& b3, const Shape3& shape,
                                 const std::vector<double>& messages, const std::string& csv_path) {
  constexpr int kSixTrees = 6;
  constexpr double kSmallestSegment = 16;
  std::string text = fmt::format(
      "segment-size model on shape {}\n"
      "k-tree (k = 6, Eq. 4), L = {:.3g} us, B = {:.3g} GB/s: optimum from d t/d mS = 0 uses NX+NY+NZ-3\n"
      "  (derived); Hosono et al. 2021's Eq. 5 prints NX+NY+NZ-2\n"
      "bintree3d (Eq. 6), L = {:.3g} us, B = {:.3g} GB/s: optimum Eq. 7, sqrt(L B M / (sum floor log2 N - 1))\n\n",
      shape.text(), kt.latency * 1e6, kt.bandwidth / 1e9, b3.latency * 1e6, b3.bandwidth / 1e9);
  text += fmt::format("{:>9} | {:>11} {:>11} {:>11} {:>11} | {:>11} {:>11} {:>11}\n", "M", "kt derived", "kt printed",
                      "kt numeric", "t(opt) us", "b3d Eq.7", "b3d numeric", "t(opt) us");
  // Opened first, so that an unwritable path fails before the study.
  std::optional<util::OutputFile> csv_file;
  std::string csv;
  if (!csv_path.empty()) {
    csv_file.emplace(csv_path, MPI_COMM_SELF);
    csv = "algo,shape,L_s,B_Bps,bytes,segment,t_model_s,optimum_derived,optimum_printed,optimum_numeric\n";
  }
  for (double m : messages) {
    auto ktree = [&](double s) { return ktree_time(kt.latency, kt.bandwidth, m, s, shape, kSixTrees); };
    auto b3d = [&](double s) { return bintree3d_time(b3.latency, b3.bandwidth, m, s, shape); };
    const double kt_derived = ktree_optimal_segment(kt.latency, kt.bandwidth, m, shape, kSixTrees);
    const double kt_printed = ktree_optimal_segment(kt.latency, kt.bandwidth, m, shape, kSixTrees, true);
    const double kt_numeric = minimise_segment(ktree, kSmallestSegment, m);
    const double b3_formula = bintree3d_optimal_segment(b3.latency, b3.bandwidth, m, shape);
    const double b3_numeric = minimise_segment(b3d, kSmallestSegment, m);
    text += fmt::format("{:>9} | {:>11.0f} {:>11.0f} {:>11.0f} {:>11.2f} | {:>11.0f} {:>11.0f} {:>11.2f}\n",
                        human_bytes(m), kt_derived, kt_printed, kt_numeric, ktree(kt_derived) * 1e6, b3_formula,
                        b3_numeric, b3d(b3_formula) * 1e6);
    if (csv_file)
      for (double s = kSmallestSegment; s <= m; s *= std::sqrt(2.0)) {
        csv += fmt::format("ktree6,{},{:.6g},{:.6g},{:.0f},{:.1f},{:.9g},{:.1f},{:.1f},{:.1f}\n", shape.text(),
                           kt.latency, kt.bandwidth, m, s, ktree(s), kt_derived, kt_printed, kt_numeric);
        csv += fmt::format("bintree3d,{},{:.6g},{:.6g},{:.0f},{:.1f},{:.9g},{:.1f},{:.1f},{:.1f}\n", shape.text(),
                           b3.latency, b3.bandwidth, m, s, b3d(s), b3_formula, b3_formula, b3_numeric);
      }
  }
  if (csv_file) csv_file->write_from_rank0(csv);
  return text;
}

std::string format_simulation(const std::vector<SimulationRow>& rows) {
  // One block per (op, M): algorithms down, the nine shapes across, time in microseconds.
  std::vector<std::string> columns;
  std::set<std::string> seen_columns;
  std::vector<std::pair<std::string, double>> blocks;
  std::set<std::pair<std::string, double>> seen_blocks;
  std::map<std::tuple<std::string, double, std::string, std::string>, double> time;
  std::map<std::pair<std::string, double>, std::vector<std::string>> algorithms_of;
  for (const auto& r : rows) {
    const std::string column = fmt::format("{}/{}D", r.size_name, r.dimensions);
    if (seen_columns.insert(column).second) columns.push_back(column);
    if (seen_blocks.insert({r.op, r.message}).second) blocks.push_back({r.op, r.message});
    auto& names = algorithms_of[{r.op, r.message}];
    if (std::find(names.begin(), names.end(), r.algorithm) == names.end()) names.push_back(r.algorithm);
    time[{r.op, r.message, r.algorithm, column}] = r.seconds;
  }
  std::string text;
  for (const auto& [op, m] : blocks) {
    text += fmt::format("\n{} M = {} B: predicted time [us]\n{:<13}", op, human_bytes(m), "algo");
    for (const auto& c : columns) text += fmt::format(" {:>11}", c);
    text += "\n";
    for (const auto& algo : algorithms_of[{op, m}]) {
      text += fmt::format("{:<13}", algo);
      for (const auto& c : columns) {
        auto it = time.find({op, m, algo, c});
        text += it == time.end() ? fmt::format(" {:>11}", "-") : fmt::format(" {:>11.1f}", it->second * 1e6);
      }
      text += "\n";
    }
  }
  return text;
}

void write_simulation_csv(const std::string& path, const std::vector<SimulationRow>& rows) {
  std::string text = "size,shape,dims,op,algo,bytes,segment,t_model_s,throughput_Bps\n";
  for (const auto& r : rows)
    text += fmt::format("{},{},{},{},{},{:.0f},{:.0f},{:.9g},{:.9g}\n", r.size_name, r.shape, r.dimensions, r.op,
                        r.algorithm, r.message, r.segment, r.seconds, r.throughput);
  util::write_whole_file(path, text);
}

}  // namespace g500::coll
