#include "util/fingerprint.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <string_view>

#include "util/build_id.hpp"
#include "util/build_info.hpp"

namespace g500::util {
namespace {

// The parts compared, in the order a difference is reported. The first check every rank makes is
// one broadcast of kParts 64-bit digests: builds that shall recognise each other must keep it.
enum Part { kBuild, kMpiLibrary, kArguments, kParts };
using Digests = std::array<uint64_t, kParts>;

constexpr uint64_t kFnvOffset = 14695981039346656037ULL;  // FNV-1a, 64-bit: the same in every build
constexpr uint64_t kFnvPrime = 1099511628211ULL;
constexpr int kFingerprintTag = 0x6670;  // the differing rank's fingerprint to rank 0
constexpr char kSeparator = '\0';        // between the parts of a sent fingerprint

uint64_t fnv1a(std::string_view text, uint64_t digest = kFnvOffset) {
  for (unsigned char c : text) digest = (digest ^ c) * kFnvPrime;
  return digest;
}

Digests digests_of(const RunFingerprint& f) {
  uint64_t arguments = kFnvOffset;
  for (const std::string& a : f.arguments) arguments = fnv1a(std::string_view(&kSeparator, 1), fnv1a(a, arguments));
  return {fnv1a(f.build), fnv1a(f.mpi_library), arguments};
}

std::string serialize(const RunFingerprint& f) {
  std::string text = f.build + kSeparator + f.mpi_library + kSeparator;
  for (const std::string& a : f.arguments) text += a + kSeparator;
  return text;
}

RunFingerprint deserialize(const std::string& text) {
  std::vector<std::string> parts;
  size_t begin = 0;
  for (size_t end; (end = text.find(kSeparator, begin)) != std::string::npos; begin = end + 1)
    parts.push_back(text.substr(begin, end - begin));
  RunFingerprint f;
  if (parts.size() >= 2) {
    f.build = parts[0];
    f.mpi_library = parts[1];
    f.arguments.assign(parts.begin() + 2, parts.end());
  }
  return f;
}

// "-x" or "--name" (not "-", and not a negative number): a token that starts an option.
bool starts_option(const std::string& token) {
  return token.size() >= 2 && token[0] == '-' &&
         (std::isalpha(static_cast<unsigned char>(token[1])) || token[1] == '-');
}

std::string shown(const std::string& token) {
  return token.empty() || token.find_first_of(" \t'\"") != std::string::npos ? "\"" + token + "\"" : token;
}

// The arguments after the subcommand in groups: an option with the values that follow it (a
// value before any option is a group of its own).
std::vector<std::string> option_groups(const std::vector<std::string>& arguments) {
  std::vector<std::string> groups;
  for (size_t k = 1; k < arguments.size(); ++k) {
    if (groups.empty() || starts_option(arguments[k]))
      groups.push_back(shown(arguments[k]));
    else
      groups.back().append(" ").append(shown(arguments[k]));
  }
  return groups;
}

std::string joined(std::vector<std::string>::const_iterator first, std::vector<std::string>::const_iterator last) {
  std::string text;
  for (auto it = first; it != last; ++it) text.append(text.empty() ? "" : " ").append(*it);
  return text;
}

// 'TEXT', or "no arguments" for nothing.
std::string quoted_or_none(const std::string& text) { return text.empty() ? "no arguments" : "'" + text + "'"; }

std::string command_line(const std::vector<std::string>& arguments) {
  std::string text = "g500";
  for (const std::string& a : arguments) text.append(" ").append(shown(a));
  return text;
}

// The options in which two argument lists differ, as "with 'A', rank 0 with 'B'".
std::string argument_difference(const std::vector<std::string>& rank0, const std::vector<std::string>& other) {
  const std::vector<std::string> a = option_groups(other), b = option_groups(rank0);
  size_t head = 0, tail = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  std::string mine = joined(a.begin() + head, a.end() - tail), theirs = joined(b.begin() + head, b.end() - tail);
  if (mine.empty() || theirs.empty()) {  // one side only has more: all of both, for context
    mine = joined(a.begin(), a.end());
    theirs = joined(b.begin(), b.end());
  }
  return "with " + quoted_or_none(mine) + ", rank 0 with " + quoted_or_none(theirs);
}

}  // namespace

RunFingerprint this_process_fingerprint(int argc, char** argv) {
  RunFingerprint f;
  f.build = build_id();
  f.mpi_library = mpi_library_version();
  for (int k = 1; k < argc; ++k) f.arguments.emplace_back(argv[k]);
  return f;
}

std::string describe_difference(const RunFingerprint& rank0, const RunFingerprint& other, int rank) {
  const std::string who = "rank " + std::to_string(rank);
  if (other.build != rank0.build)
    return who + " runs a different g500 build (" + other.build + ") than rank 0 (" + rank0.build + ")";
  if (other.mpi_library != rank0.mpi_library)
    return who + " runs with a different MPI library (" + other.mpi_library + ") than rank 0 (" + rank0.mpi_library +
           ")";
  if (other.arguments == rank0.arguments) return "";
  const std::string sub0 = rank0.arguments.empty() ? "" : rank0.arguments[0];
  const std::string sub = other.arguments.empty() ? "" : other.arguments[0];
  if (sub != sub0)
    return who + " was started as '" + command_line(other.arguments) + "', rank 0 as '" +
           command_line(rank0.arguments) + "'";
  return who + " was started " + argument_difference(rank0.arguments, other.arguments);
}

std::string fingerprint_disagreement(const RunFingerprint& mine, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (size == 1) return "";
  const Digests digests = digests_of(mine);
  Digests root = digests;
  MPI_Bcast(root.data(), kParts, MPI_UINT64_T, 0, comm);
  const int differs = digests == root ? size : rank;
  int first = size;
  MPI_Allreduce(&differs, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return "";
  // The first differing rank's whole fingerprint to rank 0, which words the message for all.
  std::string message;
  if (rank == first) {
    const std::string text = serialize(mine);
    const int length = static_cast<int>(text.size());
    MPI_Send(&length, 1, MPI_INT, 0, kFingerprintTag, comm);
    MPI_Send(text.data(), length, MPI_CHAR, 0, kFingerprintTag, comm);
  } else if (rank == 0) {
    int length = 0;
    MPI_Recv(&length, 1, MPI_INT, first, kFingerprintTag, comm, MPI_STATUS_IGNORE);
    std::string text(static_cast<size_t>(length), '\0');
    MPI_Recv(text.data(), length, MPI_CHAR, first, kFingerprintTag, comm, MPI_STATUS_IGNORE);
    message = "ranks disagree: " + describe_difference(mine, deserialize(text), first);
  }
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  message.resize(static_cast<size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, 0, comm);
  return message;
}

}  // namespace g500::util
