// RUN: xenzyme-opt %s -t llvm | filecheck %s
// RUN: xenzyme-opt %s -t llvm | %llvm-verify | filecheck %s --check-prefix=VERIFIED

// The llvm dialect as passes build it, printed as LLVM IR: block arguments become phis,
// constants are printed inline, intrinsic ops become calls with mangled names (declared at the
// end), an entry block with predecessors is entered through a block of its own, and two edges
// into one block with different values are split.

llvm.mlir.global internal constant @table(dense<[1.5, 2.5]> : tensor<2xf64>) {addr_space = 0 : i32, alignment = 8 : i64} : !llvm.array<2 x f64>
llvm.mlir.global external @pair() {addr_space = 0 : i32} : !llvm.struct<(i32, !llvm.ptr)> {
  %0 = llvm.mlir.undef : !llvm.struct<(i32, !llvm.ptr)>
  %1 = llvm.mlir.constant(7 : i32) : i32
  %2 = llvm.insertvalue %1, %0[0] : !llvm.struct<(i32, !llvm.ptr)>
  %3 = llvm.mlir.addressof @table : !llvm.ptr
  %4 = llvm.insertvalue %3, %2[1] : !llvm.struct<(i32, !llvm.ptr)>
  llvm.return %4 : !llvm.struct<(i32, !llvm.ptr)>
}

// CHECK:      @table = internal constant [2 x double] [double 1.500000e+00, double 2.500000e+00], align 8
// CHECK:      @pair = global { i32, ptr } { i32 7, ptr @table }

// CHECK-LABEL: define double @power(double %x, i32 %n) {
// CHECK-NEXT:    br label %[[LOOP:[-a-zA-Z0-9_.]+]]
// CHECK-NEXT:  [[LOOP]]:
// CHECK-NEXT:    %[[I:[-a-zA-Z0-9_.]+]] = phi i32 [ 0, %0 ], [ %[[INEXT:[-a-zA-Z0-9_.]+]], %[[BODY:[-a-zA-Z0-9_.]+]] ]
// CHECK-NEXT:    %[[ACC:[-a-zA-Z0-9_.]+]] = phi double [ 1.000000e+00, %0 ], [ %[[ANEXT:[-a-zA-Z0-9_.]+]], %[[BODY]] ]
// CHECK-NEXT:    %[[DONE:[-a-zA-Z0-9_.]+]] = icmp sge i32 %[[I]], %n
// CHECK-NEXT:    br i1 %[[DONE]], label %[[EXIT:[-a-zA-Z0-9_.]+]], label %[[BODY]]
// CHECK-NEXT:  [[BODY]]:
// CHECK-NEXT:    %[[ANEXT]] = fmul fast double %[[ACC]], %x
// CHECK-NEXT:    %[[INEXT]] = add nsw i32 %[[I]], 1
// CHECK-NEXT:    br label %[[LOOP]]
// CHECK-NEXT:  [[EXIT]]:
// CHECK-NEXT:    %[[S:[-a-zA-Z0-9_.]+]] = call double @llvm.sqrt.f64(double %[[ACC]])
// CHECK-NEXT:    %[[P:[-a-zA-Z0-9_.]+]] = call double @llvm.powi.f64.i32(double %[[S]], i32 %n)
// CHECK-NEXT:    ret double %[[P]]
llvm.func @power(%x: f64, %n: i32) -> f64 {
  %zero = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %fone = llvm.mlir.constant(1.0 : f64) : f64
  llvm.br ^loop(%zero, %fone : i32, f64)
^loop(%i: i32, %acc: f64):
  %done = llvm.icmp "sge" %i, %n : i32
  llvm.cond_br %done, ^exit, ^body
^body:
  %anext = llvm.fmul %acc, %x {fastmathFlags = #llvm.fastmath<fast>} : f64
  %inext = llvm.add %i, %one overflow<nsw> : i32
  llvm.br ^loop(%inext, %anext : i32, f64)
^exit:
  %s = llvm.intr.sqrt(%acc) : (f64) -> f64
  %p = llvm.intr.powi(%s, %n) : (f64, i32) -> f64
  llvm.return %p : f64
}

// A loop back to the entry block: LLVM's entry block has no predecessors, so the function is
// entered through a block of its own and the parameter becomes a phi.
// CHECK-LABEL: define i32 @countdown(i32 %k) {
// CHECK-NEXT:  entry.pre:
// CHECK-NEXT:    br label %entry
// CHECK-NEXT:  entry:
// CHECK-NEXT:    %k.phi = phi i32 [ %k, %entry.pre ], [ %km, %entry ]
// CHECK-NEXT:    %km = sub i32 %k.phi, 1
// CHECK-NEXT:    %z = icmp eq i32 %km, 0
// CHECK-NEXT:    br i1 %z, label %done, label %entry
"llvm.func"() <{sym_name = "countdown", function_type = !llvm.func<i32 (i32)>, CConv = #llvm.cconv<ccc>, linkage = #llvm.linkage<"external">, visibility_ = 0 : i64}> ({
^entry(%k: i32):
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %km = llvm.sub %k, %one : i32
  %z = llvm.icmp "eq" %km, %zero : i32
  llvm.cond_br %z, ^done, ^entry(%km : i32)
^done:
  llvm.return %zero : i32
}) : () -> ()

// Two edges into one block with different values: one of them goes through a block of its own.
// CHECK-LABEL: define i32 @select_by_branch(i1 %c) {
// CHECK-NEXT:    br i1 %c, label %join, label %entry.e1
// CHECK-NEXT:  entry.e1:
// CHECK-NEXT:    br label %join
// CHECK-NEXT:  join:
// CHECK-NEXT:    %r = phi i32 [ 1, %0 ], [ 2, %entry.e1 ]
llvm.func @select_by_branch(%c: i1) -> i32 {
  %a = llvm.mlir.constant(1 : i32) : i32
  %b = llvm.mlir.constant(2 : i32) : i32
  llvm.cond_br %c, ^join(%a : i32), ^join(%b : i32)
^join(%r: i32):
  llvm.return %r : i32
}

// CHECK-LABEL: define void @calls(ptr %p) {
// CHECK-NEXT:    %{{.*}} = call i32 (ptr, ...) @printf(ptr %p, i32 3)
// CHECK-NEXT:    call void @helper(ptr %p)
llvm.func @calls(%p: !llvm.ptr) {
  %three = llvm.mlir.constant(3 : i32) : i32
  %n = llvm.call @printf(%p, %three) vararg(!llvm.func<i32 (!llvm.ptr, ...)>) : (!llvm.ptr, i32) -> i32
  llvm.call @helper(%p) : (!llvm.ptr) -> ()
  llvm.return
}

llvm.func @printf(!llvm.ptr, ...) -> i32
llvm.func @helper(!llvm.ptr)
// CHECK: declare i32 @printf(ptr, ...)
// CHECK: declare void @helper(ptr)

// CHECK-DAG: declare double @llvm.sqrt.f64(double)
// CHECK-DAG: declare double @llvm.powi.f64.i32(double, i32)

// LLVM parses and verifies the result.
// VERIFIED: @pair = global { i32, ptr } { i32 7, ptr @table }
// VERIFIED: define double @power(double %x, i32 %n) {
// VERIFIED: declare double @llvm.sqrt.f64(double) #0
