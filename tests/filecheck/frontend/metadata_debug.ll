; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s | filecheck %s --check-prefix=MOD
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM
; RUN: xenzyme-opt %s --print-debuginfo | filecheck %s --check-prefix=LOC

; Metadata attachments live in the `md` attribute (#llvm.md<kind = node>), !dbg locations in the
; op's location as loc("!N"("file":line:col)), phi locations on their block arguments; debug
; records are llvm.dbg_record ops; the numbered metadata is kept verbatim.

define double @sum(ptr %a, i64 %n) !dbg !10 {
entry:
  br label %loop, !dbg !20
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ], !dbg !21
  %acc = phi double [ 0.0, %entry ], [ %accnext, %loop ]
    #dbg_value(double %acc, !16, !DIExpression(), !21)
  %p = getelementptr inbounds double, ptr %a, i64 %i, !dbg !22
  %v = load double, ptr %p, align 8, !dbg !22, !tbaa !30
  %accnext = fadd double %acc, %v, !dbg !23
  %inext = add nuw i64 %i, 1, !dbg !21
  %done = icmp eq i64 %inext, %n, !dbg !21
  br i1 %done, label %exit, label %loop, !dbg !21, !llvm.loop !40
exit:
  ret double %accnext, !dbg !24
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "sum.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "sum", scope: !1, file: !1, line: 1, type: !11, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !15)
!11 = !DISubroutineType(types: !12)
!12 = !{!13}
!13 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!15 = !{!16}
!16 = !DILocalVariable(name: "acc", scope: !10, file: !1, line: 2, type: !13)
!20 = !DILocation(line: 3, column: 5, scope: !10)
!21 = !DILocation(line: 3, column: 19, scope: !10)
!22 = !DILocation(line: 4, column: 16, scope: !10)
!23 = !DILocation(line: 4, column: 13, scope: !10)
!24 = !DILocation(line: 5, column: 5, scope: !10)
!30 = !{!31, !31, i64 0}
!31 = !{!"double", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C/C++ TBAA"}
!40 = distinct !{!40, !41}
!41 = !{!"llvm.loop.mustprogress"}

; CHECK-LABEL: llvm.func @sum(%a: !llvm.ptr, %n: i64) -> f64 attributes {md = #llvm.md<dbg = [[SP:[0-9]+]]>} {
; CHECK:         llvm.br ^loop
; CHECK-NEXT:  ^loop(%i: i64, %acc: f64):
; CHECK-NEXT:    llvm.dbg_record "#dbg_value($0, !{{[0-9]+}}, !DIExpression(), !{{[0-9]+}})"(%acc) : f64
; CHECK-NEXT:    %p = llvm.getelementptr inbounds %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f64
; CHECK-NEXT:    %v = llvm.load %p {md = #llvm.md<tbaa = [[TBAA:[0-9]+]]>, alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK:         llvm.cond_br %done, ^exit, ^loop({{.*}}) {md = #llvm.md<llvm.loop = [[LOOP:[0-9]+]]>}

; LLVM-LABEL: define double @sum(ptr %a, i64 %n) !dbg !{{[0-9]+}} {
; LLVM:         %i = phi i64 [ 0, %entry ], [ %inext, %loop ], !dbg ![[L21:[0-9]+]]
; LLVM:           #dbg_value(double %acc, !{{[0-9]+}}, !DIExpression(), ![[L21]])
; LLVM-NEXT:    %p = getelementptr inbounds double, ptr %a, i64 %i, !dbg ![[L22:[0-9]+]]
; LLVM-NEXT:    %v = load double, ptr %p, align 8, !tbaa !{{[0-9]+}}, !dbg ![[L22]]
; LLVM:         br i1 %done, label %exit, label %loop, !llvm.loop !{{[0-9]+}}, !dbg ![[L21]]
; LLVM:       ![[L21]] = !DILocation(line: 3, column: 19, scope: !{{[0-9]+}})

; LOC:       ^loop(%i: i64 loc("![[L21:[0-9]+]]"("sum.c":3:19)), %acc: f64 loc(unknown)):
; LOC:         %p = llvm.getelementptr inbounds {{.*}} loc("![[L22:[0-9]+]]"("sum.c":4:16))
; LOC-NEXT:    %v = llvm.load {{.*}} loc("![[L22]]"("sum.c":4:16))
; LOC-NEXT:    %accnext = llvm.fadd {{.*}} loc("!{{[0-9]+}}"("sum.c":4:13))
; LOC-NEXT:    %inext = llvm.add {{.*}} loc("![[L21]]"("sum.c":3:19))

; The numbered metadata is kept verbatim in the module attribute `llvm.metadata`.
; MOD: builtin.module attributes {llvm.metadata = ["!llvm.dbg.cu = !{!0}", "!llvm.module.flags = !{!2, !3}", {{.*}}"!{{[0-9]+}} = !{!\22Simple C/C++ TBAA\22}"
