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

; No seed parameter and no result: everything goes through the shadows.
; CHECK-LABEL: llvm.func internal @diffef(
; CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %[[DOUT:[^:]+]]: !llvm.ptr) attributes
; CHECK:         %[[DPX1:.*]] = llvm.getelementptr inbounds %[[DX]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; CHECK:         %[[DPO1:.*]] = llvm.getelementptr inbounds %[[DOUT]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; CHECK:         %[[D1:.*]] = llvm.load %[[DPO1]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK:         llvm.store %{{.*}}, %[[DPO1]] {alignment = 8 : i64} : f64, !llvm.ptr
; CHECK-NEXT:    autodiff.accumulate %d_s, %[[D1]] : !llvm.ptr, f64
; CHECK:         %[[D0:.*]] = llvm.load %[[DOUT]] {alignment = 8 : i64} : !llvm.ptr -> f64
; CHECK:         llvm.store %{{.*}}, %[[DOUT]] {alignment = 8 : i64} : f64, !llvm.ptr
; CHECK-NEXT:    autodiff.accumulate %d_m, %[[D0]] : !llvm.ptr, f64
; CHECK:         autodiff.accumulate %[[DPX1]], %{{.*}} {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK:         autodiff.accumulate %[[DX]], %{{.*}} {alignment = 8 : i64} : !llvm.ptr, f64
; CHECK-NEXT:    llvm.return

; Accumulation into the input's shadow: load, fadd, store, aligned like the primal loads.
; LOWER-LABEL: llvm.func internal @diffef(
; LOWER-SAME:      %{{[^:]+}}: !llvm.ptr, %[[DX:[^:]+]]: !llvm.ptr, %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: !llvm.ptr) attributes
; LOWER-NOT:     autodiff.
; LOWER:         %[[DPX1:.*]] = llvm.getelementptr inbounds %[[DX]][1] : (!llvm.ptr) -> !llvm.ptr, f64
; LOWER:         %[[OLD1:.*]] = llvm.load %[[DPX1]] {alignment = 8 : i64} : !llvm.ptr -> f64
; LOWER-NEXT:    %[[NEW1:.*]] = llvm.fadd %[[OLD1]], %{{.*}} : f64
; LOWER-NEXT:    llvm.store %[[NEW1]], %[[DPX1]] {alignment = 8 : i64} : f64, !llvm.ptr
; LOWER-NEXT:    %[[V:.*]] = llvm.load %d_x0 : !llvm.ptr -> f64
; LOWER:         %[[OLD:.*]] = llvm.load %[[DX]] {alignment = 8 : i64} : !llvm.ptr -> f64
; LOWER-NEXT:    %[[NEW:.*]] = llvm.fadd %[[OLD]], %[[V]] : f64
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
