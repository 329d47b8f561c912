// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-openmp | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s --check-prefix=NONE

// Parallel regions: num_threads and proc_bind clauses (pushed before the fork), the if()
// clause's serialized path (a direct call of the outlined function between
// __kmpc_serialized_parallel and its end: par.parallel ... serial), nested regions, and an
// orphaned worksharing loop in a function called from a region.

void clauses(int n, double *x) {
#pragma omp parallel for num_threads(3) proc_bind(spread)
  for (int i = 0; i < n; i++) x[i] *= 2;
}

void maybe(int n, double *x) {
#pragma omp parallel for if (n > 1000)
  for (int i = 0; i < n; i++) x[i] += 1;
}

void both(int n, double *x) {
#pragma omp parallel for if (n > 1000) num_threads(n / 100)
  for (int i = 0; i < n; i++) x[i] += 1;
}

void consecutive(int n, double *x) {
#pragma omp parallel num_threads(3)
  x[0] = 1;
#pragma omp parallel
  x[1] = 2;
}

__attribute__((noinline)) void part(int n, double *x) {
#pragma omp for nowait
  for (int i = 0; i < n; i++) x[i] -= 1;
}

void nested(int n, double *x) {
#pragma omp parallel num_threads(2)
  {
    part(n, x);
#pragma omp parallel
    part(n, x);
  }
}

// NONE:        builtin.module
// NONE-NOT:    llvm.call @__kmpc

// CHECK-LABEL: llvm.func {{.*}}@clauses(
// CHECK:         %[[N:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK:         par.parallel @clauses.omp_outlined(%{{.*}}, %{{.*}}) num_threads(%[[N]] : i32) proc_bind(spread) : (!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func {{.*}}@maybe(
// CHECK:         llvm.cond_br
// CHECK:         par.parallel @maybe.omp_outlined(%[[A:.*]], %[[B:.*]]) : (!llvm.ptr, !llvm.ptr)
// CHECK:         par.parallel @maybe.omp_outlined(%[[A]], %[[B]]) serial : (!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func {{.*}}@both(
// CHECK:         par.parallel @both.omp_outlined(%{{.*}}, %{{.*}}) num_threads(%{{.*}} : i32) : (!llvm.ptr, !llvm.ptr)
// CHECK:         par.parallel @both.omp_outlined(%{{.*}}, %{{.*}}) serial : (!llvm.ptr, !llvm.ptr)
// The second region gets no num_threads: the first consumed what was pushed.
// CHECK-LABEL: llvm.func {{.*}}@consecutive(
// CHECK:         par.parallel @consecutive.omp_outlined(%{{.*}}) num_threads(%{{.*}} : i32) : (!llvm.ptr)
// CHECK-NEXT:    par.parallel @consecutive.omp_outlined.{{[0-9]+}}(%{{.*}}) : (!llvm.ptr)
// CHECK-LABEL: llvm.func {{.*}}@part(
// CHECK:         par.static_init static
// CHECK:         par.static_fini
// CHECK-LABEL: llvm.func {{.*}}@nested(
// CHECK:         par.parallel @nested.omp_outlined(%{{.*}}, %{{.*}}) num_threads(%{{.*}} : i32) : (!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func internal @nested.omp_outlined(
// CHECK:         llvm.call {{(tail )?}}@part(
// CHECK:         par.parallel @nested.omp_outlined.omp_outlined(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr)
