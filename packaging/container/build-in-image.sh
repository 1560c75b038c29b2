#!/bin/sh
# The build steps of the g500 container images (Dockerfile, g500.def), on Debian 12 as root, with
# the sources in /src: installs the compiler, CMake, Open MPI and the libraries from Debian's
# packages, builds g500 for any x86-64 or Arm processor (no -march=native: the image runs on other
# machines than the one building it; the AVX2 generator is still chosen at run time), installs it
# in /opt/g500, checks that it runs, and removes what only the build needed.
# packaging/container/test-in-chroot runs these same steps in a clean Debian root.
set -eu
build_packages="g++ cmake ninja-build libopenmpi-dev libfmt-dev libcli11-dev nlohmann-json3-dev"
run_packages="openmpi-bin libopenmpi3 libgomp1 libfmt9 python3 python3-matplotlib"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $build_packages $run_packages >/dev/null
cmake -S /src -B /tmp/g500-build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DG500_ARCH_FLAGS= \
      -DG500_FETCH_DEPENDENCIES=OFF -DCMAKE_INSTALL_PREFIX=/opt/g500
cmake --build /tmp/g500-build
cmake --install /tmp/g500-build
rm -rf /tmp/g500-build
/opt/g500/bin/g500 --version
apt-get purge -y -qq $build_packages >/dev/null
apt-get autoremove -y -qq >/dev/null
rm -rf /var/lib/apt/lists/*
