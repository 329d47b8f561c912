// RUN: xenzyme-opt %s -p convert-arith-to-llvm | filecheck %s

// Each arith op becomes its llvm op; index values become i64, joined to what is not lowered
// yet (here the function's arguments) by casts that lower-structured reconciles.

// CHECK-LABEL: func.func @floats(
// CHECK-SAME:      %[[X:.*]]: f64, %[[Y:.*]]: f64) -> f64 {
// CHECK-NEXT:    %[[A:.*]] = llvm.fadd %[[X]], %[[Y]] : f64
// CHECK-NEXT:    %[[B:.*]] = llvm.fmul %[[A]], %[[X]] : f64
// CHECK-NEXT:    %[[C:.*]] = llvm.fdiv %[[B]], %[[Y]] : f64
// CHECK-NEXT:    %[[D:.*]] = llvm.fsub %[[C]], %[[X]] : f64
// CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[D]] : f64
// CHECK-NEXT:    %[[K:.*]] = llvm.mlir.constant(2.500000e+00 : f64) : f64
// CHECK-NEXT:    %[[LT:.*]] = llvm.fcmp "olt" %[[N]], %[[K]] : f64
// CHECK-NEXT:    %[[S:.*]] = llvm.select %[[LT]], %[[N]], %[[K]] : i1, f64
// CHECK-NEXT:    %[[M:.*]] = llvm.intr.maximum(%[[S]], %[[X]]) : (f64, f64) -> f64
// CHECK-NEXT:    func.return %[[M]] : f64
func.func @floats(%x: f64, %y: f64) -> f64 {
  %a = arith.addf %x, %y : f64
  %b = arith.mulf %a, %x : f64
  %c = arith.divf %b, %y : f64
  %d = arith.subf %c, %x : f64
  %n = arith.negf %d : f64
  %k = arith.constant 2.5 : f64
  %lt = arith.cmpf olt, %n, %k : f64
  %s = arith.select %lt, %n, %k : f64
  %m = arith.maximumf %s, %x : f64
  func.return %m : f64
}

// CHECK-LABEL: func.func @indices(
// CHECK-SAME:      %[[I:.*]]: index, %[[W:.*]]: i32) -> f32 {
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[IL:.*]] = builtin.unrealized_conversion_cast %[[I]] : index to i64
// CHECK-NEXT:    %[[J:.*]] = llvm.add %[[IL]], %[[ONE]] : i64
// CHECK-NEXT:    %[[WL:.*]] = llvm.sext %[[W]] : i32 to i64
// CHECK-NEXT:    %[[P:.*]] = llvm.mul %[[J]], %[[WL]] : i64
// CHECK-NEXT:    %[[IL2:.*]] = builtin.unrealized_conversion_cast %[[I]] : index to i64
// CHECK-NEXT:    %[[LT:.*]] = llvm.icmp "slt" %[[P]], %[[IL2]] : i64
// CHECK-NEXT:    %[[MIN:.*]] = llvm.select %[[LT]], %[[P]], %[[IL2]] : i1, i64
// CHECK-NEXT:    %[[F:.*]] = llvm.sitofp %[[MIN]] : i64 to f64
// CHECK-NEXT:    %[[T:.*]] = llvm.fptrunc %[[F]] : f64 to f32
// CHECK-NEXT:    func.return %[[T]] : f32
func.func @indices(%i: index, %w: i32) -> f32 {
  %one = arith.constant 1 : index
  %j = arith.addi %i, %one : index
  %wi = arith.index_cast %w : i32 to index
  %p = arith.muli %j, %wi : index
  %m = arith.minsi %p, %i : index
  %mi = arith.index_cast %m : index to i64
  %f = arith.sitofp %mi : i64 to f64
  %t = arith.truncf %f : f64 to f32
  func.return %t : f32
}

// CHECK-LABEL: func.func @minmax(
// CHECK-NEXT:    %t = llvm.fcmp "_true" %x, %y : f64
// CHECK-NEXT:    %m = llvm.intr.maxnum(%x, %y) : (f64, f64) -> f64
// CHECK-NEXT:    %n = llvm.intr.minnum(%x, %y) : (f64, f64) -> f64
// CHECK-NEXT:    %s = llvm.select %t, %m, %n : i1, f64
func.func @minmax(%x: f64, %y: f64) -> f64 {
  %t = arith.cmpf true, %x, %y : f64
  %m = arith.maxnumf %x, %y : f64
  %n = arith.minnumf %x, %y : f64
  %s = arith.select %t, %m, %n : f64
  func.return %s : f64
}

// floordivsi and ceildivsi: the truncated quotient corrected by one where the remainder is
// not zero and rounded the wrong way (its sign against the divisor's).
// CHECK-LABEL: func.func @rounded(
// CHECK:         %[[Q:.*]] = llvm.sdiv %[[A:.*]], %[[B:.*]] : i64
// CHECK-NEXT:    %[[R:.*]] = llvm.srem %[[A]], %[[B]] : i64
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[NZ:.*]] = llvm.icmp "ne" %[[R]], %[[Z]] : i64
// CHECK-NEXT:    %[[RN:.*]] = llvm.icmp "slt" %[[R]], %[[Z]] : i64
// CHECK-NEXT:    %[[BN:.*]] = llvm.icmp "slt" %[[B]], %[[Z]] : i64
// CHECK-NEXT:    %[[AWAY:.*]] = llvm.icmp "ne" %[[RN]], %[[BN]] : i1
// CHECK-NEXT:    %[[FIX:.*]] = llvm.and %[[NZ]], %[[AWAY]] : i1
// CHECK-NEXT:    %[[ONE:.*]] = llvm.zext %[[FIX]] : i1 to i64
// CHECK-NEXT:    %{{.*}} = llvm.sub %[[Q]], %[[ONE]] : i64
// CHECK:         llvm.icmp "eq" %{{.*}}, %{{.*}} : i1
// CHECK:         llvm.add %{{.*}}, %{{.*}} : i64
func.func @rounded(%a: index, %b: index) -> index {
  %f = arith.floordivsi %a, %b : index
  %c = arith.ceildivsi %a, %b : index
  %s = arith.addi %f, %c : index
  func.return %s : index
}
