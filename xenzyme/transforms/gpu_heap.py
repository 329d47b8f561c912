"""The C heap functions in NVPTX code: CUDA devices have `malloc` and `free` only.

Derivatives allocate: reverse mode keeps values of loops with run-time trip counts in growable
heap buffers (`realloc`, `aligned_alloc`, `madvise`, `malloc_usable_size` -- lower-autodiff),
and gives heap memory shadows.  For PTX, `device_heap` replaces every call of the C heap
functions by internal versions built on the device's `malloc` and `free`: each block carries
its size in a 16-byte header, so that `realloc` can copy and `malloc_usable_size` answer.
Blocks are 16-byte aligned whatever `aligned_alloc` asks (it only serves speed on the host);
`madvise` does nothing.  The device's heap is small unless the launcher enlarges it
(`cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)`; xenzyme.cuda does).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, SymbolRefAttr, i8, i32, i64
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.dialects import llvm_ext as ext
from xenzyme.transforms.gpu_math import call_op, declare

_PTR = ext.LLVMPointerType()
HEADER = 16
PREFIX = "xenzyme.device."

_SIGNATURES = {
    "malloc": ([i64], _PTR), "calloc": ([i64, i64], _PTR), "realloc": ([_PTR, i64], _PTR),
    "aligned_alloc": ([i64, i64], _PTR), "free": ([_PTR], None), "malloc_usable_size": ([_PTR], i64),
    "madvise": ([_PTR, i64, i32], i32),
}  # fmt: skip
"""The C functions replaced, and their LLVM signatures."""


def _c(b: Builder, v: int, t=i64) -> SSAValue:
    return b.insert(xllvm.ConstantOp(IntegerAttr(v, t), t)).results[0]


def _gep(b: Builder, p: SSAValue, offset: int) -> SSAValue:
    return b.insert(ext.GEPOp(p, [offset], i8)).results[0]


def _alloc(b: Builder, n: SSAValue) -> SSAValue:
    """`malloc(n + HEADER)`, the size stored in front; null if malloc fails."""
    raw = b.insert(call_op("malloc", [b.insert(xllvm.AddOp(n, _c(b, HEADER))).results[0]], _PTR)).results[0]
    null = b.insert(xllvm.ZeroOp.create(result_types=[_PTR])).results[0]
    failed = b.insert(ext.ICmpOp(raw, null, "eq")).results[0]
    ok, done = Block(), Block(arg_types=[_PTR])
    region = b.insertion_point.block.parent_region()
    assert region is not None
    region.add_block(ok)
    region.add_block(done)
    b.insert(xllvm.CondBrOp(failed, done, [null], ok, []))
    ob = Builder(InsertPoint.at_end(ok))
    ob.insert(ext.StoreOp(n, raw, alignment=8))
    ob.insert(xllvm.BrOp(done, _gep(ob, raw, HEADER)))
    b.insertion_point = InsertPoint.at_end(done)
    return done.args[0]


def _size_of(b: Builder, q: SSAValue) -> SSAValue:
    return b.insert(xllvm.LoadOp(_gep(b, q, -HEADER), i64, alignment=8)).results[0]


def _if_not_null(b: Builder, q: SSAValue, then: Callable[[Builder], None]) -> None:
    null = b.insert(xllvm.ZeroOp.create(result_types=[_PTR])).results[0]
    isnull = b.insert(ext.ICmpOp(q, null, "eq")).results[0]
    region = b.insertion_point.block.parent_region()
    assert region is not None
    body, after = Block(), Block()
    region.add_block(body)
    region.add_block(after)
    b.insert(xllvm.CondBrOp(isnull, after, [], body, []))
    tb = Builder(InsertPoint.at_end(body))
    then(tb)
    tb.insert(xllvm.BrOp(after))
    b.insertion_point = InsertPoint.at_end(after)


def _malloc(b: Builder, n: SSAValue) -> SSAValue:
    return _alloc(b, n)


def _calloc(b: Builder, count: SSAValue, size: SSAValue) -> SSAValue:
    n = b.insert(xllvm.MulOp(count, size)).results[0]
    p = _alloc(b, n)
    _if_not_null(b, p, lambda tb: tb.insert(ext.MemsetOp([p, _c(tb, 0, i8), n])))
    return p


def _realloc(b: Builder, q: SSAValue, n: SSAValue) -> SSAValue:
    p = _alloc(b, n)

    def move(tb: Builder) -> None:
        old = _size_of(tb, q)
        less = tb.insert(ext.ICmpOp(old, n, "ult")).results[0]
        count = tb.insert(ext.SelectOp(less, old, n)).results[0]
        tb.insert(ext.MemcpyOp([p, q, count]))
        tb.insert(call_op("free", [_gep(tb, q, -HEADER)], None))

    _if_not_null(b, q, move)
    return p


def _aligned_alloc(b: Builder, align: SSAValue, n: SSAValue) -> SSAValue:
    return _alloc(b, n)


def _free(b: Builder, q: SSAValue) -> None:
    _if_not_null(b, q, lambda tb: tb.insert(call_op("free", [_gep(tb, q, -HEADER)], None)))


def _usable_size(b: Builder, q: SSAValue) -> SSAValue:
    slot = b.insert(xllvm.AllocaOp(_c(b, 1), i64, 8)).results[0]
    b.insert(ext.StoreOp(_c(b, 0), slot))
    _if_not_null(b, q, lambda tb: tb.insert(ext.StoreOp(_size_of(tb, q), slot)))
    return b.insert(xllvm.LoadOp(slot, i64)).results[0]


def _madvise(b: Builder, p: SSAValue, n: SSAValue, advice: SSAValue) -> SSAValue:
    return _c(b, 0, i32)


_BODIES: dict[str, Callable[..., SSAValue | None]] = {
    "malloc": _malloc, "calloc": _calloc, "realloc": _realloc, "aligned_alloc": _aligned_alloc, "free": _free,
    "malloc_usable_size": _usable_size, "madvise": _madvise,
}  # fmt: skip


def device_heap(module: ModuleOp) -> None:
    """Calls of the C heap functions -> the device versions (see the module docstring)."""
    called: set[str] = set()
    for op in module.walk():
        if isinstance(op, xllvm.CallOp) and op.callee is not None and (name := op.callee.string_value()) in _BODIES:
            op.properties["callee"] = SymbolRefAttr(PREFIX + name)
            called.add(name)
    if not called:
        return
    for name in sorted(called):
        params, result = _SIGNATURES[name]
        entry = Block(arg_types=params)
        fn = xllvm.FuncOp(PREFIX + name, ext.LLVMFunctionType(params, result or ext.LLVMVoidType()),
                          linkage=xllvm.LinkageAttr("internal"), body=Region([entry]))  # fmt: skip
        b = Builder(InsertPoint.at_end(entry))
        r = _BODIES[name](b, *entry.args)
        b.insert(xllvm.ReturnOp(r))
        module.body.block.add_op(fn)
    for op in list(module.ops):  # the host's declarations, now unused (the device's are below)
        if isinstance(op, xllvm.FuncOp) and op.sym_name.data in _BODIES and not op.body.blocks:
            op.detach()
            op.erase()
    declare(module, "malloc", ext.LLVMFunctionType([i64], _PTR))
    declare(module, "free", ext.LLVMFunctionType([_PTR], ext.LLVMVoidType()))


__all__ = ["device_heap"]
