"""Shared memory in the lowerings of the gpu layer: which arrays a kernel uses, and, for NVPTX,
the arrays that are zero when each block starts and the copies of dynamic shared memory.

Derivatives give shared arrays shadows that must start at zero in every block, and give
dynamic shared memory a shadow after the launch's own (xenzyme/dialects/gpu.py says how the
layer writes both).  NVPTX knows neither, so `lower-gpu{target=nvvm}` (`lower_shared_for_nvvm`)

* clears the zeroed arrays a kernel reaches (through the functions it calls) when the kernel
  starts: every thread of the block clears a share of the words, then a barrier -- before the
  kernel's first instruction, where the control flow is the same for the whole block;
* turns the k-th copy of the dynamic shared memory into an address: the start of the dynamic
  shared memory plus k times the launch's share (`%dynamic_smem_size / (1 + copies)`: a
  kernel with copies is launched with that many times the dynamic shared memory -- xenzyme.cuda
  does it), and clears the copies the same way.

The CPU lowering lays the arrays and copies out in each block's buffer and clears them there
(xenzyme/transforms/gpu_to_cpu.py).
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
from xenzyme.transforms.gpu_math import call_op

_PTR = ext.LLVMPointerType()
_SHARED_PTR = ext.LLVMPointerType(IntAttr(gpu.SHARED_ADDRESS_SPACE))
ZERO_HELPER = "xenzyme.gpu.zero_shared"
DYNAMIC_SIZE_INTRINSIC = "llvm.nvvm.read.ptx.sreg.dynamic_smem_size"


def shared_arrays(module: ModuleOp, kernel: xllvm.FuncOp) -> list[xllvm.GlobalOp]:
    """The shared arrays `kernel` and the functions it calls use, in the order first met."""
    globals_ = {g.sym_name.data: g for g in module.ops if gpu.is_shared(g)}
    used: dict[str, xllvm.GlobalOp] = {}
    for fn in reachable(module, [kernel.sym_name.data]):
        for op in fn.walk():
            if isinstance(op, xllvm.AddressOfOp) and (n := op.global_name.string_value()) in globals_:
                used.setdefault(n, globals_[n])
    return list(used.values())


def _c(b: Builder, v: int, t: Attribute = i64) -> SSAValue:
    return b.insert(xllvm.ConstantOp(IntegerAttr(v, t), t)).results[0]


def _zero_helper(module: ModuleOp) -> str:
    """`zero_shared(ptr p, i64 bytes)`, run by every thread of a block: thread t clears the
    4-byte words t, t + n, ... of the first `bytes & ~3` bytes (n threads), then the bytes left
    over the same way.  `p` is 4-byte aligned."""
    if any(isinstance(op, xllvm.FuncOp) and op.sym_name.data == ZERO_HELPER for op in module.ops):
        return ZERO_HELPER
    entry = Block(arg_types=[_PTR, i64])
    p, nbytes = entry.args
    region = Region([entry])
    b = Builder(InsertPoint.at_end(entry))
    ids = [b.insert(gpu.ThreadIdOp(d)).results[0] for d in gpu.DIMENSIONS]
    dims = [b.insert(gpu.BlockDimOp(d)).results[0] for d in gpu.DIMENSIONS]
    wide = [b.insert(xllvm.ZExtOp(v, i64)).results[0] for v in (*ids, *dims)]
    tx, ty, tz, nx, ny, _ = wide
    nxy = b.insert(xllvm.MulOp(nx, ny)).results[0]
    n = b.insert(xllvm.MulOp(nxy, wide[5])).results[0]
    t = b.insert(xllvm.AddOp(b.insert(xllvm.MulOp(tz, nxy)).results[0],
                             b.insert(xllvm.AddOp(b.insert(xllvm.MulOp(ty, nx)).results[0], tx)).results[0])).results[0]  # fmt: skip
    words = b.insert(xllvm.LShrOp(nbytes, _c(b, 2))).results[0]
    after_words = strided_loop(region, b, t, words, n, lambda lb, k: lb.insert(
        ext.StoreOp(_c(lb, 0, i32), lb.insert(ext.GEPOp(p, [ext.GEP_USE_SSA_VAL], i32, [k])).results[0], alignment=4)))
    b = Builder(InsertPoint.at_end(after_words))
    tail = b.insert(xllvm.ShlOp(words, _c(b, 2))).results[0]
    start = b.insert(xllvm.AddOp(tail, t)).results[0]
    done = strided_loop(region, b, start, nbytes, n, lambda lb, k: lb.insert(
        ext.StoreOp(_c(lb, 0, i8), lb.insert(ext.GEPOp(p, [ext.GEP_USE_SSA_VAL], i8, [k])).results[0])))
    Builder(InsertPoint.at_end(done)).insert(xllvm.ReturnOp())
    fn = xllvm.FuncOp(ZERO_HELPER, ext.LLVMFunctionType([_PTR, i64], ext.LLVMVoidType()),
                      linkage=xllvm.LinkageAttr("internal"), body=region)  # fmt: skip
    module.body.block.add_op(fn)
    return ZERO_HELPER


def strided_loop(region: Region, b: Builder, start: SSAValue, end: SSAValue, step: SSAValue, body) -> Block:
    """for (k = start; k < end; k += step) body(builder, k); the block after the loop."""
    head, loop, done = Block(arg_types=[i64]), Block(), Block()
    for blk in (head, loop, done):
        region.add_block(blk)
    b.insert(xllvm.BrOp(head, start))
    hb = Builder(InsertPoint.at_end(head))
    k = head.args[0]
    hb.insert(xllvm.CondBrOp(hb.insert(ext.ICmpOp(k, end, "ult")).results[0], loop, [], done, []))
    lb = Builder(InsertPoint.at_end(loop))
    body(lb, k)
    lb.insert(xllvm.BrOp(head, lb.insert(xllvm.AddOp(k, step)).results[0]))
    return done


def _dynamic_base(module: ModuleOp) -> str:
    """A name for the start of the dynamic shared memory (an `extern __shared__` array)."""
    for op in module.ops:
        if isinstance(op, xllvm.GlobalOp) and gpu.is_dynamic_shared(op) and not gpu.dynamic_copy(op):
            return op.sym_name.data
    name = "xenzyme.dynamic_shared"
    module.body.block.add_op(xllvm.GlobalOp(ext.LLVMArrayType(0, i8), name, "external",
                                            addr_space=gpu.SHARED_ADDRESS_SPACE, alignment=16))  # fmt: skip
    return name


def _share(b: Builder, copies: int) -> SSAValue:
    """The launch's share of the dynamic shared memory: its size over 1 + copies (i64)."""
    size = b.insert(xllvm.CallIntrinsicOp(DYNAMIC_SIZE_INTRINSIC, [], [i32])).results[0]
    wide = b.insert(xllvm.ZExtOp(size, i64)).results[0]
    return b.insert(xllvm.UDivOp(wide, _c(b, 1 + copies))).results[0]


def lower_shared_for_nvvm(module: ModuleOp) -> None:
    """Zeroed shared arrays and copies of dynamic shared memory -> NVPTX (module docstring)."""
    copies = [op for op in module.ops if isinstance(op, xllvm.GlobalOp) and gpu.is_dynamic_shared(op)
              and gpu.dynamic_copy(op)]  # fmt: skip
    zeroed = [op for op in module.ops if gpu.is_zeroed_shared(op)]
    if not copies and not zeroed:
        return
    ncopies = max((gpu.dynamic_copy(c) for c in copies), default=0)
    base = _dynamic_base(module) if copies else None
    for k in gpu.kernels(module):
        used = shared_arrays(module, k)
        clear = [g for g in used if gpu.is_zeroed_shared(g)]
        dynamic = any(gpu.dynamic_copy(g) for g in used if gpu.is_dynamic_shared(g))
        if not clear and not dynamic:
            continue
        entry = k.body.blocks.first
        assert entry is not None and entry.first_op is not None
        b = Builder(InsertPoint.before(entry.first_op))
        helper = _zero_helper(module)
        for g in clear:
            size, _ = size_align(g.global_type) or (0, 1)
            p = b.insert(ext.AddrSpaceCastOp(b.insert(xllvm.AddressOfOp(g.sym_name.data, _SHARED_PTR)).results[0],
                                             _PTR)).results[0]  # fmt: skip
            b.insert(call_op(helper, [p, _c(b, size)], None))
        if dynamic:
            assert base is not None
            share = _share(b, ncopies)
            start = _dynamic_address(b, base, share, 1)
            b.insert(call_op(helper, [start, b.insert(xllvm.MulOp(share, _c(b, ncopies))).results[0]], None))
        b.insert(gpu.BarrierOp())
    for g in zeroed:  # NVPTX gives shared memory no initial value
        init = g.body.blocks.first
        assert init is not None
        for op in reversed(list(init.ops)):
            op.detach()
            op.erase(safe_erase=False)
        undef = xllvm.UndefOp(g.global_type)
        init.add_ops([undef, xllvm.ReturnOp(undef.results[0])])
    if copies:
        assert base is not None
        names = {c.sym_name.data: gpu.dynamic_copy(c) for c in copies}
        for op in list(module.walk()):
            if isinstance(op, xllvm.AddressOfOp) and (copy := names.get(op.global_name.string_value())):
                _replace_copy_address(op, base, ncopies, copy)
        for c in copies:
            c.detach()
            c.erase()


def _dynamic_address(b: Builder, base: str, share: SSAValue, copy: int) -> SSAValue:
    """The generic address of the `copy`-th copy of the dynamic shared memory."""
    start = b.insert(ext.AddrSpaceCastOp(b.insert(xllvm.AddressOfOp(base, _SHARED_PTR)).results[0], _PTR)).results[0]
    offset = b.insert(xllvm.MulOp(share, _c(b, copy))).results[0]
    return b.insert(ext.GEPOp(start, [ext.GEP_USE_SSA_VAL], i8, [offset])).results[0]


def _replace_copy_address(op: xllvm.AddressOfOp, base: str, ncopies: int, copy: int) -> None:
    """`addressof @copy : ptr<3>` -> the address in the dynamic shared memory, in shared space."""
    b = Builder(InsertPoint.before(op))
    share = _share(b, ncopies)
    start = b.insert(xllvm.AddressOfOp(base, _SHARED_PTR)).results[0]
    offset = b.insert(xllvm.MulOp(share, _c(b, copy))).results[0]
    addr = b.insert(ext.GEPOp(start, [ext.GEP_USE_SSA_VAL], i8, [offset], result_type=_SHARED_PTR)).results[0]
    if op.result.type != _SHARED_PTR:
        addr = b.insert(ext.AddrSpaceCastOp(addr, op.result.type)).results[0]
    op.result.replace_all_uses_with(addr)
    op.detach()
    op.erase()


__all__ = ["lower_shared_for_nvvm", "shared_arrays", "strided_loop"]
