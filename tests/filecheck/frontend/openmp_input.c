// REQUIRES: clang
// RUN: xenzyme-opt %s | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O0 | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O2 --clang-arg=-fno-openmp | filecheck %s --check-prefix=SERIAL

// A source with `#pragma omp` is compiled with -fopenmp (unless the flags say otherwise): the
// directives are part of what the program means.

void scale(int n, double *x) {
  #  pragma   omp parallel for
  for (int i = 0; i < n; i++) x[i] *= 2;
}

// CHECK:      llvm.call @__kmpc_fork_call(
// CHECK:      llvm.func {{.*}}@scale.omp_outlined(
// CHECK:      llvm.call @__kmpc_for_static_init_4(

// SERIAL-NOT: __kmpc
