"""Reverse rules for math functions, one data entry per function.

Each entry is `name: (arity, adjoint)`.  `adjoint(e, x, y, d)` returns one contribution per
argument: a value, a thunk building it, or None: `e` is the `Emitter`, `x` a list of getters for
the primal arguments, `y` a getter for the primal result, `d` the result's adjoint.  Getters are
called only for what a contribution needs, and thunks only for active arguments, so a rule that
uses `y()` asks the engine to keep the result, and one that uses `x[0]()` the argument.

The same entry serves `sin` (libm, double), `sinf` (float), `llvm.sin.*` (intrinsic) and the
`llvm.intr.sin` op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Operation, SSAValue

from xenzyme.rules import LN2, LN10, TWO_OVER_SQRT_PI, Emitter, ReverseContext

Getter = Callable[[], SSAValue]
Contributions = Sequence[SSAValue | None]
MathAdjoint = Callable[[Emitter, list[Getter], Getter, SSAValue], Contributions]


def _zero(e: Emitter, x: list[Getter], y: Getter, d: SSAValue) -> Contributions:
    return [None] * len(x)


def _pow(e: Emitter, x: list[Getter], y: Getter, d: SSAValue) -> Contributions:
    a, b = x
    # d/da a^b = b a^(b-1);  d/db a^b = a^b log a
    return (
        lambda: e.mul(d, e.mul(b(), e.call("pow", a(), e.sub(b(), e.const(1, d))))),
        lambda: e.mul(d, e.mul(y(), e.call("log", a()))),
    )  # type: ignore[return-value]


def _atan2(e: Emitter, x: list[Getter], y: Getter, d: SSAValue) -> Contributions:
    # atan2(u, v): d/du = v / (u^2 + v^2), d/dv = -u / (u^2 + v^2)
    u, v = x
    return (
        lambda: e.div(e.mul(d, v()), e.add(e.square(u()), e.square(v()))),
        lambda: e.neg(e.div(e.mul(d, u()), e.add(e.square(u()), e.square(v())))),
    )  # type: ignore[return-value]


def _min_max(pred: str) -> MathAdjoint:
    """The derivative goes to the argument that was chosen (the first one on ties)."""

    def adjoint(e: Emitter, x: list[Getter], y: Getter, d: SSAValue) -> Contributions:
        def first() -> SSAValue:
            return e.where(e.fcmp(pred, x[0](), x[1]()), d)

        return (first, lambda: e.sub(d, first()))  # type: ignore[return-value]

    return adjoint


MATH: dict[str, tuple[int, MathAdjoint]] = {
    "sqrt": (1, lambda e, x, y, d: [e.div(d, e.scale(y(), 2.0))]),
    "cbrt": (1, lambda e, x, y, d: [e.div(d, e.scale(e.square(y()), 3.0))]),
    "exp": (1, lambda e, x, y, d: [e.mul(d, y())]),
    "exp2": (1, lambda e, x, y, d: [e.mul(d, e.scale(y(), LN2))]),
    "exp10": (1, lambda e, x, y, d: [e.mul(d, e.scale(y(), LN10))]),
    "expm1": (1, lambda e, x, y, d: [e.mul(d, e.add(y(), e.const(1, d)))]),
    "log": (1, lambda e, x, y, d: [e.div(d, x[0]())]),
    "log2": (1, lambda e, x, y, d: [e.div(d, e.scale(x[0](), LN2))]),
    "log10": (1, lambda e, x, y, d: [e.div(d, e.scale(x[0](), LN10))]),
    "log1p": (1, lambda e, x, y, d: [e.div(d, e.add(x[0](), e.const(1, d)))]),
    "sin": (1, lambda e, x, y, d: [e.mul(d, e.call("cos", x[0]()))]),
    "cos": (1, lambda e, x, y, d: [e.neg(e.mul(d, e.call("sin", x[0]())))]),
    "tan": (1, lambda e, x, y, d: [e.mul(d, e.add(e.const(1, d), e.square(y())))]),
    "asin": (1, lambda e, x, y, d: [e.div(d, e.call("sqrt", e.sub(e.const(1, d), e.square(x[0]()))))]),
    "acos": (1, lambda e, x, y, d: [e.neg(e.div(d, e.call("sqrt", e.sub(e.const(1, d), e.square(x[0]())))))]),
    "atan": (1, lambda e, x, y, d: [e.div(d, e.add(e.const(1, d), e.square(x[0]())))]),
    "sinh": (1, lambda e, x, y, d: [e.mul(d, e.call("cosh", x[0]()))]),
    "cosh": (1, lambda e, x, y, d: [e.mul(d, e.call("sinh", x[0]()))]),
    "tanh": (1, lambda e, x, y, d: [e.mul(d, e.sub(e.const(1, d), e.square(y())))]),
    "erf": (1, lambda e, x, y, d: [e.mul(d, e.scale(e.call("exp", e.neg(e.square(x[0]()))), TWO_OVER_SQRT_PI))]),
    "erfc": (1, lambda e, x, y, d: [e.neg(e.mul(d, e.scale(e.call("exp", e.neg(e.square(x[0]()))), TWO_OVER_SQRT_PI)))]),
    "fabs": (1, lambda e, x, y, d: [e.select(e.fcmp("olt", x[0](), e.const(0, d)), e.neg(d), d)]),
    "floor": (1, _zero),
    "ceil": (1, _zero),
    "trunc": (1, _zero),
    "round": (1, _zero),
    "roundeven": (1, _zero),
    "rint": (1, _zero),
    "nearbyint": (1, _zero),
    "pow": (2, _pow),
    "atan2": (2, _atan2),
    "hypot": (2, lambda e, x, y, d: [lambda: e.div(e.mul(d, x[0]()), y()), lambda: e.div(e.mul(d, x[1]()), y())]),
    "fmod": (2, lambda e, x, y, d: [d, lambda: e.neg(e.mul(d, e.call("trunc", e.div(x[0](), x[1]()))))]),
    "copysign": (
        2,
        lambda e, x, y, d: [
            lambda: e.mul(d, e.mul(e.call("copysign", e.const(1, d), x[0]()), e.call("copysign", e.const(1, d), x[1]()))),
            None,
        ],
    ),
    "fma": (3, lambda e, x, y, d: [lambda: e.mul(d, x[1]()), lambda: e.mul(d, x[0]()), d]),
    "fmuladd": (3, lambda e, x, y, d: [lambda: e.mul(d, x[1]()), lambda: e.mul(d, x[0]()), d]),
}
"""Math functions by their libm/intrinsic base name."""

MATH["cabs"] = MATH["hypot"]  # |re + i im| with the complex passed as two doubles (x86-64, AArch64)

for _name in ("fmin", "minnum", "minimum", "minimumnum"):
    MATH[_name] = (2, _min_max("ole"))
for _name in ("fmax", "maxnum", "maximum", "maximumnum"):
    MATH[_name] = (2, _min_max("oge"))


def math_base_name(name: str) -> str | None:
    """`sinf` -> `sin`, `llvm.sin.f64` -> `sin`, `sin` -> `sin`; None if not a known function."""
    if name.startswith("llvm."):
        from xenzyme.frontend.llvm_import import intrinsic_base_name

        name = intrinsic_base_name(name)[5:]
    if name in MATH:
        return name
    if name[-1:] in ("f", "l") and name[:-1] in MATH:
        return name[:-1]
    return None


def apply_math_rule(ctx: ReverseContext, op: Operation, name: str, args: Sequence[SSAValue]) -> None:
    """Accumulate the adjoints of `args` for the math function `name` computed by `op`."""
    arity, adjoint = MATH[name]
    result = op.results[0]
    d = ctx.adjoint(result)
    if d is None:
        return
    getters = [(lambda a=a: ctx.get(a)) for a in args[:arity]]
    contributions = adjoint(ctx.e, getters, lambda: ctx.get(result), d)
    for a, c in zip(args[:arity], contributions, strict=False):
        if c is None or not ctx.active(a):
            continue
        ctx.accumulate(a, c() if callable(c) else c)


def powi_rule(ctx: ReverseContext, op: Operation) -> None:
    x, n = op.operands[0], op.operands[1]
    d = ctx.adjoint(op.results[0])
    if d is None or not ctx.active(x):
        return
    e = ctx.e
    nv = ctx.get(n)
    one = e.insert(xllvm.ConstantOp.create(properties={"value": _int_attr(1, nv.type)}, result_types=[nv.type]))
    nm1 = e.insert(xllvm.SubOp(nv, one))
    ctx.accumulate(x, e.mul(d, e.mul(e.int_to_float(nv, x.type), e.powi(ctx.get(x), nm1))))


def ldexp_rule(ctx: ReverseContext, op: Operation) -> None:
    """x * 2^n (ldexp, scalbn, scalbln, llvm.ldexp): the adjoint is scaled the same way, by
    the same function applied to the adjoint."""
    x, n = op.operands[0], op.operands[1]
    d = ctx.adjoint(op.results[0])
    if d is None or not ctx.active(x):
        return
    scaled = op.clone_without_regions({x: d, n: ctx.get(n)})
    ctx.accumulate(x, ctx.e.insert(scaled))


SCALE_BY_POWER_OF_TWO = {
    f"{base}{suffix}" for base in ("ldexp", "scalbn", "scalbln") for suffix in ("", "f", "l")
}
"""libm functions computing x * 2^n exactly."""


def _int_attr(v: int, t):
    from xdsl.dialects.builtin import IntegerAttr

    return IntegerAttr(v, t)
