; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff | filecheck %s
; RUN: xenzyme-opt %s -p raise-enzyme-calls,reverse-diff,lower-autodiff | filecheck %s --check-prefix=LOWER
; RUN: xenzyme-opt %s -p enzyme -t llvm | filecheck %s --check-prefix=OPT

; Results written to an output array passed with its shadow (enzyme_dup), at three depths.  The
; shadow of the output is the seed: its values are read, cleared, and flow back into the shadow
; of the input.  out[0] = x[0] * x[1];  out[1] = sin(x[0]).

declare void @__enzyme_autodiff(...)
declare double @sin(double)

define void @f(ptr %x, ptr %out) {
  %x0 = load double, ptr %x, align 8
  %px1 = getelementptr inbounds double, ptr %x, i64 1
  %x1 = load double, ptr %px1, align 8
  %m = fmul double %x0, %x1
  store double %m, ptr %out, align 8
  %s = call double @sin(double %x0)
  %po1 = getelementptr inbounds double, ptr %out, i64 1
  store double %s, ptr %po1, align 8
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %out, ptr %dout) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %out, ptr %dout)
  ret void
}

; No seed parameter and no result: everything goes through the shadows.  The adjoints of %s,
; %m and x[0] are SSA values (no stack slot): x[0]'s two contributions, d_s * cos(x[0]) and
; d_m * x[1], are added with one fadd.
; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %[[DOUT:[^:]+]]: !llvm.ptr) attributes
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[X0:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK:         %[[DPX1:.*]] = llvm.getelementptr inbounds %[[DX]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; CHECK-NEXT:    %[[X1:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK:         %[[DPO1:.*]] = llvm.getelementptr inbounds %[[DOUT]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; CHECK-NOT:     llvm.alloca
; CHECK:         %[[D1:.*]] = llvm.load %[[DPO1]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[Z1:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[Z1]], %[[DPO1]] {alignment = 8 : i64} : f64, !llvm.ptr
; CHECK-NEXT:    %[[COS:.*]] = llvm.intr.cos(%[[X0]]) : (f64) -> f64
; CHECK-NEXT:    %[[DS:.*]] = llvm.fmul %[[D1]], %[[COS]] : f64
; CHECK-NEXT:    %[[D0:.*]] = llvm.load %[[DOUT]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK-NEXT:    %[[Z0:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
; CHECK-NEXT:    llvm.store %[[Z0]], %[[DOUT]] {alignment = 8 : i64} : f64, !llvm.ptr
; CHECK-NEXT:    %[[DM0:.*]] = llvm.fmul %[[D0]], %[[X1]] : f64
; CHECK-NEXT:    %[[DX0:.*]] = llvm.fadd %[[DS]], %[[DM0]] : f64
; CHECK-NEXT:    %[[DM1:.*]] = llvm.fmul %[[D0]], %[[X0]] : f64
; CHECK-NEXT:    autodiff.accumulate %[[DPX1]], %[[DM1]] {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK-NEXT:    autodiff.accumulate %[[DX]], %[[DX0]] {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK-NEXT:    llvm.return

; Accumulation into the input's shadow: load, fadd, store, aligned like the primal loads.
; LOWER-LABEL: llvm.func internal @diffef(
; LOWER-SAME:      %{{[^:]+}}: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr) attributes
; LOWER-NOT:     autodiff.
; LOWER:         %[[DPX1:.*]] = llvm.getelementptr inbounds %[[DX]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; LOWER:         %[[DX0:.*]] = llvm.fadd %{{.*}}, %{{.*}} : f64
; LOWER-NEXT:    %[[DX1:.*]] = llvm.fmul %{{.*}}, %{{.*}} : f64
; LOWER-NEXT:    %[[OLD1:.*]] = llvm.load %[[DPX1]] {alignment = 8 : i64} : !llvm.ptr -> f64
; LOWER-NEXT:    %[[NEW1:.*]] = llvm.fadd %[[OLD1]], %[[DX1]] : f64
; LOWER-NEXT:    llvm.store %[[NEW1]], %[[DPX1]] {alignment = 8 : i64} : f64, !llvm.ptr
; LOWER-NEXT:    %[[OLD:.*]] = llvm.load %[[DX]] {alignment = 8 : i64} : !llvm.ptr -> f64
; LOWER-NEXT:    %[[NEW:.*]] = llvm.fadd %[[OLD]], %[[DX0]] : f64
; LOWER-NEXT:    llvm.store %[[NEW]], %[[DX]] {alignment = 8 : i64} : f64, !llvm.ptr
; LOWER-NEXT:    llvm.return
; LOWER-NOT:     autodiff.

; Optimised: inlined, no stack slots; the output's shadow is read and cleared, the input's
; shadow updated, with cos(x[0]) for the sine.
; OPT-LABEL: define void @grad(ptr {{.*}}%x, ptr {{.*}}%dx, ptr {{.*}}%out, ptr {{.*}}%dout)
; OPT-NOT:     alloca
; OPT-NOT:     call {{.*}}@diffef
; OPT-DAG:     call double @llvm.cos.f64(
; OPT-DAG:     load {{.*}}, ptr %dout
; OPT-DAG:     store {{.*}} {{(zeroinitializer|0.000000e\+00)}}, ptr %dout
; OPT-DAG:     store {{.*}}, ptr %dx
; OPT:         ret void
; OPT-NOT:     define internal {{.*}}@diffef
