"""C library functions that are neither plain math (libm.py) nor allocation: results through
pointers, and integer results of floating-point arguments.

* integer results -- `lround`, `lrint`, `llround`, `llrint`, `ilogb` and glibc's classifiers
  (`__fpclassify`, `__isnan`, ...), with their `f` and `l` forms: an integer carries no
  derivative and the function writes no memory, so the call is copied and nothing else is done,
  in both modes;
* `frexp(x, &e)`: the mantissa m = x * 2^-e is linear in x between powers of two, m / x = 2^-e
  exactly (1 at x = 0, where frexp gives 0); the exponent it writes is an integer;
* `modf(x, &ip)`: the fraction x - trunc(x) has derivative 1; the integral part it writes
  through `ip` has derivative 0, so the reverse sweep clears that memory's shadow (an adjoint
  left there would flow to whatever the memory held before) and forward mode writes a zero
  tangent there;
* `sincos(x, &s, &c)` (GNU): sin x and cos x written through pointers, each with its derivative
  (the reverse sweep reads their adjoints from the shadows and clears them).

These functions write memory, so their calls are never marked pure as libm's are.  Each rule is
an `OpRule` found by callee name (`rule_of`), which `llvm_calls` consults before its own cases.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Operation, SSAValue

from xenzyme.analysis.alias import callee_name
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.context import ForwardContext, OpRule, ReverseContext
from xenzyme.rules.emitter import Emitter
from xenzyme.rules.partial import Partial, linear_tangent

_FORMS = ("", "f", "l")

INTEGER_VALUED = {
    f"{base}{suffix}" for base in ("lround", "lrint", "llround", "llrint", "ilogb") for suffix in _FORMS
} | {
    f"{base}{suffix}"
    for base in ("__fpclassify", "__isnan", "__isinf", "__finite", "__signbit")
    for suffix in _FORMS
}  # fmt: skip
"""Library functions of floating-point arguments whose result is an integer."""


def _args(op: Operation) -> list[SSAValue]:
    return list(op.args)  # type: ignore[attr-defined]


# ---- frexp --------------------------------------------------------------------------------


def _frexp_partial(e: Emitter, x: SSAValue, m: SSAValue) -> Partial:
    """d m / d x = m / x (a power of two), 1 where x is 0."""
    zero = e.fcmp("oeq", x, e.const(0, x))
    return Partial(factor=e.select(zero, e.const(1, x), e.div(m, x)))


def _frexp_reverse(ctx: ReverseContext, op: Operation) -> None:
    x = _args(op)[0]
    d = ctx.adjoint(op.results[0])
    if d is None or not ctx.active(x):
        return
    ctx.accumulate(x, _frexp_partial(ctx.e, ctx.get(x), ctx.get(op.results[0])).apply(ctx.e, d))


def _frexp_tangent(ctx: ForwardContext, op: Operation) -> None:
    x, m = _args(op)[0], op.results[0]
    if m not in ctx.info.varied:
        return
    p = _frexp_partial(ctx.e, ctx.get(x), ctx.get(m))
    ctx.set_tangent(m, linear_tangent(ctx.e, ctx.width, [(p, ctx.tangent(x))]))


# ---- modf ---------------------------------------------------------------------------------


def _modf_reverse(ctx: ReverseContext, op: Operation) -> None:
    x, ip = _args(op)
    if ctx.shadowed(ip):  # the integral part: derivative zero, its adjoint goes nowhere
        ctx.e.insert(ext.StoreOp(ctx.e.zero(x.type), ctx.shadow(ip)))
    d = ctx.adjoint(op.results[0])
    if d is not None and ctx.active(x):
        ctx.accumulate(x, d)


def _modf_tangent(ctx: ForwardContext, op: Operation) -> None:
    x, ip = _args(op)
    if ip in ctx.info.shadowed:
        for s in ctx.tangent(ip):
            ctx.e.insert(ext.StoreOp(ctx.e.zero(x.type), s))
    r = op.results[0]
    if r in ctx.info.varied:
        ctx.set_tangent(r, list(ctx.tangent(x)))


# ---- sincos -------------------------------------------------------------------------------


def _sincos_reverse(ctx: ReverseContext, op: Operation) -> None:
    """The call wrote sin x and cos x: their adjoints, read from the two shadows and cleared
    (what the memory held before has no derivative left), give x cos x * ds - sin x * dc."""
    x, ps, pc = _args(op)
    e = ctx.e
    adjoints = []
    for p in (ps, pc):
        if ctx.shadowed(p):
            shadow = ctx.shadow(p)
            adjoints.append(e.insert(xllvm.LoadOp(shadow, x.type)))
            e.insert(ext.StoreOp(e.zero(x.type), shadow))
        else:
            adjoints.append(None)
    if not ctx.active(x):
        return
    ds, dc = adjoints
    if ds is not None:
        ctx.accumulate(x, e.mul(ds, e.call("cos", ctx.get(x))))
    if dc is not None:
        ctx.accumulate(x, e.neg(e.mul(dc, e.call("sin", ctx.get(x)))))


def _sincos_tangent(ctx: ForwardContext, op: Operation) -> None:
    x, ps, pc = _args(op)
    e = ctx.e
    for p, slope in ((ps, lambda: e.call("cos", ctx.get(x))), (pc, lambda: e.neg(e.call("sin", ctx.get(x))))):
        if p not in ctx.info.shadowed:
            continue
        factor = slope() if x in ctx.info.varied else None
        for t, shadow in zip(ctx.tangent(x), ctx.tangent(p), strict=True):
            e.insert(ext.StoreOp(e.zero(x.type) if factor is None else e.mul(t, factor), shadow))


# ---- the table ----------------------------------------------------------------------------

_NOTHING = OpRule(reverse=lambda ctx, op: None, tangent=lambda ctx, op: None)
_FREXP = OpRule(reverse=_frexp_reverse, tangent=_frexp_tangent)
_MODF = OpRule(reverse=_modf_reverse, tangent=_modf_tangent)
_SINCOS = OpRule(reverse=_sincos_reverse, tangent=_sincos_tangent)

_BY_NAME: dict[str, tuple[int, OpRule]] = {
    **{name: (1, _NOTHING) for name in INTEGER_VALUED},
    **{f"frexp{s}": (2, _FREXP) for s in _FORMS},
    **{f"modf{s}": (2, _MODF) for s in _FORMS},
    **{f"sincos{s}": (3, _SINCOS) for s in _FORMS},
}
"""callee -> (number of arguments, rule)."""


def rule_of(op: Operation) -> OpRule | None:
    """The rule of a call to one of these functions (with the right number of arguments), or
    None.  `augment` is never set: the forward sweep copies the call as it is; `tangent` runs
    after the call's copy."""
    if not isinstance(op, xllvm.CallOp):
        return None
    entry = _BY_NAME.get(callee_name(op) or "")
    if entry is None or len(op.args) != entry[0]:
        return None
    return entry[1]
