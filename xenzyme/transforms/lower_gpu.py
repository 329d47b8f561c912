"""`lower-gpu{target=nvvm|cpu}`: the gpu layer -> plain `llvm` dialect code for one target.

`target=nvvm` (the default) gives NVPTX code for the PTX backend:

    gpu.thread_id x : i32          llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"()
    gpu.block_id / block_dim / grid_dim       ... "ctaid" / "ntid" / "nctaid"
    gpu.barrier                    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(0)
    llvm.func @k attributes {gpu.kernel}      llvm.func ptx_kernel @k
    shadows of device globals      cleared by a kernel of their own, `xenzyme_zero_shadows_<k>`,
                                   which the launcher runs before `k` (gpu_globals)
    zeroed shared arrays, copies   cleared by the block when a kernel starts; copies of dynamic
    of dynamic shared memory       shared memory at offsets in it (gpu_shared.lower_shared_for_nvvm)
    gpu.owned_add, combined_add    plain or atomic; warp shuffles before one atomic (gpu_combine)
    llvm.intr.cos, cosh(...)       __nv_cos, __nv_cosh (gpu_math.math_to_libdevice: derivative
                                   rules emit LLVM intrinsics and libm names; NVPTX selects
                                   neither, and libdevice is linked by the backend)
    malloc, realloc, free, ...     the device's malloc and free (gpu_heap.device_heap: the
                                   growable caches of derivatives use realloc)

`target=cpu` gives host code: each kernel becomes a host function that runs the whole grid,
with this ABI (xenzyme/transforms/gpu_to_cpu.py has the details):

    i32 @k(i32 grid_x, i32 grid_y, i32 grid_z, i32 block_x, i32 block_y, i32 block_z,
           i64 dynamic_shared_bytes, <the kernel's parameters>)

returning 0, or 1 when a barrier was reached by only some threads of a block.  Blocks run on a
team of libomp threads (one alone: atomics plain), the threads of a block as loops
split into phases at each barrier, values used across a barrier kept per thread or recomputed,
shared memory one buffer per block, atomics atomic, libdevice math as libm, the shadows of device
globals cleared before the grid runs (gpu_globals).

Both serve every kernel, primal or derivative, and need `raise-nvvm` to have run.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr, i32
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import gpu
from xenzyme.transforms.gpu_heap import device_heap
from xenzyme.transforms.gpu_combine import lower_adds_for_nvvm
from xenzyme.transforms.gpu_globals import add_zero_kernels, drop_marks
from xenzyme.transforms.gpu_math import math_to_libdevice
from xenzyme.transforms.gpu_shared import lower_shared_for_nvvm

TARGETS = ("nvvm", "cpu")

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
NVPTX_DATA_LAYOUT = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"

_SREG = {gpu.ThreadIdOp: "tid", gpu.BlockIdOp: "ctaid", gpu.BlockDimOp: "ntid", gpu.GridDimOp: "nctaid"}
_RANGE = {"tid": "i32 0, 1024", "ctaid": "i32 0, 2147483647", "ntid": "i32 1, 1025", "nctaid": "i32 1, -2147483648"}
"""The values each register can hold (as clang annotates them), for LLVM's optimiser."""

BARRIER_INTRINSIC = "llvm.nvvm.barrier.cta.sync.aligned.all"


def is_gpu_module(module: ModuleOp) -> bool:
    """NVPTX code, or a module with kernels or other ops of the gpu layer."""
    return gpu.is_device_code(module)


def _intrinsic(name: str, args: list, result) -> xllvm.CallIntrinsicOp:
    return xllvm.CallIntrinsicOp(name, args, [result] if result is not None else [])


def lower_to_nvvm(module: ModuleOp) -> None:
    module.attributes.setdefault("llvm.target_triple", StringAttr(NVPTX_TRIPLE))
    module.attributes.setdefault("llvm.data_layout", StringAttr(NVPTX_DATA_LAYOUT))
    add_zero_kernels(module)
    drop_marks(module)
    lower_shared_for_nvvm(module)
    lower_adds_for_nvvm(module)
    for op in list(module.walk()):
        new: Operation | None = None
        if isinstance(op, gpu._IdOp):
            kind = _SREG[type(op)]
            call = _intrinsic(f"llvm.nvvm.read.ptx.sreg.{kind}.{op.dim}", [], i32)
            call.attributes["res_attrs"] = ArrayAttr([DictionaryAttr({"llvm.range": StringAttr(_RANGE[kind])})])
            new = call
            if op.result.type != i32:
                block = op.parent_block()
                assert block is not None
                block.insert_op_before(call, op)
                new = xllvm.ZExtOp(call.results[0], op.result.type)
        elif isinstance(op, gpu.BarrierOp):
            zero = xllvm.ConstantOp(IntegerAttr(0, i32), i32)
            op.parent_block().insert_op_before(zero, op)  # type: ignore[union-attr]
            new = _intrinsic(BARRIER_INTRINSIC, [zero.result], None)
        if new is None:
            continue
        new.location = op.location
        op.parent_block().insert_op_before(new, op)  # type: ignore[union-attr]
        for old, res in zip(op.results, new.results, strict=True):
            old.replace_all_uses_with(res)
        op.detach()
        op.erase()
    for fn in gpu.kernels(module):
        del fn.attributes[gpu.KERNEL_ATTR]
        fn.properties["CConv"] = xllvm.CallingConventionAttr("ptx_kernel")
    math_to_libdevice(module)
    device_heap(module)


@dataclass(frozen=True)
class LowerGPUPass(ModulePass):
    """The gpu layer -> NVVM intrinsics and `ptx_kernel` functions (`target=nvvm`), or -> host
    functions running the grid on the CPU (`target=cpu`)."""

    name = "lower-gpu"

    target: str = "nvvm"

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise XenzymeError(f"lower-gpu: target must be nvvm or cpu (got {self.target})",
                               notes=["for example -p 'lower-gpu{target=cpu}'"])  # fmt: skip

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target == "nvvm":
            lower_to_nvvm(op)
        else:
            from xenzyme.transforms.gpu_to_cpu import lower_to_cpu

            lower_to_cpu(op)


def prepare_for_ptx(module) -> None:
    """What is left of the gpu layer lowered to NVVM, and math NVPTX cannot select
    (`llvm.sin.f64`, ...) made libdevice calls: `lower-gpu{target=nvvm}` does both; input that
    never went through it (a `.ll` file) gets them here, before PTX is emitted."""
    from xenzyme.dialects import gpu
    from xenzyme.transforms.gpu_math import math_to_libdevice

    if any(isinstance(op, gpu.BarrierOp | gpu._IdOp) or gpu.KERNEL_ATTR in op.attributes for op in module.walk()):
        lower_to_nvvm(module)
    elif is_gpu_module(module):
        math_to_libdevice(module)
