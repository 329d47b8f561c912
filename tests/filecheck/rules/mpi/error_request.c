// REQUIRES: clang, mpi
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s

// A non-blocking call's derivative keeps what it needs in the shadow of the request slot: a
// request array the caller passes without a shadow (enzyme_const) is an error.

#include <mpi.h>

extern void __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;

double post(double *x, MPI_Request *req, int peer) {
  MPI_Isend(x, 2, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, req);
  return x[0] * x[1];
}

void grad(double *x, double *dx, MPI_Request *req, int peer) {
  __enzyme_autodiff((void *)post, enzyme_dup, x, dx, enzyme_const, req, enzyme_const, peer);
}

// CHECK:      xenzyme-opt: error: {{.*}}error_request.c:13:3: cannot differentiate @post: the request of this MPI_Isend is kept in memory without a shadow, where its derivative keeps what the reverse sweep needs
// CHECK-NEXT: note: in: {{.*}}ompi.isend
// CHECK-NEXT: note: keep MPI_Request variables in the differentiated function, or pass their array with a shadow (enzyme_dup)
