// Wall-clock timer on MPI_Wtime (the clock the Graph500 reference uses).
#pragma once
#include <mpi.h>

namespace g500::util {

class Timer {
 public:
  Timer() : start_(MPI_Wtime()) {}
  void restart() { start_ = MPI_Wtime(); }
  double seconds() const { return MPI_Wtime() - start_; }

 private:
  double start_;
};

}  // namespace g500::util
