// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-openmp | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s --check-prefix=NONE

// Synchronisation and thread identity: critical (the named lock global kept), single, master,
// barrier, flush, omp_get_thread_num / omp_get_num_threads.  `omp atomic` stays an atomicrmw
// where LLVM has one, and a compare-exchange loop on a float's bits (multiply, divide, max)
// becomes par.atomic_update.

#include <omp.h>

void sync(int n, double *x) {
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp single
    x[0] = omp_get_num_threads();
#pragma omp master
    x[1] = 2;
#pragma omp barrier
#pragma omp critical(update)
    x[2] += t;
#pragma omp flush
  }
}

void atomics(int n, const double *v, double *x, float *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    x[0] += v[i];
#pragma omp atomic
    x[1] *= v[i];
#pragma omp atomic
    y[0] /= (float)v[i];
#pragma omp atomic compare
    if (x[2] < v[i]) x[2] = v[i];
  }
}

// NONE:        builtin.module
// NONE-NOT:    llvm.call @__kmpc
// NONE-NOT:    llvm.call @omp_
// NONE-NOT:    llvm.cmpxchg

// CHECK-LABEL: llvm.func internal @sync.omp_outlined(
// CHECK:         %[[T:.*]] = par.thread_num : i32
// CHECK:         %[[FIRST:.*]] = par.single_begin
// CHECK:         par.num_threads : i32
// CHECK:         par.single_end
// CHECK:         "omp.barrier"() : () -> ()
// CHECK:         %[[MASTER:.*]] = par.master_begin
// CHECK:         par.master_end
// CHECK:         "omp.barrier"() : () -> ()
// CHECK:         par.critical_begin @".gomp_critical_user_update.var"
// CHECK:         par.critical_end @".gomp_critical_user_update.var"
// CHECK:         "omp.flush"() : () -> ()
// CHECK-LABEL: llvm.func internal @atomics.omp_outlined(
// CHECK:         llvm.atomicrmw fadd
// CHECK:         par.atomic_update mul %{{.*}}, %{{.*}} monotonic : f64
// CHECK:         par.atomic_update div %{{.*}}, %{{.*}} monotonic : f32
// CHECK:         llvm.atomicrmw fmax
