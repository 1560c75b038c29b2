// Per-phase time breakdown of the BFS (Nakao et al. 2021, Figs. 8 and 12): local calculation, the three
// communication patterns, and imbalance (time waiting at the barrier that ends each level); and the
// bytes each rank sends in the communication phases (Table 3 of the same paper counts them;
// docs/volumes.md).
#pragma once
#include <mpi.h>

#include <array>
#include <cstdint>
#include <string>

namespace g500::util {

enum class Phase { kCalculation, kAllgatherv, kAlltoallv, kSendrecv, kImbalance, kCount };

constexpr size_t kPhaseCount = static_cast<size_t>(Phase::kCount);

inline const char* phase_name(Phase p) {
  constexpr std::array<const char*, kPhaseCount> names{"calculation", "allgatherv", "alltoallv", "sendrecv",
                                                       "imbalance"};
  return names[static_cast<size_t>(p)];
}

// The phases that move data: the three patterns of Table 3.
constexpr std::array<Phase, 3> kCommunicationPhases{Phase::kAllgatherv, Phase::kAlltoallv, Phase::kSendrecv};

// Bytes per phase (only the communication phases are ever non-zero).
using PhaseBytes = std::array<int64_t, kPhaseCount>;

// What was added to a count since it read `before`.
inline PhaseBytes bytes_since(const PhaseBytes& before, const PhaseBytes& now) {
  PhaseBytes added{};
  for (size_t k = 0; k < added.size(); ++k) added[k] = now[k] - before[k];
  return added;
}
inline void add_bytes(PhaseBytes& to, const PhaseBytes& bytes) {
  for (size_t k = 0; k < to.size(); ++k) to[k] += bytes[k];
}

struct PhaseProfile {
  std::array<double, kPhaseCount> seconds{};
  // Payload bytes this rank handed to MPI for other ranks in each communication phase, MPI's own
  // headers not included: an allgatherv counts the rank's own block once per other rank of the
  // group; an alltoallv the counts to the other ranks (its block to itself excluded); a sendrecv
  // or nonblocking send its message. The exchanges of counts that precede a v-collective (one or
  // two words per peer) are not counted, as Table 3 leaves out one-word messages.
  PhaseBytes bytes_sent{};

  double& operator[](Phase p) { return seconds[static_cast<size_t>(p)]; }
  double operator[](Phase p) const { return seconds[static_cast<size_t>(p)]; }
  void count_sent(Phase p, int64_t bytes) { bytes_sent[static_cast<size_t>(p)] += bytes; }
  int64_t sent(Phase p) const { return bytes_sent[static_cast<size_t>(p)]; }
  double total() const {
    double t = 0;
    for (double s : seconds) t += s;
    return t;
  }
  PhaseProfile& operator+=(const PhaseProfile& other) {
    for (size_t k = 0; k < seconds.size(); ++k) seconds[k] += other.seconds[k];
    add_bytes(bytes_sent, other.bytes_sent);
    return *this;
  }
};

// Charges the wall time of its lifetime to one phase, and the bytes it is told were sent.
class ScopedPhase {
 public:
  ScopedPhase(PhaseProfile& profile, Phase phase) : profile_(profile), phase_(phase), start_(MPI_Wtime()) {}
  ~ScopedPhase() { profile_[phase_] += MPI_Wtime() - start_; }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;
  void count_sent(int64_t bytes) { profile_.count_sent(phase_, bytes); }

 private:
  PhaseProfile& profile_;
  Phase phase_;
  double start_;
};

}  // namespace g500::util
