// REQUIRES: clang, cuda, ptxas
// RUN: xenzyme-opt %s -p enzyme -t 'cubin{arch=sm_90}' -o %t.cubin
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); print(d[:4], len(d) > 1000)" %t.cubin | filecheck %s

// A cubin, from ptxas: an ELF file.

// CHECK: b'\x7fELF' True

extern "C" __global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * expf(x[i]);
}
