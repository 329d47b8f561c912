"""Derivatives of the `memref` dialect at the structured level: shadows are memrefs.

    %v = memref.load %m[%i]        reverse: %dm[%i] += adjoint(%v)
    memref.store %v, %m[%i]        reverse: adjoint(%v) += %dm[%i]; %dm[%i] = 0  (the store
                                   overwrote what was there: its derivative ends here)
    %m = memref.alloc(...)         forward: a shadow %dm allocated beside it and zeroed;
                                   reverse: %dm freed (and %m, when the program frees it)
    memref.dealloc %m              forward: left out, the reverse sweep still reads %m
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import memref
from xdsl.dialects.builtin import AnyFloat, MemRefType
from xdsl.ir import Operation

from xenzyme.rules.context import OpRule
from xenzyme.rules.structured import StructuredReverseContext as Ctx


def _load(ctx: Ctx, op: Operation) -> None:
    assert isinstance(op, memref.LoadOp)
    if (d := ctx.adjoint(op.res)) is not None:
        ctx.e.add_into(ctx.shadow(op.memref), [ctx.get(i) for i in op.indices], d)


def _store(ctx: Ctx, op: Operation) -> None:
    assert isinstance(op, memref.StoreOp)
    if not ctx.shadowed(op.memref):
        if ctx.active(op.value):
            ctx.reject(op, "stores a value that carries a derivative into a memref without a shadow",
                     ["pass that memref 'dup' (with a shadow array), or allocate it in the function"])  # fmt: skip
        return
    sh, idx = ctx.shadow(op.memref), [ctx.get(i) for i in op.indices]
    d = ctx.e.load(sh, idx)
    ctx.e.store(ctx.e.zero(d.type), sh, idx)
    ctx.accumulate(op.value, d)


def _alloc_augment(ctx: Any, op: Operation) -> None:
    assert isinstance(op, memref.AllocOp)
    t = op.memref.type
    assert isinstance(t, MemRefType)
    if not isinstance(t.element_type, AnyFloat):
        return
    if ctx.in_loop(op):
        ctx.fail(op, "allocates inside a loop, which the structured reverse mode does not support yet",
                 ["allocate the buffer once, before the loop"])  # fmt: skip
    shadow = ctx.e.alloc(t, [ctx.fwd(s) for s in op.dynamic_sizes])
    if op.memref.name_hint:
        shadow.name_hint = f"d{op.memref.name_hint}"
    ctx.e.fill(shadow, ctx.e.zero(t.element_type))
    ctx.set_shadow(op.memref, shadow)


def _alloc_reverse(ctx: Ctx, op: Operation) -> None:
    assert isinstance(op, memref.AllocOp)
    if ctx.shadowed(op.memref):
        ctx.e.dealloc(ctx.shadow(op.memref))
    if any(isinstance(u.operation, memref.DeallocOp) for u in op.memref.uses):
        ctx.e.dealloc(ctx.get(op.memref))


def rule_for(op: Operation) -> OpRule | None:
    if isinstance(op, memref.LoadOp):
        return OpRule(reverse=_load)  # type: ignore[arg-type]
    if isinstance(op, memref.StoreOp):
        return OpRule(reverse=_store)  # type: ignore[arg-type]
    if isinstance(op, memref.AllocOp):
        return OpRule(reverse=_alloc_reverse, augment=_alloc_augment)  # type: ignore[arg-type]
    if isinstance(op, memref.DeallocOp):
        return OpRule(emits_primal=True)
    if isinstance(op, memref.DimOp):
        return OpRule(recomputable=True)
    return None
