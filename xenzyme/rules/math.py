"""Derivatives of the `math` dialect at the structured level.

Each op's partial derivatives are the llvm level's, from one table (rules/libm.py, by libm
name: `math.sqrt` is `sqrt`, `math.powf` is `pow`): the same `Partial`s, applied by the same
functions (`apply_math_rule`, `tangent_math_rule`), built here with arith/math ops by the
structured emitter.  So both levels share the facts that keep a derivative finite, e.g. that
a partial with a divisor maps a zero seed to zero where the divisor is zero: the tangent or
adjoint of `sqrt(acc)` where `acc` is the constant 0 is 0, not 0 * inf = NaN.
"""

from __future__ import annotations

from xdsl.ir import Operation

from xenzyme.rules.context import OpRule
from xenzyme.rules.libm import MATH, apply_math_rule, tangent_math_rule
from xenzyme.rules.partial import Partial, linear_tangent, times
from xenzyme.rules.structured import StructuredForwardContext as Fwd
from xenzyme.rules.structured import StructuredReverseContext as Ctx

_LIBM = {"math.absf": "fabs", "math.powf": "pow", "math.expm1": "expm1", "math.log1p": "log1p"}
"""The libm name of a math op where it is not the op's own (`math.exp` is `exp`)."""



def _libm_name(op: Operation) -> str | None:
    name = _LIBM.get(op.name, op.name.removeprefix("math."))
    return name if name in MATH else None


def _reverse(ctx: Ctx, op: Operation) -> None:
    apply_math_rule(ctx, op, _libm_name(op), op.operands)  # type: ignore[arg-type]


def _tangent(ctx: Fwd, op: Operation) -> None:
    if ctx.active(op.results[0]):
        tangent_math_rule(ctx, op, _libm_name(op), op.operands)  # type: ignore[arg-type]


def _rsqrt_partial(ctx: Ctx | Fwd, op: Operation) -> Partial:
    """d/dx x^(-1/2) = -y^3 / 2 (no libm function to share it with)."""
    y = ctx.get(op.results[0])
    return times(ctx.e.scale(ctx.e.mul(y, ctx.e.square(y)), -0.5))


def _rsqrt(ctx: Ctx, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is not None and ctx.active(op.operands[0]):
        ctx.accumulate(op.operands[0], _rsqrt_partial(ctx, op).apply(ctx.e, d))  # type: ignore[arg-type]


def _t_rsqrt(ctx: Fwd, op: Operation) -> None:
    if ctx.active(op.results[0]):
        p = _rsqrt_partial(ctx, op)
        ctx.set_tangent(op.results[0], linear_tangent(ctx.e, ctx.width, [(p, ctx.tangent(op.operands[0]))]))  # type: ignore[arg-type]


def rule_for(op: Operation) -> OpRule | None:
    if op.name == "math.rsqrt":
        return OpRule(reverse=_rsqrt, tangent=_t_rsqrt, recomputable=True)  # type: ignore[arg-type]
    if _libm_name(op) is not None:
        return OpRule(reverse=_reverse, tangent=_tangent, recomputable=True)  # type: ignore[arg-type]
    return None
