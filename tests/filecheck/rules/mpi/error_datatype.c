// REQUIRES: clang, mpi
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DLONG_DOUBLE -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s --check-prefix=LONG
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DBYTES -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s --check-prefix=BYTES

// Data that carries derivatives sent with a datatype other than MPI_DOUBLE and MPI_FLOAT is an
// error: a user-defined datatype (made outside, kept in a global), a predefined one without
// derivative rules (MPI_LONG_DOUBLE), or untyped bytes (MPI_BYTE).

#include <mpi.h>

extern void __enzyme_autodiff(void *, ...);
MPI_Datatype pair; /* MPI_Type_contiguous(2, MPI_DOUBLE, &pair) in main */

double send_pairs(double *x, int peer) {
#if defined(LONG_DOUBLE)
  long double y[2] = {x[0], x[1]};
  MPI_Send(y, 2, MPI_LONG_DOUBLE, peer, 0, MPI_COMM_WORLD);
#elif defined(BYTES)
  MPI_Send(x, 16, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
#else
  MPI_Send(x, 1, pair, peer, 0, MPI_COMM_WORLD);
#endif
  return x[0] * x[1];
}

void grad(double *x, double *dx, int peer) { __enzyme_autodiff((void *)send_pairs, x, dx, peer); }

// CHECK:      xenzyme-opt: error: {{.*}}error_datatype.c:22:3: cannot differentiate @send_pairs: MPI_Send moves data that carries derivatives with a datatype that is not a predefined one (user-defined, or chosen at run time); only MPI_DOUBLE and MPI_FLOAT (and integer types) are supported
// CHECK-NEXT: note: in: {{.*}}ompi.send
// CHECK-NEXT: note: send the floating-point fields as MPI_DOUBLE or MPI_FLOAT, or mark the data enzyme_const

// LONG:       error_datatype.c:18:3: cannot differentiate @send_pairs: MPI_Send moves data that carries derivatives with datatype MPI_LONG_DOUBLE; only MPI_DOUBLE and MPI_FLOAT

// BYTES:      error_datatype.c:20:3: cannot differentiate @send_pairs: MPI_Send moves memory that holds derivatives as untyped bytes (MPI_BYTE)
// BYTES-NEXT: note: in:
// BYTES-NEXT: note: send floating-point data as MPI_DOUBLE or MPI_FLOAT
