; RUN: xenzyme-opt %s | filecheck %s
; RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

; Intrinsics with an op of their own become that op; any other `llvm.*` is a generic
; llvm.call_intrinsic.  LLVM 22 upgrades older forms on the way in (masked.load's alignment
; argument becomes an `align` attribute).  Declarations are implied by the uses and re-emitted, mangled, on export.

define void @memory(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 %n, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 true)
  call void @llvm.memset.p0.i64(ptr align 4 %d, i8 0, i64 %n, i1 false)
  %slot = alloca i64, align 8
  call void @llvm.lifetime.start.p0(ptr %slot)
  call void @llvm.lifetime.end.p0(ptr %slot)
  %c = icmp ne ptr %d, null
  call void @llvm.assume(i1 %c)
  ret void
}
; CHECK-LABEL: llvm.func @memory(%d: !llvm.ptr, %s: !llvm.ptr, %n: i64) {
; CHECK:         llvm.intr.memcpy(%d, %s, %n) {arg_attrs = [{llvm.align = 8 : i64}, {llvm.align = 8 : i64}, {}]} : !llvm.ptr, !llvm.ptr, i64
; CHECK-NEXT:    llvm.intr.memmove(%d, %s, %{{.*}}) {isVolatile = true} : !llvm.ptr, !llvm.ptr, i64
; CHECK-NEXT:    llvm.intr.memset(%d, %{{.*}}, %n) {arg_attrs = [{llvm.align = 4 : i64}, {}, {}]} : !llvm.ptr, i8, i64
; CHECK-NEXT:    %slot = llvm.alloca %{{.*}} x i64 {alignment = 8 : i64} : (i32) -> !llvm.ptr
; CHECK-NEXT:    llvm.intr.lifetime.start(%slot) : (!llvm.ptr) -> ()
; CHECK-NEXT:    llvm.intr.lifetime.end(%slot) : (!llvm.ptr) -> ()
; CHECK-NEXT:    %c = llvm.icmp "ne" %d, %{{.*}} : !llvm.ptr
; CHECK-NEXT:    llvm.intr.assume(%c) : (i1) -> ()

; LLVM-LABEL: define void @memory(
; LLVM-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 %n, i1 false)
; LLVM-NEXT:    call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 true)
; LLVM-NEXT:    call void @llvm.memset.p0.i64(ptr align 4 %d, i8 0, i64 %n, i1 false)
; LLVM-NEXT:    %slot = alloca i64, i32 1, align 8
; LLVM-NEXT:    call void @llvm.lifetime.start.p0(ptr %slot)
; LLVM-NEXT:    call void @llvm.lifetime.end.p0(ptr %slot)

define double @math(double %x, double %y, float %f, i32 %k) {
  %ma = call double @llvm.sqrt.f64(double %x)
  %mb = call fast double @llvm.exp.f64(double %ma)
  %mc = call double @llvm.log.f64(double %mb)
  %md = call double @llvm.pow.f64(double %mc, double %y)
  %me = call double @llvm.powi.f64.i32(double %md, i32 %k)
  %ms = call double @llvm.sin.f64(double %me)
  %mo = call double @llvm.cos.f64(double %ms)
  %fa = call double @llvm.fabs.f64(double %mo)
  %mn = call double @llvm.minnum.f64(double %fa, double %y)
  %mx = call double @llvm.maxnum.f64(double %mn, double %y)
  %cs = call double @llvm.copysign.f64(double %mx, double %y)
  %fl = call double @llvm.floor.f64(double %cs)
  %ce = call double @llvm.ceil.f64(double %fl)
  %tr = call double @llvm.trunc.f64(double %ce)
  %rd = call double @llvm.round.f64(double %tr)
  %fm = call double @llvm.fma.f64(double %rd, double %x, double %y)
  %fmad = call contract double @llvm.fmuladd.f64(double %fm, double %x, double %y)
  %ff = call float @llvm.exp2.f32(float %f)
  ret double %fmad
}
; CHECK-LABEL: llvm.func @math(
; CHECK-NEXT:    %ma = llvm.intr.sqrt(%x) : (f64) -> f64
; CHECK-NEXT:    %mb = llvm.intr.exp(%ma) {fastmathFlags = #llvm.fastmath<fast>} : (f64) -> f64
; CHECK-NEXT:    %mc = llvm.intr.log(%mb) : (f64) -> f64
; CHECK-NEXT:    %md = llvm.intr.pow(%mc, %y) : (f64, f64) -> f64
; CHECK-NEXT:    %me = llvm.intr.powi(%md, %k) : (f64, i32) -> f64
; CHECK-NEXT:    %ms = llvm.intr.sin(%me) : (f64) -> f64
; CHECK-NEXT:    %mo = llvm.intr.cos(%ms) : (f64) -> f64
; CHECK-NEXT:    %fa = llvm.intr.fabs(%mo) : (f64) -> f64
; CHECK-NEXT:    %mn = llvm.intr.minnum(%fa, %y) : (f64, f64) -> f64
; CHECK-NEXT:    %mx = llvm.intr.maxnum(%mn, %y) : (f64, f64) -> f64
; CHECK-NEXT:    %cs = llvm.intr.copysign(%mx, %y) : (f64, f64) -> f64
; CHECK-NEXT:    %fl = llvm.intr.floor(%cs) : (f64) -> f64
; CHECK-NEXT:    %ce = llvm.intr.ceil(%fl) : (f64) -> f64
; CHECK-NEXT:    %tr = llvm.intr.trunc(%ce) : (f64) -> f64
; CHECK-NEXT:    %rd = llvm.intr.round(%tr) : (f64) -> f64
; CHECK-NEXT:    %fm = llvm.intr.fma(%rd, %x, %y) : (f64, f64, f64) -> f64
; CHECK-NEXT:    %fmad = llvm.intr.fmuladd(%fm, %x, %y) {fastmathFlags = #llvm.fastmath<contract>} : (f64, f64, f64) -> f64
; CHECK-NEXT:    %ff = llvm.intr.exp2(%f) : (f32) -> f32

; LLVM-LABEL: define double @math(
; LLVM-NEXT:    %ma = call double @llvm.sqrt.f64(double %x)
; LLVM-NEXT:    %mb = call fast double @llvm.exp.f64(double %ma)
; LLVM:         %me = call double @llvm.powi.f64.i32(double %md, i32 %k)
; LLVM:         %fmad = call contract double @llvm.fmuladd.f64(double %fm, double %x, double %y)
; LLVM-NEXT:    %ff = call float @llvm.exp2.f32(float %f)

define i32 @reductions(<4 x double> %v, <8 x i32> %w) {
  %fs = call reassoc double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %v)
  %fp = call double @llvm.vector.reduce.fmul.v4f64(double 1.0, <4 x double> %v)
  %fx = call double @llvm.vector.reduce.fmax.v4f64(<4 x double> %v)
  %is = call i32 @llvm.vector.reduce.add.v8i32(<8 x i32> %w)
  %ix = call i32 @llvm.vector.reduce.smax.v8i32(<8 x i32> %w)
  ret i32 %is
}
; CHECK-LABEL: llvm.func @reductions(
; CHECK:         %fs = "llvm.intr.vector.reduce.fadd"(%{{.*}}, %v) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f64, vector<4xf64>) -> f64
; CHECK-NEXT:    %fp = "llvm.intr.vector.reduce.fmul"(%{{.*}}, %v) <{fastmathFlags = #llvm.fastmath<none>}> : (f64, vector<4xf64>) -> f64
; CHECK-NEXT:    %fx = llvm.intr.vector.reduce.fmax(%v) : (vector<4xf64>) -> f64
; CHECK-NEXT:    %is = llvm.intr.vector.reduce.add(%w) : (vector<8xi32>) -> i32
; CHECK-NEXT:    %ix = llvm.intr.vector.reduce.smax(%w) : (vector<8xi32>) -> i32

; LLVM-LABEL: define i32 @reductions(
; LLVM-NEXT:    %fs = call reassoc double @llvm.vector.reduce.fadd.v4f64(double 0.000000e+00, <4 x double> %v)
; LLVM-NEXT:    %fp = call double @llvm.vector.reduce.fmul.v4f64(double 1.000000e+00, <4 x double> %v)
; LLVM-NEXT:    %fx = call double @llvm.vector.reduce.fmax.v4f64(<4 x double> %v)
; LLVM-NEXT:    %is = call i32 @llvm.vector.reduce.add.v8i32(<8 x i32> %w)
; LLVM-NEXT:    %ix = call i32 @llvm.vector.reduce.smax.v8i32(<8 x i32> %w)

define <4 x float> @generic(ptr %p, <4 x i1> %m, i32 %i, <4 x float> %pass) {
  %cnt = call i32 @llvm.ctpop.i32(i32 %i)
  %um = call i32 @llvm.umax.i32(i32 %cnt, i32 3)
  %ml = call <4 x float> @llvm.masked.load.v4f32.p0(ptr %p, i32 4, <4 x i1> %m, <4 x float> %pass)
  call void @llvm.masked.store.v4f32.p0(<4 x float> %ml, ptr %p, i32 4, <4 x i1> %m)
  %sp = call ptr @llvm.stacksave.p0()
  call void @llvm.stackrestore.p0(ptr %sp)
  %ex = call i1 @llvm.expect.i1(i1 true, i1 false)
  ret <4 x float> %ml
}
; CHECK-LABEL: llvm.func @generic(
; CHECK:         %cnt = llvm.call_intrinsic "llvm.ctpop.i32"(%i) : (i32) -> i32
; CHECK-NEXT:    %um = llvm.call_intrinsic "llvm.umax.i32"(%cnt, %{{.*}}) : (i32, i32) -> i32
; CHECK-NEXT:    %ml = llvm.call_intrinsic "llvm.masked.load.v4f32.p0"(%p, %m, %pass) {arg_attrs = [{llvm.align = 4 : i64}, {}, {}]} : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
; CHECK-NEXT:    llvm.call_intrinsic "llvm.masked.store.v4f32.p0"(%ml, %p, %m) {arg_attrs = [{}, {llvm.align = 4 : i64}, {}]} : (vector<4xf32>, !llvm.ptr, vector<4xi1>) -> ()
; CHECK-NEXT:    %sp = llvm.call_intrinsic "llvm.stacksave.p0"() : () -> !llvm.ptr
; CHECK-NEXT:    llvm.call_intrinsic "llvm.stackrestore.p0"(%sp) : (!llvm.ptr) -> ()
; CHECK-NEXT:    %ex = llvm.call_intrinsic "llvm.expect.i1"(%{{.*}}, %{{.*}}) : (i1, i1) -> i1

; LLVM-LABEL: define <4 x float> @generic(
; LLVM-NEXT:    %cnt = call i32 @llvm.ctpop.i32(i32 %i)
; LLVM-NEXT:    %um = call i32 @llvm.umax.i32(i32 %cnt, i32 3)
; LLVM-NEXT:    %ml = call <4 x float> @llvm.masked.load.v4f32.p0(ptr align 4 %p, <4 x i1> %m, <4 x float> %pass)
; LLVM-NEXT:    call void @llvm.masked.store.v4f32.p0(<4 x float> %ml, ptr align 4 %p, <4 x i1> %m)

; The declarations come back at the end of the module, mangled by type.
; LLVM-DAG:     declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
; LLVM-DAG:     declare double @llvm.powi.f64.i32(double, i32)
; LLVM-DAG:     declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
; LLVM-DAG:     declare i32 @llvm.ctpop.i32(i32)

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)
declare void @llvm.assume(i1)
declare double @llvm.sqrt.f64(double)
declare double @llvm.exp.f64(double)
declare double @llvm.log.f64(double)
declare double @llvm.pow.f64(double, double)
declare double @llvm.powi.f64.i32(double, i32)
declare double @llvm.sin.f64(double)
declare double @llvm.cos.f64(double)
declare double @llvm.fabs.f64(double)
declare double @llvm.minnum.f64(double, double)
declare double @llvm.maxnum.f64(double, double)
declare double @llvm.copysign.f64(double, double)
declare double @llvm.floor.f64(double)
declare double @llvm.ceil.f64(double)
declare double @llvm.trunc.f64(double)
declare double @llvm.round.f64(double)
declare double @llvm.fma.f64(double, double, double)
declare double @llvm.fmuladd.f64(double, double, double)
declare float @llvm.exp2.f32(float)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmul.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmax.v4f64(<4 x double>)
declare i32 @llvm.vector.reduce.add.v8i32(<8 x i32>)
declare i32 @llvm.vector.reduce.smax.v8i32(<8 x i32>)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.umax.i32(i32, i32)
declare <4 x float> @llvm.masked.load.v4f32.p0(ptr, i32, <4 x i1>, <4 x float>)
declare void @llvm.masked.store.v4f32.p0(<4 x float>, ptr, i32, <4 x i1>)
declare ptr @llvm.stacksave.p0()
declare void @llvm.stackrestore.p0(ptr)
declare i1 @llvm.expect.i1(i1, i1)
