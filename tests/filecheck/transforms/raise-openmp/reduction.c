// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-openmp | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-openmp | filecheck %s --check-prefix=NONE
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s --check-prefix=NONE

// Reductions: __kmpc_reduce_nowait + switch (1: combine, 2: atomics) becomes one par.reduce per
// variable, whose kind is read from the combining code (at -O0 max/min are branches and a phi;
// at -O2 a select, and an array section's combine is unrolled and vectorised).  The reduction
// list, the reduction function and the lock are gone.

double sum(int n, const double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}

double prod(int n, const double *x) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; i++) p *= x[i];
  return p;
}

double vmax(int n, const double *x) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
  return m;
}

float vmin(int n, const float *x) {
  float m = 1e30f;
#pragma omp parallel for reduction(min : m)
  for (int i = 0; i < n; i++) m = x[i] < m ? x[i] : m;
  return m;
}

unsigned umax_count(int n, const unsigned *k) {
  unsigned m = 0, c = 0;
#pragma omp parallel for reduction(max : m) reduction(+ : c)
  for (int i = 0; i < n; i++) {
    m = k[i] > m ? k[i] : m;
    c += k[i] & 1;
  }
  return m + c;
}

void histogram(int n, const int *k, double *h) {
#pragma omp parallel for reduction(+ : h[0 : 8])
  for (int i = 0; i < n; i++) h[k[i] & 7] += 1.0;
}

double blocking(int n, const double *x) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++) s += x[i];
  }
  return s;
}

// NONE:        builtin.module
// NONE-NOT:    llvm.call @__kmpc
// NONE-NOT:    reduction_func
// NONE-NOT:    .gomp_critical_user_.reduction.var
// NONE-NOT:    red_list

// CHECK-LABEL: llvm.func internal @sum.omp_outlined(
// CHECK:         par.reduce add %{{.*}}, %{{.*}} nowait : f64
// CHECK-LABEL: llvm.func internal @prod.omp_outlined(
// CHECK:         par.reduce mul %{{.*}}, %{{.*}} nowait : f64
// CHECK-LABEL: llvm.func internal @vmax.omp_outlined(
// CHECK:         par.reduce max %{{.*}}, %{{.*}} nowait : f64
// CHECK-LABEL: llvm.func internal @vmin.omp_outlined(
// CHECK:         par.reduce min %{{.*}}, %{{.*}} nowait : f32
// CHECK-LABEL: llvm.func internal @umax_count.omp_outlined(
// CHECK:         par.reduce umax %{{.*}}, %{{.*}} nowait : i32
// CHECK-NEXT:    par.reduce add %{{.*}}, %{{.*}} nowait : i32
// CHECK-LABEL: llvm.func internal @histogram.omp_outlined(
// CHECK:         par.reduce add %{{.*}}, %{{.*}} count 8 nowait : f64
// CHECK-LABEL: llvm.func internal @blocking.omp_outlined(
// CHECK:         par.reduce add %{{.*}}, %{{.*}} : f64
// CHECK:         "omp.barrier"() : () -> ()
