"""`raise-nvvm`: NVVM intrinsics in clang's CUDA device code -> the `gpu` layer.

    %t = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32    %t = gpu.thread_id x : i32
         ... "llvm.nvvm.read.ptx.sreg.ctaid.y"                      ==>       gpu.block_id y
         ... "llvm.nvvm.read.ptx.sreg.ntid.z" / "nctaid.x"                     gpu.block_dim z / gpu.grid_dim x
    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%c0)          gpu.barrier
    llvm.call_intrinsic "llvm.nvvm.membar.cta" / "gl" / "sys"                  llvm.fence syncscope("block") seq_cst, ...
    llvm.func ptx_kernel @k(...)                                               llvm.func @k(...) attributes {gpu.kernel}

`__syncthreads()` reaches us as `llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)`: LLVM 22
rewrites clang-19's `llvm.nvvm.barrier0` into it when it reads the IR, and likewise turns
`!nvvm.annotations` kernel entries into the `ptx_kernel` calling convention.  The older names
(and `llvm.nvvm.barrier.sync(0)`) are raised too.  Declarations of raised intrinsics that are
left unused are removed, and so are the globals `threadIdx`, `blockIdx`, `blockDim` and
`gridDim` that clang declares (extern_weak, never read) in -O0 IR.  Shared memory, atomics and
libdevice calls are the gpu layer already (see xenzyme/dialects/gpu.py).

libdevice's math functions have the derivative rules of their libm counterparts
(`xenzyme.rules.libm`).

Other NVVM intrinsics (warp shuffles, votes, `__syncthreads_count`, ...) have no place in the
gpu layer yet.  In a function that a derivative request reaches (directly or through calls)
they are an error naming the intrinsic; elsewhere they pass through unchanged, for the NVPTX
backend.  Barriers, shared memory and atomic additions are differentiated (`xenzyme.rules.gpu`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnitAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from xenzyme.analysis.callgraph import reachable, symbol_users
from xenzyme.analysis.cfg import constant_int
from xenzyme.diagnostics import SourceLocation, XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.transforms.reverse_diff import location_of

SREG_OPS: dict[str, type[gpu._IdOp]] = {
    "tid": gpu.ThreadIdOp,
    "ctaid": gpu.BlockIdOp,
    "ntid": gpu.BlockDimOp,
    "nctaid": gpu.GridDimOp,
}
"""`llvm.nvvm.read.ptx.sreg.<name>.<dim>` -> the gpu op it means."""

SREG_PREFIX = "llvm.nvvm.read.ptx.sreg."

BARRIERS = (
    "llvm.nvvm.barrier0",
    "llvm.nvvm.barrier.cta.sync.aligned.all",
    "llvm.nvvm.barrier.cta.sync.all",
    "llvm.nvvm.barrier.sync",
)
"""Intrinsics that are `__syncthreads()` (with barrier number 0 where they take one)."""

MEMBARS = {"llvm.nvvm.membar.cta": "block", "llvm.nvvm.membar.gl": "device", "llvm.nvvm.membar.sys": None}
"""`__threadfence_block()`, `__threadfence()`, `__threadfence_system()`: fences of that scope."""

BUILTIN_VARIABLES = ("threadIdx", "blockIdx", "blockDim", "gridDim")
"""Globals clang declares for CUDA's builtin variables in -O0 IR (never read: the intrinsics are)."""

REVERSE_REQUESTS = (ad.AutodiffOp, ad.AugmentOp, ad.ReverseOp, ad.AugmentSizeOp)
FORWARD_REQUESTS = (ad.FwdDiffOp,)


def intrinsic_name(op: Operation) -> str | None:
    """The intrinsic an op calls (`llvm.call_intrinsic`, or a direct call of an `llvm.*` name)."""
    if isinstance(op, xllvm.CallIntrinsicOp):
        return op.intrin.data
    if isinstance(op, xllvm.CallOp) and op.callee is not None and op.callee.string_value().startswith("llvm."):
        return op.callee.string_value()
    return None


def is_nvvm(op: Operation) -> bool:
    name = intrinsic_name(op)
    return name is not None and name.startswith("llvm.nvvm.")


def raised_op(op: Operation) -> Operation | None:
    """The gpu-layer op replacing the NVVM intrinsic call `op`, or None if it has none."""
    name = intrinsic_name(op)
    if name is None:
        return None
    if name.startswith(SREG_PREFIX):
        kind, _, dim = name[len(SREG_PREFIX) :].partition(".")
        if kind in SREG_OPS and dim in gpu.DIMENSIONS and len(op.results) == 1:
            return SREG_OPS[kind](dim, op.results[0].type)
        return None
    if name in BARRIERS:
        args = list(op.operands)
        if not args or (len(args) == 1 and constant_int(args[0]) == 0):
            return gpu.BarrierOp()
        return None
    if name in MEMBARS and not op.operands:
        return ext.FenceOp("seq_cst", MEMBARS[name])
    return None


def raise_function(fn: xllvm.FuncOp) -> set[str]:
    """Raise the NVVM intrinsics of `fn` in place; the names of those raised."""
    raised: set[str] = set()
    for op in list(fn.walk()):
        new = raised_op(op)
        if new is None:
            continue
        name = intrinsic_name(op)
        assert name is not None
        raised.add(name)
        new.location = op.location
        block = op.parent_block()
        assert block is not None
        block.insert_op_before(new, op)
        for old, res in zip(op.results, new.results, strict=True):
            old.replace_all_uses_with(res)
        op.detach()
        op.erase()
    if fn.CConv.convention.data == "ptx_kernel":
        fn.properties["CConv"] = xllvm.CallingConventionAttr("ccc")
        fn.attributes[gpu.KERNEL_ATTR] = UnitAttr()
    return raised


class _Checker:
    """Errors for GPU constructs inside the functions derivative requests reach."""

    def __init__(self, module: ModuleOp):
        self.module = module
        src = module.attributes.get("llvm.source_filename")
        self.filename = src.data if isinstance(src, StringAttr) else None
        self.shared = {g.sym_name.data for g in module.ops if gpu.is_shared(g)}

    def fail(self, op: Operation, fn: xllvm.FuncOp, root: str, message: str, notes: list[str]) -> XenzymeError:
        via = f" (called from @{root}, which is differentiated)" if fn.sym_name.data != root else ""
        return XenzymeError(f"cannot differentiate @{fn.sym_name.data}{via}: {message}", self.where(op), notes)

    def where(self, op: Operation) -> SourceLocation:
        """The source position of `op`, or of the first use of it that has one (a constant, such
        as the address of a global, has none of its own)."""
        work, seen = [op], set()
        while work:
            o = work.pop(0)
            loc = location_of(o)
            if loc is not None and loc.line is not None:
                return loc
            seen.add(o)
            work += [u.operation for r in o.results for u in r.uses if u.operation not in seen][:8]
        return SourceLocation(self.filename)

    def run(self) -> None:
        roots: dict[str, bool] = {}  # function -> reached by a reverse-mode request
        for op in self.module.walk():
            if isinstance(op, (*REVERSE_REQUESTS, *FORWARD_REQUESTS)):
                name = op.callee.string_value()
                roots[name] = roots.get(name, False) or isinstance(op, REVERSE_REQUESTS)
        for root, reverse in roots.items():
            for fn in reachable(self.module, [root]):
                self.check(fn, root, reverse)

    def check(self, fn: xllvm.FuncOp, root: str, reverse: bool) -> None:
        for op in fn.walk():
            if is_nvvm(op):
                name = intrinsic_name(op)
                raise self.fail(op, fn, root, f"the GPU intrinsic @{name} has no derivative",
                                ["warp-level intrinsics (shuffles, votes, __syncthreads_count, ...) are not "
                                 "supported in differentiated code; use shared memory and __syncthreads()"])  # fmt: skip


def _erase_unused_declarations(module: ModuleOp, names: set[str]) -> None:
    for op in list(module.ops):
        if isinstance(op, xllvm.FuncOp) and op.sym_name.data in names and not op.body.blocks:
            if not symbol_users(module, op.sym_name.data):
                op.detach()
                op.erase()


def _erase_builtin_variables(module: ModuleOp) -> None:
    for op in list(module.ops):
        if (isinstance(op, xllvm.GlobalOp) and op.sym_name.data in BUILTIN_VARIABLES
                and op.linkage.linkage.data == "extern_weak" and not symbol_users(module, op.sym_name.data)):  # fmt: skip
            op.detach()
            op.erase()


def raise_nvvm(module: ModuleOp) -> None:
    raised: set[str] = set()
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp):
            raised |= raise_function(op)
    _erase_unused_declarations(module, raised)
    _erase_builtin_variables(module)
    _Checker(module).run()


@dataclass(frozen=True)
class RaiseNVVMPass(ModulePass):
    """NVVM intrinsics (thread and block ids and sizes, barriers, fences) and kernel marks ->
    the gpu layer; GPU constructs that derivatives cannot go through yet are errors."""

    name = "raise-nvvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise_nvvm(op)
