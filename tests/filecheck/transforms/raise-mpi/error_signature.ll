; RUN: not xenzyme-opt %s -p raise-mpi 2>&1 | filecheck %s

; A call of an MPI function whose types are not those of its prototype (a declaration of the
; program's own) is an error showing both.

declare i32 @MPI_Barrier(ptr, i32)

define void @g(ptr %c) {
  %e = call i32 @MPI_Barrier(ptr %c, i32 0)
  ret void
}

; CHECK:      xenzyme-opt: error: {{.*}}error_signature.ll: @MPI_Barrier is called as (!llvm.ptr, i32), not as MPI's prototype says (!llvm.ptr) -> i32
; CHECK-NEXT: note: declare it as OpenMPI's mpi.h does
