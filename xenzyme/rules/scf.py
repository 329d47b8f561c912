"""Derivatives of `scf.for` and `scf.if` at the structured level: region ops reversed as region ops.

The reverse of a loop is a loop over the same iterations, last first, carrying the adjoints of
the loop-carried values and of the outer values its body uses:

    %r = scf.for %i = %lb to %ub step %s iter_args(%p = %p0) -> (f64) { ...; scf.yield %q }
      ==>
    %n = <trip count>
    %a:2 = scf.for %k = %c0 to %n step %c1 iter_args(%dq = <adjoint of %r>, %dx = <adjoint of %x>) {
      %j = (%n - 1) - %k ; %i = %lb + %j * %s     // the iteration reversed
      <reverse of the body: adjoint of %q is %dq>
      scf.yield <adjoint of %p>, %dx'
    }
    <adjoint of %p0> += %a#0, <adjoint of %x> = %a#1

Values of an iteration that the reverse body needs are recomputed there, or read from a cache
memref indexed by the iteration (the sweep decides, xenzyme/transforms/diff/structured.py).
The reverse of an `scf.if` is an `scf.if` on the same condition, its branches the reverses of
the primal branches, yielding the adjoints of the outer values they use.

In forward mode (`tangent`) a loop or branch is emitted again by its rule, its tangents carried
as further iteration arguments or results beside the primal ones.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Block, Operation, Region

from xenzyme.rules.context import OpRule
from xenzyme.rules.structured import StructuredEmitter
from xenzyme.rules.structured import StructuredForwardContext as Fwd
from xenzyme.rules.structured import StructuredReverseContext as Ctx
from xenzyme.rules.structured import index, reverse_zero


def _for(ctx: Ctx, op: Operation) -> None:
    assert isinstance(op, scf.ForOp)
    body = op.body.block
    yielded = body.last_op
    assert yielded is not None
    carried = [i for i, r in enumerate(op.results) if ctx.active(r)]
    seeds = [reverse_zero(ctx, op.results[i]) for i in carried]
    free = ctx.free_adjoints(op)
    inits = seeds + [ctx.current_adjoint(v) for v in free]
    lb, step = ctx.get(op.lb), ctx.get(op.step)
    n = ctx.e.trip_count(lb, ctx.get(op.ub), step)
    last = ctx.e.subi(n, ctx.e.const(1, index))
    block = Block(arg_types=[index, *[v.type for v in inits]])
    loop = scf.ForOp(ctx.e.const(0, index), n, ctx.e.const(1, index), inits, Region(block))
    ctx.e.emit(loop)
    with ctx.region(body, block, (lb, step, last)):
        for v, a in zip(free, block.args[1 + len(carried):], strict=True):
            ctx.set_adjoint(v, a)
        for i, a in zip(carried, block.args[1:1 + len(carried)], strict=True):
            ctx.accumulate(yielded.operands[i], a)
        ctx.reverse_ops(body)
        outs = [reverse_zero(ctx, body.args[1 + i]) for i in carried] + [ctx.current_adjoint(v) for v in free]
        ctx.e.emit(scf.YieldOp(*outs))
    for v, r in zip(free, loop.results[len(carried):], strict=True):
        ctx.set_adjoint(v, r)
    for i, r in zip(carried, loop.results[:len(carried)], strict=True):
        ctx.accumulate(op.iter_args[i], r)


def _while(ctx: Ctx, op: Operation) -> None:
    """The reverse of a while loop: its last `before` run (the one whose condition failed),
    then an scf.for over its trips, last first, each the reverse of the body (`after`) and of
    the `before` run that led to it; the adjoints of the `before` arguments carried."""
    assert isinstance(op, scf.WhileOp)
    before, after = op.before_region.block, op.after_region.block
    cond, yielded = before.last_op, after.last_op
    assert isinstance(cond, scf.ConditionOp) and yielded is not None
    seeds = {i: ctx.adjoint(r) for i, r in enumerate(op.results) if ctx.active(r)}
    n = ctx.while_trips(op)
    carried = [i for i, a in enumerate(before.args) if ctx.active(a)]
    with ctx.region(before, None, iteration=n):  # the last run of `before`, in place
        for i, d in seeds.items():
            if d is not None:
                ctx.accumulate(cond.args[i], d)
        ctx.reverse_ops(before)
        last = [reverse_zero(ctx, before.args[i]) for i in carried]
    free = ctx.free_adjoints(op)
    inits = last + [ctx.current_adjoint(v) for v in free]
    last_trip = ctx.e.subi(n, ctx.e.const(1, index))
    block = Block(arg_types=[index, *[v.type for v in inits]])
    loop = scf.ForOp(ctx.e.const(0, index), n, ctx.e.const(1, index), inits, Region(block))
    ctx.e.emit(loop)
    j = StructuredEmitter.at_end(block, ctx.e.pool).subi(last_trip, block.args[0])
    j.name_hint = "trip_rev"
    with ctx.region(after, block, iteration=j):
        for v, a in zip(free, block.args[1 + len(carried):], strict=True):
            ctx.set_adjoint(v, a)
        for i, a in zip(carried, block.args[1:1 + len(carried)], strict=True):
            ctx.accumulate(yielded.operands[i], a)
        ctx.reverse_ops(after)
        d_after = {i: ctx.adjoint(a) for i, a in enumerate(after.args)}
    with ctx.region(before, block, iteration=j):
        for i, d in d_after.items():
            if d is not None:
                ctx.accumulate(cond.args[i], d)
        ctx.reverse_ops(before)
        outs = [reverse_zero(ctx, before.args[i]) for i in carried] + [ctx.current_adjoint(v) for v in free]
        ctx.e.emit(scf.YieldOp(*outs))
    for v, r in zip(free, loop.results[len(carried):], strict=True):
        ctx.set_adjoint(v, r)
    for i, r in zip(carried, loop.results[:len(carried)], strict=True):
        ctx.accumulate(op.arguments[i], r)


def _if(ctx: Ctx, op: Operation) -> None:
    assert isinstance(op, scf.IfOp)
    active = [i for i, r in enumerate(op.results) if ctx.active(r)]
    seeds = {i: ctx.adjoint(op.results[i]) for i in active}
    free = ctx.free_adjoints(op)
    inits = [ctx.current_adjoint(v) for v in free]
    then_block, else_block = Block(), Block()
    new = scf.IfOp(ctx.get(op.cond), [v.type for v in inits], [then_block], [else_block])
    ctx.e.emit(new)
    for region, block in ((op.true_region, then_block), (op.false_region, else_block)):
        primal = region.blocks[0] if region.blocks else None
        with ctx.region(primal, block):
            for v, a in zip(free, inits, strict=True):
                ctx.set_adjoint(v, a)
            if primal is not None:
                yielded = primal.last_op
                assert yielded is not None
                for i, d in seeds.items():
                    if d is not None:
                        ctx.accumulate(yielded.operands[i], d)
                ctx.reverse_ops(primal)
            ctx.e.emit(scf.YieldOp(*[ctx.current_adjoint(v) for v in free]))
    for v, r in zip(free, new.results, strict=True):
        ctx.set_adjoint(v, r)


# ---- forward mode: the loop or branch again, carrying the tangents too -----------------------


def _t_for(ctx: Fwd, op: Operation) -> None:
    assert isinstance(op, scf.ForOp)
    body = op.body.block
    yielded = body.last_op
    assert yielded is not None
    w, n = ctx.width, len(op.iter_args)
    act = [i for i, r in enumerate(op.results) if ctx.active(r)]
    inits = [ctx.get(v) for v in op.iter_args] + [t for i in act for t in ctx.tangent(op.iter_args[i])]
    block = Block(arg_types=[index, *[v.type for v in inits]])
    new = scf.ForOp(ctx.get(op.lb), ctx.get(op.ub), ctx.get(op.step), inits, Region(block))
    ctx.e.emit(new)
    with ctx.region(body, block):
        for a, b in zip(body.args, block.args[: 1 + n], strict=True):
            ctx.map(a, b)
        for k, i in enumerate(act):
            ctx.set_tangent(body.args[1 + i], block.args[1 + n + k * w: 1 + n + (k + 1) * w])
        ctx.forward_ops(body)
        ctx.e.emit(scf.YieldOp(*[ctx.get(v) for v in yielded.operands],
                               *[t for i in act for t in ctx.tangent(yielded.operands[i])]))  # fmt: skip
    for r, nr in zip(op.results, new.results[:n], strict=True):
        ctx.map(r, nr)
    for k, i in enumerate(act):
        ctx.set_tangent(op.results[i], new.results[n + k * w: n + (k + 1) * w])


def _t_while(ctx: Fwd, op: Operation) -> None:
    """The loop again, the tangents of its active values carried beside them: `before` takes
    and passes on those of its arguments, `after` those of its own."""
    assert isinstance(op, scf.WhileOp)
    w = ctx.width
    before, after = op.before_region.block, op.after_region.block
    cond, yielded = before.last_op, after.last_op
    assert isinstance(cond, scf.ConditionOp) and yielded is not None
    act_b = [i for i, a in enumerate(before.args) if ctx.active(a)]
    act_a = [i for i, a in enumerate(after.args) if ctx.active(a) or ctx.active(op.results[i])]
    inits = [ctx.get(v) for v in op.arguments] + [t for i in act_b for t in ctx.tangent(op.arguments[i])]
    types_a = [a.type for a in after.args] + [after.args[i].type for i in act_a for _ in range(w)]
    new_before, new_after = Block(arg_types=[v.type for v in inits]), Block(arg_types=types_a)
    new = scf.WhileOp(inits, types_a, [new_before], [new_after])
    ctx.e.emit(new)
    nb, na = len(before.args), len(after.args)
    with ctx.region(before, new_before):
        for a, b in zip(before.args, new_before.args[:nb], strict=True):
            ctx.map(a, b)
        for k, i in enumerate(act_b):
            ctx.set_tangent(before.args[i], new_before.args[nb + k * w: nb + (k + 1) * w])
        ctx.forward_ops(before)
        ctx.e.emit(scf.ConditionOp(ctx.get(cond.condition), *[ctx.get(v) for v in cond.args],
                                   *[t for i in act_a for t in ctx.tangent(cond.args[i])]))  # fmt: skip
    with ctx.region(after, new_after):
        for a, b in zip(after.args, new_after.args[:na], strict=True):
            ctx.map(a, b)
        for k, i in enumerate(act_a):
            ctx.set_tangent(after.args[i], new_after.args[na + k * w: na + (k + 1) * w])
        ctx.forward_ops(after)
        ctx.e.emit(scf.YieldOp(*[ctx.get(v) for v in yielded.operands],
                               *[t for i in act_b for t in ctx.tangent(yielded.operands[i])]))  # fmt: skip
    for r, nr in zip(op.results, new.results[:na], strict=True):
        ctx.map(r, nr)
    for k, i in enumerate(act_a):
        ctx.set_tangent(op.results[i], new.results[na + k * w: na + (k + 1) * w])


def _t_if(ctx: Fwd, op: Operation) -> None:
    assert isinstance(op, scf.IfOp)
    w, n = ctx.width, len(op.results)
    act = [i for i, r in enumerate(op.results) if ctx.active(r)]
    types = [r.type for r in op.results] + [op.results[i].type for i in act for _ in range(w)]
    then_block, else_block = Block(), Block()
    new = scf.IfOp(ctx.get(op.cond), types, [then_block], [else_block])
    ctx.e.emit(new)
    for region, block in ((op.true_region, then_block), (op.false_region, else_block)):
        if not region.blocks:
            block.add_op(scf.YieldOp())
            continue
        primal = region.blocks[0]
        yielded = primal.last_op
        assert yielded is not None
        with ctx.region(primal, block):
            ctx.forward_ops(primal)
            ctx.e.emit(scf.YieldOp(*[ctx.get(v) for v in yielded.operands],
                                   *[t for i in act for t in ctx.tangent(yielded.operands[i])]))  # fmt: skip
    for r, nr in zip(op.results, new.results[:n], strict=True):
        ctx.map(r, nr)
    for k, i in enumerate(act):
        ctx.set_tangent(op.results[i], new.results[n + k * w: n + (k + 1) * w])


def rule_for(op: Operation) -> OpRule | None:
    if isinstance(op, scf.ForOp):
        return OpRule(reverse=_for, tangent=_t_for)  # type: ignore[arg-type]
    if isinstance(op, scf.IfOp):
        return OpRule(reverse=_if, tangent=_t_if)  # type: ignore[arg-type]
    if isinstance(op, scf.WhileOp):
        return OpRule(reverse=_while, tangent=_t_while)  # type: ignore[arg-type]
    if isinstance(op, scf.YieldOp | scf.ConditionOp):
        return OpRule()  # (its region op's rule reads it)
    return None
