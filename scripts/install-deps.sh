#!/usr/bin/env bash
# Installs every Debian 12 package amcl needs to build, test and run (as root, via apt-get).
# The LLVM 22 packages come from bookworm-security in Debian's archive.
set -euo pipefail
PACKAGES=(
  cmake ninja-build g++ pkg-config
  llvm-22-dev llvm-22-tools llvm-22 clang-22 libclang-cpp22-dev libclang-22-dev
  liblld-22-dev lld-22 libclc-22 libclang-rt-22-dev zlib1g-dev libzstd-dev
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-c-headers opencl-clhpp-headers clinfo valgrind
  libgtest-dev googletest pocl-opencl-icd python3-pyopencl python3-numpy
  libllvmspirvlib15 libllvm15
  libclblast-dev libclfft-dev libviennacl-dev libvkfft-dev
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "install-deps: run as root: apt-get install ${missing[*]}" >&2; exit 1
  fi
else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
