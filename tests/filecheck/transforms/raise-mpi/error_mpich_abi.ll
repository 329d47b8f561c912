; RUN: not xenzyme-opt %s -p raise-mpi 2>&1 | filecheck %s

; MPICH's mpi.h makes handles integers (MPI_DOUBLE is 0x4c00080b, MPI_COMM_WORLD 0x44000000): a
; program compiled against it calls MPI with another ABI than OpenMPI's, which xenzyme follows.

declare i32 @MPI_Send(ptr, i32, i32, i32, i32, i32)

define void @f(ptr %x, i32 %n) {
  %e = call i32 @MPI_Send(ptr %x, i32 %n, i32 1275070475, i32 1, i32 0, i32 1140850688), !dbg !8
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "halo.c", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 4, column: 3, scope: !5)

; CHECK:      xenzyme-opt: error: halo.c:4:3: @MPI_Send takes integer handles: the program was compiled against another MPI's mpi.h (MPICH's ABI), and xenzyme follows OpenMPI's, whose handles are pointers
; CHECK-NEXT: note: compile the program with OpenMPI's flags: clang-19 $(mpicc --showme:compile) ... (and link it with $(mpicc --showme:link))
