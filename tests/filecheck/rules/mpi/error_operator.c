// REQUIRES: clang, mpi
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DPROD -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s --check-prefix=PROD

// A reduction of data that carries derivatives with an operator other than MPI_SUM, MPI_MAX and
// MPI_MIN -- one the program made with MPI_Op_create, or MPI_PROD -- is an error.

#include <mpi.h>

extern void __enzyme_autodiff(void *, ...);
MPI_Op softsum; /* MPI_Op_create(..., &softsum) in main */

double reduce(double *x) {
  double y;
#ifdef PROD
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
#else
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, softsum, MPI_COMM_WORLD);
#endif
  return y;
}

void grad(double *x, double *dx) { __enzyme_autodiff((void *)reduce, x, dx); }

// CHECK:      xenzyme-opt: error: {{.*}}error_operator.c:18:3: cannot differentiate @reduce: MPI_Allreduce with a user-defined operator on floating-point data that carries derivatives is not supported (only MPI_SUM, MPI_MAX and MPI_MIN)
// CHECK-NEXT: note: in: {{.*}}ompi.allreduce
// CHECK-NEXT: note: reduce with MPI_SUM, MPI_MAX or MPI_MIN, or mark the data enzyme_const

// PROD:       error_operator.c:16:3: cannot differentiate @reduce: MPI_Allreduce with MPI_PROD on floating-point data that carries derivatives is not supported
