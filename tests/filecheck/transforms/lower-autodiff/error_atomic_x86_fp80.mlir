// RUN: not xenzyme-opt %s -p lower-autodiff 2>&1 | filecheck %s

// x86_fp80 has no lock-free atomic add (LLVM would call libatomic, which a self-contained
// object must not need): an atomic accumulation of one is an error naming the type.

llvm.func @f(%p: !llvm.ptr, %x: f80) {
  autodiff.accumulate %p, %x atomic : !llvm.ptr, f80
  llvm.return
}

// CHECK:      xenzyme-opt: error: {{.*}}error_atomic_x86_fp80.mlir: cannot add to x86_fp80 (long double) memory atomically ('atomic' accumulation of a derivative): there is no lock-free atomic add for this type
// CHECK-NEXT: note: keep data that threads update concurrently in float or double, or make the update serial
// CHECK-NOT:  Traceback
