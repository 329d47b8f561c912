// RUN: xenzyme-opt %s -p 'lower-gpu{target=nvvm}' | filecheck %s --check-prefix=NVVM
// RUN: xenzyme-opt %s -p 'lower-gpu{target=cpu}' | filecheck %s --check-prefix=CPU


// What derivatives add to the gpu layer, lowered both ways: a static shared array that is zero
// when each block starts (a shadow), the first copy of the dynamic shared memory (the shadow of
// @d), `gpu.owned_add` and `gpu.combined_add`.

// NVPTX: the block clears the zeroed array and the copy (each thread a share of the words), then
// a barrier, before the kernel's first instruction; the copy is an address in the dynamic shared
// memory, half of it (the launch gave twice what the kernel asked for); the array's initializer
// becomes undef (NVPTX gives shared memory none).
// NVVM:      llvm.mlir.global internal @s.shadow(){{.*}}addr_space = 3
// NVVM-NEXT:   llvm.mlir.undef
// NVVM-NOT:  @d.shadow
// NVVM-LABEL: llvm.func ptx_kernel @k(
// NVVM-NEXT: %[[S3:[0-9]+]] = llvm.mlir.addressof @s.shadow
// NVVM-NEXT: %[[S:[0-9]+]] = llvm.addrspacecast %[[S3]]
// NVVM-NEXT: %[[N:[0-9]+]] = llvm.mlir.constant(256) : i64
// NVVM-NEXT: llvm.call @xenzyme.gpu.zero_shared(%[[S]], %[[N]])
// NVVM-NEXT: %[[SIZE:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.dynamic_smem_size"
// NVVM-NEXT: %[[WIDE:[0-9]+]] = llvm.zext %[[SIZE]]
// NVVM-NEXT: %[[TWO:[0-9]+]] = llvm.mlir.constant(2) : i64
// NVVM-NEXT: llvm.udiv %[[WIDE]], %[[TWO]] : i64
// NVVM:      llvm.call @xenzyme.gpu.zero_shared(
// NVVM-NEXT: llvm.mlir.constant(0 : i32)
// NVVM-NEXT: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"
// NVVM-NEXT: %t = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"
// NVVM:      %[[D:[0-9]+]] = llvm.mlir.addressof @d : !llvm.ptr<3>
// NVVM:      %d3 = llvm.getelementptr %[[D]][%{{[0-9]+}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// NVVM:      llvm.call @xenzyme.gpu.owned_add.f64(%px, %v)
// NVVM-NEXT: llvm.call @xenzyme.gpu.combined_add.f64(%w, %v)
// The owned addition: plain when the launch is one-dimensional, else atomic.
// NVVM-LABEL: llvm.func internal @xenzyme.gpu.owned_add.f64(
// NVVM:      llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ntid.y"
// NVVM:      llvm.fadd
// NVVM:      llvm.atomicrmw fadd
// The combined addition: the whole warp there with one address -> a butterfly of shuffles (f64
// as two halves) and one atomic by lane 0; otherwise an atomic per thread.
// NVVM-LABEL: llvm.func internal @xenzyme.gpu.combined_add.f64(
// NVVM:      llvm.call_intrinsic "llvm.nvvm.activemask"
// NVVM:      llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"
// NVVM:      llvm.call_intrinsic "llvm.nvvm.vote.all.sync"
// NVVM-COUNT-10: llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.i32"
// NVVM:      llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.laneid"
// NVVM:      llvm.atomicrmw fadd
// NVVM:      llvm.atomicrmw fadd

// On the CPU, the block's buffer is [static arrays | dynamic memory | its copy], the zeroed array and
// the copy cleared; the combined additions of consecutive threads at one address are summed in
// a register and flushed (atomically) at the end of each phase; the owned addition plain or
// atomic by the launch's shape.
// CPU-LABEL: llvm.func internal @k.block(
// CPU:      %[[TWO:[0-9]+]] = llvm.mlir.constant(2) : i64
// CPU-NEXT: %[[DYN:[0-9]+]] = llvm.mul %shared_bytes, %[[TWO]] : i64
// CPU-NEXT: %[[STATIC:[0-9]+]] = llvm.mlir.constant(256) : i64
// CPU-NEXT: %[[ALL:[0-9]+]] = llvm.add %[[DYN]], %[[STATIC]] : i64
// CPU-NEXT: %shared = llvm.alloca %[[ALL]] x i8
// CPU-NEXT: %s = llvm.getelementptr %shared[0]
// CPU:      llvm.intr.memset(%s, %{{[0-9]+}}, %{{[0-9]+}})
// CPU-NEXT: %[[DSTART:[0-9]+]] = llvm.getelementptr %shared[256]
// CPU:      %dd = llvm.getelementptr %[[DSTART]][%{{[0-9]+}}]
// CPU:      llvm.intr.memset(
// CPU:      %combined.at = llvm.alloca
// CPU:      %combined.sum = llvm.alloca
// CPU:      llvm.call @xenzyme.cpu.flush.f64(%combined.at, %combined.sum)
// CPU:      llvm.icmp "eq" %block_y
// CPU:      llvm.atomicrmw fadd %px
// CPU:      llvm.call @xenzyme.cpu.combine.f64(%combined.at, %combined.sum, %w,
// CPU:      llvm.call @xenzyme.cpu.flush.f64(%combined.at, %combined.sum)

llvm.mlir.global internal @s.shadow() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<32 x f64> {
  %z = llvm.mlir.zero : !llvm.array<32 x f64>
  llvm.return %z : !llvm.array<32 x f64>
}
llvm.mlir.global external @d() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<0 x f64>
llvm.mlir.global external @d.shadow() {addr_space = 3 : i32, alignment = 8 : i64, gpu.dynamic_copy = 1 : i32} : !llvm.array<0 x f64>

llvm.func @k(%x: !llvm.ptr, %w: !llvm.ptr) attributes {gpu.kernel} {
  %t = gpu.thread_id x : i32
  %t64 = llvm.zext %t : i32 to i64
  %px = llvm.getelementptr %x[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  %v = llvm.load %px : !llvm.ptr -> f64
  %s3 = llvm.mlir.addressof @s.shadow : !llvm.ptr<3>
  %s = llvm.addrspacecast %s3 : !llvm.ptr<3> to !llvm.ptr
  %ps = llvm.getelementptr %s[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  llvm.store %v, %ps : f64, !llvm.ptr
  %d3 = llvm.mlir.addressof @d.shadow : !llvm.ptr<3>
  %dd = llvm.addrspacecast %d3 : !llvm.ptr<3> to !llvm.ptr
  %pd = llvm.getelementptr %dd[%t64] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  llvm.store %v, %pd : f64, !llvm.ptr
  gpu.barrier
  gpu.owned_add %px, %v : !llvm.ptr, f64
  gpu.combined_add %w, %v : !llvm.ptr, f64
  llvm.return
}
