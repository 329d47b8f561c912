; RUN: not xenzyme-opt %s -p raise-enzyme-calls 2>&1 | filecheck %s

; A request with fewer arguments than the function takes is an error at the call's source line
; (from its debug location), with exit status 1 and no traceback.

source_filename = "prog.c"

declare double @__enzyme_autodiff(...)

define double @f(ptr %p, double %x, i32 %n) {
  ret double %x
}

define double @g(ptr %p, ptr %dp, double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, double %x), !dbg !9
  ret double %r
}

; CHECK:      xenzyme-opt: error: prog.c:12:14: invalid __enzyme_autodiff call: too few arguments: @f takes 3, got 2
; CHECK-NOT:  Traceback

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "prog.c", directory: "/src")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 10, type: !6, scopeLine: 10, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!9 = !DILocation(line: 12, column: 14, scope: !5)
