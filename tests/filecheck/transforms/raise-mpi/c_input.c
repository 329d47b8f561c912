// REQUIRES: clang, mpi
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-mpi | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-mpi | filecheck %s

// C compiled against OpenMPI's mpi.h (xenzyme-opt adds `mpicc --showme:compile` itself): at -O0
// and -O2 alike, each call becomes its op, whatever the shape of the code around it; no call of
// an MPI function is left.

#include <mpi.h>

double exchange(double *x, double *ghost, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Request req[2];
  MPI_Irecv(ghost, 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(&x[n - 1], 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  double s = *ghost, t;
  for (int i = 0; i < n; i++) s += x[i];
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  return t + MPI_Wtime() * 0;
}

// CHECK-LABEL: llvm.func {{.*}}@exchange(
// CHECK:         ompi.call @MPI_Comm_rank(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK:         ompi.call @MPI_Comm_size(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK:         ompi.irecv
// CHECK:         ompi.isend
// CHECK:         ompi.waitall
// CHECK:         ompi.allreduce
// CHECK:         ompi.bcast
// CHECK:         ompi.barrier
// CHECK:         ompi.call @MPI_Wtime() : () -> f64
// CHECK-NOT:     llvm.call @MPI_
