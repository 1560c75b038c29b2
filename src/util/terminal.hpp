// Whether what this process writes to stderr ends up on a terminal, for the progress lines
// (util/progress.hpp). Started by hand, that is isatty(2). Started by Open MPI's mpiexec, a rank's
// stderr is a pipe to mpiexec even when mpiexec's own stderr is a terminal; the rank then asks
// what mpiexec's stderr is (Linux /proc), so progress shows on a terminal under mpiexec too.
#pragma once

namespace g500::util {

bool stderr_reaches_terminal();

}  // namespace g500::util
