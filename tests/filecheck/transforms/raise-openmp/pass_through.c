// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O2 -p enzyme -t llvm | filecheck %s

// Constructs raise-openmp does not raise (here a task) pass through untouched where no
// derivative request reaches them; the rest of the program is raised and lowered as usual, and
// a derivative of a serial function of the same file is computed.

extern void __enzyme_autodiff(void *, ...);

void tasks(int n, double *x) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task
    x[i] *= 2;
  }
}

double sq(double *x) { return x[0] * x[0]; }

void grad(double *x, double *dx) {
  __enzyme_autodiff((void *)sq, x, dx);
}

// CHECK-LABEL: define {{.*}}void @tasks(
// CHECK:         call void (ptr, i32, ptr, ...) @__kmpc_fork_call(
// CHECK-LABEL: define internal void @tasks.omp_outlined(
// CHECK:         call i32 @__kmpc_single(
// CHECK:         call {{.*}}ptr @__kmpc_omp_task_alloc(
// CHECK:         call {{.*}}i32 @__kmpc_omp_task(
// CHECK-LABEL: define {{.*}}void @grad(
// CHECK-NOT:     __enzyme_autodiff
// CHECK:         store double
