// Paper Kuroda et al. 2013, Method A: cuboid sub-communicators on the 6D network (section 4.2, Tables 3 and 5).
#include "topo/cuboid_mapping.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <tuple>

#include "topo/logical3d.hpp"
#include "util/error.hpp"

namespace g500::topo {

namespace {
enum { X, Y, Z, A, B, C };
constexpr int kMaxAxesPerComm = 3;  // each communicator is a 3D cuboid
constexpr int kTwoNodeAxis = 2;     // a and c
constexpr int kRingB = 3;           // b
constexpr int kSplitPenalty = 8;    // score cost of sharing an axis between communicators
constexpr size_t kMaxFirstCandidates = 4000;
const std::vector<std::string> kAxisNames{"X", "Y", "Z", "a", "b", "c", "YB"};
constexpr int kYB = 6;
constexpr int kAxisCodes = 7;  // X, Y, Z, a, b, c, YB

int axis_code(const std::string& name) {
  for (size_t i = 0; i < kAxisNames.size(); ++i)
    if (kAxisNames[i] == name) return static_cast<int>(i);
  return -1;
}

struct Caps {
  std::array<long long, kAxisCodes> cap{};  // remaining room per axis code (YB handled via Y and b)
};
}  // namespace

CuboidSpec parse_cuboid_spec(const std::string& text) {
  const std::string help = " (expected e.g. a2,Y4,c2/X8,Z8,b3)";
  CuboidSpec spec;
  size_t start = 0;
  if (text.empty()) throw util::UsageError("empty --cuboid" + help);
  while (start <= text.size()) {
    size_t end = text.find('/', start);
    if (end == std::string::npos) end = text.size();
    std::string part = text.substr(start, end - start);
    CuboidComm comm;
    size_t p = 0;
    while (p <= part.size()) {
      size_t q = part.find(',', p);
      if (q == std::string::npos) q = part.size();
      std::string item = part.substr(p, q - p);
      size_t digits = item.find_first_of("0123456789");
      if (digits == std::string::npos || digits == 0)
        throw util::UsageError("bad factor '" + item + "' in --cuboid '" + text + "'" + help);
      std::string name = item.substr(0, digits);
      CuboidFactor f;
      if (name.back() == '\'') {
        f.outer = true;
        name.pop_back();
      }
      if (name == "A" || name == "B" || name == "C") name[0] = static_cast<char>(std::tolower(name[0]));
      if (axis_code(name) < 0) throw util::UsageError("unknown axis '" + name + "' in --cuboid" + help);
      std::string number = item.substr(digits);
      if (number.size() > 6 || number.find_first_not_of("0123456789") != std::string::npos)
        throw util::UsageError("bad factor size '" + number + "' in --cuboid '" + text + "'" + help);
      f.axis = name;
      f.size = std::stoi(number);
      if (f.size < 1) throw util::UsageError("factor sizes in --cuboid must be at least 1");
      comm.push_back(f);
      p = q + 1;
    }
    spec.comms.push_back(comm);
    start = end + 1;
  }
  return spec;
}

std::string format_cuboid_spec(const CuboidSpec& spec) {
  std::string s;
  for (const auto& comm : spec.comms) {
    s += "(";
    for (size_t i = 0; i < comm.size(); ++i) {
      if (i) s += ",";
      s += comm[i].axis + (comm[i].outer ? "'" : "") + std::to_string(comm[i].size);
    }
    s += ")";
  }
  return s;
}

void validate_cuboid_spec(const CuboidSpec& spec, const SystemSpec& system) {
  if (!system.has_tofu_axes())
    throw util::UsageError("--method cuboid needs a system with axes X,Y,Z,a,b,c (fugaku or k)");
  if (spec.comms.empty()) throw util::UsageError("--cuboid has no communicators");
  std::map<std::pair<std::string, bool>, int> parts;
  std::array<long long, kAxisCodes> used{1, 1, 1, 1, 1, 1, 1};
  for (const auto& comm : spec.comms) {
    if (comm.size() > static_cast<size_t>(kMaxAxesPerComm))
      throw util::UsageError("a communicator in --cuboid uses more than 3 axes (it must be a 3D cuboid)");
    std::map<std::string, int> seen;
    for (const auto& f : comm) {
      if (seen[f.axis]++) throw util::UsageError("axis " + f.axis + " appears twice in one --cuboid communicator");
      if (parts[{f.axis, f.outer}]++)
        throw util::UsageError("axis " + f.axis + (f.outer ? "'" : "") + " is used by two communicators");
      used[axis_code(f.axis)] *= f.size;
    }
  }
  const bool yb = used[kYB] > 1 || parts.count({"YB", false}) || parts.count({"YB", true});
  if (yb &&
      (parts.count({"Y", false}) || parts.count({"Y", true}) || parts.count({"b", false}) || parts.count({"b", true})))
    throw util::UsageError("YB (the merged Y*b segment) cannot be combined with Y or b in --cuboid");
  for (const char* ac : {"a", "c"})
    if (used[axis_code(ac)] > kTwoNodeAxis)
      throw util::UsageError(std::string("axis ") + ac + " takes at most 2 in --cuboid");
  if (used[B] != 1 && used[B] != kRingB)
    throw util::UsageError("axis b takes 3 (the whole ring) in --cuboid; put a factor 2 on YB instead");
  for (int d : {X, Y, Z})
    if (used[d] > system.axes[d].size)
      throw util::UsageError("axis " + kAxisNames[d] + " needs " + std::to_string(used[d]) + " but " + system.name +
                             " has " + std::to_string(system.axes[d].size));
  if (used[kYB] > static_cast<long long>(system.axes[Y].size) * kRingB)
    throw util::UsageError("YB needs " + std::to_string(used[kYB]) + " but the Y*b ring of " + system.name + " has " +
                           std::to_string(system.axes[Y].size * kRingB));
}

namespace {
struct Candidate {
  CuboidComm comm;
  int score = 0;
};

// All ways to write n as a product of up to 3 factors > 1 on distinct axes within `room`.
void comm_candidates(int n, const std::array<long long, kAxisCodes>& room, const std::array<bool, kAxisCodes>& taken,
                     std::vector<Candidate>& out) {
  std::vector<CuboidFactor> current;
  auto rec = [&](auto&& self, int remaining, int next_axis) -> void {
    if (remaining == 1) {
      Candidate c{current, 0};
      for (const auto& f : current) c.score += f.size - 1;
      out.push_back(c);
      return;
    }
    if (current.size() == static_cast<size_t>(kMaxAxesPerComm)) return;
    for (int ax = next_axis; ax < kAxisCodes; ++ax) {
      if (taken[ax]) continue;
      for (int f = 2; f <= remaining; ++f) {
        if (remaining % f != 0 || f > room[ax]) continue;
        if ((ax == A || ax == C) && f != kTwoNodeAxis) continue;
        if (ax == B && f != kRingB) continue;
        if (ax == kYB && std::any_of(current.begin(), current.end(),
                                     [](const CuboidFactor& g) { return g.axis == "Y" || g.axis == "b"; }))
          continue;  // YB replaces Y and b
        current.push_back(CuboidFactor{kAxisNames[ax], false, f});
        self(self, remaining / f, ax + 1);
        current.pop_back();
      }
    }
  };
  rec(rec, n, 0);
}

// Axes the next communicator may not take, given how often each is used so far: any axis twice
// (inner and outer part), a, b and c once, Y and b once YB is used, and YB once Y or b is.
std::array<bool, kAxisCodes> taken_axes(const std::array<int, kAxisCodes>& uses) {
  std::array<bool, kAxisCodes> taken{};
  const bool yb_used = uses[kYB] > 0, y_or_b_used = uses[Y] > 0 || uses[B] > 0;
  for (int ax = 0; ax < kAxisCodes; ++ax) taken[ax] = uses[ax] >= 2;  // inner + outer at most
  if (yb_used) taken[Y] = taken[B] = true;
  if (y_or_b_used) taken[kYB] = true;
  taken[A] = taken[A] || uses[A] > 0;
  taken[B] = taken[B] || uses[B] > 0;
  taken[C] = taken[C] || uses[C] > 0;
  return taken;
}

// Marks the factors of `comm` on an axis used before as outer parts (each costs kSplitPenalty
// on `score`) and takes their sizes from the room left per axis.
void place_comm(CuboidComm& comm, const std::array<int, kAxisCodes>& uses, std::array<long long, kAxisCodes>& left,
                int& score) {
  for (auto& f : comm) {
    const int ax = axis_code(f.axis);
    f.outer = uses[ax] > 0;
    if (f.outer) score += kSplitPenalty;
    left[ax] /= f.size;
    if (ax == kYB) left[Y] = left[B] = 1;
    if (ax == Y) left[kYB] = 1;
    if (ax == B) left[kYB] = 1;
  }
}

// The communicator sizes as the error messages write them: 4x8x2.
std::string joined_sizes(const std::vector<int>& comm_sizes) {
  std::string sizes;
  for (int n : comm_sizes) {
    if (!sizes.empty()) sizes += 'x';
    sizes += std::to_string(n);
  }
  return sizes;
}
}  // namespace

CuboidSpec auto_cuboid_spec(const std::vector<int>& comm_sizes, const SystemSpec& system) {
  if (!system.has_tofu_axes())
    throw util::UsageError("--method cuboid needs a system with axes X,Y,Z,a,b,c (fugaku or k)");
  std::array<long long, kAxisCodes> room{system.axes[X].size,
                                         system.axes[Y].size,
                                         system.axes[Z].size,
                                         kTwoNodeAxis,
                                         kRingB,
                                         kTwoNodeAxis,
                                         static_cast<long long>(system.axes[Y].size) * kRingB};
  std::optional<std::pair<int, CuboidSpec>> best;
  // Depth-first over communicators; an axis used before is split (outer part) at a score cost.
  std::vector<CuboidComm> chosen;
  std::array<int, kAxisCodes> uses{};
  size_t explored_first = 0;
  auto rec = [&](auto&& self, size_t k, std::array<long long, kAxisCodes> left, int score) -> void {
    if (best && score >= best->first) return;
    if (k == comm_sizes.size()) {
      best = {score, CuboidSpec{chosen}};
      return;
    }
    const std::array<bool, kAxisCodes> taken = taken_axes(uses);
    std::vector<Candidate> cands;
    comm_candidates(comm_sizes[k], left, taken, cands);
    std::stable_sort(cands.begin(), cands.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
    for (const auto& cand : cands) {
      if (k == 0 && ++explored_first > kMaxFirstCandidates) break;
      int s = score + cand.score;
      auto next_left = left;
      CuboidComm comm = cand.comm;
      place_comm(comm, uses, next_left, s);
      for (auto& f : comm) ++uses[axis_code(f.axis)];
      chosen.push_back(comm);
      self(self, k + 1, next_left, s);
      chosen.pop_back();
      for (auto& f : comm) --uses[axis_code(f.axis)];
    }
  };
  if (comm_sizes.empty()) throw util::UsageError("no communicator sizes for --method cuboid");
  for (int n : comm_sizes)
    if (n < 1) throw util::UsageError("communicator sizes must be at least 1");
  rec(rec, 0, room, 0);
  if (!best)
    throw util::UsageError(
        "no cuboid factorisation of " + joined_sizes(comm_sizes) + " fits " + system.name +
        " (a, c at most 2, b 3, X Y Z within the system; primes other than 2, 3 must fit X, Y or Z)");
  validate_cuboid_spec(best->second, system);
  return best->second;
}

CuboidLayout enumerate_cuboid(const CuboidSpec& spec, const SystemSpec& system) {
  validate_cuboid_spec(spec, system);
  CuboidLayout out;
  // Inner part sizes per axis code (the outer part's coordinate is scaled by them).
  std::array<int, kAxisCodes> inner{1, 1, 1, 1, 1, 1, 1}, total{1, 1, 1, 1, 1, 1, 1};
  for (const auto& comm : spec.comms)
    for (const auto& f : comm) {
      const int ax = axis_code(f.axis);
      if (!f.outer) inner[ax] = f.size;
      total[ax] *= f.size;
    }
  const int yb_len = total[kYB];
  const bool yb = yb_len > 1;
  const int yb_y_extent = (yb_len + kRingB - 1) / kRingB;
  out.extents = {total[X], yb ? yb_y_extent : total[Y], total[Z], total[A], yb ? kRingB : total[B], total[C]};
  out.job_shape = logical_job_shape(out.extents);
  if (yb) out.job_shape[1] = yb_len;
  long long nranks = 1;
  for (const auto& comm : spec.comms) {
    int n = 1;
    for (const auto& f : comm) n *= f.size;
    out.comm_sizes.push_back(n);
    nranks *= n;
  }
  if (nranks > kMaxNodes)
    throw util::UsageError("--cuboid describes more than " + std::to_string(kMaxNodes) + " ranks");
  out.coord_of_rank.resize(nranks);
  out.logical_of_rank.resize(nranks);
  for (long long r = 0; r < nranks; ++r) {
    std::array<int, kAxisCodes> value{};
    long long rest = r;
    for (const auto& comm : spec.comms)
      for (const auto& f : comm) {
        const int digit = static_cast<int>(rest % f.size);
        rest /= f.size;
        const int ax = axis_code(f.axis);
        value[ax] += f.outer ? digit * inner[ax] : digit;
      }
    std::array<int, 6> c{value[X], value[Y], value[Z], value[A], value[B], value[C]};
    if (yb) std::tie(c[Y], c[B]) = yb_ring_coord(value[kYB], yb_y_extent);
    out.coord_of_rank[r] = c;
    auto logical = logical_job_coord(c, out.extents);
    if (yb) logical[1] = value[kYB];
    out.logical_of_rank[r] = logical;
  }
  return out;
}

}  // namespace g500::topo
