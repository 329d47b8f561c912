"""C99 complex functions (`cexp`, `clog`, `cpow`, `csqrt`, the trigonometric and hyperbolic
families, `cabs`, `carg`, `cproj`) and the compiler's complex multiply and divide (`__muldc3`,
`__divdc3` and their float and x87 forms: clang calls the multiply where the fast formula gave
NaN, the divide for every `z / w`).  C++'s `std::complex` reaches the same functions.

A complex number crosses these calls in one of two layouts, as the x86-64 ABI has it:

* a pair of scalars -- `double complex` goes in as its real and imaginary parts and comes out as
  `{double, double}`; compiler-rt's functions take four scalars in every precision;
* one `<2 x float>` in and out -- `float complex` in the C functions.

A call in any other shape (`long double complex`, passed in memory) gets no rule here and stays
the error it was.

Every function but `cabs` and `carg` is holomorphic: its derivative in each argument is one
complex number w = f'(z), and the Jacobian of (Re f, Im f) in (Re z, Im z) is [[a, -b], [b, a]]
for w = a + ib.  Forward mode multiplies the tangent by w; reverse mode multiplies the adjoint
(d_re + i d_im) by conj(w).  The real-valued `cabs` and `carg` give their gradient in (Re z,
Im z) instead.  Each entry builds w from the arguments and the result with real arithmetic and
real libm calls only, so that the derivative calls no complex function (and device code gets
libdevice's).  Each rule is an `OpRule` found by callee name (`rule_of`), which `llvm_calls`
consults before its own cases; the forward sweep copies the call as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import AnyFloat, DenseArrayBase, VectorType, i64
from xdsl.ir import Attribute, Operation, SSAValue

from xenzyme.analysis.alias import callee_name
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.context import ForwardContext, OpRule, ReverseContext
from xenzyme.rules.emitter import Emitter

Pair = tuple[SSAValue, SSAValue]
"""A complex number as its real and imaginary parts."""

PairGetter = Callable[[], Pair]
Derivative = Callable[[Emitter, list[PairGetter], PairGetter], list[Callable[[], Pair]]]
"""(emitter, the arguments, the result) -> per argument a thunk building w (holomorphic) or the
gradient (real-valued); getters are called only for what a thunk needs."""


# ---- complex arithmetic on pairs ----------------------------------------------------------


def _mul(e: Emitter, p: Pair, q: Pair) -> Pair:
    (a, b), (c, d) = p, q
    return e.sub(e.mul(a, c), e.mul(b, d)), e.add(e.mul(a, d), e.mul(b, c))


def _recip(e: Emitter, q: Pair) -> Pair:
    c, d = q
    n = e.add(e.square(c), e.square(d))
    return e.div(c, n), e.neg(e.div(d, n))


def _div(e: Emitter, p: Pair, q: Pair) -> Pair:
    return _mul(e, p, _recip(e, q))


def _neg(e: Emitter, p: Pair) -> Pair:
    return e.neg(p[0]), e.neg(p[1])


def _one_plus(e: Emitter, p: Pair, sign: float = 1.0) -> Pair:
    """1 + sign * p."""
    one = e.const(1, p[0])
    if sign > 0:
        return e.add(one, p[0]), p[1]
    return e.sub(one, p[0]), e.neg(p[1])


def _square(e: Emitter, p: Pair) -> Pair:
    return _mul(e, p, p)


def _cos(e: Emitter, z: Pair) -> Pair:
    x, y = z
    return e.mul(e.call("cos", x), e.call("cosh", y)), e.neg(e.mul(e.call("sin", x), e.call("sinh", y)))


def _sin(e: Emitter, z: Pair) -> Pair:
    x, y = z
    return e.mul(e.call("sin", x), e.call("cosh", y)), e.mul(e.call("cos", x), e.call("sinh", y))


def _cosh(e: Emitter, z: Pair) -> Pair:
    x, y = z
    return e.mul(e.call("cosh", x), e.call("cos", y)), e.mul(e.call("sinh", x), e.call("sin", y))


def _sinh(e: Emitter, z: Pair) -> Pair:
    x, y = z
    return e.mul(e.call("sinh", x), e.call("cos", y)), e.mul(e.call("cosh", x), e.call("sin", y))


def _log(e: Emitter, z: Pair) -> Pair:
    x, y = z
    return e.call("log", e.call("hypot", x, y)), e.call("atan2", y, x)


def _one(e: Emitter, like: SSAValue) -> Pair:
    return e.const(1, like), e.const(0, like)


# ---- the functions ------------------------------------------------------------------------


def _unary(w: Callable[[Emitter, PairGetter, PairGetter], Pair]) -> Derivative:
    return lambda e, z, f: [lambda: w(e, z[0], f)]


HOLOMORPHIC: dict[str, tuple[int, Derivative]] = {
    "cexp": (1, _unary(lambda e, z, f: f())),
    "clog": (1, _unary(lambda e, z, f: _recip(e, z()))),
    "csqrt": (1, _unary(lambda e, z, f: _recip(e, (e.scale(f()[0], 2.0), e.scale(f()[1], 2.0))))),
    "csin": (1, _unary(lambda e, z, f: _cos(e, z()))),
    "ccos": (1, _unary(lambda e, z, f: _neg(e, _sin(e, z())))),
    "ctan": (1, _unary(lambda e, z, f: _one_plus(e, _square(e, f())))),
    "csinh": (1, _unary(lambda e, z, f: _cosh(e, z()))),
    "ccosh": (1, _unary(lambda e, z, f: _sinh(e, z()))),
    "ctanh": (1, _unary(lambda e, z, f: _one_plus(e, _square(e, f()), -1.0))),
    # cos(asin z) = sqrt(1 - z^2), sin(acos z) = sqrt(1 - z^2), cosh(asinh z) = sqrt(1 + z^2) and
    # sinh(acosh z) = sqrt(z - 1) sqrt(z + 1) on the principal branches: the derivatives from the result.
    "casin": (1, _unary(lambda e, z, f: _recip(e, _cos(e, f())))),
    "cacos": (1, _unary(lambda e, z, f: _neg(e, _recip(e, _sin(e, f()))))),
    "catan": (1, _unary(lambda e, z, f: _recip(e, _one_plus(e, _square(e, z()))))),
    "casinh": (1, _unary(lambda e, z, f: _recip(e, _cosh(e, f())))),
    "cacosh": (1, _unary(lambda e, z, f: _recip(e, _sinh(e, f())))),
    "catanh": (1, _unary(lambda e, z, f: _recip(e, _one_plus(e, _square(e, z()), -1.0)))),
    "cproj": (1, _unary(lambda e, z, f: _one(e, z()[0]))),  # the identity, for finite z
    # z^a: d/dz = a z^a / z, d/da = z^a log z
    "cpow": (2, lambda e, z, f: [lambda: _div(e, _mul(e, z[1](), f()), z[0]()), lambda: _mul(e, f(), _log(e, z[0]()))]),
}  # fmt: skip
"""Complex-valued functions by their double-precision name: (complex arguments, w per argument)."""

_ARITHMETIC: dict[str, tuple[int, Derivative]] = {
    "mul": (2, lambda e, z, f: [lambda: z[1](), lambda: z[0]()]),
    "div": (2, lambda e, z, f: [lambda: _recip(e, z[1]()), lambda: _neg(e, _div(e, f(), z[1]()))]),
}
"""compiler-rt's `__mul?c3`, `__div?c3` (the complex product and quotient of four scalars)."""


def _cabs(e: Emitter, z: list[PairGetter], f: PairGetter) -> list[Callable[[], Pair]]:
    """(x, y) / |z|; at z = 0 (a norm that starts at zero) the gradient is 0, not NaN."""

    def gradient() -> Pair:
        r = f()[0]
        zero = e.fcmp("oeq", r, e.zero(r.type))
        return tuple(e.select(zero, e.zero(r.type), e.div(v, r)) for v in z[0]())  # type: ignore[return-value]

    return [gradient]


def _carg(e: Emitter, z: list[PairGetter], f: PairGetter) -> list[Callable[[], Pair]]:
    """arg z = atan2(y, x): (-y, x) / |z|^2."""

    def gradient() -> Pair:
        x, y = z[0]()
        n = e.add(e.square(x), e.square(y))
        return e.neg(e.div(y, n)), e.div(x, n)

    return [gradient]


REAL_VALUED: dict[str, tuple[int, Derivative]] = {"cabs": (1, _cabs), "carg": (1, _carg)}
"""Real-valued functions of one complex argument: their gradient in (Re z, Im z)."""


# ---- a call's layout ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Call:
    """How a call passes its complex arguments and returns its result."""

    args: list[list[SSAValue]]
    """Per complex argument: its two scalars, or its one `<2 x T>`."""
    holomorphic: bool
    derivative: Derivative

    def parts(self, e: Emitter, values: list[SSAValue]) -> Pair:
        """The real and imaginary parts of one argument, from its values in the call's layout."""
        if len(values) == 2:
            return values[0], values[1]
        return _parts(e, values[0])


def _float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def _pair_vector(t: Attribute) -> bool:
    return isinstance(t, VectorType) and t.get_shape() == (2,) and _float(t.element_type)


def _pair_struct(t: Attribute) -> bool:
    return isinstance(t, xllvm.LLVMStructType) and len(t.types.data) == 2 and all(_float(m) for m in t.types.data)


def _parts(e: Emitter, v: SSAValue) -> Pair:
    """The two parts of a `{T, T}` or `<2 x T>` value."""
    if isinstance(v.type, VectorType):
        re, im = e.lanes(v)
        return re, im
    members = v.type.types.data  # type: ignore[attr-defined]
    return tuple(  # type: ignore[return-value]
        e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [k]), v, members[k])) for k in range(2)
    )


def _build(e: Emitter, t: Attribute, p: Pair) -> SSAValue:
    """A value of the pair type `t` holding `p`."""
    acc = e.insert(ext.PoisonOp(t))
    for k, part in enumerate(p):
        if isinstance(t, VectorType):
            acc = e.insert(xllvm.InsertElementOp.create(operands=[acc, part, e.i32(k)], result_types=[t]))  # type: ignore[attr-defined]
        else:
            acc = e.insert(xllvm.InsertValueOp.create(
                operands=[acc, part], properties={"position": DenseArrayBase.from_list(i64, [k])}, result_types=[t]
            ))  # fmt: skip
    return acc


def _zero_part(e: Emitter, t: Attribute) -> SSAValue:
    return e.zero(t.element_type if isinstance(t, VectorType) else t.types.data[0])  # type: ignore[attr-defined]


def _entry(callee: str) -> tuple[int, bool, Derivative] | None:
    """(complex arguments, holomorphic, derivative) of a callee name."""
    for prefix, op in (("__mul", "mul"), ("__div", "div")):
        if callee in (f"{prefix}{c}c3" for c in "sdxt"):
            n, d = _ARITHMETIC[op]
            return n, True, d
    base = callee[:-1] if callee.endswith("f") and callee[:-1] in HOLOMORPHIC | REAL_VALUED else callee
    if base in HOLOMORPHIC:
        n, d = HOLOMORPHIC[base]
        return n, True, d
    if base in REAL_VALUED:
        n, d = REAL_VALUED[base]
        return n, False, d
    return None


def _layout(op: Operation) -> _Call | None:
    """The call's layout, or None when it passes or returns complex numbers another way."""
    if not isinstance(op, xllvm.CallOp) or len(op.results) != 1:
        return None
    entry = _entry(callee_name(op) or "")
    if entry is None:
        return None
    n, holomorphic, derivative = entry
    args = list(op.args)
    rtype = op.results[0].type
    if holomorphic and not (_pair_struct(rtype) or _pair_vector(rtype)):
        return None
    if not holomorphic and not _float(rtype):
        return None
    if len(args) == 2 * n and all(_float(a.type) for a in args):
        grouped = [args[2 * k : 2 * k + 2] for k in range(n)]
    elif len(args) == n and all(_pair_vector(a.type) for a in args):
        grouped = [[a] for a in args]
    else:
        return None
    return _Call(grouped, holomorphic, derivative)


# ---- the rules ----------------------------------------------------------------------------


def _derivatives(ctx: ReverseContext | ForwardContext, op: Operation, call: _Call) -> list[Callable[[], Pair]]:
    e = ctx.e
    getters = [(lambda vs=vs: call.parts(e, [ctx.get(v) for v in vs])) for vs in call.args]
    result = op.results[0]

    def value() -> Pair:
        r = ctx.get(result)
        return (r, r) if not call.holomorphic else _parts(e, r)

    return call.derivative(e, getters, value)


def _reverse(ctx: ReverseContext, op: Operation) -> None:
    call = _layout(op)
    assert call is not None
    d = ctx.adjoint(op.results[0])
    if d is None:
        return
    e = ctx.e
    seed = _parts(e, d) if call.holomorphic else None
    for values, w in zip(call.args, _derivatives(ctx, op, call), strict=True):
        if not any(ctx.active(v) for v in values):
            continue
        a, b = w()
        if seed is not None:  # conj(w) * (d_re + i d_im)
            dre, dim = seed
            dx, dy = e.add(e.mul(a, dre), e.mul(b, dim)), e.sub(e.mul(a, dim), e.mul(b, dre))
        else:
            dx, dy = e.mul(a, d), e.mul(b, d)
        if len(values) == 2:
            for v, delta in zip(values, (dx, dy), strict=True):
                if ctx.active(v):
                    ctx.accumulate(v, delta)
        else:
            ctx.accumulate(values[0], _build(e, values[0].type, (dx, dy)))


def _tangent(ctx: ForwardContext, op: Operation) -> None:
    result = op.results[0]
    if result not in ctx.info.varied:
        return
    call = _layout(op)
    assert call is not None
    e = ctx.e
    active = [(values, w) for values, w in zip(call.args, _derivatives(ctx, op, call), strict=True)
              if any(ctx.active(v) for v in values)]  # fmt: skip
    ws = [(values, w()) for values, w in active]
    out = []
    for j in range(ctx.width):
        total: Pair | SSAValue | None = None
        for values, (a, b) in ws:
            tx, ty = call.parts(e, [ctx.tangent(v)[j] for v in values])
            if call.holomorphic:  # w * (tx + i ty)
                term: Pair | SSAValue = (e.sub(e.mul(a, tx), e.mul(b, ty)), e.add(e.mul(b, tx), e.mul(a, ty)))
            else:
                term = e.add(e.mul(a, tx), e.mul(b, ty))
            if total is None:
                total = term
            elif call.holomorphic:
                total = (e.add(total[0], term[0]), e.add(total[1], term[1]))  # type: ignore[index]
            else:
                total = e.add(total, term)  # type: ignore[arg-type]
        if total is None:
            t = result.type
            out.append(e.zero(t) if not call.holomorphic else _build(e, t, (_zero_part(e, t),) * 2))  # type: ignore[arg-type]
        elif call.holomorphic:
            out.append(_build(e, result.type, total))  # type: ignore[arg-type]
        else:
            out.append(total)
    ctx.set_tangent(result, out)


_RULE = OpRule(reverse=_reverse, tangent=_tangent)


def rule_of(op: Operation) -> OpRule | None:
    """The rule of a call of one of these functions in a layout this file knows, or None."""
    return _RULE if _layout(op) is not None else None
