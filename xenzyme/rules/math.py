"""Derivatives of the `math` dialect at the structured level: each op's partial derivatives,
built from the primal operands and result (which the reverse sweep recomputes or caches)."""

from __future__ import annotations

import math as pymath
from collections.abc import Callable

from xdsl.dialects import math
from xdsl.ir import Operation, SSAValue

from xenzyme.rules.context import OpRule
from xenzyme.rules.structured import StructuredEmitter
from xenzyme.rules.structured import StructuredForwardContext as Fwd
from xenzyme.rules.structured import StructuredReverseContext as Ctx

Unary = Callable[[StructuredEmitter, SSAValue, SSAValue], SSAValue]
"""d result / d operand, from the emitter, the operand x and the result y."""


def _one_plus_sq(e: StructuredEmitter, v: SSAValue) -> SSAValue:
    return e.add(e.const(1.0, v.type), e.mul(v, v))


_UNARY: dict[str, Unary] = {
    "math.exp": lambda e, x, y: y,
    "math.exp2": lambda e, x, y: e.scale(y, pymath.log(2.0)),
    "math.expm1": lambda e, x, y: e.add(y, e.const(1.0, y.type)),
    "math.log": lambda e, x, y: e.div(e.const(1.0, x.type), x),
    "math.log2": lambda e, x, y: e.div(e.const(1.0 / pymath.log(2.0), x.type), x),
    "math.log10": lambda e, x, y: e.div(e.const(1.0 / pymath.log(10.0), x.type), x),
    "math.log1p": lambda e, x, y: e.div(e.const(1.0, x.type), e.add(x, e.const(1.0, x.type))),
    "math.sin": lambda e, x, y: e.unary(math.CosOp, x),
    "math.cos": lambda e, x, y: e.neg(e.unary(math.SinOp, x)),
    "math.tan": lambda e, x, y: _one_plus_sq(e, y),
    "math.sinh": lambda e, x, y: e.unary(math.CoshOp, x),
    "math.cosh": lambda e, x, y: e.unary(math.SinhOp, x),
    "math.tanh": lambda e, x, y: e.sub(e.const(1.0, y.type), e.mul(y, y)),
    "math.atan": lambda e, x, y: e.div(e.const(1.0, x.type), _one_plus_sq(e, x)),
    "math.sqrt": lambda e, x, y: e.div(e.const(0.5, y.type), y),
    "math.rsqrt": lambda e, x, y: e.mul(e.const(-0.5, y.type), e.mul(y, e.mul(y, y))),
    "math.cbrt": lambda e, x, y: e.div(e.const(1.0 / 3.0, y.type), e.mul(y, y)),
    "math.erf": lambda e, x, y: e.scale(e.unary(math.ExpOp, e.neg(e.mul(x, x))), 2.0 / pymath.sqrt(pymath.pi)),
    "math.absf": lambda e, x, y: e.select(e.cmpf("olt", x, e.zero(x.type)), e.const(-1.0, x.type),
                                          e.const(1.0, x.type)),
}  # fmt: skip

_USES_RESULT = frozenset({"math.exp", "math.exp2", "math.expm1", "math.tan", "math.tanh", "math.sqrt", "math.rsqrt",
                          "math.cbrt"})
"""The ops whose derivative is written with their result (the others' is not asked for)."""

_STEPS = frozenset({"math.floor", "math.ceil", "math.round", "math.roundeven", "math.trunc"})
"""Piecewise constant: derivative zero almost everywhere."""


def _unary(ctx: Ctx, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is not None and ctx.active(op.operands[0]):
        y = ctx.get(op.results[0]) if op.name in _USES_RESULT else op.results[0]
        partial = _UNARY[op.name](ctx.e, ctx.get(op.operands[0]), y)
        ctx.accumulate(op.operands[0], ctx.e.mul(d, partial))


def _powf(ctx: Ctx, op: Operation) -> None:
    """y = a^b: dy/da = b a^(b-1), dy/db = y log a."""
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    a, b = op.operands
    e = ctx.e
    if ctx.active(a):
        ga, gb = ctx.get(a), ctx.get(b)
        pw = e.binary(math.PowFOp, ga, e.sub(gb, e.const(1.0, gb.type)))
        ctx.accumulate(a, e.mul(d, e.mul(gb, pw)))
    if ctx.active(b):
        ctx.accumulate(b, e.mul(d, e.mul(ctx.get(op.results[0]), e.unary(math.LogOp, ctx.get(a)))))


def _fma(ctx: Ctx, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    a, b, c = op.operands
    if ctx.active(a):
        ctx.accumulate(a, ctx.e.mul(d, ctx.get(b)))
    if ctx.active(b):
        ctx.accumulate(b, ctx.e.mul(d, ctx.get(a)))
    ctx.accumulate(c, d)


def _t_unary(ctx: Fwd, op: Operation) -> None:
    if not ctx.active(op.results[0]):
        return
    partial = _UNARY[op.name](ctx.e, ctx.get(op.operands[0]), ctx.get(op.results[0]))
    ctx.set_tangent(op.results[0], [ctx.e.mul(t, partial) for t in ctx.tangent(op.operands[0])])


def _t_powf(ctx: Fwd, op: Operation) -> None:
    if not ctx.active(op.results[0]):
        return
    e, a, b, y = ctx.e, ctx.get(op.operands[0]), ctx.get(op.operands[1]), ctx.get(op.results[0])
    da = e.mul(b, e.binary(math.PowFOp, a, e.sub(b, e.const(1.0, b.type))))
    db = e.mul(y, e.unary(math.LogOp, a))
    ctx.set_tangent(op.results[0], [e.add(e.mul(ta, da), e.mul(tb, db))
                                    for ta, tb in zip(ctx.tangent(op.operands[0]), ctx.tangent(op.operands[1]), strict=True)])  # fmt: skip


def _t_fma(ctx: Fwd, op: Operation) -> None:
    if not ctx.active(op.results[0]):
        return
    e, a, b = ctx.e, ctx.get(op.operands[0]), ctx.get(op.operands[1])
    ts = zip(*(ctx.tangent(v) for v in op.operands), strict=True)
    ctx.set_tangent(op.results[0], [e.add(e.add(e.mul(ta, b), e.mul(a, tb)), tc) for ta, tb, tc in ts])


def _t_zero(ctx: Fwd, op: Operation) -> None:
    pass  # (an inactive or piecewise constant result: its tangents are zeros)


def rule_for(op: Operation) -> OpRule | None:
    if op.name in _UNARY:
        return OpRule(reverse=_unary, tangent=_t_unary, recomputable=True)  # type: ignore[arg-type]
    if op.name == "math.powf":
        return OpRule(reverse=_powf, tangent=_t_powf, recomputable=True)  # type: ignore[arg-type]
    if op.name == "math.fma":
        return OpRule(reverse=_fma, tangent=_t_fma, recomputable=True)  # type: ignore[arg-type]
    if op.name in _STEPS:
        return OpRule(reverse=lambda ctx, o: ctx.adjoint(o.results[0]) and None, tangent=_t_zero,  # type: ignore[arg-type, misc]
                      recomputable=True)
    return None
