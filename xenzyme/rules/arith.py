"""Derivatives of the `arith` dialect at the structured level (adjoints as SSA values).

Float arithmetic adds its adjoint contributions; comparisons, integer and index arithmetic,
constants and conversions from integers carry no derivative and may be recomputed in the
reverse sweep rather than cached (they have no effect).  A float `select` sends the adjoint to
the operand it chose.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Operation

from xenzyme.rules.context import OpRule
from xenzyme.rules.partial import Partial, linear_tangent, over
from xenzyme.rules.structured import StructuredForwardContext as Fwd
from xenzyme.rules.structured import StructuredReverseContext as Ctx


def _addf(ctx: Ctx, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is not None:
        ctx.accumulate(op.operands[0], d)
        ctx.accumulate(op.operands[1], d)


def _subf(ctx: Ctx, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is not None:
        ctx.accumulate(op.operands[0], d)
        if ctx.active(op.operands[1]):
            ctx.accumulate(op.operands[1], ctx.e.neg(d))


def _mulf(ctx: Ctx, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is not None:
        a, b = op.operands
        if ctx.active(a):
            ctx.accumulate(a, ctx.e.mul(d, ctx.get(b)))
        if ctx.active(b):
            ctx.accumulate(b, ctx.e.mul(d, ctx.get(a)))


def _div_partials(ctx: Ctx | Fwd, op: Operation) -> tuple[Partial, Partial]:
    """y = a / b: dy/da = 1/b, dy/db = -y/b, as the llvm level's `Partial`s (rules/partial.py),
    which map a zero seed to zero also where b is zero."""
    b = ctx.get(op.operands[1])
    return over(b), Partial(factor=ctx.get(op.results[0]), divisor=b, negate=True)


def _divf(ctx: Ctx, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is not None:
        for v, p in zip(op.operands, _div_partials(ctx, op), strict=True):
            if ctx.active(v):
                ctx.accumulate(v, p.apply(ctx.e, d))  # type: ignore[arg-type]


def _negf(ctx: Ctx, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is not None:
        ctx.accumulate(op.operands[0], ctx.e.neg(d))


def _select(ctx: Ctx, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is not None:
        c, a, b = op.operands
        zero = ctx.e.zero(d.type)
        cond = ctx.get(c)
        if ctx.active(a):
            ctx.accumulate(a, ctx.e.select(cond, d, zero))
        if ctx.active(b):
            ctx.accumulate(b, ctx.e.select(cond, zero, d))


def _min_max(ctx: Ctx, op: Operation) -> None:
    """max/min: the adjoint goes to the operand that was chosen (the first on ties)."""
    if (d := ctx.adjoint(op.results[0])) is not None:
        a, b = op.operands
        pred = "oge" if "max" in op.name else "ole"
        first = ctx.e.cmpf(pred, ctx.get(a), ctx.get(b))
        zero = ctx.e.zero(d.type)
        if ctx.active(a):
            ctx.accumulate(a, ctx.e.select(first, d, zero))
        if ctx.active(b):
            ctx.accumulate(b, ctx.e.select(first, zero, d))


def _convert(ctx: Ctx, op: Operation) -> None:
    """extf / truncf: the adjoint converted back to the operand's type."""
    if (d := ctx.adjoint(op.results[0])) is not None and ctx.active(op.operands[0]):
        t = op.operands[0].type
        back = arith.TruncFOp(d, t) if isinstance(op, arith.ExtFOp) else arith.ExtFOp(d, t)
        ctx.accumulate(op.operands[0], ctx.e.value(back))


# ---- forward mode: each of the `width` tangents in turn -------------------------------------


def _t_add(ctx: Fwd, op: Operation) -> None:
    ctx.set_tangent(op.results[0], [ctx.e.add(a, b) for a, b in zip(ctx.tangent(op.operands[0]), ctx.tangent(op.operands[1]), strict=True)])


def _t_sub(ctx: Fwd, op: Operation) -> None:
    ctx.set_tangent(op.results[0], [ctx.e.sub(a, b) for a, b in zip(ctx.tangent(op.operands[0]), ctx.tangent(op.operands[1]), strict=True)])


def _t_mul(ctx: Fwd, op: Operation) -> None:
    a, b = (ctx.get(v) for v in op.operands)
    ctx.set_tangent(op.results[0], [ctx.e.add(ctx.e.mul(ta, b), ctx.e.mul(a, tb))
                                    for ta, tb in zip(ctx.tangent(op.operands[0]), ctx.tangent(op.operands[1]), strict=True)])  # fmt: skip


def _t_div(ctx: Fwd, op: Operation) -> None:
    terms = [(p, ctx.tangent(v)) for v, p in zip(op.operands, _div_partials(ctx, op), strict=True) if ctx.active(v)]
    if terms:
            ctx.set_tangent(op.results[0], linear_tangent(ctx.e, ctx.width, terms))  # type: ignore[arg-type]


def _t_neg(ctx: Fwd, op: Operation) -> None:
    ctx.set_tangent(op.results[0], [ctx.e.neg(t) for t in ctx.tangent(op.operands[0])])


def _t_select(ctx: Fwd, op: Operation) -> None:
    c = ctx.get(op.operands[0])
    ctx.set_tangent(op.results[0], [ctx.e.select(c, a, b)
                                    for a, b in zip(ctx.tangent(op.operands[1]), ctx.tangent(op.operands[2]), strict=True)])  # fmt: skip


def _t_min_max(ctx: Fwd, op: Operation) -> None:
    first = ctx.e.cmpf("oge" if "max" in op.name else "ole", ctx.get(op.operands[0]), ctx.get(op.operands[1]))
    ctx.set_tangent(op.results[0], [ctx.e.select(first, a, b)
                                    for a, b in zip(ctx.tangent(op.operands[0]), ctx.tangent(op.operands[1]), strict=True)])  # fmt: skip


def _t_convert(ctx: Fwd, op: Operation) -> None:
    t = op.results[0].type
    cls = arith.ExtFOp if isinstance(op, arith.ExtFOp) else arith.TruncFOp
    ctx.set_tangent(op.results[0], [ctx.e.value(cls(d, t)) for d in ctx.tangent(op.operands[0])])


_TANGENT = {
    "arith.addf": _t_add, "arith.subf": _t_sub, "arith.mulf": _t_mul, "arith.divf": _t_div, "arith.negf": _t_neg,
    "arith.select": _t_select, "arith.maximumf": _t_min_max, "arith.minimumf": _t_min_max,
    "arith.maxnumf": _t_min_max, "arith.minnumf": _t_min_max, "arith.extf": _t_convert, "arith.truncf": _t_convert,
}  # fmt: skip

_FLOAT = {
    "arith.addf": _addf, "arith.subf": _subf, "arith.mulf": _mulf, "arith.divf": _divf, "arith.negf": _negf,
    "arith.select": _select, "arith.maximumf": _min_max, "arith.minimumf": _min_max, "arith.maxnumf": _min_max,
    "arith.minnumf": _min_max, "arith.extf": _convert, "arith.truncf": _convert,
}  # fmt: skip

_INACTIVE = frozenset({
    "arith.constant", "arith.cmpf", "arith.cmpi", "arith.addi", "arith.subi", "arith.muli", "arith.divsi",
    "arith.divui", "arith.remsi", "arith.remui", "arith.andi", "arith.ori", "arith.xori", "arith.shli",
    "arith.shrsi", "arith.shrui", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui", "arith.index_cast",
    "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui", "arith.extsi", "arith.extui", "arith.trunci",
    "arith.floordivsi", "arith.ceildivsi",
})  # fmt: skip
"""Ops whose results carry no derivative (integers, comparisons; a float made from an integer
is a constant of the derivative)."""


def rule_for(op: Operation) -> OpRule | None:
    if (f := _FLOAT.get(op.name)) is not None:
        return OpRule(reverse=f, tangent=_TANGENT[op.name], recomputable=True)  # type: ignore[arg-type]
    if op.name in _INACTIVE:
        return OpRule(recomputable=True)
    return None
