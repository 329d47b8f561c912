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
    if isinstance(op, scf.YieldOp):
        return OpRule()  # (its region op's rule reads it)
    return None
