// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-enzyme-calls,raise-openmp,reverse-diff | filecheck %s

// The caches of a region's thread (clang -O2 IR, the inner loop vectorised): a shadow pointer
// into the grid is rebuilt in the reverse sweep from its indices (the minimum cut keeps the row
// length once) instead of being cached per element; the caches of the inner loops are
// reserved once for the whole nest where the worksharing loop is entered (its trip count is the
// chunk's, tested in 32 bits), so a thread's buffers grow once per region run.

extern void __enzyme_autodiff(void *, ...);

void rows(int nx, int ny, const double *a, double *b) {
#pragma omp parallel for
  for (int i = 1; i < nx - 1; i++)
    for (int j = 1; j < ny - 1; j++) {
      int k = i * ny + j;
      b[k] = a[k] * a[k] * a[k] + a[k - ny] * a[k + 1];
    }
}

// CHECK-LABEL: llvm.func internal @augmented_rows.omp_outlined(
// CHECK:         par.static_init
// CHECK:         %[[NEST:[0-9]+]] = llvm.mul %{{[0-9]+}}, %{{[0-9]+}} : i64
// CHECK:         autodiff.cache.reserve %{{[0-9]+}}, %{{[0-9]+}} : !autodiff.cache<vector<2xf64>>
// CHECK:       ^bb3(
// CHECK-NOT:     !autodiff.cache<!llvm.ptr>
// CHECK:         llvm.return

void grad(int nx, int ny, const double *a, double *da, double *b, double *db) {
  __enzyme_autodiff((void *)rows, nx, ny, a, da, b, db);
}
