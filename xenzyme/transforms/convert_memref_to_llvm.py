"""`convert-memref-to-llvm`: memref ops -> address arithmetic, loads, stores, malloc and free
on the descriptor (xenzyme/backend/memrefs.py).

    %v = memref.load %a[%i, %j] : memref<4x3xf64>
    // becomes, with the strides the type fixes (3, 1) and offset 0
    %p = llvm.extractvalue %d[1] : ...            // the aligned pointer
    %k = %i * 3 + %j
    %q = llvm.getelementptr %p[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f64
    %v = llvm.load %q : !llvm.ptr -> f64

Strides and offset come from the type when it fixes them (a static shape with the identity
layout), else from the descriptor.  `memref.alloc` calls `malloc` (so the derivative rules of
allocators give it a shadow), `memref.alloca` makes an `llvm.alloca`, `memref.dealloc` calls
`free`, `memref.dim` reads a size.

Views make a new descriptor on the same pointers, as MLIR lays them out:

    memref.subview %a[%o0, %o1] [s0, s1] [t0, t1]   offset' = offset + o0*stride0 + o1*stride1,
                                                    sizes' = s, strides' = stride * t (the unit
                                                    dimensions a rank-reducing subview drops go)
    memref.reinterpret_cast                         offset, sizes, strides as written
    memref.collapse_shape  [[0, 1]]                 size' = size0 * size1, stride' = stride1
    memref.expand_shape    [[0, 1]] (n0, n1)        sizes n0, n1; strides stride0 * n1, stride0
    memref.cast                                     the same descriptor (the same struct type)

`memref.copy` is a loop nest of loads and stores (`expand_copies`, run while loops are still
`scf.for`), so it copies between any two layouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects import memref
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, MemRefType, ModuleOp, NoneAttr, UnrealizedConversionCastOp, i8, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xenzyme.backend.memrefs import DYNAMIC, descriptor_type, element_size, llvm_type, rank, static_strides
from xenzyme.dialects import llvm_ext as ext
from xenzyme.analysis.memref_views import VIEWS
from xenzyme.transforms.llvm_lowering import as_llvm, declare, replace, unsupported, erase_dead_casts


class _Ops:
    """Collects the llvm ops of one lowering, in order."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []
        self.known: dict[SSAValue, int] = {}

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def const(self, n: int) -> SSAValue:
        v = self.add(xllvm.ConstantOp(IntegerAttr(n, i64), i64))
        self.known[v] = n
        return v

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a * b, folded where one is a constant 1 or both are constants."""
        x, y = self.known.get(a), self.known.get(b)
        if x is not None and y is not None:
            return self.const(x * y)
        return b if x == 1 else a if y == 1 else self.add(xllvm.MulOp(a, b))

    def plus(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a + b, folded where one is a constant 0 or both are constants."""
        x, y = self.known.get(a), self.known.get(b)
        if x is not None and y is not None:
            return self.const(x + y)
        return b if x == 0 else a if y == 0 else self.add(xllvm.AddOp(a, b))

    def field(self, d: SSAValue, pos: list[int], t: Attribute) -> SSAValue:
        return self.add(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, pos), d, t))

    def insert(self, d: SSAValue, pos: list[int], v: SSAValue) -> SSAValue:
        return self.add(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, pos), d, v))


def _address(b: _Ops, t: MemRefType, d: SSAValue, indices: list[SSAValue]) -> SSAValue:
    """The address of element `indices` of the memref with descriptor `d`."""
    fixed = static_strides(t)
    if fixed is not None:
        strides: list[SSAValue | int] = list(fixed[0])
        offset: SSAValue | int = fixed[1]
    else:
        strides = [b.field(d, [4, k], i64) for k in range(rank(t))]
        offset = b.field(d, [2], i64)
    total: SSAValue | None = b.const(offset) if isinstance(offset, int) and offset else (
        None if isinstance(offset, int) else offset)  # fmt: skip
    for i, s in zip(indices, strides, strict=True):
        term = i if s == 1 else b.add(xllvm.MulOp(i, b.const(s) if isinstance(s, int) else s))
        total = term if total is None else b.add(xllvm.AddOp(total, term))
    if total is None:
        total = b.const(0)
    base = b.field(d, [1], xllvm.LLVMPointerType())
    return b.add(ext.GEPOp(base, [xllvm.GEP_USE_SSA_VAL], llvm_type(t.element_type), ssa_indices=[total]))


def _allocate(op: memref.AllocOp | memref.AllocaOp, module: ModuleOp) -> tuple[list[Operation], list[SSAValue]]:
    t = op.memref.type
    assert isinstance(t, MemRefType)
    if not isinstance(t.layout, NoneAttr):
        raise unsupported(op, "with a layout is not supported yet", ["allocate with the identity layout"])
    b = _Ops()
    dyn = iter(as_llvm(v, op) for v in op.dynamic_sizes)
    sizes: list[SSAValue] = [next(dyn) if n == DYNAMIC else b.const(n) for n in t.get_shape()]
    strides: list[SSAValue] = []
    acc: SSAValue = b.const(1)
    for s in reversed(sizes):
        strides.insert(0, acc)
        acc = b.add(xllvm.MulOp(acc, s))
    nbytes = b.add(xllvm.MulOp(acc, b.const(element_size(t.element_type))))
    if isinstance(op, memref.AllocOp):
        declare(module, "malloc", xllvm.LLVMFunctionType([i64], xllvm.LLVMPointerType()))
        ptr = b.add(xllvm.CallOp("malloc", nbytes, return_type=xllvm.LLVMPointerType()))
    else:
        ptr = b.add(xllvm.AllocaOp(nbytes, i8, 16))
    d = b.add(xllvm.UndefOp(descriptor_type(t)))
    d = b.insert(d, [0], ptr)
    d = b.insert(d, [1], ptr)
    d = b.insert(d, [2], b.const(0))
    for k, (s, st) in enumerate(zip(sizes, strides, strict=True)):
        d = b.insert(d, [3, k], s)
        d = b.insert(d, [4, k], st)
    return b.ops, [d]


def _meta(b: _Ops, t: MemRefType, d: SSAValue, with_sizes: bool = False) -> tuple[SSAValue, list[SSAValue], list[SSAValue]]:
    """A memref's offset, sizes (when asked for) and strides: constants where its type fixes
    them, else fields."""
    fixed = static_strides(t)
    offset = b.const(fixed[1]) if fixed is not None else b.field(d, [2], i64)
    sizes = [b.const(n) if n != DYNAMIC else b.field(d, [3, k], i64) for k, n in enumerate(t.get_shape())
             if with_sizes]  # fmt: skip
    strides = [b.const(s) if fixed is not None else b.field(d, [4, k], i64) for k, s in
               enumerate(fixed[0] if fixed is not None else [0] * rank(t))]  # fmt: skip
    return offset, sizes, strides


def _view(b: _Ops, t: MemRefType, d: SSAValue, offset: SSAValue, sizes: list[SSAValue],
          strides: list[SSAValue]) -> SSAValue:  # fmt: skip
    """A descriptor of type `t` on the pointers of descriptor `d`."""
    v = b.add(xllvm.UndefOp(descriptor_type(t)))
    v = b.insert(v, [0], b.field(d, [0], xllvm.LLVMPointerType()))
    v = b.insert(v, [1], b.field(d, [1], xllvm.LLVMPointerType()))
    v = b.insert(v, [2], offset)
    for k, (n, s) in enumerate(zip(sizes, strides, strict=True)):
        v = b.insert(v, [3, k], n)
        v = b.insert(v, [4, k], s)
    return v


def _mixed(b: _Ops, static: Sequence[int], dynamic: Sequence[SSAValue], op: Operation) -> list[SSAValue]:
    """The values of a list of static entries where DYNAMIC stands for the next SSA operand."""
    dyn = iter(as_llvm(v, op) for v in dynamic)
    return [next(dyn) if n == DYNAMIC else b.const(n) for n in static]


def _dropped(sizes: Sequence[int], result: MemRefType) -> set[int]:
    """The dimensions a rank-reducing subview drops: unit sizes, leftmost first, as many as
    the result has fewer dimensions."""
    extra = len(sizes) - rank(result)
    out: set[int] = set()
    for k, n in enumerate(sizes):
        if len(out) < extra and n == 1:
            out.add(k)
    return out


def _lower_view(op: Operation, b: _Ops) -> SSAValue:
    t_out = op.results[0].type
    src = op.operands[0]
    t_in = src.type
    assert isinstance(t_out, MemRefType) and isinstance(t_in, MemRefType)
    d = as_llvm(src, op)
    if isinstance(op, memref.CastOp):
        return d
    if isinstance(op, memref.ReinterpretCastOp):
        offset = _mixed(b, op.static_offsets.get_values(), op.offsets, op)[0]
        sizes = _mixed(b, op.static_sizes.get_values(), op.sizes, op)
        strides = _mixed(b, op.static_strides.get_values(), op.strides, op)
        return _view(b, t_out, d, offset, sizes, strides)
    off0, sizes0, strides0 = _meta(b, t_in, d, with_sizes=isinstance(op, memref.CollapseShapeOp))
    if isinstance(op, memref.SubviewOp):
        offs = _mixed(b, op.static_offsets.get_values(), op.offsets, op)
        static_sizes = op.static_sizes.get_values()
        sizes = _mixed(b, static_sizes, op.sizes, op)
        steps = _mixed(b, op.static_strides.get_values(), op.strides, op)
        offset = off0
        for o, s in zip(offs, strides0, strict=True):
            offset = b.plus(offset, b.mul(o, s))
        strides = [b.mul(s, k) for s, k in zip(strides0, steps, strict=True)]
        drop = _dropped(static_sizes, t_out)
        if len(static_sizes) - len(drop) != rank(t_out):
            raise unsupported(op, "drops dimensions that are not of static size 1, which is not supported")
        keep = [k for k in range(len(sizes)) if k not in drop]
        return _view(b, t_out, d, offset, [sizes[k] for k in keep], [strides[k] for k in keep])
    groups = [[int(i.value.data) for i in g.data] for g in op.reassociation.data]  # type: ignore[attr-defined]
    if isinstance(op, memref.CollapseShapeOp):
        sizes, strides = [], []
        for g in groups:
            n = sizes0[g[0]]
            for k in g[1:]:
                n = b.mul(n, sizes0[k])
            sizes.append(n)
            strides.append(strides0[g[-1]])
        return _view(b, t_out, d, off0, sizes, strides)
    assert isinstance(op, memref.ExpandShapeOp)
    sizes = _mixed(b, op.static_output_shape.get_values(), op.output_shape, op)
    strides = [b.const(0)] * len(sizes)
    for i, g in enumerate(groups):
        s = strides0[i]
        for k in reversed(g):
            strides[k] = s
            if k != g[0]:
                s = b.mul(s, sizes[k])
    return _view(b, t_out, d, off0, sizes, strides)


def _lower(op: Operation, module: ModuleOp) -> tuple[list[Operation], list[SSAValue]]:
    b = _Ops()
    if isinstance(op, memref.LoadOp | memref.StoreOp):
        t = op.memref.type
        assert isinstance(t, MemRefType)
        d = as_llvm(op.memref, op)
        addr = _address(b, t, d, [as_llvm(i, op) for i in op.indices])
        if isinstance(op, memref.LoadOp):
            v = b.add(xllvm.LoadOp(addr, llvm_type(t.element_type)))
            return b.ops, [v]
        b.add(ext.StoreOp(as_llvm(op.value, op), addr))
        return b.ops, []
    if isinstance(op, memref.AllocOp | memref.AllocaOp):
        return _allocate(op, module)
    if isinstance(op, memref.DeallocOp):
        d = as_llvm(op.memref, op)
        declare(module, "free", xllvm.LLVMFunctionType([xllvm.LLVMPointerType()], xllvm.LLVMVoidType()))
        b.add(xllvm.CallOp("free", b.field(d, [0], xllvm.LLVMPointerType())))
        return b.ops, []
    if isinstance(op, memref.DimOp):
        t = op.source.type
        k_op = op.index.owner  # an arith.constant, or the llvm.mlir.constant it became
        if isinstance(k_op, UnrealizedConversionCastOp):
            k_op = k_op.inputs[0].owner
        k = getattr(k_op, "value", None)
        if not isinstance(t, MemRefType) or not isinstance(k, IntegerAttr):
            raise unsupported(op, "with a dimension that is not a constant is not supported yet")
        n = t.get_shape()[k.value.data]
        if n != DYNAMIC:
            return b.ops, [b.const(n)]
        return b.ops, [b.field(as_llvm(op.source, op), [3, k.value.data], i64)]
    if isinstance(op, VIEWS):
        v = _lower_view(op, b)
        return [o for o in b.ops if not isinstance(o, xllvm.ConstantOp) or o.results[0].uses], [v]
    if isinstance(op, memref.CopyOp):
        raise unsupported(op, "is lowered into loops while they are still scf.for",
                          ["run lower-structured, which expands copies before convert-scf-to-cf"])  # fmt: skip
    raise unsupported(op, "has no lowering to the llvm dialect yet",
                      ["use memref.load, memref.store, memref.alloc, memref.alloca, memref.dealloc, memref.dim, "
                       "memref.copy and the views (subview, cast, reinterpret_cast, expand_shape, collapse_shape)"])  # fmt: skip


def expand_copies(module: ModuleOp) -> None:
    """Each `memref.copy` -> a nest of `scf.for` loops loading from the source and storing
    into the destination (the element order of both layouts, whatever their strides)."""
    from xenzyme.rules.memref import for_each_element
    from xenzyme.rules.structured import StructuredEmitter

    for o in list(module.walk()):
        if isinstance(o, memref.CopyOp):
            e = StructuredEmitter(InsertPoint.before(o))
            for_each_element(e, o.source, lambda e, ivs, o=o: e.store(e.load(o.source, ivs), o.destination, ivs))
            Rewriter.erase_op(o)


@dataclass(frozen=True)
class ConvertMemrefToLLVMPass(ModulePass):
    """memref ops -> llvm ops on descriptors."""

    name = "convert-memref-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in list(op.walk()):
            if o.dialect_name() == "memref":
                new_ops, results = _lower(o, op)
                replace(o, new_ops, results)
        erase_dead_casts(op)
