// Collective agreement on errors seen by only some ranks: every rank calls agree_or_throw with its
// local error text (empty when fine); if any rank failed, every rank throws UsageError carrying the
// lowest failing rank's message, so no rank is left waiting in a later collective.
#pragma once
#include <mpi.h>

#include <string>

namespace g500 {

void agree_or_throw(const std::string& local_error, MPI_Comm comm = MPI_COMM_WORLD);

}  // namespace g500
