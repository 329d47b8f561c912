"""Shadows of `__device__` globals, zeroed at each launch of a kernel that asks for derivatives.

A C program's derivative call finds the shadows of globals at zero: an adjoint one call left
in a global's shadow (of a value read and not written) must not reach the next.  In a kernel
every thread asks for its derivative, and the threads of one launch together make one
derivative -- what one thread clearing the shadows would break, as it raced with the others.
So the launch is the unit: a kernel reaching a function marked `gpu.ZERO_SHADOWS_ATTR` (reverse
mode, forward mode and the forward half of split mode mark the function asking) starts every
launch with the shadows of globals its code uses at zero.  A kernel that only runs the reverse
half of split mode (`__enzyme_reverse`) keeps them: it consumes what an earlier launch left.

* CPU (`lower-gpu{target=cpu}`): the host function clears them before the grid runs
  (`zero_in_host`).
* NVPTX (`lower-gpu{target=nvvm}`): the kernel `xenzyme_zero_shadows_<kernel>` clears them
  (a grid-stride loop: any grid and block size will do), and the launcher runs it before the
  kernel -- `xenzyme.cuda` does; a program launching the PTX itself must too:

      llvm.func @xenzyme_zero_shadows_grad() attributes {gpu.kernel} {
        ... thread t of n stores 0 to the words t, t + n, ... of @g.shadow ...
      }
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntAttr, IntegerAttr, ModuleOp, i8, i32, i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.callgraph import reachable
from xenzyme.analysis.types import size_align
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.transforms.diff.symbols import global_shadows
from xenzyme.transforms.gpu_shared import strided_loop

ZERO_KERNEL_PREFIX = "xenzyme_zero_shadows_"
_PTR = ext.LLVMPointerType()


def zero_kernel_name(kernel: str) -> str:
    """The kernel clearing `kernel`'s shadows of globals on NVPTX."""
    return ZERO_KERNEL_PREFIX + kernel


def zeroed_at_launch(module: ModuleOp, kernel: xllvm.FuncOp) -> list[xllvm.GlobalOp]:
    """The shadows of globals each launch of `kernel` clears: those its code (with the functions
    it calls) uses, when some of that code asks for derivatives; in the order first met."""
    fns = reachable(module, [kernel.sym_name.data])
    if not any(gpu.ZERO_SHADOWS_ATTR in f.attributes for f in fns):
        return []
    shadows = global_shadows(module)
    used: dict[str, xllvm.GlobalOp] = {}
    for fn in fns:
        for op in fn.walk():
            if isinstance(op, xllvm.AddressOfOp) and (n := op.global_name.string_value()) in shadows:
                used.setdefault(n, shadows[n])
    return list(used.values())


def zeroed_bytes(module: ModuleOp, kernel: xllvm.FuncOp) -> int:
    return sum(_size(g) for g in zeroed_at_launch(module, kernel))


def drop_marks(module: ModuleOp) -> None:
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp):
            op.attributes.pop(gpu.ZERO_SHADOWS_ATTR, None)


def _size(g: xllvm.GlobalOp) -> int:
    layout = size_align(g.global_type)
    return layout[0] if layout is not None else 0


def _c(b: Builder, v: int, t: Attribute = i64) -> SSAValue:
    return b.insert(xllvm.ConstantOp(IntegerAttr(v, t), t)).results[0]


def _address(b: Builder, g: xllvm.GlobalOp) -> SSAValue:
    """The generic address of the global `g`."""
    space = gpu.address_space(g)
    addr = b.insert(xllvm.AddressOfOp(g.sym_name.data, ext.LLVMPointerType(IntAttr(space)) if space else _PTR))
    return addr.results[0] if not space else b.insert(ext.AddrSpaceCastOp(addr.results[0], _PTR)).results[0]


def zero_in_host(b: Builder, globals_: list[xllvm.GlobalOp]) -> None:
    """Clear `globals_` (on the CPU, where the host function is the launch)."""
    for g in globals_:
        b.insert(ext.MemsetOp([_address(b, g), _c(b, 0, i8), _c(b, _size(g))]))


def add_zero_kernels(module: ModuleOp) -> None:
    """For each kernel that clears shadows of globals at launch, the kernel that does it on
    NVPTX (`zero_kernel_name`), in the gpu layer: thread t of the n of the grid (x only) clears
    the 4-byte words t, t + n, ... of each shadow, then its bytes left over the same way."""
    for k in gpu.kernels(module):
        shadows = zeroed_at_launch(module, k)
        if not shadows:
            continue
        entry = Block()
        region = Region([entry])
        b = Builder(InsertPoint.at_end(entry))
        tid, bid, ntid, nbid = (b.insert(xllvm.ZExtOp(b.insert(op("x")).results[0], i64)).results[0]
                                for op in (gpu.ThreadIdOp, gpu.BlockIdOp, gpu.BlockDimOp, gpu.GridDimOp))  # fmt: skip
        t = b.insert(xllvm.AddOp(b.insert(xllvm.MulOp(bid, ntid)).results[0], tid)).results[0]
        n = b.insert(xllvm.MulOp(nbid, ntid)).results[0]
        for g in shadows:
            size = _size(g)
            p = _address(b, g)
            words = size // 4 if (size_align(g.global_type) or (0, 1))[1] >= 4 else 0
            after = strided_loop(region, b, t, _c(b, words), n, lambda lb, i, p=p: lb.insert(
                ext.StoreOp(_c(lb, 0, i32), lb.insert(ext.GEPOp(p, [ext.GEP_USE_SSA_VAL], i32, [i])).results[0], alignment=4)))
            b = Builder(InsertPoint.at_end(after))
            if size > 4 * words:
                start = b.insert(xllvm.AddOp(t, _c(b, 4 * words))).results[0]
                after = strided_loop(region, b, start, _c(b, size), n, lambda lb, i, p=p: lb.insert(
                    ext.StoreOp(_c(lb, 0, i8), lb.insert(ext.GEPOp(p, [ext.GEP_USE_SSA_VAL], i8, [i])).results[0])))
                b = Builder(InsertPoint.at_end(after))
        b.insert(xllvm.ReturnOp())
        fn = xllvm.FuncOp(zero_kernel_name(k.sym_name.data), ext.LLVMFunctionType([], ext.LLVMVoidType()),
                          linkage=xllvm.LinkageAttr("external"), body=region)  # fmt: skip
        fn.attributes[gpu.KERNEL_ATTR] = k.attributes[gpu.KERNEL_ATTR]
        module.body.block.insert_op_after(fn, k)


__all__ = ["add_zero_kernels", "drop_marks", "zero_in_host", "zero_kernel_name", "zeroed_at_launch", "zeroed_bytes"]
