"""Derivatives of the `memref` dialect at the structured level: shadows are memrefs.

    %v = memref.load %m[%i]        reverse: %dm[%i] += adjoint(%v)
    memref.store %v, %m[%i]        reverse: adjoint(%v) += %dm[%i]; %dm[%i] = 0  (the store
                                   overwrote what was there: its derivative ends here)
    %m = memref.alloc(...)         forward: a shadow %dm allocated beside it and zeroed (when
                                   the data it holds carries a derivative something uses);
                                   reverse: %dm freed (and %m, when the program frees it)
    memref.dealloc %m              forward: left out, the reverse sweep still reads %m

In forward mode a memref's tangents are its shadows: a load's tangents are loads of them, a
store's stores into them.
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
    if not ctx.needs_shadow(op.memref):
        return  # (nothing useful reads what it holds: no shadow)
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


# ---- forward mode: a memref's tangents are its `width` shadows ---------------------------------


def _t_load(ctx: Any, op: Operation) -> None:
    assert isinstance(op, memref.LoadOp)
    if ctx.active(op.res) and ctx.shadowed(op.memref):
        idx = [ctx.get(i) for i in op.indices]
        ctx.set_tangent(op.res, [ctx.e.load(sh, idx) for sh in ctx.tangent(op.memref)])


def _t_store(ctx: Any, op: Operation) -> None:
    assert isinstance(op, memref.StoreOp)
    if not ctx.shadowed(op.memref):
        if ctx.active(op.value):
            ctx.reject(op, "stores a value that carries a derivative into a memref without a shadow",
                       ["pass that memref 'dup' (with shadow arrays), or allocate it in the function"])  # fmt: skip
        return
    idx = [ctx.get(i) for i in op.indices]
    for t, sh in zip(ctx.tangent(op.value), ctx.tangent(op.memref), strict=True):
        ctx.e.store(t, sh, idx)


def _t_alloc(ctx: Any, op: Operation) -> None:
    assert isinstance(op, memref.AllocOp)
    t = op.memref.type
    assert isinstance(t, MemRefType)
    if not isinstance(t.element_type, AnyFloat) or not ctx.needs_shadow(op.memref):
        return
    shadows = []
    for _ in range(ctx.width):
        sh = ctx.e.alloc(t, [ctx.get(s) for s in op.dynamic_sizes])
        ctx.e.fill(sh, ctx.e.zero(t.element_type))
        shadows.append(sh)
    ctx.set_tangent(op.memref, shadows)


def _t_dealloc(ctx: Any, op: Operation) -> None:
    assert isinstance(op, memref.DeallocOp)
    if ctx.shadowed(op.memref):
        for sh in ctx.tangent(op.memref):
            ctx.e.dealloc(sh)


def rule_for(op: Operation) -> OpRule | None:
    if isinstance(op, memref.LoadOp):
        return OpRule(reverse=_load, tangent=_t_load)  # type: ignore[arg-type]
    if isinstance(op, memref.StoreOp):
        return OpRule(reverse=_store, tangent=_t_store)  # type: ignore[arg-type]
    if isinstance(op, memref.AllocOp):
        return OpRule(reverse=_alloc_reverse, augment=_alloc_augment, tangent=_t_alloc)  # type: ignore[arg-type]
    if isinstance(op, memref.DeallocOp):
        return OpRule(tangent=_t_dealloc, emits_primal=True)  # (emits_primal: in reverse mode)
    if isinstance(op, memref.DimOp):
        return OpRule(recomputable=True)
    return None
