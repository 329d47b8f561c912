; RUN: not xenzyme-opt %s -p raise-enzyme-calls,forward-diff 2>&1 | filecheck %s

; A value with a tangent stored through a pointer marked enzyme_const: its tangent has nowhere
; to go.  The error points at the store's source line.

source_filename = "prog.c"

@enzyme_const = external global i32

declare void @__enzyme_fwddiff(...)

define void @f(double %x, ptr %out) {
  %m = fmul double %x, %x
  store double %m, ptr %out, !dbg !8
  ret void
}

define void @g(double %x, ptr %o) {
  call void (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, ptr @enzyme_const, ptr %o)
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "prog.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !5, scopeLine: 3, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!8 = !DILocation(line: 5, column: 8, scope: !4)

; CHECK:      xenzyme-opt: error: prog.c:5:8: cannot differentiate @f in forward mode: a value with a derivative is stored into memory that has no shadow
; CHECK-NEXT: note: in: store double %m, ptr %out, align 8
; CHECK-NEXT: note: mark the pointer argument enzyme_dup (with a shadow), or the stored value enzyme_const
; CHECK-NOT:  Traceback
