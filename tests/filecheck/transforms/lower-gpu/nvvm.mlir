// RUN: xenzyme-opt %s -p 'lower-gpu{target=nvvm}' | filecheck %s
// RUN: xenzyme-opt %s -p 'lower-gpu{target=nvvm}' -t llvm | filecheck %s --check-prefix=IR

// lower-gpu{target=nvvm}: ids and sizes become NVVM's special registers (with their ranges),
// barriers barrier.cta.sync.aligned.all(0), kernels ptx_kernel functions.  Math that derivative
// rules emit (LLVM intrinsics, libm names) becomes libdevice calls, element by element for
// vectors, and the C heap functions the device's malloc and free.

// CHECK: builtin.module attributes {llvm.target_triple = "nvptx64-nvidia-cuda", llvm.data_layout = "{{.*}}"}
// CHECK-LABEL: llvm.func ptx_kernel @k(
// CHECK-NOT: gpu.
// CHECK: llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() {res_attrs = [{llvm.range = "i32 0, 1024"}]} : () -> i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.y"()
// CHECK: llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ntid.z"()
// CHECK: %[[G:.*]] = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.nctaid.x"()
// CHECK-NEXT: llvm.zext %[[G]] : i32 to i64
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%[[ZERO]]) : (i32) -> ()
// CHECK: llvm.call @__nv_cos(%{{.*}}) : (f64) -> f64
// CHECK: llvm.call @__nv_expf(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call @__nv_cosh(%{{.*}}) : (f64) -> f64
// CHECK: llvm.call @__nv_tanhf(%{{.*}}) : (f32) -> f32
// CHECK-COUNT-2: llvm.call @__nv_sin(%{{.*}}) : (f64) -> f64
// CHECK: llvm.intr.sqrt
// CHECK: llvm.call @xenzyme.device.realloc(
// CHECK: llvm.call @xenzyme.device.free(
// CHECK-NOT: llvm.func @cosh
// CHECK-NOT: llvm.func @tanhf
// CHECK-NOT: llvm.func @realloc
// CHECK-DAG: llvm.func @__nv_cos(f64) -> f64
// CHECK-DAG: llvm.func @__nv_expf(f32) -> f32
// CHECK: llvm.func internal @xenzyme.device.free(
// CHECK: llvm.call @free(
// CHECK: llvm.func internal @xenzyme.device.realloc(
// CHECK: llvm.call @malloc(
// CHECK: llvm.intr.memcpy
// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @free(!llvm.ptr)

// IR: define ptx_kernel void @k(
// IR: call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()

llvm.func @k(%p: !llvm.ptr, %x: f64, %y: f32, %v: vector<2xf64>, %n: i64) attributes {gpu.kernel} {
  %t = gpu.thread_id x : i32
  %b = gpu.block_id y : i32
  %d = gpu.block_dim z : i32
  %g = gpu.grid_dim x : i64
  gpu.barrier
  %c = "llvm.intr.cos"(%x) <{fastmathFlags = #llvm.fastmath<none>}> : (f64) -> f64
  %e = "llvm.intr.exp"(%y) <{fastmathFlags = #llvm.fastmath<none>}> : (f32) -> f32
  %h = llvm.call @cosh(%x) : (f64) -> f64
  %th = llvm.call @tanhf(%y) : (f32) -> f32
  %s = "llvm.intr.sin"(%v) <{fastmathFlags = #llvm.fastmath<none>}> : (vector<2xf64>) -> vector<2xf64>
  %r = "llvm.intr.sqrt"(%x) <{fastmathFlags = #llvm.fastmath<none>}> : (f64) -> f64
  %q = llvm.call @realloc(%p, %n) : (!llvm.ptr, i64) -> !llvm.ptr
  llvm.call @free(%q) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @cosh(f64) -> f64
llvm.func @tanhf(f32) -> f32
llvm.func @realloc(!llvm.ptr, i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
