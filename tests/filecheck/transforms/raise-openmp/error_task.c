// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s
// RUN: not xenzyme-opt %s --clang-arg=-O0 -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s --check-prefix=NODEBUG

// A task inside a function a derivative request reaches (here through a parallel region and a
// call) is an error naming the construct and its source line; without debug information, the
// function.

extern void __enzyme_autodiff(void *, ...);

static void scale(int n, double *x) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task
    x[i] *= 2;
  }
}

double loss(int n, double *x) {
  scale(n, x);
  return x[0] * x[1];
}

void grad(int n, double *x, double *dx) {
  __enzyme_autodiff((void *)loss, n, x, dx);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_task.c:15:{{[0-9]+}}: OpenMP construct 'task' in @{{.*}}, which the derivative of @loss reaches, is not supported for differentiation (runtime call @__kmpc_omp_task_alloc)
// CHECK-NEXT: note: supported: parallel
// CHECK-NEXT: note: move the construct out of the differentiated code
// CHECK-NOT:  Traceback

// NODEBUG:    xenzyme-opt: error: {{.*}}error_task.c: OpenMP construct 'task' in @{{.*}}, which the derivative of @loss reaches
