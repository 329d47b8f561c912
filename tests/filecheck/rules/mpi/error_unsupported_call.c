// REQUIRES: clang, mpi
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s
// RUN: not xenzyme-opt %s --clang-arg=-O0 -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s --check-prefix=NODEBUG

// An MPI function without a derivative rule in differentiated code is an error naming it and
// its line (without debug information, the function), even where no derivative flows through it.

#include <mpi.h>

extern void __enzyme_autodiff(void *, ...);

double split_sum(double *x) {
  MPI_Comm half;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  double s;
  MPI_Allreduce(x, &s, 1, MPI_DOUBLE, MPI_SUM, half);
  MPI_Comm_free(&half);
  return s;
}

void grad(double *x, double *dx) { __enzyme_autodiff((void *)split_sum, x, dx); }

// CHECK:      xenzyme-opt: error: {{.*}}error_unsupported_call.c:16:3: cannot differentiate @split_sum: no derivative rule for MPI_Comm_split
// CHECK-NEXT: note: in: {{.*}}ompi.call @MPI_Comm_split
// CHECK-NEXT: note: supported: point-to-point
// CHECK-NEXT: note: move the call out of the differentiated code
// CHECK-NOT:  Traceback

// NODEBUG:    xenzyme-opt: error: {{.*}}error_unsupported_call.c: cannot differentiate @split_sum: no derivative rule for MPI_Comm_split
