// RUN: xenzyme-opt %s -p lower-autodiff | filecheck %s

// Caches pushed in one block and popped in one block become one stack of records: the record
// is pushed where the block ends (one growth check for all its values), each peek reads its
// field.  A cache pushed in another block keeps a stack of its own.

// CHECK-LABEL: llvm.func @records(
// CHECK-NOT:     autodiff.

// Forward loop: one record of the three values, stored once, after they are all defined.
// CHECK:       ^fwd(%{{[^:]+}}: i64, %[[V:[^:]+]]: f64):
// CHECK:         %[[W:.*]] = llvm.fmul %[[V]], %[[V]] : f64
// CHECK:         %[[LT:.*]] = llvm.fcmp "olt" %[[V]], %[[W]] : f64
// CHECK:         %[[R0:.*]] = llvm.mlir.undef : !llvm.struct<(f64, f64, i1)>
// CHECK-NEXT:    %[[R1:.*]] = llvm.insertvalue %[[V]], %[[R0]][0]
// CHECK-NEXT:    %[[R2:.*]] = llvm.insertvalue %[[W]], %[[R1]][1]
// CHECK-NEXT:    %[[R3:.*]] = llvm.insertvalue %[[LT]], %[[R2]][2]
// CHECK:         llvm.store %[[R3]], %{{.*}} : !llvm.struct<(f64, f64, i1)>, !llvm.ptr
// CHECK-NOT:     llvm.store {{.*}} : f64, !llvm.ptr
// CHECK:         llvm.cond_br

// The other block's cache is a stack of f64.
// CHECK:       ^tail:
// CHECK:         llvm.store %{{.*}} : f64, !llvm.ptr

// Reverse loop: the fields of the top record.
// CHECK:       ^rev(%{{[^:]+}}: i64, %[[ACC:[^:]+]]: f64):
// CHECK:         %[[TOP:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(f64, f64, i1)>
// CHECK:         llvm.extractvalue %[[TOP]][0]
// CHECK:         llvm.extractvalue %{{.*}}[1]
// CHECK:         llvm.extractvalue %{{.*}}[2]

// CHECK-NOT:     autodiff.

llvm.func @records(%n: i64, %x: f64) -> f64 {
  %a = autodiff.cache.init : !autodiff.cache<f64>
  %b = autodiff.cache.init : !autodiff.cache<f64>
  %c = autodiff.cache.init : !autodiff.cache<i1>
  %t = autodiff.cache.init : !autodiff.cache<f64>
  %zero = llvm.mlir.constant(0) : i64
  %one = llvm.mlir.constant(1) : i64
  %fzero = llvm.mlir.constant(0.0 : f64) : f64
  llvm.br ^fwd(%zero, %x : i64, f64)
^fwd(%i: i64, %v: f64):
  autodiff.cache.push %a, %v : !autodiff.cache<f64>
  %w = llvm.fmul %v, %v : f64
  autodiff.cache.push %b, %w : !autodiff.cache<f64>
  %lt = llvm.fcmp "olt" %v, %w : f64
  autodiff.cache.push %c, %lt : !autodiff.cache<i1>
  %i2 = llvm.add %i, %one : i64
  %more = llvm.icmp "slt" %i2, %n : i64
  llvm.cond_br %more, ^fwd(%i2, %w : i64, f64), ^tail
^tail:
  autodiff.cache.push %t, %w : !autodiff.cache<f64>
  llvm.br ^rev(%zero, %fzero : i64, f64)
^rev(%j: i64, %acc: f64):
  %pa = autodiff.cache.peek %a : !autodiff.cache<f64>
  %pb = autodiff.cache.peek %b : !autodiff.cache<f64>
  %pc = autodiff.cache.peek %c : !autodiff.cache<i1>
  %pt = autodiff.cache.peek %t : !autodiff.cache<f64>
  autodiff.cache.pop %a : !autodiff.cache<f64>
  autodiff.cache.pop %b : !autodiff.cache<f64>
  autodiff.cache.pop %c : !autodiff.cache<i1>
  %s = llvm.select %pc, %pa, %pb : i1, f64
  %s2 = llvm.fadd %s, %pt : f64
  %acc2 = llvm.fadd %acc, %s2 : f64
  %j2 = llvm.add %j, %one : i64
  %again = llvm.icmp "slt" %j2, %n : i64
  llvm.cond_br %again, ^rev(%j2, %acc2 : i64, f64), ^done
^done:
  autodiff.cache.pop %t : !autodiff.cache<f64>
  llvm.return %acc2 : f64
}
