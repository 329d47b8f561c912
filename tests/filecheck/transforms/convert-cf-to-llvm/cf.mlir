// RUN: xenzyme-opt %s -p convert-cf-to-llvm | filecheck %s

// Branches become llvm branches with the same successors and operands; an index block
// argument becomes i64 (cast back for the arith ops not lowered here); cf.assert branches to
// a block that calls abort().

// CHECK-LABEL: func.func @f(
// CHECK:         %[[Z:.*]] = builtin.unrealized_conversion_cast %c0 : index to i64
// CHECK-NEXT:    llvm.br ^head(%[[Z]], %x : i64, f64)
// CHECK-NEXT:  ^head(%[[I:.*]]: i64, %v: f64):
// CHECK-NEXT:    %[[II:.*]] = builtin.unrealized_conversion_cast %[[I]] : i64 to index
// CHECK-NEXT:    %more = arith.cmpi slt, %[[II]], %n : index
// CHECK-NEXT:    llvm.cond_br %more, ^body, ^exit(%v : f64)
// CHECK:         %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
// CHECK-NEXT:    llvm.br ^head(%[[J]], %w : i64, f64)
// CHECK-NEXT:  ^exit(%r: f64):
// CHECK-NEXT:    %ok = arith.cmpf olt, %r, %x : f64
// CHECK-NEXT:    llvm.cond_br %ok, ^[[OK:.*]], ^[[FAIL:.*]]
// CHECK-NEXT:  ^[[OK]]:
// CHECK-NEXT:    func.return %r : f64
// CHECK-NEXT:  ^[[FAIL]]:
// CHECK-NEXT:    llvm.call @abort() : () -> ()
// CHECK-NEXT:    llvm.unreachable
// CHECK:       llvm.func @abort()
func.func @f(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  cf.br ^head(%c0, %x : index, f64)
^head(%i: index, %v: f64):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%v : f64)
^body:
  %w = arith.mulf %v, %v : f64
  %c1 = arith.constant 1 : index
  %j = arith.addi %i, %c1 : index
  cf.br ^head(%j, %w : index, f64)
^exit(%r: f64):
  %ok = arith.cmpf olt, %r, %x : f64
  cf.assert %ok, "never larger"
  func.return %r : f64
}
