"""Derivatives of the `memref` dialect at the structured level: shadows are memrefs.

    %v = memref.load %m[%i]        reverse: %dm[%i] += adjoint(%v)
    memref.store %v, %m[%i]        reverse: adjoint(%v) += %dm[%i]; %dm[%i] = 0  (the store
                                   overwrote what was there: its derivative ends here)
    %m = memref.alloc(...)         forward: a shadow %dm allocated beside it and zeroed (when
                                   the data it holds carries a derivative something uses);
                                   reverse: %dm freed (and %m, when the program frees it)
    memref.dealloc %m              forward: left out, the reverse sweep still reads %m
    %v = memref.subview %m[...]    a view's shadow is the same view of the shadow (also cast,
                                   reinterpret_cast, expand_shape, collapse_shape); in the
                                   reverse sweep a view made inside a region is made again
                                   there, from the values the reverse sweep has
    memref.copy %s, %t             reverse: %ds += %dt; %dt = 0, element by element (the copy
                                   overwrote %t)

In forward mode a memref's tangents are its shadows: a load's tangents are loads of them, a
store's stores into them.
"""

from __future__ import annotations

from typing import Any

from collections.abc import Callable

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import AnyFloat, MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.memref_views import VIEWS
from xenzyme.rules.context import OpRule
from xenzyme.rules.structured import StructuredEmitter, index
from xenzyme.rules.structured import StructuredReverseContext as Ctx



def for_each_element(e: StructuredEmitter, m: SSAValue, body: Callable[[StructuredEmitter, list[SSAValue]], None]) -> None:
    """`body(emitter, indices)` in a nest of `scf.for` loops over every element of memref `m`."""
    t = m.type
    assert isinstance(t, MemRefType)
    ivs: list[SSAValue] = []
    for d, n in enumerate(t.get_shape()):
        ub = e.const(n, index) if n >= 0 else e.value(memref.DimOp(m, e.const(d, index)))
        block = Block(arg_types=[index])
        block.add_op(scf.YieldOp())
        e.emit(scf.ForOp(e.const(0, index), ub, e.const(1, index), [], block))
        ivs.append(block.args[0])
        e = StructuredEmitter(InsertPoint.before(block.last_op), e.pool)  # type: ignore[arg-type]
    body(e, ivs)


def _shadow(ctx: Ctx, m: SSAValue) -> SSAValue:
    """The shadow of `m` where the reverse sweep is: a view made inside a region (whose
    forward-sweep shadow the reverse sweep cannot reach) is made again, of the shadow of its
    source, from the reverse sweep's values."""
    op = m.owner
    if isinstance(op, VIEWS) and not isinstance(op.parent_op(), func.FuncOp):
        src = op.operands[0]
        mapping = {o: ctx.get(o) for o in op.operands[1:]}
        mapping[src] = _shadow(ctx, src)
        shadow = ctx.e.value(op.clone(value_mapper=mapping))
        shadow.name_hint = f"d{m.name_hint}" if m.name_hint else None
        return shadow
    return ctx.shadow(m)


def _load(ctx: Ctx, op: Operation) -> None:
    assert isinstance(op, memref.LoadOp)
    if (d := ctx.adjoint(op.res)) is not None:
        ctx.e.add_into(_shadow(ctx, op.memref), [ctx.get(i) for i in op.indices], d)


def _store(ctx: Ctx, op: Operation) -> None:
    assert isinstance(op, memref.StoreOp)
    if not ctx.shadowed(op.memref):
        if ctx.active(op.value):
            ctx.reject(op, "stores a value that carries a derivative into a memref without a shadow",
                     ["pass that memref 'dup' (with a shadow array), or allocate it in the function"])  # fmt: skip
        return
    sh, idx = _shadow(ctx, op.memref), [ctx.get(i) for i in op.indices]
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


def _view_augment(ctx: Any, op: Operation) -> None:
    src = op.operands[0]
    if ctx.shadowed(src):
        mapping = {o: ctx.fwd(o) for o in op.operands[1:]}
        mapping[src] = ctx.shadow(src)
        shadow = ctx.e.value(op.clone(value_mapper=mapping))
        if op.results[0].name_hint:
            shadow.name_hint = f"d{op.results[0].name_hint}"
        ctx.set_shadow(op.results[0], shadow)


def _copy_reverse(ctx: Ctx, op: Operation) -> None:
    assert isinstance(op, memref.CopyOp)
    src, dst = op.source, op.destination
    if not ctx.shadowed(dst):
        if ctx.shadowed(src):
            ctx.reject(op, "copies a memref with a shadow into one without",
                       ["pass the destination 'dup' (with a shadow array), or allocate it in the function"])  # fmt: skip
        return
    dsrc = _shadow(ctx, src) if ctx.shadowed(src) else None
    ddst = _shadow(ctx, dst)

    def body(e: StructuredEmitter, ivs: list[SSAValue]) -> None:
        d = e.load(ddst, ivs)
        e.store(e.zero(d.type), ddst, ivs)
        if dsrc is not None:
            e.add_into(dsrc, ivs, d)

    for_each_element(ctx.e, ddst, body)


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


def _t_view(ctx: Any, op: Operation) -> None:
    src = op.operands[0]
    if ctx.shadowed(src):
        mapping = {o: ctx.get(o) for o in op.operands[1:]}
        ctx.set_tangent(op.results[0], [ctx.e.value(op.clone(value_mapper={**mapping, src: t}))
                                        for t in ctx.tangent(src)])  # fmt: skip


def _t_copy(ctx: Any, op: Operation) -> None:
    assert isinstance(op, memref.CopyOp)
    src, dst = op.source, op.destination
    if not ctx.shadowed(dst):
        if ctx.shadowed(src):
            ctx.reject(op, "copies a memref with a shadow into one without",
                       ["pass the destination 'dup' (with shadow arrays), or allocate it in the function"])  # fmt: skip
        return
    for k, t in enumerate(ctx.tangent(dst)):
        if ctx.shadowed(src):
            ctx.e.emit(memref.CopyOp(ctx.tangent(src)[k], t))
        else:
            ctx.e.fill(t, ctx.e.zero(dst.type.element_type))  # type: ignore[attr-defined]


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
    if isinstance(op, VIEWS):
        return OpRule(augment=_view_augment, tangent=_t_view, recomputable=True)  # type: ignore[arg-type]
    if isinstance(op, memref.CopyOp):
        return OpRule(reverse=_copy_reverse, tangent=_t_copy)  # type: ignore[arg-type]
    return None
