// Per-phase time breakdown of the BFS (Nakao et al. 2021, Figs. 8 and 12): local calculation, the three
// communication patterns, and imbalance (time waiting at the barrier that ends each level).
#pragma once
#include <mpi.h>

#include <array>
#include <string>

namespace g500::comm {

enum class Phase { kCalculation, kAllgatherv, kAlltoallv, kSendrecv, kImbalance, kCount };

inline const char* phase_name(Phase p) {
  constexpr std::array<const char*, static_cast<size_t>(Phase::kCount)> names{
      "calculation", "allgatherv", "alltoallv", "sendrecv", "imbalance"};
  return names[static_cast<size_t>(p)];
}

struct PhaseProfile {
  std::array<double, static_cast<size_t>(Phase::kCount)> seconds{};

  double& operator[](Phase p) { return seconds[static_cast<size_t>(p)]; }
  double operator[](Phase p) const { return seconds[static_cast<size_t>(p)]; }
  double total() const {
    double t = 0;
    for (double s : seconds) t += s;
    return t;
  }
  PhaseProfile& operator+=(const PhaseProfile& other) {
    for (size_t k = 0; k < seconds.size(); ++k) seconds[k] += other.seconds[k];
    return *this;
  }
};

// Charges the wall time of its lifetime to one phase.
class ScopedPhase {
 public:
  ScopedPhase(PhaseProfile& profile, Phase phase) : profile_(profile), phase_(phase), start_(MPI_Wtime()) {}
  ~ScopedPhase() { profile_[phase_] += MPI_Wtime() - start_; }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseProfile& profile_;
  Phase phase_;
  double start_;
};

}  // namespace g500::comm
