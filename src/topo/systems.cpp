// System presets and --shape parsing (Nakao et al. 2021, section 2, Kuroda et al. 2013, section 2.2).
#include "topo/systems.hpp"

#include <cctype>
#include <set>

#include "util/error.hpp"

namespace g500::topo {

namespace {
constexpr int kTofuUnitA = 2, kTofuUnitB = 3, kTofuUnitC = 2;  // the fixed abc unit of Tofu/TofuD

SystemSpec tofu_system(const std::string& name, int x, int y, int z) {
  return SystemSpec{name,
                    {{"X", x, true},
                     {"Y", y, true},
                     {"Z", z, true},
                     {"a", kTofuUnitA, false},
                     {"b", kTofuUnitB, true},
                     {"c", kTofuUnitC, false}}};
}
}  // namespace

bool SystemSpec::has_tofu_axes() const {
  static const char* const kNames[] = {"X", "Y", "Z", "a", "b", "c"};
  if (axes.size() != 6) return false;
  for (int d = 0; d < 6; ++d)
    if (axes[d].name != kNames[d]) return false;
  return true;
}

SystemSpec fugaku_system() {
  constexpr int kX = 24, kY = 23, kZ = 24;
  return tofu_system("fugaku", kX, kY, kZ);
}

SystemSpec k_system() {
  constexpr int kX = 24, kY = 18, kZ = 16;
  return tofu_system("k", kX, kY, kZ);
}

SystemSpec system_preset(const std::string& name) {
  if (name == "fugaku") return fugaku_system();
  if (name == "k") return k_system();
  throw util::UsageError("unknown system preset '" + name + "' (known: fugaku, k; or give --shape)");
}

SystemSpec parse_shape(const std::string& text) {
  const std::string help = " (expected e.g. 24t,23t,24t,2m,3t,2m or a=2m,b=3t,c=2m)";
  SystemSpec spec{"shape", {}};
  std::set<std::string> names;
  long long nodes = 1;
  size_t start = 0;
  if (text.empty()) throw util::UsageError("empty --shape" + help);
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    std::string name = std::string(1, 'd');
    name += std::to_string(spec.axes.size());
    if (auto eq = item.find('='); eq != std::string::npos) {
      name = item.substr(0, eq);
      item = item.substr(eq + 1);
      bool ok = !name.empty() && std::isalpha(static_cast<unsigned char>(name[0]));
      for (char ch : name) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
      if (!ok) throw util::UsageError("bad axis name '" + name + "' in --shape '" + text + "'" + help);
    }
    if (item.size() < 2) throw util::UsageError("bad axis '" + item + "' in --shape '" + text + "'" + help);
    const char flag = item.back();
    std::string digits = item.substr(0, item.size() - 1);
    if (flag != 't' && flag != 'm')
      throw util::UsageError("axis '" + item + "' in --shape needs a t (torus) or m (mesh) suffix" + help);
    if (digits.empty() || digits.size() > 7 || digits.find_first_not_of("0123456789") != std::string::npos)
      throw util::UsageError("bad axis size '" + digits + "' in --shape '" + text + "'" + help);
    int size = std::stoi(digits);
    if (size < 1) throw util::UsageError("axis size must be at least 1 in --shape '" + text + "'");
    nodes *= size;
    if (nodes > kMaxNodes)
      throw util::UsageError("--shape '" + text + "' has more than " + std::to_string(kMaxNodes) + " nodes");
    if (!names.insert(name).second) throw util::UsageError("axis name '" + name + "' repeated in --shape");
    spec.axes.push_back(Axis{name, size, flag == 't'});
    if (static_cast<int>(spec.axes.size()) > kMaxShapeAxes)
      throw util::UsageError("--shape has more than " + std::to_string(kMaxShapeAxes) + " axes");
    start = end + 1;
  }
  return spec;
}

std::string describe_axes(const std::vector<Axis>& axes) {
  std::string s;
  for (const auto& a : axes) {
    if (!s.empty()) s += ",";
    s += a.name + (a.name.size() > 1 ? "=" : "") + std::to_string(a.size) + (a.torus ? "t" : "m");
  }
  return s;
}

}  // namespace g500::topo
