// RUN: xenzyme-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Each malformed op of xenzyme's llvm dialect additions is rejected with a message saying what
// is wrong: verifier errors for ops built in generic form, parse errors for the custom syntax.

llvm.func @f(%a: i32, %b: i32) {
  %0 = "llvm.icmp"(%a, %b) <{predicate = 2 : i64}> : (i32, i32) -> vector<2xi1>
  llvm.return
}
// CHECK: icmp result must be i1, or a vector of i1 for vector operands

// -----

llvm.func @f(%a: i32, %b: i32) {
  %0 = llvm.icmp "bigger" %a, %b : i32
  llvm.return
}
// CHECK: unknown icmp predicate 'bigger'

// -----

llvm.func @f(%a: vector<2xf64>) {
  %0 = "llvm.fcmp"(%a, %a) <{predicate = 4 : i64, fastmathFlags = #llvm.fastmath<none>}> : (vector<2xf64>, vector<2xf64>) -> i1
  llvm.return
}
// CHECK: fcmp result must be i1, or a vector of i1 for vector operands

// -----

llvm.func @f(%a: f64) {
  %0 = llvm.fcmp "roughly" %a, %a : f64
  llvm.return
}
// CHECK: unknown fcmp predicate 'roughly'

// -----

llvm.func @f(%c: vector<2xi1>, %a: f64) {
  %0 = llvm.select %c, %a, %a : vector<2xi1>, f64
  llvm.return
}
// CHECK: a vector select condition needs values of the same length

// -----

llvm.func @f(%p: !llvm.ptr, %i: i32) {
  %0 = "llvm.getelementptr"(%p, %i) <{elem_type = f64, rawConstantIndices = array<i32: 0>, noWrapFlags = 0 : i32}> : (!llvm.ptr, i32) -> !llvm.ptr
  llvm.return
}
// CHECK: getelementptr: one GEP_USE_SSA_VAL marker per SSA index

// -----

llvm.func @f(%p: !llvm.ptr, %i: i32) {
  %0 = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(i32, f64)>
  llvm.return
}
// CHECK: getelementptr index #1: struct fields are selected by constants in range (got a value)

// -----

llvm.func @f(%p: !llvm.ptr) {
  %0 = llvm.getelementptr %p[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64)>
  llvm.return
}
// CHECK: getelementptr index #1: struct fields are selected by constants in range (got 2)

// -----

llvm.func @f(%p: !llvm.ptr) {
  %0 = llvm.getelementptr %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, f64
  llvm.return
}
// CHECK: getelementptr index #1: cannot index into f64

// -----

llvm.func @f(%x: i32) {
  llvm.switch %x : i32, ^a [1: ^a, 1: ^b]
^a:
  llvm.return
^b:
  llvm.return
}
// CHECK: llvm.switch case values must be unique

// -----

llvm.func @f(%x: i32) {
  "llvm.switch"(%x) [^a, ^b] <{case_values = [1 : i32, 2 : i32], case_operand_segments = array<i32: 0>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^a:
  llvm.return
^b:
  llvm.return
}
// CHECK: llvm.switch needs one value and one operand group per case

// -----

llvm.func @f(%x: i32) {
  "llvm.switch"(%x, %x) [^a, ^b] <{case_values = [1 : i32], case_operand_segments = array<i32: 0>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (i32, i32) -> ()
^a:
  llvm.return
^b(%y: i32):
  llvm.return
}
// CHECK: llvm.switch case operand groups do not add up

// -----

llvm.func @f() {
  %0 = llvm.landingpad : !llvm.struct<(!llvm.ptr, i32)>
  llvm.return
}
// CHECK: llvm.landingpad without clauses must be a cleanup

// -----

llvm.func @f(%p: !llvm.ptr) {
  %0 = "llvm.landingpad"(%p) <{clause_kinds = ["catch", "filter"]}> : (!llvm.ptr) -> !llvm.struct<(!llvm.ptr, i32)>
  llvm.return
}
// CHECK: llvm.landingpad needs one kind per clause

// -----

llvm.func @f(%v: vector<4xi32>, %i: i32) {
  %0 = "llvm.extractelement"(%v, %i) : (vector<4xi32>, i32) -> i64
  llvm.return
}
// CHECK: llvm.extractelement result must be the vector's element type

// -----

llvm.func @f(%p: !llvm.ptr, %v: i32) {
  %0 = "llvm.atomicrmw"(%p, %v) <{bin_op = "swap", ordering = "seq_cst"}> : (!llvm.ptr, i32) -> i32
  llvm.return
}
// CHECK: unknown atomicrmw operation 'swap'

// -----

llvm.func @f(%p: !llvm.ptr, %v: i32) {
  %0 = llvm.atomicrmw add %p, %v unordered : !llvm.ptr, i32
  llvm.return
}
// CHECK: invalid atomicrmw ordering 'unordered'

// -----

llvm.func @f(%p: !llvm.ptr, %v: i32) {
  %0 = llvm.atomicrmw add %p, %v eventually : !llvm.ptr, i32
  llvm.return
}
// CHECK: expected an atomic ordering (one of unordered, monotonic, acquire, release, acq_rel, seq_cst)

// -----

llvm.func @f(%p: !llvm.ptr, %v: i32) {
  %0 = llvm.cmpxchg %p, %v seq_cst seq_cst : !llvm.ptr, i32
  llvm.return
}
// CHECK: llvm.cmpxchg takes a pointer, a comparand and a new value

// -----

llvm.func @f() {
  llvm.fence sometimes
  llvm.return
}
// CHECK: expected an atomic ordering

// -----

llvm.func @f(%x: f64) {
  %0 = llvm.intr.trunc(%x, %x) : (f64, f64) -> f64
  llvm.return
}
// CHECK: llvm.intr.trunc takes 1 operand(s), got 2

// -----

llvm.func @f(%p: !llvm.ptr) {
  llvm.intr.memcpy(%p, %p) : !llvm.ptr, !llvm.ptr
  llvm.return
}
// CHECK: llvm.intr.memcpy takes (dst, src or value, length)

// -----

llvm.func @f(%x: i32) {
  %0 = "llvm.freeze"(%x) : (i32) -> i64
  llvm.return
}
// CHECK: attribute i32 expected from variable 'T', but got i64

// -----

llvm.func @f(%p: !llvm.ptr) {
  %0 = llvm.load %p {md = #llvm.md<tbaa = 5, range = x>} : !llvm.ptr -> i32
  llvm.return
}
// CHECK: Expected integer literal
