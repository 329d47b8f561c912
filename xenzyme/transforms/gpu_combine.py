"""The additions of adjoints in GPU code, `gpu.owned_add` and `gpu.combined_add`, for each target.

Reverse mode adds adjoints into memory that other threads may add into too
(`GradientBuilder.accumulate_memory`, `xenzyme.analysis.gpu_updates`).  Where the address is
the thread's own on a one-dimensional launch it emits `gpu.owned_add`; where it is likely the
same in every thread of the block, `gpu.combined_add`.  Both become calls of small helper
functions, one per float type, that LLVM inlines:

    xenzyme.gpu.owned_add.f64(p, v)       plain `*p += v` when blockDim.y/z and gridDim.y/z
                                          are 1, else `atomicrmw fadd` (in gpu-layer terms,
                                          so that both lowerings take it as it is)
    xenzyme.gpu.combined_add.f64(p, v)    NVPTX: when all 32 threads of the warp are there
                                          (`activemask`) with the same `p` (a shuffle from
                                          lane 0 and a vote), a butterfly of shuffles sums
                                          their values and lane 0 adds the sum with one
                                          atomic; otherwise each thread adds atomically
    xenzyme.cpu.combine.f64(slot, sum, p, v) / xenzyme.cpu.flush.f64(slot, sum)
                                          the CPU: a block's threads run one after the other,
                                          so consecutive additions at one address are summed
                                          in `sum` (the address in `slot`) and added by one
                                          atomic when the address changes and at the end of
                                          the phase (the next barrier, or the block's end)

`gpu.combined_add` lets the update wait until the next barrier: the CPU's sums are in memory
when the threads' loop of the phase ends.  f32 adds through f32 shuffles; f64 through its
two 32-bit halves.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import Float32Type, IntegerAttr, ModuleOp, StringAttr, i1, i32, i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.transforms.gpu_math import call_op

_PTR = ext.LLVMPointerType()
FULL_MASK = -1
WARP = 32


def _name(kind: str, t: Attribute) -> str:
    return f"{kind}.{'f32' if isinstance(t, Float32Type) else 'f64'}"


def _c(b: Builder, v: int, t: Attribute = i32) -> SSAValue:
    return b.insert(xllvm.ConstantOp(IntegerAttr(v, t), t)).results[0]


def _has(module: ModuleOp, name: str) -> bool:
    return any(isinstance(op, xllvm.FuncOp) and op.sym_name.data == name for op in module.ops)


def _define(module: ModuleOp, name: str, params: list[Attribute], blocks: list[Block]) -> None:
    fn = xllvm.FuncOp(name, ext.LLVMFunctionType(params, ext.LLVMVoidType()), linkage=xllvm.LinkageAttr("internal"),
                      body=Region(blocks))  # fmt: skip
    fn.properties["passthrough"] = xllvm.ArrayAttr([StringAttr("alwaysinline"), StringAttr("nounwind")])
    module.body.block.add_op(fn)


def _plain_add(b: Builder, p: SSAValue, v: SSAValue) -> None:
    old = b.insert(xllvm.LoadOp(p, v.type)).results[0]
    b.insert(ext.StoreOp(b.insert(xllvm.FAddOp(old, v)).results[0], p))


def _atomic_add(b: Builder, p: SSAValue, v: SSAValue) -> None:
    b.insert(ext.AtomicRMWOp("fadd", p, v, "monotonic"))


def owned_add_helper(module: ModuleOp, t: Attribute) -> str:
    """`xenzyme.gpu.owned_add.<t>(p, v)` (module docstring), in gpu-layer terms."""
    name = _name("xenzyme.gpu.owned_add", t)
    if _has(module, name):
        return name
    entry, plain, atomic, done = Block(arg_types=[_PTR, t]), Block(), Block(), Block()
    p, v = entry.args
    b = Builder(InsertPoint.at_end(entry))
    sizes = [b.insert(op(d)).results[0] for op in (gpu.BlockDimOp, gpu.GridDimOp) for d in ("y", "z")]
    one = _c(b, 1)
    flat = b.insert(ext.ICmpOp(sizes[0], one, "eq")).results[0]
    for s in sizes[1:]:
        flat = b.insert(xllvm.AndOp(flat, b.insert(ext.ICmpOp(s, one, "eq")).results[0])).results[0]
    b.insert(xllvm.CondBrOp(flat, plain, [], atomic, []))
    pb = Builder(InsertPoint.at_end(plain))
    _plain_add(pb, p, v)
    pb.insert(xllvm.BrOp(done))
    ab = Builder(InsertPoint.at_end(atomic))
    _atomic_add(ab, p, v)
    ab.insert(xllvm.BrOp(done))
    Builder(InsertPoint.at_end(done)).insert(xllvm.ReturnOp())
    _define(module, name, [_PTR, t], [entry, plain, atomic, done])
    return name


def _nvvm(b: Builder, name: str, args: list[SSAValue], result: Attribute) -> SSAValue:
    return b.insert(xllvm.CallIntrinsicOp(f"llvm.nvvm.{name}", args, [result])).results[0]


def _shuffle(b: Builder, kind: str, v: SSAValue, lane: int) -> SSAValue:
    """`shfl.sync.<kind>` of a 32-bit value over the whole warp."""
    t = v.type
    suffix = "f32" if isinstance(t, Float32Type) else "i32"
    return _nvvm(b, f"shfl.sync.{kind}.{suffix}", [_c(b, FULL_MASK), v, _c(b, lane), _c(b, WARP - 1)], t)


def _shuffle_f64(b: Builder, v: SSAValue, lane: int) -> SSAValue:
    bits = b.insert(xllvm.BitcastOp(v, i64)).results[0]
    lo = b.insert(xllvm.TruncOp(bits, i32)).results[0]
    hi = b.insert(xllvm.TruncOp(b.insert(xllvm.LShrOp(bits, _c(b, 32, i64))).results[0], i32)).results[0]
    lo, hi = _shuffle(b, "bfly", lo, lane), _shuffle(b, "bfly", hi, lane)
    wide = b.insert(xllvm.OrOp(b.insert(xllvm.ZExtOp(lo, i64)).results[0],
                               b.insert(xllvm.ShlOp(b.insert(xllvm.ZExtOp(hi, i64)).results[0], _c(b, 32, i64))).results[0])).results[0]  # fmt: skip
    return b.insert(xllvm.BitcastOp(wide, v.type)).results[0]


def combined_add_nvvm_helper(module: ModuleOp, t: Attribute) -> str:
    """`xenzyme.gpu.combined_add.<t>(p, v)` for NVPTX (module docstring)."""
    name = _name("xenzyme.gpu.combined_add", t)
    if _has(module, name):
        return name
    entry, check, reduce_, leader, single, done = Block(arg_types=[_PTR, t]), Block(), Block(), Block(), Block(), Block()
    p, v = entry.args
    b = Builder(InsertPoint.at_end(entry))
    mask = _nvvm(b, "activemask", [], i32)
    full = b.insert(ext.ICmpOp(mask, _c(b, FULL_MASK), "eq")).results[0]
    b.insert(xllvm.CondBrOp(full, check, [], single, []))
    cb = Builder(InsertPoint.at_end(check))
    address = cb.insert(xllvm.PtrToIntOp(p, i64)).results[0]
    same: SSAValue | None = None
    for half in (cb.insert(xllvm.TruncOp(address, i32)).results[0],
                 cb.insert(xllvm.TruncOp(cb.insert(xllvm.LShrOp(address, _c(cb, 32, i64))).results[0], i32)).results[0]):  # fmt: skip
        first = _shuffle(cb, "idx", half, 0)
        eq = cb.insert(ext.ICmpOp(first, half, "eq")).results[0]
        same = eq if same is None else cb.insert(xllvm.AndOp(same, eq)).results[0]
    assert same is not None
    everyone = _nvvm(cb, "vote.all.sync", [_c(cb, FULL_MASK), same], i1)
    cb.insert(xllvm.CondBrOp(everyone, reduce_, [], single, []))
    rb = Builder(InsertPoint.at_end(reduce_))
    total = v
    for lane in (16, 8, 4, 2, 1):
        other = _shuffle(rb, "bfly", total, lane) if isinstance(t, Float32Type) else _shuffle_f64(rb, total, lane)
        total = rb.insert(xllvm.FAddOp(total, other)).results[0]
    first_lane = rb.insert(ext.ICmpOp(_nvvm(rb, "read.ptx.sreg.laneid", [], i32), _c(rb, 0), "eq")).results[0]
    rb.insert(xllvm.CondBrOp(first_lane, leader, [], done, []))
    lb = Builder(InsertPoint.at_end(leader))
    _atomic_add(lb, p, total)
    lb.insert(xllvm.BrOp(done))
    sb = Builder(InsertPoint.at_end(single))
    _atomic_add(sb, p, v)
    sb.insert(xllvm.BrOp(done))
    Builder(InsertPoint.at_end(done)).insert(xllvm.ReturnOp())
    _define(module, name, [_PTR, t], [entry, check, reduce_, leader, single, done])
    return name


def lower_adds_for_nvvm(module: ModuleOp) -> None:
    """`gpu.owned_add` / `gpu.combined_add` -> calls of their helpers (before the gpu layer's
    ids are lowered: the owned helper reads them)."""
    for op in list(module.walk()):
        if isinstance(op, gpu.ADD_OPS):
            t = op.value.type
            helper = owned_add_helper(module, t) if isinstance(op, gpu.OwnedAddOp) else combined_add_nvvm_helper(module, t)
            Builder(InsertPoint.before(op)).insert(call_op(helper, [op.ptr, op.value], None))
            op.detach()
            op.erase()


# ---- the CPU ---------------------------------------------------------------------------------


def combine_helper_cpu(module: ModuleOp, t: Attribute) -> str:
    """`xenzyme.cpu.combine.<t>(slot, sum, p, v)`: if *slot == p, *sum += v; else the sum so
    far goes to *slot (atomically, if there is one) and the sum starts again at p with v."""
    name = _name("xenzyme.cpu.combine", t)
    if _has(module, name):
        return name
    entry, same, other, flush, start = Block(arg_types=[_PTR, _PTR, _PTR, t]), Block(), Block(), Block(), Block()
    slot, total, p, v = entry.args
    b = Builder(InsertPoint.at_end(entry))
    held = b.insert(xllvm.LoadOp(slot, _PTR)).results[0]
    b.insert(xllvm.CondBrOp(b.insert(ext.ICmpOp(held, p, "eq")).results[0], same, [], other, []))
    sb = Builder(InsertPoint.at_end(same))
    _plain_add(sb, total, v)
    sb.insert(xllvm.ReturnOp())
    ob = Builder(InsertPoint.at_end(other))
    null = ob.insert(xllvm.ZeroOp.create(result_types=[_PTR])).results[0]
    ob.insert(xllvm.CondBrOp(ob.insert(ext.ICmpOp(held, null, "eq")).results[0], start, [], flush, []))
    fb = Builder(InsertPoint.at_end(flush))
    _atomic_add(fb, held, fb.insert(xllvm.LoadOp(total, t)).results[0])
    fb.insert(xllvm.BrOp(start))
    tb = Builder(InsertPoint.at_end(start))
    tb.insert(ext.StoreOp(p, slot))
    tb.insert(ext.StoreOp(v, total))
    tb.insert(xllvm.ReturnOp())
    _define(module, name, [_PTR, _PTR, _PTR, t], [entry, same, other, flush, start])
    return name


def flush_helper_cpu(module: ModuleOp, t: Attribute) -> str:
    """`xenzyme.cpu.flush.<t>(slot, sum)`: the sum so far to *slot (atomically), if there is one;
    the slot emptied."""
    name = _name("xenzyme.cpu.flush", t)
    if _has(module, name):
        return name
    entry, flush, done = Block(arg_types=[_PTR, _PTR]), Block(), Block()
    slot, total = entry.args
    b = Builder(InsertPoint.at_end(entry))
    held = b.insert(xllvm.LoadOp(slot, _PTR)).results[0]
    null = b.insert(xllvm.ZeroOp.create(result_types=[_PTR])).results[0]
    b.insert(xllvm.CondBrOp(b.insert(ext.ICmpOp(held, null, "eq")).results[0], done, [], flush, []))
    fb = Builder(InsertPoint.at_end(flush))
    _atomic_add(fb, held, fb.insert(xllvm.LoadOp(total, t)).results[0])
    fb.insert(ext.StoreOp(fb.insert(xllvm.ZeroOp.create(result_types=[_PTR])).results[0], slot))
    fb.insert(xllvm.BrOp(done))
    Builder(InsertPoint.at_end(done)).insert(xllvm.ReturnOp())
    _define(module, name, [_PTR, _PTR], [entry, flush, done])
    return name


__all__ = ["combine_helper_cpu", "combined_add_nvvm_helper", "flush_helper_cpu", "lower_adds_for_nvvm",
           "owned_add_helper"]  # fmt: skip
