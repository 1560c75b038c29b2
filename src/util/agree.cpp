#include "util/agree.hpp"

#include <vector>

#include "util/error.hpp"

namespace g500::util {

std::string first_error(const std::string& local_error, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = local_error.empty() ? size : rank;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return {};
  int length = rank == first ? static_cast<int>(local_error.size()) : 0;
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  std::vector<char> text(local_error.begin(), local_error.end());
  text.resize(length);
  MPI_Bcast(text.data(), length, MPI_CHAR, first, comm);
  return std::string(text.begin(), text.end());
}

void agree_or_throw(const std::string& local_error, MPI_Comm comm) {
  std::string message = first_error(local_error, comm);
  if (!message.empty()) throw UsageError(message);
}

}  // namespace g500::util
