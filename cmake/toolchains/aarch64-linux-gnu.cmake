# Cross build for 64-bit Arm Linux (aarch64: Fugaku's A64FX, Graviton, Grace) with Debian's
# aarch64-linux-gnu-g++, against the arm64 libraries unpacked in G500_AARCH64_SYSROOT
# (.ci/aarch64-sysroot makes one). The programs run under qemu-aarch64 with the same folder
# (CMAKE_CROSSCOMPILING_EMULATOR; mpiexec starts them through binfmt_misc with QEMU_LD_PREFIX).
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
#         -DG500_AARCH64_SYSROOT=/path/to/sysroot
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES G500_AARCH64_SYSROOT)
if(NOT G500_AARCH64_SYSROOT)
  message(FATAL_ERROR "g500: set G500_AARCH64_SYSROOT to a folder of Debian's arm64 libraries (.ci/aarch64-sysroot DIR)")
endif()
set(sysroot "${G500_AARCH64_SYSROOT}")
set(libdir "${sysroot}/usr/lib/aarch64-linux-gnu")

set(CMAKE_FIND_ROOT_PATH "${sysroot}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# No build-tree run path: the folder's paths mean nothing on the target, and qemu finds the
# libraries in the folder's standard places.
set(CMAKE_SKIP_BUILD_RPATH ON)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L "${sysroot}")
# The libraries' own dependencies (hwloc, PMIx, ...) are found at link time in the folder.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-rpath-link,${libdir} -Wl,-rpath-link,${sysroot}/lib/aarch64-linux-gnu")

# Open MPI without its compiler wrapper (the build machine's mpicxx targets the build machine):
# FindMPI reads its flags from the folder's pkg-config files.
set(MPI_SKIP_COMPILER_WRAPPER ON)
set(ENV{PKG_CONFIG_LIBDIR} "${libdir}/pkgconfig:${sysroot}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${sysroot}")
set(MPI_mpi_LIBRARY "${libdir}/openmpi/lib/libmpi.so")
set(MPI_mpi_cxx_LIBRARY "${libdir}/openmpi/lib/libmpi_cxx.so")
