// RUN: not xenzyme-opt %s -p lower-autodiff 2>&1 | filecheck %s

// Atomic and reduce accumulations belong to parallel regions; lower-autodiff only lowers plain
// ones and says so instead of emitting a racy load/add/store.

llvm.func @f(%p: !llvm.ptr, %x: f64) {
  autodiff.accumulate %p, %x atomic : !llvm.ptr, f64
  llvm.return
}

// CHECK:      xenzyme-opt: error: {{.*}}'atomic' accumulation is lowered by the parallel passes
// CHECK-NOT:  Traceback
