"""Which memrefs of a structured function are views of the same memory.

`memref.subview`, `memref.cast`, `memref.reinterpret_cast`, `memref.expand_shape` and
`memref.collapse_shape` return another view of their source: a store through one of them
changes what a load through any other reads.  The structured reverse mode recomputes a load
in the reverse sweep only when nothing writes its memref; `aliases_of_written` widens the
memrefs written to every view of the same memory, so a load of a row a store into the whole
matrix changed (or the other way round) is cached instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import memref
from xdsl.ir import Operation, SSAValue

VIEWS = (memref.SubviewOp, memref.CastOp, memref.ReinterpretCastOp, memref.ExpandShapeOp, memref.CollapseShapeOp)
"""Ops whose result is another view of their first operand's memory."""


def root(v: SSAValue) -> SSAValue:
    """The memref `v` is a view of (through any chain of views), or `v` itself."""
    while isinstance(v.owner, VIEWS):
        v = v.owner.operands[0]
    return v


def aliases_of_written(fn: Operation, written: Iterable[SSAValue]) -> set[SSAValue]:
    """`written` and every memref of `fn` (views, their sources) sharing memory with one of them."""
    roots = {root(v) for v in written}
    out = set(written)
    for op in fn.walk():
        for v in (*op.operands, *op.results):
            if root(v) in roots:
                out.add(v)
    return out
