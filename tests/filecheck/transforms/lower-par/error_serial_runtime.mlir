// RUN: not xenzyme-opt %s -p 'lower-par{serial=true}' 2>&1 | filecheck %s

// The serial lowering removes the runtime: a construct raise-openmp left as runtime calls (here a
// task) cannot run without it, which is an error.

llvm.func @__kmpc_omp_taskwait(!llvm.ptr, i32) -> i32
llvm.func internal @region(%gtid: !llvm.ptr, %btid: !llvm.ptr) {
  %z = llvm.mlir.zero : !llvm.ptr
  %g = llvm.load %gtid : !llvm.ptr -> i32
  %r = llvm.call @__kmpc_omp_taskwait(%z, %g) : (!llvm.ptr, i32) -> i32
  llvm.return
}
llvm.func @caller() {
  par.parallel @region() : ()
  llvm.return
}

// CHECK:      xenzyme-opt: error: {{.*}}lower-par{serial=true}: OpenMP construct 'taskwait' in @region still calls the runtime (@__kmpc_omp_taskwait)
// CHECK-NEXT: note: the serial lowering replaces only what raise-openmp raised; lower without serial=true
