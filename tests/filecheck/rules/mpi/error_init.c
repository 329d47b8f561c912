// REQUIRES: clang, mpi
// RUN: not xenzyme-opt %s --clang-arg=-O2 --clang-arg=-g -p enzyme -t obj -o /dev/null 2>&1 | filecheck %s

// MPI_Init and MPI_Finalize belong outside the differentiated function.

#include <mpi.h>

extern void __enzyme_autodiff(void *, ...);

double whole_program(double *x) {
  MPI_Init(NULL, NULL);
  double y;
  MPI_Allreduce(x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return y;
}

void grad(double *x, double *dx) { __enzyme_autodiff((void *)whole_program, x, dx); }

// CHECK:      xenzyme-opt: error: {{.*}}error_init.c:11:3: cannot differentiate @whole_program: MPI_Init is called in differentiated code
// CHECK-NEXT: note: in: {{.*}}ompi.call @MPI_Init
// CHECK-NEXT: note: call MPI_Init and MPI_Finalize outside the function whose derivative is taken
