"""Memrefs as native code sees them: MLIR's descriptor, and numpy arrays mapped onto it.

A `memref<4x?xf64>` lowers to the struct MLIR's LLVM lowering uses,

    !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
                  |    |    |    sizes          strides (in elements)
                  |    |    offset of the first element (in elements)
                  |    aligned pointer (loads and stores go through it)
                  allocated pointer (what `free` gets)

and a function taking a memref takes the fields one by one (MLIR's default calling convention:
allocated, aligned, offset, sizes..., strides...), so a numpy array `a` is passed as
`(a, a, 0, *a.shape, *strides)`.  `index` is `i64`.  Both the lowering passes
(xenzyme/transforms/convert_*_to_llvm.py) and the Python API use this module, so the two
agree on the layout by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)
from xdsl.dialects.llvm import LLVMArrayType, LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute

from xenzyme.diagnostics import XenzymeError

DYNAMIC = DYNAMIC_INDEX
"""How xDSL spells `?` in a memref's shape (and strides, offsets)."""


def rank(t: MemRefType) -> int:
    return len(t.get_shape())


def descriptor_type(t: MemRefType) -> LLVMStructType:
    """The descriptor struct of a memref type."""
    fields: list[Attribute] = [LLVMPointerType(), LLVMPointerType(), i64]
    if rank(t):
        fields += [LLVMArrayType(rank(t), i64)] * 2
    return LLVMStructType.from_type_list(fields)


def field_types(t: MemRefType) -> list[Attribute]:
    """The descriptor's fields one by one, as a function takes them."""
    return [LLVMPointerType(), LLVMPointerType(), i64, *[i64] * (2 * rank(t))]


def llvm_type(t: Attribute) -> Attribute:
    """The llvm-dialect type of a value of type `t` (index is i64, a memref its descriptor)."""
    if isinstance(t, IndexType):
        return i64
    if isinstance(t, MemRefType):
        return descriptor_type(t)
    return t


def static_strides(t: MemRefType) -> tuple[list[int], int] | None:
    """(strides, offset) in elements when the type fixes them, else None."""
    shape = t.get_shape()
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = layout.get_strides()
        offset = layout.get_offset()
        if offset is None or any(s is None for s in strides):
            return None
        return [int(s) for s in strides], int(offset)  # type: ignore[arg-type]
    if not isinstance(layout, NoneAttr):
        return None
    strides: list[int] = []
    acc = 1
    for d in reversed(shape):
        strides.insert(0, acc)
        if d == DYNAMIC:
            return None if len(strides) < len(shape) else (strides, 0)
        acc *= d
    return strides, 0


def identity_layout(t: MemRefType) -> bool:
    return isinstance(t.layout, NoneAttr)


def element_size(t: Attribute) -> int:
    if isinstance(t, AnyFloat | IntegerType):
        return max(1, t.bitwidth // 8)
    if isinstance(t, IndexType):
        return 8
    raise XenzymeError(f"memrefs of {t} are not supported yet (use floats, integers or index)")


def numpy_dtype(t: Attribute) -> Any:
    import numpy as np

    table = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32, "i16": np.int16,
             "i8": np.int8, "i1": np.bool_, "index": np.int64}  # fmt: skip
    return np.dtype(table[str(t)]) if str(t) in table else None


def array_fields(t: MemRefType, value: Any, who: str) -> list[Any]:
    """The descriptor fields for a numpy array passed as a memref, after checking that its
    shape, dtype and layout are those of the memref type."""
    import numpy as np

    if not isinstance(value, np.ndarray):
        raise XenzymeError(f"{who} must be a numpy array for {t}, got {type(value).__name__}")
    if not identity_layout(t):
        raise XenzymeError(f"{who}: memrefs with a layout ({t}) cannot be passed from Python yet",
                           notes=["give the parameter the identity layout (a C-contiguous array)"])  # fmt: skip
    dtype = numpy_dtype(t.element_type)
    if dtype is None or value.dtype != dtype:
        raise XenzymeError(f"{who} must be an array of {dtype} for {t}, got an array of {value.dtype}",
                           notes=[f"convert it with np.asarray(a, dtype=np.{dtype})"] if dtype is not None else [])  # fmt: skip
    shape = t.get_shape()
    if value.ndim != len(shape) or any(d != DYNAMIC and d != n for d, n in zip(shape, value.shape, strict=True)):
        want = "x".join("?" if d == DYNAMIC else str(d) for d in shape) or "a 0-d array"
        raise XenzymeError(f"{who} must have shape {want} for {t}, got an array of shape "
                           f"{'x'.join(map(str, value.shape)) or '()'}")  # fmt: skip
    if not value.flags.c_contiguous or not value.flags.aligned:
        raise XenzymeError(f"{who} must be a C-contiguous, aligned array for {t}",
                           notes=["pass np.ascontiguousarray(a), and read results back from that copy"])  # fmt: skip
    strides = [s // value.itemsize for s in value.strides]
    return [value, value, 0, *[int(n) for n in value.shape], *strides]



class MemrefCall:
    """A compiled function whose parameters include memrefs, called with numpy arrays.

    `inner` takes the lowered parameters (descriptor fields); `types` are the parameter types
    of the function as written, `activity` (for a derivative) says which are followed by
    `width` shadows or tangents.  A memref and its shadows expand as the lowered derivative
    takes them: allocated pointer and its shadows, aligned pointer and its shadows, then
    offset, sizes and strides once.
    """

    def __init__(self, inner: Any, name: str, types: Sequence[Attribute], activity: Sequence[str] | None = None,
                 width: int = 1):  # fmt: skip
        self.inner = inner
        self.name = name
        self.types = list(types)
        self.activity = list(activity) if activity is not None else ["const"] * len(self.types)
        self.width = width

    def _count(self, a: str) -> int:
        return 1 + (self.width if a in ("dup", "dupnoneed") else 0)

    def __call__(self, *args: Any) -> Any:
        out: list[Any] = []
        for t, fields in self._arguments(args):
            if isinstance(t, MemRefType):
                out += [f[0] for f in fields] + [f[1] for f in fields] + fields[0][2:]
            else:
                out += fields
        return self.inner(*out)

    def _arguments(self, args: Sequence[Any]) -> list[tuple[Attribute, list[Any]]]:
        """Per parameter, its type and: for a memref, the descriptor fields of the array and of
        each shadow (checked to match); else the values given."""
        want = sum(self._count(a) for a in self.activity)
        if len(args) != want:
            raise XenzymeError(f"{self.name}() takes {want} argument{'s' if want != 1 else ''}, {len(args)} given")
        out: list[tuple[Attribute, list[Any]]] = []
        it = iter(args)
        for i, (t, a) in enumerate(zip(self.types, self.activity, strict=True)):
            values = [next(it) for _ in range(self._count(a))]
            if not isinstance(t, MemRefType):
                out.append((t, values))
                continue
            roles = [f"argument {i}"] + [f"shadow {k + 1} of argument {i}" if self.width > 1 else
                                         f"the shadow of argument {i}" for k in range(len(values) - 1)]  # fmt: skip
            fields = [array_fields(t, v, f"{self.name}(): {r}") for v, r in zip(values, roles, strict=True)]
            if len(fields) > 1:
                for r, f in zip(roles[1:], fields[1:], strict=True):
                    if f[0].shape != values[0].shape:
                        raise XenzymeError(f"{self.name}(): {r} must have the shape of the argument, "
                                           f"{'x'.join(map(str, values[0].shape))}, got "
                                           f"{'x'.join(map(str, f[0].shape))}",
                                           notes=["pass np.zeros_like(a) for the shadow of a"])  # fmt: skip
                    if f[0] is fields[0][0] or (f[0].size and np_shares(f[0], fields[0][0])):
                        raise XenzymeError(f"{self.name}(): {r} shares memory with the argument",
                                           notes=["pass a separate array, e.g. np.zeros_like(a)"])  # fmt: skip
            out.append((t, fields))
        return out


class GradientCall(MemrefCall):
    """A derivative built at the structured level, called like `xz.gradient`'s (or
    `xz.tangent`'s): the function's arguments, each `dup` one followed by its shadow arrays (or
    tangents); returns the derivatives of the `active` arguments (the tangents of the result):
    one float, a tuple, or None.  The compiled entry takes each shadow as a memref parameter of
    its own, then a rank-0 memref per number it writes."""

    def __init__(self, inner: Any, name: str, types: Sequence[Attribute], activity: Sequence[str],
                 outs: Sequence[Attribute], width: int = 1):  # fmt: skip
        super().__init__(inner, name, types, activity, width)
        self.outs = list(outs)

    def __call__(self, *args: Any) -> Any:
        import numpy as np

        out: list[Any] = []
        for _, fields in self._arguments(args):
            out += [x for f in fields for x in f] if fields and isinstance(fields[0], list) else fields
        results = [np.zeros((), dtype=numpy_dtype(t)) for t in self.outs]
        for r in results:
            out += [r, r, 0]
        self.inner(*out)
        values = [float(r[()]) for r in results]
        return None if not values else values[0] if len(values) == 1 else tuple(values)


def np_shares(a: Any, b: Any) -> bool:
    import numpy as np

    return bool(np.shares_memory(a, b))


class StructuredJIT:
    """A compiled structured module: its functions take numpy arrays for memref parameters."""

    def __init__(self, jit: Any, signatures: dict[str, list[Attribute]]):
        self.jit = jit
        self.signatures = signatures

    def function(self, name: str) -> Any:
        inner = self.jit.function(name)
        types = self.signatures.get(name)
        return MemrefCall(inner, name, types) if types is not None else inner

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.function(name)
