// RUN: XENZYME_ROUNDTRIP
// RUN: xenzyme-opt %s | xenzyme-opt | filecheck %s

// Every op that xenzyme adds to the llvm dialect, or redefines, prints in its custom syntax and
// survives a round trip through the generic syntax (and `llvm.store`, whose custom syntax gains
// its atomic ordering).

// CHECK-LABEL: llvm.mlir.global external @g
llvm.mlir.global external @g(0 : i32) {addr_space = 0 : i32, alignment = 4 : i64} : i32

// CHECK:      llvm.mlir.alias linkonce_odr @ga {value_type = i32} : !llvm.ptr {
// CHECK-NEXT:   %[[A:.*]] = llvm.mlir.addressof @g : !llvm.ptr
// CHECK-NEXT:   llvm.return %[[A]] : !llvm.ptr
// CHECK-NEXT: }
llvm.mlir.alias linkonce_odr @ga {value_type = i32} : !llvm.ptr {
  %0 = llvm.mlir.addressof @g : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

llvm.func @callee(i32)
llvm.func @personality(...) -> i32

// CHECK-LABEL: llvm.func @comparisons
llvm.func @comparisons(%cp: !llvm.ptr, %cq: !llvm.ptr, %cvp: vector<4x!llvm.ptr>, %cx: f64, %cvd: vector<2xf64>, %cc: i1) {
  // CHECK-NEXT: %{{.*}} = llvm.icmp "ult" %cp, %cq : !llvm.ptr
  // CHECK-NEXT: %{{.*}} = llvm.icmp "eq" samesign %cp, %cq : !llvm.ptr
  // CHECK-NEXT: %[[VC:.*]] = llvm.icmp "ne" %cvp, %cvp : vector<4x!llvm.ptr>
  // CHECK-NEXT: %{{.*}} = llvm.fcmp "olt" %cx, %cx : f64
  // CHECK-NEXT: %[[FC:.*]] = llvm.fcmp "ueq" %cvd, %cvd {fastmathFlags = #llvm.fastmath<nnan,ninf>} : vector<2xf64>
  // CHECK-NEXT: %{{.*}} = llvm.fcmp "_true" %cx, %cx : f64
  // CHECK-NEXT: %{{.*}} = llvm.select %[[FC]], %cvd, %cvd : vector<2xi1>, vector<2xf64>
  // CHECK-NEXT: %{{.*}} = llvm.select %cc, %cx, %cx {fastmathFlags = #llvm.fastmath<nsz>} : i1, f64
  %0 = llvm.icmp "ult" %cp, %cq : !llvm.ptr
  %1 = llvm.icmp "eq" samesign %cp, %cq : !llvm.ptr
  %2 = llvm.icmp "ne" %cvp, %cvp : vector<4x!llvm.ptr>
  %3 = llvm.fcmp "olt" %cx, %cx : f64
  %4 = llvm.fcmp "ueq" %cvd, %cvd {fastmathFlags = #llvm.fastmath<nnan, ninf>} : vector<2xf64>
  %5 = llvm.fcmp "_true" %cx, %cx : f64
  %6 = llvm.select %4, %cvd, %cvd : vector<2xi1>, vector<2xf64>
  %7 = llvm.select %cc, %cx, %cx {fastmathFlags = #llvm.fastmath<nsz>} : i1, f64
  llvm.return
}

// CHECK-LABEL: llvm.func @geps
llvm.func @geps(%gp: !llvm.ptr, %gi: i32, %gvp: vector<4x!llvm.ptr>, %gvi: vector<4xi64>) {
  // CHECK-NEXT: %{{.*}} = llvm.getelementptr inbounds nuw %gp[%gi, 1] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.packed_struct<"P", (i8, i32)>
  // CHECK-NEXT: %{{.*}} = llvm.getelementptr nusw %gp[0, %gi] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  // CHECK-NEXT: %{{.*}} = llvm.getelementptr %gvp[%gvi] : (vector<4x!llvm.ptr>, vector<4xi64>) -> vector<4x!llvm.ptr>, f64
  // CHECK-NEXT: %{{.*}} = llvm.getelementptr inbounds %gp[2] {inrange = "-8, 8"} : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64)>
  %0 = llvm.getelementptr inbounds nuw %gp[%gi, 1] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.packed_struct<"P", (i8, i32)>
  %1 = llvm.getelementptr nusw %gp[0, %gi] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  %2 = llvm.getelementptr %gvp[%gvi] : (vector<4x!llvm.ptr>, vector<4xi64>) -> vector<4x!llvm.ptr>, f64
  %3 = llvm.getelementptr inbounds %gp[2] {inrange = "-8, 8"} : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64)>
  llvm.return
}

// CHECK-LABEL: llvm.func @casts_and_values
llvm.func @casts_and_values(%vx: f64, %vi: i32, %vp: !llvm.ptr, %vv: vector<4xi32>, %vap: !llvm.ptr) {
  // CHECK-NEXT: %{{.*}} = llvm.fptosi %vx : f64 to i32
  // CHECK-NEXT: %{{.*}} = llvm.fptoui %vx : f64 to i64
  // CHECK-NEXT: %{{.*}} = llvm.uitofp %vi {nneg} : i32 to f64
  // CHECK-NEXT: %{{.*}} = llvm.addrspacecast %vp : !llvm.ptr to !llvm.ptr<1>
  // CHECK-NEXT: %[[E:.*]] = llvm.extractelement %vv[%vi : i32] : vector<4xi32>
  // CHECK-NEXT: %{{.*}} = llvm.freeze %[[E]] : i32
  // CHECK-NEXT: %{{.*}} = llvm.mlir.poison : !llvm.struct<(i32, f64)>
  // CHECK-NEXT: %{{.*}} = llvm.mlir.metadata "!\22enzyme_dup\22"
  // CHECK-NEXT: %{{.*}} = llvm.va_arg %vap : (!llvm.ptr) -> f64
  %0 = llvm.fptosi %vx : f64 to i32
  %1 = llvm.fptoui %vx : f64 to i64
  %2 = llvm.uitofp %vi {nneg} : i32 to f64
  %3 = llvm.addrspacecast %vp : !llvm.ptr to !llvm.ptr<1>
  %4 = llvm.extractelement %vv[%vi : i32] : vector<4xi32>
  %5 = llvm.freeze %4 : i32
  %6 = llvm.mlir.poison : !llvm.struct<(i32, f64)>
  %7 = llvm.mlir.metadata "!\"enzyme_dup\""
  %8 = llvm.va_arg %vap : (!llvm.ptr) -> f64
  llvm.return
}

// CHECK-LABEL: llvm.func @atomics
llvm.func @atomics(%ap: !llvm.ptr, %ax: f32, %ai: i32) {
  // CHECK-NEXT: %{{.*}} = llvm.atomicrmw volatile fadd %ap, %ax syncscope("singlethread") monotonic {alignment = 4 : i64} : !llvm.ptr, f32
  // CHECK-NEXT: %{{.*}} = llvm.atomicrmw umax %ap, %ai seq_cst : !llvm.ptr, i32
  // CHECK-NEXT: %{{.*}} = llvm.cmpxchg weak volatile %ap, %ai, %ai acq_rel monotonic {alignment = 4 : i64} : !llvm.ptr, i32
  // CHECK-NEXT: %{{.*}} = llvm.cmpxchg %ap, %ai, %ai syncscope("agent") seq_cst seq_cst : !llvm.ptr, i32
  // CHECK-NEXT: llvm.fence syncscope("singlethread") acquire
  // CHECK-NEXT: llvm.fence seq_cst
  // CHECK-NEXT: llvm.store volatile %ai, %ap atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  %0 = llvm.atomicrmw volatile fadd %ap, %ax syncscope("singlethread") monotonic {alignment = 4 : i64} : !llvm.ptr, f32
  %1 = llvm.atomicrmw umax %ap, %ai seq_cst : !llvm.ptr, i32
  %2 = llvm.cmpxchg weak volatile %ap, %ai, %ai acq_rel monotonic {alignment = 4 : i64} : !llvm.ptr, i32
  %3 = llvm.cmpxchg %ap, %ai, %ai syncscope("agent") seq_cst seq_cst : !llvm.ptr, i32
  llvm.fence syncscope("singlethread") acquire
  llvm.fence seq_cst
  llvm.store volatile %ai, %ap atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @control
llvm.func @control(%kx: i32, %kti: !llvm.ptr) attributes {personality = @personality} {
  // CHECK-NEXT: llvm.switch %kx : i32, ^[[DEF:.*]](%kx : i32) [1: ^[[ONE:.*]], 7: ^[[DEF]](%kx : i32)]
  llvm.switch %kx : i32, ^def(%kx : i32) [1: ^one, 7: ^def(%kx : i32)]
// CHECK-NEXT: ^[[ONE]]:
// CHECK-NEXT:   llvm.invoke @callee(%kx) to ^[[DEF]](%kx : i32) unwind ^[[LPAD:.*]] : (i32) -> ()
^one:
  llvm.invoke @callee(%kx) to ^def(%kx : i32) unwind ^lpad : (i32) -> ()
// CHECK-NEXT: ^[[DEF]](%{{.*}}: i32):
// CHECK-NEXT:   llvm.invoke %kti(%kx) to ^[[DEF2:.*]] unwind ^[[LPAD]] : !llvm.ptr, (i32) -> ()
^def(%ky: i32):
  llvm.invoke %kti(%kx) to ^done unwind ^lpad : !llvm.ptr, (i32) -> ()
^done:
  llvm.return
// CHECK:      ^[[LPAD]]:
// CHECK-NEXT:   %[[LP:.*]] = llvm.landingpad cleanup (catch %kti : !llvm.ptr) (filter %kti : !llvm.ptr) : !llvm.struct<(!llvm.ptr, i32)>
// CHECK-NEXT:   llvm.resume %[[LP]] : !llvm.struct<(!llvm.ptr, i32)>
^lpad:
  %klp = llvm.landingpad cleanup (catch %kti : !llvm.ptr) (filter %kti : !llvm.ptr) : !llvm.struct<(!llvm.ptr, i32)>
  llvm.resume %klp : !llvm.struct<(!llvm.ptr, i32)>
}

// CHECK-LABEL: llvm.func @intrinsics
llvm.func @intrinsics(%nx: f64, %nn: i32, %nv: vector<4xf64>, %nvi: vector<4xi32>, %np: !llvm.ptr, %nq: !llvm.ptr, %nlen: i64, %nb: i8, %nc: i1) {
  // CHECK-NEXT: llvm.intr.memcpy(%np, %nq, %nlen) : !llvm.ptr, !llvm.ptr, i64
  // CHECK-NEXT: llvm.intr.memmove(%np, %nq, %nlen) {isVolatile = true} : !llvm.ptr, !llvm.ptr, i64
  // CHECK-NEXT: llvm.intr.memset(%np, %nb, %nlen) : !llvm.ptr, i8, i64
  // CHECK-NEXT: llvm.intr.lifetime.start(%np) : (!llvm.ptr) -> ()
  // CHECK-NEXT: llvm.intr.lifetime.end(%np) : (!llvm.ptr) -> ()
  // CHECK-NEXT: llvm.intr.assume(%nc) : (i1) -> ()
  // CHECK-NEXT: %{{.*}} = llvm.intr.fmuladd(%nx, %nx, %nx) {fastmathFlags = #llvm.fastmath<contract>} : (f64, f64, f64) -> f64
  // CHECK-NEXT: %{{.*}} = llvm.intr.powi(%nx, %nn) : (f64, i32) -> f64
  // CHECK-NEXT: %{{.*}} = llvm.intr.ldexp(%nx, %nn) : (f64, i32) -> f64
  // CHECK-NEXT: %{{.*}} = llvm.intr.trunc(%nx) : (f64) -> f64
  // CHECK-NEXT: %{{.*}} = llvm.intr.round(%nv) : (vector<4xf64>) -> vector<4xf64>
  // CHECK-NEXT: %{{.*}} = llvm.intr.tanh(%nx) : (f64) -> f64
  // CHECK-NEXT: %{{.*}} = llvm.intr.minimum(%nx, %nx) : (f64, f64) -> f64
  // CHECK-NEXT: %{{.*}} = llvm.intr.atan2(%nx, %nx) : (f64, f64) -> f64
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.fmax(%nv) : (vector<4xf64>) -> f64
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.add(%nvi) : (vector<4xi32>) -> i32
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.umin(%nvi) : (vector<4xi32>) -> i32
  llvm.intr.memcpy(%np, %nq, %nlen) : !llvm.ptr, !llvm.ptr, i64
  llvm.intr.memmove(%np, %nq, %nlen) {isVolatile = true} : !llvm.ptr, !llvm.ptr, i64
  llvm.intr.memset(%np, %nb, %nlen) : !llvm.ptr, i8, i64
  llvm.intr.lifetime.start(%np) : (!llvm.ptr) -> ()
  llvm.intr.lifetime.end(%np) : (!llvm.ptr) -> ()
  llvm.intr.assume(%nc) : (i1) -> ()
  %0 = llvm.intr.fmuladd(%nx, %nx, %nx) {fastmathFlags = #llvm.fastmath<contract>} : (f64, f64, f64) -> f64
  %1 = llvm.intr.powi(%nx, %nn) : (f64, i32) -> f64
  %2 = llvm.intr.ldexp(%nx, %nn) : (f64, i32) -> f64
  %3 = llvm.intr.trunc(%nx) : (f64) -> f64
  %4 = llvm.intr.round(%nv) : (vector<4xf64>) -> vector<4xf64>
  %5 = llvm.intr.tanh(%nx) : (f64) -> f64
  %6 = llvm.intr.minimum(%nx, %nx) : (f64, f64) -> f64
  %7 = llvm.intr.atan2(%nx, %nx) : (f64, f64) -> f64
  %8 = llvm.intr.vector.reduce.fmax(%nv) : (vector<4xf64>) -> f64
  %9 = llvm.intr.vector.reduce.add(%nvi) : (vector<4xi32>) -> i32
  %10 = llvm.intr.vector.reduce.umin(%nvi) : (vector<4xi32>) -> i32
  llvm.return
}

// CHECK-LABEL: llvm.func @debug_and_metadata
llvm.func @debug_and_metadata(%dx: f64, %dp: !llvm.ptr) {
  // CHECK-NEXT: llvm.dbg_record "#dbg_value($0, !12, !DIExpression(), !15)"(%dx) : f64
  // CHECK-NEXT: llvm.dbg_record "#dbg_label(!20, !21)"()
  // CHECK-NEXT: %{{.*}} = llvm.load %dp {md = #llvm.md<tbaa = 5, llvm.access.group = 9>, alignment = 8 : i64} : !llvm.ptr -> f64
  llvm.dbg_record "#dbg_value($0, !12, !DIExpression(), !15)"(%dx) : f64
  llvm.dbg_record "#dbg_label(!20, !21)"()
  %0 = llvm.load %dp {alignment = 8 : i64, md = #llvm.md<tbaa = 5, llvm.access.group = 9>} : !llvm.ptr -> f64
  llvm.return
}

// CHECK-LABEL: llvm.func @types
llvm.func @types(%tn: i32) {
  // CHECK-NEXT: %{{.*}} = llvm.alloca %tn x !llvm.packed_struct<(i8, i32)> : (i32) -> !llvm.ptr
  // CHECK-NEXT: %{{.*}} = llvm.alloca %tn x !llvm.packed_struct<"P", (i8, f64)> : (i32) -> !llvm.ptr
  // CHECK-NEXT: %{{.*}} = llvm.mlir.poison : !llvm.token
  // CHECK-NEXT: %{{.*}} = llvm.getelementptr %{{.*}}[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(!llvm.opaque_struct<"O">, i32)>
  %0 = llvm.alloca %tn x !llvm.packed_struct<(i8, i32)> : (i32) -> !llvm.ptr
  %1 = llvm.alloca %tn x !llvm.packed_struct<"P", (i8, f64)> : (i32) -> !llvm.ptr
  %2 = llvm.mlir.poison : !llvm.token
  %3 = llvm.getelementptr %0[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(!llvm.opaque_struct<"O">, i32)>
  llvm.return
}

// Every other intrinsic op, once.
// CHECK-LABEL: llvm.func @more_intrinsics
llvm.func @more_intrinsics(%rx: f32, %rv: vector<4xf32>, %ri: vector<8xi16>) {
  // CHECK-NEXT: %{{.*}} = llvm.intr.acos(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.asin(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.atan(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.canonicalize(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.cosh(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.exp10(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.log10(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.maximum(%rx, %rx) : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.maximumnum(%rx, %rx) : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.minimumnum(%rx, %rx) : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.nearbyint(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.rint(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.roundeven(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.sinh(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.tan(%rx) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.and(%ri) : (vector<8xi16>) -> i16
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.fmaximum(%rv) : (vector<4xf32>) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.fmin(%rv) : (vector<4xf32>) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.fminimum(%rv) : (vector<4xf32>) -> f32
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.mul(%ri) : (vector<8xi16>) -> i16
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.or(%ri) : (vector<8xi16>) -> i16
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.smax(%ri) : (vector<8xi16>) -> i16
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.smin(%ri) : (vector<8xi16>) -> i16
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.umax(%ri) : (vector<8xi16>) -> i16
  // CHECK-NEXT: %{{.*}} = llvm.intr.vector.reduce.xor(%ri) : (vector<8xi16>) -> i16
  %0 = llvm.intr.acos(%rx) : (f32) -> f32
  %1 = llvm.intr.asin(%rx) : (f32) -> f32
  %2 = llvm.intr.atan(%rx) : (f32) -> f32
  %3 = llvm.intr.canonicalize(%rx) : (f32) -> f32
  %4 = llvm.intr.cosh(%rx) : (f32) -> f32
  %5 = llvm.intr.exp10(%rx) : (f32) -> f32
  %6 = llvm.intr.log10(%rx) : (f32) -> f32
  %7 = llvm.intr.maximum(%rx, %rx) : (f32, f32) -> f32
  %8 = llvm.intr.maximumnum(%rx, %rx) : (f32, f32) -> f32
  %9 = llvm.intr.minimumnum(%rx, %rx) : (f32, f32) -> f32
  %10 = llvm.intr.nearbyint(%rx) : (f32) -> f32
  %11 = llvm.intr.rint(%rx) : (f32) -> f32
  %12 = llvm.intr.roundeven(%rx) : (f32) -> f32
  %13 = llvm.intr.sinh(%rx) : (f32) -> f32
  %14 = llvm.intr.tan(%rx) : (f32) -> f32
  %15 = llvm.intr.vector.reduce.and(%ri) : (vector<8xi16>) -> i16
  %16 = llvm.intr.vector.reduce.fmaximum(%rv) : (vector<4xf32>) -> f32
  %17 = llvm.intr.vector.reduce.fmin(%rv) : (vector<4xf32>) -> f32
  %18 = llvm.intr.vector.reduce.fminimum(%rv) : (vector<4xf32>) -> f32
  %19 = llvm.intr.vector.reduce.mul(%ri) : (vector<8xi16>) -> i16
  %20 = llvm.intr.vector.reduce.or(%ri) : (vector<8xi16>) -> i16
  %21 = llvm.intr.vector.reduce.smax(%ri) : (vector<8xi16>) -> i16
  %22 = llvm.intr.vector.reduce.smin(%ri) : (vector<8xi16>) -> i16
  %23 = llvm.intr.vector.reduce.umax(%ri) : (vector<8xi16>) -> i16
  %24 = llvm.intr.vector.reduce.xor(%ri) : (vector<8xi16>) -> i16
  llvm.return
}
