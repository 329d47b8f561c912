// REQUIRES: clang
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s

// `target teams` (run on the host without an offload target: clang forks a league of teams)
// in a differentiated function is an error naming the construct and its line.

extern void __enzyme_autodiff(void *, ...);

double loss(int n, double *x) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) map(to : x[0 : n])
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

void grad(int n, double *x, double *dx) {
  __enzyme_autodiff((void *)loss, n, x, dx);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_target.c:11:{{[0-9]+}}: OpenMP construct 'teams' in @loss is not supported for differentiation (runtime call @__kmpc_fork_teams)
// CHECK-NOT:  Traceback
