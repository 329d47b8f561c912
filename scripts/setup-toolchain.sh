#!/usr/bin/env bash
# Installs the system tools xenzyme needs when they are missing, from Debian: clang-19 and lld-19,
# the OpenMP runtime (libomp-19-dev: libomp.so for linking, libomp.so.5 for running, omp.h),
# flang-19 (Fortran input), llvm-19 (llvm-dis-19: reading flang-19's bitcode) and OpenMPI
# (openmpi-bin: mpirun; libopenmpi-dev: mpi.h, libmpi.so, mpicc's flags).
# Idempotent: does nothing when they are already there.
# With --mlir, also MLIR's own tools (mlir-19-tools: mlir-opt-19, mlir-translate-19), which only
# benchmarks/mlir_lowering.py uses (the comparison of lowering with MLIR's passes); make test
# does not need them.
set -euo pipefail
need=()
if [ "${1:-}" = "--mlir" ]; then
  command -v mlir-opt-19 >/dev/null 2>&1 || need+=(mlir-19-tools)
fi
command -v clang-19 >/dev/null 2>&1 || need+=(clang-19)
command -v ld.lld-19 >/dev/null 2>&1 || need+=(lld-19)
command -v flang-new-19 >/dev/null 2>&1 || need+=(flang-19)
command -v llvm-dis-19 >/dev/null 2>&1 || need+=(llvm-19)
dpkg-query -W -f='${Status}' libomp-19-dev 2>/dev/null | grep -q 'install ok installed' || need+=(libomp-19-dev)
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)
dpkg-query -W -f='${Status}' libopenmpi-dev 2>/dev/null | grep -q 'install ok installed' || need+=(libopenmpi-dev)
# AddressSanitizer's runtime, for tests/test_sanitize.py
dpkg-query -W -f='${Status}' libclang-rt-19-dev 2>/dev/null | grep -q 'install ok installed' || need+=(libclang-rt-19-dev)
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing ${need[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -q "${need[@]}"; then
  $sudo apt-get update -q
  $sudo apt-get install -y -q "${need[@]}"
fi
