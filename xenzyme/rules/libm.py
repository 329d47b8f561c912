"""Derivatives of math functions, one data entry per function, shared by both modes.

Each entry is `name: (arity, partials)`.  `partials(e, x, y)` returns one item per argument:
None where the function does not depend on that argument (floor, the sign of copysign), or a
thunk building the partial derivative as a `Partial` (a linear map: factor, divisor, sign,
condition) or as a plain value (the factor).  `e` is the `Emitter`, `x` a list of getters for
the primal arguments, `y` a getter for the primal result.  Getters are called only for what a
partial needs and thunks only for active arguments, so a rule that uses `y()` asks the reverse
engine to keep the result, and one that uses `x[0]()` the argument.

Reverse mode applies each partial to the result's adjoint (`apply_math_rule`); forward mode
sums the partials applied to the arguments' tangents (`tangent_math_rule`).

The same entry serves `sin` (libm, double), `sinf` (float), `llvm.sin.*` (intrinsic) and the
`llvm.intr.sin` op.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Operation, SSAValue

from xenzyme.analysis.alias import ERRNO_ONLY
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects.llvm_ext import intrinsic_base_name
from xenzyme.rules.context import ForwardContext, ReverseContext
from xenzyme.rules.emitter import Emitter
from xenzyme.rules.partial import (
    LN2,
    Getter,
    LN10,
    ONE,
    TWO_OVER_SQRT_PI,
    MathPartials,
    Partial,
    PartialThunk,
    Partials,
    as_partial,
    linear_tangent,
    over,
    times,
)
from xenzyme.rules.registry import RULES as REGISTERED


def _zero(e: Emitter, x: list[Getter], y: Getter) -> Partials:
    return [None] * len(x)


def _unary(partial: Callable[[Emitter, list[Getter], Getter], Partial]) -> MathPartials:
    """A one-argument function whose partial `partial(e, x, y)` is built only when needed."""
    return lambda e, x, y: [lambda: partial(e, x, y)]


def _plus_one(e: Emitter, v: SSAValue) -> SSAValue:
    return e.add(v, e.const(1, v))


def _one_minus_square(e: Emitter, v: SSAValue) -> SSAValue:
    return e.sub(e.const(1, v), e.square(v))


def _gauss(e: Emitter, x: SSAValue) -> SSAValue:
    """2/sqrt(pi) * exp(-x^2), the derivative of erf."""
    return e.scale(e.call("exp", e.neg(e.square(x))), TWO_OVER_SQRT_PI)


DIGAMMA_SHIFT = 10
"""psi(x) = psi(x + 10) - sum 1/(x + k): the asymptotic series is then accurate to about 1e-14."""

_DIGAMMA_SERIES = (-1 / 12, 1 / 120, -1 / 252, 1 / 240, -1 / 132)
"""Coefficients of u^-2, u^-4, ..., u^-10 in psi(u) ~ log u - 1/(2u) + ... (Bernoulli numbers)."""


def _digamma(e: Emitter, x: SSAValue) -> SSAValue:
    """psi(x) = d/dx log|Gamma(x)|, in straight-line code: below 1/2 by the reflection
    psi(x) = psi(1 - x) - pi / tan(pi x), then shifted up by the recurrence and summed by the
    asymptotic series (libm has no digamma)."""
    reflect = e.fcmp("olt", x, e.const(0.5, x))
    t = e.select(reflect, e.sub(e.const(1, x), x), x)
    shifted = t
    steps = e.zero(x.type)
    for _ in range(DIGAMMA_SHIFT):
        steps = e.add(steps, e.div(e.const(1, x), shifted))
        shifted = e.add(shifted, e.const(1, x))
    inv2 = e.div(e.const(1, x), e.square(shifted))
    series = e.zero(x.type)
    for c in reversed(_DIGAMMA_SERIES):  # Horner's rule in u^-2
        series = e.mul(e.add(series, e.const(c, x)), inv2)
    psi = e.sub(e.add(e.call("log", shifted), series), e.div(e.const(0.5, x), shifted))
    psi = e.sub(psi, steps)
    cot = e.div(e.const(math.pi, x), e.call("tan", e.scale(x, math.pi)))
    return e.select(reflect, e.sub(psi, cot), psi)


def _fabs(e: Emitter, x: list[Getter], y: Getter) -> Partial:
    v = x[0]()
    return times(e.select(e.fcmp("olt", v, e.const(0, v)), e.const(-1, v), e.const(1, v)))


def _pow(e: Emitter, x: list[Getter], y: Getter) -> Partials:
    a, b = x
    # d/da a^b = b a^(b-1);  d/db a^b = a^b log a
    return (
        lambda: times(e.mul(b(), e.call("pow", a(), e.sub(b(), e.const(1, b()))))),
        lambda: times(e.mul(y(), e.call("log", a()))),
    )


def _atan2(e: Emitter, x: list[Getter], y: Getter) -> Partials:
    # atan2(u, v): d/du = v / (u^2 + v^2), d/dv = -u / (u^2 + v^2)
    u, v = x
    return (
        lambda: Partial(factor=v(), divisor=e.add(e.square(u()), e.square(v()))),
        lambda: Partial(factor=u(), divisor=e.add(e.square(u()), e.square(v())), negate=True),
    )


def _hypot(e: Emitter, x: list[Getter], y: Getter) -> Partials:
    # d/da hypot(a, b) = a / hypot(a, b); at a = b = 0 (a norm that starts at zero) that is 0/0:
    # the argument that is zero contributes zero (a subgradient) instead of NaN.
    def partial(v: SSAValue) -> Partial:
        return Partial(factor=v, divisor=y(), unless=e.fcmp("oeq", v, e.const(0, v)))

    return (lambda: partial(x[0]()), lambda: partial(x[1]()))


def _fmod(e: Emitter, x: list[Getter], y: Getter) -> Partials:
    # fmod(a, b) = a - trunc(a / b) * b
    return (lambda: ONE, lambda: Partial(factor=e.call("trunc", e.div(x[0](), x[1]())), negate=True))


def _copysign(e: Emitter, x: list[Getter], y: Getter) -> Partials:
    def magnitude() -> Partial:
        a, b = x[0](), x[1]()
        return times(e.mul(e.call("copysign", e.const(1, a), a), e.call("copysign", e.const(1, a), b)))

    return (magnitude, None)


def _remainder(e: Emitter, x: list[Getter], y: Getter) -> Partials:
    # remainder(a, b) = a - n b with n = a / b rounded to nearest, ties to even (rint)
    return (lambda: ONE, lambda: Partial(factor=e.call("rint", e.div(x[0](), x[1]())), negate=True))


def _fdim(e: Emitter, x: list[Getter], y: Getter) -> Partials:
    # fdim(a, b) = a - b where a > b, else 0
    above: list[SSAValue] = []

    def a_above_b() -> SSAValue:
        if not above:
            above.append(e.fcmp("ogt", x[0](), x[1]()))
        return above[0]

    return (lambda: Partial(where=a_above_b()), lambda: Partial(where=a_above_b(), negate=True))


def _fma(e: Emitter, x: list[Getter], y: Getter) -> Partials:
    return (lambda: times(x[1]()), lambda: times(x[0]()), lambda: ONE)


def _min_max(pred: str) -> MathPartials:
    """The derivative is that of the argument chosen (the first one on ties)."""

    def partials(e: Emitter, x: list[Getter], y: Getter) -> Partials:
        chosen: list[SSAValue] = []

        def first_chosen() -> SSAValue:
            """One comparison, shared by both partials (built one after the other, in place)."""
            if not chosen:
                chosen.append(e.fcmp(pred, x[0](), x[1]()))
            return chosen[0]

        return (lambda: Partial(where=first_chosen()), lambda: Partial(unless=first_chosen()))

    return partials


MATH: dict[str, tuple[int, MathPartials]] = {
    "sqrt": (1, _unary(lambda e, x, y: over(e.scale(y(), 2.0)))),
    "cbrt": (1, _unary(lambda e, x, y: over(e.scale(e.square(y()), 3.0)))),
    "exp": (1, _unary(lambda e, x, y: times(y()))),
    "exp2": (1, _unary(lambda e, x, y: times(e.scale(y(), LN2)))),
    "exp10": (1, _unary(lambda e, x, y: times(e.scale(y(), LN10)))),
    "expm1": (1, _unary(lambda e, x, y: times(_plus_one(e, y())))),
    "log": (1, _unary(lambda e, x, y: over(x[0]()))),
    "log2": (1, _unary(lambda e, x, y: over(e.scale(x[0](), LN2)))),
    "log10": (1, _unary(lambda e, x, y: over(e.scale(x[0](), LN10)))),
    "log1p": (1, _unary(lambda e, x, y: over(_plus_one(e, x[0]())))),
    "sin": (1, _unary(lambda e, x, y: times(e.call("cos", x[0]())))),
    "cos": (1, _unary(lambda e, x, y: Partial(factor=e.call("sin", x[0]()), negate=True))),
    "tan": (1, _unary(lambda e, x, y: times(_plus_one(e, e.square(y()))))),
    "asin": (1, _unary(lambda e, x, y: over(e.call("sqrt", _one_minus_square(e, x[0]()))))),
    "acos": (1, _unary(lambda e, x, y: Partial(divisor=e.call("sqrt", _one_minus_square(e, x[0]())), negate=True))),
    "atan": (1, _unary(lambda e, x, y: over(_plus_one(e, e.square(x[0]()))))),
    "sinh": (1, _unary(lambda e, x, y: times(e.call("cosh", x[0]())))),
    "cosh": (1, _unary(lambda e, x, y: times(e.call("sinh", x[0]())))),
    "tanh": (1, _unary(lambda e, x, y: times(_one_minus_square(e, y())))),
    "asinh": (1, _unary(lambda e, x, y: over(e.call("sqrt", _plus_one(e, e.square(x[0]())))))),
    "acosh": (1, _unary(lambda e, x, y: over(e.call("sqrt", e.sub(e.square(x[0]()), e.const(1, x[0]())))))),
    "atanh": (1, _unary(lambda e, x, y: over(_one_minus_square(e, x[0]())))),
    "erf": (1, _unary(lambda e, x, y: times(_gauss(e, x[0]())))),
    "erfc": (1, _unary(lambda e, x, y: Partial(factor=_gauss(e, x[0]()), negate=True))),
    "fabs": (1, _unary(_fabs)),
    "floor": (1, _zero),
    "ceil": (1, _zero),
    "trunc": (1, _zero),
    "round": (1, _zero),
    "roundeven": (1, _zero),
    "rint": (1, _zero),
    "nearbyint": (1, _zero),
    "logb": (1, _zero),
    "lgamma": (1, _unary(lambda e, x, y: times(_digamma(e, x[0]())))),
    "tgamma": (1, _unary(lambda e, x, y: times(e.mul(y(), _digamma(e, x[0]()))))),
    "pow": (2, _pow),
    "atan2": (2, _atan2),
    "hypot": (2, _hypot),
    "fmod": (2, _fmod),
    "remainder": (2, _remainder),
    "fdim": (2, _fdim),
    "nextafter": (2, lambda e, x, y: (lambda: ONE, None)),  # x moved by one unit in the last place
    "nexttoward": (2, lambda e, x, y: (lambda: ONE, None)),
    "copysign": (2, _copysign),
    "fma": (3, _fma),
    "fmuladd": (3, _fma),
}
"""Math functions by their libm/intrinsic base name."""

for _name in ("fmin", "minnum", "minimum", "minimumnum"):
    MATH[_name] = (2, _min_max("ole"))
for _name in ("fmax", "maxnum", "maximum", "maximumnum"):
    MATH[_name] = (2, _min_max("oge"))

ERRNO_ONLY.update(f"{name}{suffix}" for name in MATH for suffix in ("", "f", "l"))


def math_base_name(name: str) -> str | None:
    """`sinf` -> `sin`, `llvm.sin.f64` -> `sin`, `sin` -> `sin`, and libdevice's `__nv_sin`,
    `__nv_sinf`, `__nv_fast_sinf` (CUDA device code) -> `sin`; None if not a known function."""
    if name.startswith("llvm."):
        name = intrinsic_base_name(name)[5:]
    elif name.startswith("__nv_"):
        name = name.removeprefix("__nv_").removeprefix("fast_")
    if name in MATH:
        return name
    if name[-1:] in ("f", "l") and name[:-1] in MATH:
        return name[:-1]
    return None


def math_rule_name(name: str) -> str | None:
    """The entry for a callee: a rule registered from Python for exactly this name, else the
    libm function's (`math_base_name`)."""
    return name if name in REGISTERED else math_base_name(name)


def math_rule(name: str) -> tuple[int, MathPartials]:
    """The (arity, partials) entry `math_rule_name` named."""
    return REGISTERED.get(name) or MATH[name]


def math_arity(name: str) -> int:
    return math_rule(name)[0]


def _partial_thunks(ctx: ReverseContext | ForwardContext, op: Operation, name: str, args: Sequence[SSAValue]):
    """The entry's partials for `op`; a rule registered from Python that breaks (raises, or
    returns the wrong number of partials) is the user's error, reported at the call."""
    arity, partials = math_rule(name)
    result = op.results[0]
    getters = [(lambda a=a: ctx.get(a)) for a in args[:arity]]
    if name not in REGISTERED:
        return partials(ctx.e, getters, lambda: ctx.get(result))

    def checked(thunk: PartialThunk | None) -> PartialThunk | None:
        if thunk is None:
            return None
        return lambda: _user_call(ctx, op, name, thunk)

    thunks = _user_call(ctx, op, name, lambda: list(partials(ctx.e, getters, lambda: ctx.get(result))))
    if len(thunks) != arity or not all(t is None or callable(t) for t in thunks):
        ctx.fail(op, f"the derivative rule registered for @{name} returned {len(thunks)} item(s); it must return "
                     f"{arity}: None or a function building the partial derivative, one per argument")  # fmt: skip
    return [checked(t) for t in thunks]


def _user_call(ctx: ReverseContext | ForwardContext, op: Operation, name: str, f: Callable[[], object]):
    """Run part of a user's rule; its exceptions become errors at the call."""
    try:
        out = f()
    except XenzymeError:
        raise
    except Exception as e:  # noqa: BLE001 -- the user's code: report it, no traceback
        ctx.fail(op, f"the derivative rule registered for @{name} failed: {type(e).__name__}: {e}")
    if isinstance(out, list) or isinstance(out, Partial | SSAValue):
        return out
    ctx.fail(op, f"a partial derivative from the rule registered for @{name} is {type(out).__name__}; "
                 "it must be a Partial or an SSA value")  # fmt: skip


def apply_math_rule(ctx: ReverseContext, op: Operation, name: str, args: Sequence[SSAValue]) -> None:
    """Accumulate the adjoints of `args` for the math function `name` computed by `op`."""
    arity = math_arity(name)
    result = op.results[0]
    d = ctx.adjoint(result)
    if d is None:
        return
    thunks = _partial_thunks(ctx, op, name, args)
    for a, thunk in zip(args[:arity], thunks, strict=False):
        if thunk is None or not ctx.active(a):
            continue
        ctx.accumulate(a, as_partial(thunk()).apply(ctx.e, d))


def tangent_math_rule(ctx: ForwardContext, op: Operation, name: str, args: Sequence[SSAValue]) -> None:
    """The tangents of the math function `name` computed by `op`: the sum of its partials
    applied to the tangents of the active arguments (zero when none has a partial)."""
    arity = math_arity(name)
    result = op.results[0]
    thunks = _partial_thunks(ctx, op, name, args)
    terms = [
        (as_partial(thunk()), ctx.tangent(a))
        for a, thunk in zip(args[:arity], thunks, strict=False)
        if thunk is not None and ctx.active(a)
    ]
    if not terms:
        ctx.set_tangent(result, [ctx.e.zero(result.type)] * ctx.width)
        return
    ctx.set_tangent(result, linear_tangent(ctx.e, ctx.width, terms))


def _powi_partial(e: Emitter, x: SSAValue, n: SSAValue) -> Partial:
    """d/dx x^n = n x^(n-1) (n an integer)."""
    one = e.insert(xllvm.ConstantOp.create(properties={"value": _int_attr(1, n.type)}, result_types=[n.type]))
    nm1 = e.insert(xllvm.SubOp(n, one))
    return times(e.mul(e.int_to_float(n, x.type), e.powi(x, nm1)))


def powi_rule(ctx: ReverseContext, op: Operation) -> None:
    x, n = op.operands[0], op.operands[1]
    d = ctx.adjoint(op.results[0])
    if d is None or not ctx.active(x):
        return
    ctx.accumulate(x, _powi_partial(ctx.e, ctx.get(x), ctx.get(n)).apply(ctx.e, d))


def powi_tangent(ctx: ForwardContext, op: Operation) -> None:
    x, n = op.operands[0], op.operands[1]
    p = _powi_partial(ctx.e, ctx.get(x), ctx.get(n))
    ctx.set_tangent(op.results[0], linear_tangent(ctx.e, ctx.width, [(p, ctx.tangent(x))]))


def ldexp_rule(ctx: ReverseContext, op: Operation) -> None:
    """x * 2^n (ldexp, scalbn, scalbln, llvm.ldexp): the adjoint is scaled the same way, by
    the same function applied to the adjoint."""
    x, n = op.operands[0], op.operands[1]
    d = ctx.adjoint(op.results[0])
    if d is None or not ctx.active(x):
        return
    scaled = op.clone_without_regions({x: d, n: ctx.get(n)})
    ctx.accumulate(x, ctx.e.insert(scaled))


def ldexp_tangent(ctx: ForwardContext, op: Operation) -> None:
    """x * 2^n is linear in x: each tangent is scaled by the same function."""
    x, n = op.operands[0], op.operands[1]
    out = []
    for t in ctx.tangent(x):
        out.append(ctx.e.insert(op.clone_without_regions({x: t, n: ctx.get(n)})))
    ctx.set_tangent(op.results[0], out)


SCALE_BY_POWER_OF_TWO = {
    f"{base}{suffix}" for base in ("ldexp", "scalbn", "scalbln") for suffix in ("", "f", "l")
}
"""libm functions computing x * 2^n exactly."""


def _int_attr(v: int, t):
    from xdsl.dialects.builtin import IntegerAttr

    return IntegerAttr(v, t)


def registered_rules() -> set[str]:
    """Names of the functions whose rules were registered from Python (`xenzyme.derivative`)."""
    return set(REGISTERED)
