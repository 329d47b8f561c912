// RUN: xenzyme-opt %s -p raise-enzyme-calls | filecheck %s

// A bitcast of the function's address (LLVM folds `bitcast ptr @f to ptr` away when it reads
// IR, but xDSL text and passes may hold one), also around a ptrtoint: the request names @f.

builtin.module {
  llvm.func @__enzyme_autodiff_ptr(!llvm.ptr, ...) -> f64
  llvm.func @__enzyme_autodiff(i64, ...) -> f64
  llvm.func @f(%x: f64) -> f64 {
    %y = llvm.fmul %x, %x : f64
    llvm.return %y : f64
  }
  llvm.func @bitcast(%x: f64) -> f64 {
    %0 = llvm.mlir.addressof @f : !llvm.ptr
    %1 = llvm.bitcast %0 : !llvm.ptr to !llvm.ptr
    %r = llvm.call @__enzyme_autodiff_ptr(%1, %x) vararg(!llvm.func<f64 (!llvm.ptr, ...)>) : (!llvm.ptr, f64) -> f64
    llvm.return %r : f64
  }
  llvm.func @bitcast_to_integer(%x: f64) -> f64 {
    %0 = llvm.mlir.addressof @f : !llvm.ptr
    %1 = llvm.bitcast %0 : !llvm.ptr to !llvm.ptr
    %2 = llvm.ptrtoint %1 : !llvm.ptr to i64
    %r = llvm.call @__enzyme_autodiff(%2, %x) vararg(!llvm.func<f64 (i64, ...)>) : (i64, f64) -> f64
    llvm.return %r : f64
  }
}

// CHECK-LABEL: llvm.func @bitcast(
// CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active
// CHECK-LABEL: llvm.func @bitcast_to_integer(
// CHECK:         autodiff.autodiff @f(%{{.*}}) activity [active] ret active
