// REQUIRES: clang, mpi
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g --clang-arg=-DNULL_COMM -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s --check-prefix=COMMNULL

// The reverse sweep sends adjoints on the communicator the primal used, so it must be one that
// is still valid there: a predefined communicator, or one made outside the differentiated code
// and passed in or kept in memory.  One returned by a call xenzyme knows nothing of, and
// MPI_COMM_NULL, are errors.

#include <mpi.h>

extern void __enzyme_autodiff(void *, ...);
extern MPI_Comm library_communicator(void);

double total(double *x) {
  double y;
#ifdef NULL_COMM
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_NULL);
#else
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, MPI_SUM, library_communicator());
#endif
  return y;
}

void grad(double *x, double *dx) { __enzyme_autodiff((void *)total, x, dx); }

// CHECK:      xenzyme-opt: error: {{.*}}error_communicator.c:20:3: cannot differentiate @total: MPI_Allreduce uses a communicator xenzyme cannot follow (a value made by 'llvm.call')
// CHECK-NEXT: note: in: {{.*}}ompi.allreduce
// CHECK-NEXT: note: use MPI_COMM_WORLD, MPI_COMM_SELF, or a communicator created outside the differentiated code and passed in (or kept in memory)

// COMMNULL:   error_communicator.c:18:3: cannot differentiate @total: MPI_Allreduce uses a communicator xenzyme cannot follow (MPI_COMM_NULL)
