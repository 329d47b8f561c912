// REQUIRES: clang, mpi
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DANY_TAG -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s --check-prefix=TAG

// The adjoint of a receive goes back to the rank and with the tag the data came with, which must
// be known: MPI_ANY_SOURCE and MPI_ANY_TAG are errors in a receive of data with derivatives.

#include <mpi.h>

extern void __enzyme_autodiff(void *, ...);

double take(double *x) {
  double y;
#ifdef ANY_TAG
  MPI_Recv(&y, 1, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#else
  MPI_Recv(&y, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#endif
  return x[0] * y;
}

void grad(double *x, double *dx) { __enzyme_autodiff((void *)take, x, dx); }

// CHECK:      xenzyme-opt: error: {{.*}}error_any_source.c:17:3: cannot differentiate @take: MPI_Recv receives from MPI_ANY_SOURCE: the derivative must travel back to the rank and tag the data came from, which xenzyme needs to know at compile time
// CHECK-NEXT: note: in: {{.*}}ompi.recv
// CHECK-NEXT: note: receive from a named rank with a named tag

// TAG:        error_any_source.c:15:3: cannot differentiate @take: MPI_Recv receives from MPI_ANY_TAG
