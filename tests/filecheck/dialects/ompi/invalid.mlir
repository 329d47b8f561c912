// RUN: xenzyme-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Malformed ompi ops are rejected by their parser or verifier with a message saying what is
// wrong.

llvm.func @f(%x: !llvm.ptr, %n: i32) {
  %e = ompi.send %x, %n, %x, %n, %n
  llvm.return
}
// CHECK: ompi.send takes 6 operands (buf, count, datatype, dest, tag, comm), 5 given

// -----

llvm.func @f(%x: !llvm.ptr, %n: i32) {
  %e = "ompi.recv"(%x, %n, %x, %n, %n, %x, %n) : (!llvm.ptr, i32, !llvm.ptr, i32, i32, !llvm.ptr, i32) -> i32
  llvm.return
}
// CHECK: operand 'status' at position 6 does not verify

// -----

llvm.func @f(%x: !llvm.ptr) {
  %e = ompi.call @printf(%x) : (!llvm.ptr) -> i32
  llvm.return
}
// CHECK: ompi.call calls MPI functions, not @printf

// -----

llvm.func @f(%x: !llvm.ptr) {
  %e = ompi.call @MPI_Barrier(%x) : (!llvm.ptr) -> i32
  llvm.return
}
// CHECK: @MPI_Barrier has an op of its own: ompi.barrier

// -----

llvm.func @f(%x: !llvm.ptr, %n: i32) {
  ompi.accumulate %x, %x, %n : i32
  llvm.return
}
// CHECK: expected f32 or f64, got i32

// -----

llvm.func @f(%x: !llvm.ptr, %n: i32) {
  ompi.request_record bcast %x, %x, %n, %x, %n, %n, %x : f64
  llvm.return
}
// CHECK: expected isend or irecv

// -----

llvm.func @f(%x: !llvm.ptr, %n: i32) {
  %m = ompi.owners sum %x, %n, %x, %x : f64
  llvm.return
}
// CHECK: expected max or min

// -----

llvm.func @f(%x: !llvm.ptr, %n: i32) {
  "ompi.owners"(%x, %n, %x, %x) <{kind = "prod", elem = f64}> : (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.return
}
// CHECK: unknown extremum 'prod' (expected max or min)

// -----

llvm.func @f(%x: !llvm.ptr, %n: i32) {
  "ompi.accumulate"(%x, %x, %n) <{elem = i64}> : (!llvm.ptr, !llvm.ptr, i32) -> ()
  llvm.return
}
// CHECK: the element type must be f32 or f64, got i64
