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
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects import memref
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, MemRefType, ModuleOp, NoneAttr, UnrealizedConversionCastOp, i8, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from xenzyme.backend.memrefs import DYNAMIC, descriptor_type, element_size, llvm_type, rank, static_strides
from xenzyme.dialects import llvm_ext as ext
from xenzyme.transforms.llvm_lowering import as_llvm, declare, replace, unsupported, erase_dead_casts


class _Ops:
    """Collects the llvm ops of one lowering, in order."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def const(self, n: int) -> SSAValue:
        return self.add(xllvm.ConstantOp(IntegerAttr(n, i64), i64))

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
    raise unsupported(op, "has no lowering to the llvm dialect yet",
                      ["use memref.load, memref.store, memref.alloc, memref.alloca, memref.dealloc and memref.dim"])  # fmt: skip


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
