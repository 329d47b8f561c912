; RUN: not xenzyme-opt %s -p 'raise-enzyme-calls,checkpoint-loops{scheme=off}' 2>&1 | filecheck %s

; A marker whose count is not a constant: an error at the call's line, not a traceback.
; CHECK: xenzyme-opt: error: m.c:7:5: __enzyme_checkpoint: the number of checkpoints must be a positive integer constant (got a value known only at run time)
; CHECK-NEXT: note: for example __enzyme_checkpoint(32); the count is fixed when the program is compiled
; CHECK-NOT: Traceback

declare double @__enzyme_autodiff(...)
declare void @__enzyme_checkpoint(i32)

define double @f(double %x0, i64 %n, i32 %c) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %x = phi double [ %x0, %entry ], [ %x.next, %loop ]
  call void @__enzyme_checkpoint(i32 %c), !dbg !9
  %x.next = fmul double %x, %x
  %i.next = add nuw nsw i64 %i, 1
  %again = icmp slt i64 %i.next, %n
  br i1 %again, label %loop, label %done

done:
  ret double %x.next
}

define double @g(double %x0, i64 %n, i32 %c) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x0, i64 %n, i32 %c)
  ret double %d
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "m.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, unit: !0)
!6 = !DISubroutineType(types: !{})
!9 = !DILocation(line: 7, column: 5, scope: !5)
