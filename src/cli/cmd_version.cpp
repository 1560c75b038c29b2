// `g500 version` (also `g500 --version`): what this g500 is (util/build_info.hpp) and the path its
// graph generator takes on this processor, and the width of its local vertex ids.
#include <cstdio>

#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "gen/kronecker.hpp"
#include "graph/local_id.hpp"
#include "util/build_info.hpp"

namespace g500::cli {
namespace {

int run_version_command(int argc, char** argv) {
  CLI::App app{"Print the version, build, compiler, MPI library and OpenMP version of this g500", "g500 version"};
  if (!parse_or_throw(app, argc, argv)) return 0;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf("%sKronecker generator: %s path on this processor\nlocal vertex ids: %d-bit%s\n",
                util::version_text(util::build_info()).c_str(), gen::generator_path(), graph::kLocalIdBits,
                graph::kWideIds ? "" : " (up to 2^32 vertices per grid row or column; more with -DG500_WIDE_IDS=ON)");
  return 0;
}

const SubcommandRegistrar registrar("version",
                                    "version, build, compiler, MPI library and OpenMP of this g500 (also --version)",
                                    run_version_command);

}  // namespace
}  // namespace g500::cli
