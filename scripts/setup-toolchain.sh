#!/usr/bin/env bash
# Installs the system tools xenzyme needs when they are missing: clang-19, lld-19 and the OpenMP
# runtime libomp (libomp-19-dev: libomp.so for linking, libomp.so.5 for running, omp.h) from Debian.
# Idempotent: does nothing when they are already there.
set -euo pipefail
need=()
command -v clang-19 >/dev/null 2>&1 || need+=(clang-19)
command -v ld.lld-19 >/dev/null 2>&1 || need+=(lld-19)
dpkg-query -W -f='${Status}' libomp-19-dev 2>/dev/null | grep -q 'install ok installed' || need+=(libomp-19-dev)
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing ${need[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -q "${need[@]}"; then
  $sudo apt-get update -q
  $sudo apt-get install -y -q "${need[@]}"
fi
