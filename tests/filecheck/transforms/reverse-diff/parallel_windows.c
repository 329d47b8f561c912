// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-enzyme-calls,raise-openmp,reverse-diff | filecheck %s

// Adjoints of parameters that every iteration of a parallel loop reads (mu[c], for each point
// x[i]) go into a window of this thread's own, added into the shared shadow once, at the end of
// the thread's reverse: the region writes no shared memory (its result is a reduction), so
// nothing reads or resets those shadows before.  Where the region writes shared memory that
// the parameters may share (y), the additions stay atomic.

extern void __enzyme_autodiff(void *, ...);

double mixture(int n, int k, const double *x, const double *mu) {
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < n; i++)
    for (int c = 0; c < k; c++) e += (x[i] - mu[c]) * (x[i] - mu[c]);
  return e;
}

// CHECK-LABEL: llvm.func internal @reverse_mixture.omp_outlined(
// CHECK:         %window = llvm.alloca
// CHECK-NOT:     autodiff.accumulate {{.*}} atomic
// CHECK:         llvm.call @xenzyme.window.add.f64(%window
// CHECK-NOT:     autodiff.accumulate {{.*}} atomic
// CHECK:         llvm.call @xenzyme.window.flush.f64(%window
// CHECK-NOT:     autodiff.accumulate {{.*}} atomic
// CHECK:         llvm.return

void spread(int n, int k, const double *mu, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int c = 0; c < k; c++) s += mu[c] * i;
    y[i] = s;
  }
}

// CHECK-LABEL: llvm.func internal @reverse_spread.omp_outlined(
// CHECK-NOT:     xenzyme.window
// CHECK:         autodiff.accumulate %{{.*}}, %{{.*}} atomic
// CHECK-NOT:     xenzyme.window
// CHECK:         llvm.return

// The window's helpers: an element at an address that is not a multiple of its size, or past
// the window's limit, is added atomically where it is; the flush adds each nonzero element.
// CHECK-LABEL: llvm.func internal @xenzyme.window.add.f64(
// CHECK:         llvm.call @xenzyme.window.grow.f64(
// CHECK:         autodiff.accumulate %{{.*}}, %{{.*}} atomic {alignment = 8 : i64} : !llvm.ptr, f64
// CHECK-LABEL: llvm.func internal @xenzyme.window.flush.f64(
// CHECK:         llvm.fcmp "une"
// CHECK:         autodiff.accumulate %{{.*}}, %{{.*}} atomic {alignment = 8 : i64} : !llvm.ptr, f64

void grad(int n, int k, const double *x, double *dx, const double *mu, double *dmu, double *y, double *dy) {
  __enzyme_autodiff((void *)mixture, n, k, x, dx, mu, dmu);
  __enzyme_autodiff((void *)spread, n, k, mu, dmu, y, dy);
}
