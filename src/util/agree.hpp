// Collective agreement on errors seen by only some ranks, so that no rank is left waiting in a
// later collective: every rank passes its local error text (empty when fine) and gets back the
// lowest failing rank's message (empty when every rank was fine).
#pragma once
#include <mpi.h>

#include <string>

namespace g500::util {

std::string first_error(const std::string& local_error, MPI_Comm comm);
// Throws UsageError with first_error's message when any rank failed.
void agree_or_throw(const std::string& local_error, MPI_Comm comm);

}  // namespace g500::util
