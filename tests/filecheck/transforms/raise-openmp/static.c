// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-openmp | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s --check-prefixes=CHECK,O2
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-openmp | filecheck %s --check-prefix=NONE
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s --check-prefix=NONE

// Statically scheduled loops, from clang-19's IR at -O0 and -O2: the fork becomes par.parallel in
// the caller, __kmpc_for_static_init_* a par.static_init in the outlined function, whose results
// the loop reads directly (the runtime's slots are promoted away).  No runtime call is left.

void axpy(int n, double a, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

void chunked(int n, double *x) {
#pragma omp parallel for schedule(static, 4)
  for (int i = 0; i < n; i++) x[i] *= 2;
}

void unsigned_iv(unsigned n, double *x) {
#pragma omp parallel for
  for (unsigned i = 0; i < n; i++) x[i] += 1;
}

void long_iv(long n, double *x) {
#pragma omp parallel for schedule(monotonic : static)
  for (long i = 0; i < n; i++) x[i] -= 1;
}

void collapsed(int n, int m, double *x) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) x[i * m + j] = i - j;
}

// NONE:        builtin.module
// NONE-NOT:    llvm.call @__kmpc
// NONE-NOT:    llvm.mlir.addressof @".gomp_critical
// NONE-NOT:    ident_t

// CHECK-LABEL: llvm.func {{.*}}@axpy(
// CHECK:         par.parallel @axpy.omp_outlined(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func internal @axpy.omp_outlined(
// CHECK:         %[[LB:.*]], %[[UB:.*]], %{{.*}}, %{{.*}} = par.static_init static %{{.*}} to %{{.*}} step %{{.*}} chunk %{{.*}} : i32
// O2-NEXT:       llvm.call_intrinsic "llvm.smin.i32"(%[[UB]], %{{.*}})
// O2-NEXT:       llvm.icmp "sgt" %[[LB]],
// CHECK:         par.static_fini
// CHECK-LABEL: llvm.func internal @chunked.omp_outlined(
// CHECK:         par.static_init static_chunked %{{.*}} to %{{.*}} step %{{.*}} chunk %{{.*}} : i32
// CHECK:         par.static_fini
// CHECK-LABEL: llvm.func internal @unsigned_iv.omp_outlined(
// CHECK:         par.static_init static unsigned %{{.*}} : i32
// CHECK-LABEL: llvm.func internal @long_iv.omp_outlined(
// CHECK:         par.static_init static monotonic %{{.*}} : i64
// CHECK-LABEL: llvm.func internal @collapsed.omp_outlined(
// CHECK:         par.static_init static %{{.*}} : i64
// CHECK:         llvm.sdiv
// CHECK:         par.static_fini
