"""Type analysis: what kind of data lives behind a pointer.

LLVM IR after optimisation has untyped pointers, so when memory is copied or cleared wholesale
(memcpy, memmove, memset) the differentiation passes need to know whether the bytes are
floating-point numbers (their adjoints move), pointers (their shadows are copied) or integers
(nothing to do).  The answer comes from the objects behind the pointer (alloca and global
types) and from every load and store that touches the same objects.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import AnyFloat, IntegerType, VectorType
from xdsl.ir import Attribute, Block, SSAValue

from xenzyme.analysis.alias import UNKNOWN, underlying_objects
from xenzyme.analysis.cfg import CFG
from xenzyme.dialects import llvm_ext as ext

FLOAT, POINTER, INTEGER, MIXED, UNKNOWN_KIND = "float", "pointer", "integer", "mixed", "unknown"


def leaf_types(t: Attribute) -> list[Attribute]:
    """Scalar types inside a (nested) aggregate or vector type."""
    if isinstance(t, VectorType):
        return [t.element_type]
    if isinstance(t, ext.LLVMArrayType):
        return leaf_types(t.type)
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        return [x for m in t.types.data for x in leaf_types(m)]
    return [t]


def _kind(t: Attribute) -> str:
    if isinstance(t, AnyFloat):
        return FLOAT
    if isinstance(t, ext.LLVMPointerType):
        return POINTER
    if isinstance(t, IntegerType):
        return INTEGER
    return UNKNOWN_KIND


def memory_contents(ptr: SSAValue, cfg: CFG, blocks: Iterable[Block], globals_: dict[str, Attribute]) -> tuple[str, Attribute | None]:
    """(kind, float type) of the data behind `ptr`: FLOAT with its type, POINTER, INTEGER,
    MIXED or UNKNOWN_KIND."""
    objects = underlying_objects(ptr, cfg)
    types: list[Attribute] = []
    for obj in objects:
        if obj is UNKNOWN:
            continue
        if isinstance(obj, str):
            if obj in globals_:
                types += leaf_types(globals_[obj])
        elif isinstance(obj.owner, xllvm.AllocaOp):
            types += leaf_types(obj.owner.elem_type)
    for b in blocks:
        for op in b.ops:
            if isinstance(op, xllvm.LoadOp):
                p, t = op.ptr, op.dereferenced_value.type
            elif isinstance(op, xllvm.StoreOp):
                p, t = op.ptr, op.value.type
            else:
                continue
            if underlying_objects(p, cfg) & objects - {UNKNOWN}:
                types += leaf_types(t)
    kinds = {_kind(t) for t in types}
    kinds.discard(UNKNOWN_KIND)
    if not kinds:
        return UNKNOWN_KIND, None
    if len(kinds) > 1:
        return MIXED, None
    kind = kinds.pop()
    if kind == FLOAT:
        floats = {t for t in types if isinstance(t, AnyFloat)}
        if len(floats) > 1:
            return MIXED, None
        return FLOAT, floats.pop()
    return kind, None
