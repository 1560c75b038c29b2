# Spack package of g500, kept with the sources: `spack repo add packaging/spack`, then from a
# checkout `spack dev-build g500@develop` (docs/install.md). tests/build/test_spack_package.py
# checks that it depends on every library the CMake build uses, at the versions it pins.
from spack.package import *


class G500(CMakePackage):
    """Graph500 BFS and SSSP benchmarks on MPI and OpenMP: the hybrid 2D BFS, delta-stepping SSSP,
    their validation, and tools for batch scripts, process mapping and performance models."""

    homepage = "https://graph500.org"

    # Built from a local checkout (spack dev-build / spack develop); a site publishing release
    # archives adds url and checksummed versions here.
    version("develop")

    variant("native", default=True,
            description="Optimise for the build machine (-march=native or -mcpu=native); "
                        "off: only the target flags of Spack's compiler wrappers")
    variant("tests", default=False, description="Build the GoogleTest suites (run with ctest)")

    depends_on("cmake@3.24:", type="build")
    depends_on("mpi")
    depends_on("fmt@9.1.0:")
    depends_on("cli11@2.1.2:")
    depends_on("nlohmann-json@3.11.2:")
    depends_on("googletest@1.12.1:", type=("build", "link"), when="+tests")
    depends_on("python@3.9:", type="run")
    depends_on("py-matplotlib", type="run")  # g500report's pictures

    conflicts("%gcc@:10", msg="g500 is C++20: GCC 11 or newer")
    conflicts("%clang@:13", msg="g500 is C++20: Clang 14 or newer")

    def cmake_args(self):
        args = [
            # Spack provides every library: never fetch one.
            self.define("G500_FETCH_DEPENDENCIES", False),
            self.define_from_variant("BUILD_TESTING", "tests"),
        ]
        if self.spec.satisfies("~native"):
            args.append(self.define("G500_ARCH_FLAGS", ""))
        return args
