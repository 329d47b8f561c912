"""Derivative rules, as data.

`llvm.py` has the rules for LLVM instructions (arithmetic, casts, vectors, aggregates, memory),
`libm.py` the rules for math functions, whether they arrive as libm calls (`sin`, `sinf`), as
intrinsics (`llvm.sin.f64`) or as intrinsic ops (`llvm.intr.sin`).

Reverse rules receive a `ReverseContext` -- the differentiation engine at the current point of
the reverse sweep -- and the primal op, and add adjoint contributions to the op's operands.
Rules never decide how a primal value reaches the reverse sweep (kept, recomputed or cached):
they ask for it with `ctx.get`, and only for what they need.

Tangent rules (forward mode) receive a `ForwardContext` and the primal op, and set the tangents
of the op's results from the tangents of its operands.  In vector mode (`ctx.width` N > 1) a
value has N tangents, one per direction: rules compute what the directions share (the partial
derivatives) once and the per-direction arithmetic N times.

Both modes meet in `Partial`: a partial derivative written as the linear map it applies, so
that reverse mode builds `adjoint * partial` and forward mode `sum of partial * tangent` from
one description (`libm.py` holds one such description per math function).

`Emitter` builds the arithmetic the rules write, for scalars and vectors alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn, Protocol

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue

from xenzyme.dialects import llvm_ext as ext

_NO_FMF = xllvm.FastMathAttr(None)


class ReverseContext(Protocol):
    """What a reverse rule may do at its point in the reverse sweep."""

    e: Emitter

    def get(self, v: SSAValue) -> SSAValue:
        """The primal value `v` as it was in the forward sweep, usable here."""
        ...

    def shadow(self, p: SSAValue) -> SSAValue:
        """The shadow of primal pointer `p`, usable here."""
        ...

    def active(self, v: SSAValue) -> bool:
        """Whether `v` carries a derivative."""
        ...

    def adjoint(self, v: SSAValue) -> SSAValue | None:
        """Take the adjoint accumulated for result `v` (None if `v` is inactive)."""
        ...

    def accumulate(self, v: SSAValue, delta: SSAValue) -> None:
        """Add `delta` to the adjoint of primal value `v` (ignored if inactive)."""
        ...

    def accumulate_memory(self, shadow_ptr: SSAValue, delta: SSAValue, alignment: int | None = None) -> None:
        """Add `delta` to shadow memory at `shadow_ptr` (aligned like the primal access)."""
        ...

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        ...


ReverseRule = Callable[[ReverseContext, Operation], None]


class ForwardContext(Protocol):
    """What a tangent rule may do at its point in the derivative function."""

    e: Emitter
    width: int
    """Directions computed at once: each active value has `width` tangents."""

    def get(self, v: SSAValue) -> SSAValue:
        """The primal value `v`, as computed in the derivative function."""
        ...

    def active(self, v: SSAValue) -> bool:
        """Whether `v` carries a tangent."""
        ...

    def tangent(self, v: SSAValue) -> list[SSAValue]:
        """The `width` tangents of `v` (zeros when `v` is inactive)."""
        ...

    def set_tangent(self, v: SSAValue, tangents: Sequence[SSAValue]) -> None:
        """Record the tangents of the result `v`."""
        ...

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        ...


ForwardRule = Callable[[ForwardContext, Operation], None]


@dataclass(frozen=True)
class Partial:
    """A partial derivative as the linear map it applies to a seed `t` (an adjoint or a tangent):

        t * factor / divisor, negated if `negate`, zero unless `where`, zero where `unless`.

    Keeping the division (rather than a factor 1/divisor) and the selects lets reverse mode emit
    exactly `d / (2*y)` for sqrt or `select(c, d, 0)` for fmax, one instruction per contribution
    and no multiplication of a zero with an infinite adjoint.  The empty `Partial()` is 1.
    """

    factor: SSAValue | None = None
    divisor: SSAValue | None = None
    negate: bool = False
    where: SSAValue | None = None
    unless: SSAValue | None = None

    def apply(self, e: Emitter, t: SSAValue, negate: bool | None = None) -> SSAValue:
        """The map applied to `t` (`negate` overrides the sign, for a caller that subtracts)."""
        v = t
        if self.factor is not None:
            v = e.mul(v, self.factor)
        if self.divisor is not None:
            v = e.div(v, self.divisor)
        if self.negate if negate is None else negate:
            v = e.neg(v)
        if self.where is not None:
            v = e.where(self.where, v)
        if self.unless is not None:
            v = e.select(self.unless, e.zero(v.type), v)
        return v

    def folded(self, e: Emitter) -> Partial:
        """The same map with its division turned into one factor: applied to many tangents (vector
        mode), one division and a multiplication per tangent instead of a division per tangent."""
        if self.divisor is None:
            return self
        num = self.factor if self.factor is not None else e.const(1, self.divisor)
        return Partial(e.div(num, self.divisor), None, self.negate, self.where, self.unless)


ONE = Partial()
"""The partial derivative 1: the seed passes unchanged."""


def times(v: SSAValue) -> Partial:
    return Partial(factor=v)


def over(v: SSAValue) -> Partial:
    return Partial(divisor=v)


def linear_tangent(e: Emitter, width: int, terms: Sequence[tuple[Partial, Sequence[SSAValue]]]) -> list[SSAValue]:
    """Forward mode's chain rule: per direction k, the sum over the active operands of
    partial(tangent_k).  `terms` pairs each active operand's partial with its tangents."""
    if width > 1:
        terms = [(p.folded(e), ts) for p, ts in terms]
    out: list[SSAValue] = []
    for k in range(width):
        acc: SSAValue | None = None
        for p, ts in terms:
            if acc is None:
                acc = p.apply(e, ts[k])
            else:
                v = p.apply(e, ts[k], negate=False)
                acc = e.sub(acc, v) if p.negate else e.add(acc, v)
        assert acc is not None, "a tangent rule needs at least one active operand"
        out.append(acc)
    return out


def element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t


class Emitter:
    """Builds float arithmetic at an insertion point; constants follow the type of `like`."""

    def __init__(self, builder: Builder, module: ModuleOp):
        self.b = builder
        self.module = module

    def insert(self, op: Operation) -> SSAValue:
        """Insert `op`; its result (ops without results return None)."""
        self.b.insert(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    # ---- constants ----------------------------------------------------------------------

    def const(self, value: float, like: SSAValue | Attribute) -> SSAValue:
        t = like.type if isinstance(like, SSAValue) else like
        return self.insert(scalar_constant(value, t))

    def zero(self, t: Attribute, negative: bool = False) -> SSAValue:
        """`zero_constant(t, negative)` inserted here."""
        return self.insert(zero_constant(t, negative))

    # ---- arithmetic ---------------------------------------------------------------------

    def _bin(self, cls: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
        return self.insert(cls.create(operands=[a, b], result_types=[a.type], properties={"fastmathFlags": _NO_FMF}))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._bin(xllvm.FAddOp, a, b)

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._bin(xllvm.FSubOp, a, b)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._bin(xllvm.FMulOp, a, b)

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._bin(xllvm.FDivOp, a, b)

    def neg(self, a: SSAValue) -> SSAValue:
        return self.insert(xllvm.FNegOp.create(operands=[a], result_types=[a.type], properties={"fastmathFlags": _NO_FMF}))

    def scale(self, a: SSAValue, k: float) -> SSAValue:
        return self.mul(a, self.const(k, a))

    def square(self, a: SSAValue) -> SSAValue:
        return self.mul(a, a)

    def fcmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.insert(ext.FCmpOp(a, b, pred))

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.insert(ext.SelectOp(c, a, b))

    def where(self, c: SSAValue, d: SSAValue) -> SSAValue:
        """`d` where `c` holds, zero elsewhere."""
        return self.select(c, d, self.zero(d.type))

    def cast_float(self, v: SSAValue, t: Attribute) -> SSAValue:
        """fpext/fptrunc `v` to float type `t` (identity if equal)."""
        if v.type == t:
            return v
        src, dst = element_type(v.type), element_type(t)
        assert isinstance(src, AnyFloat) and isinstance(dst, AnyFloat)
        cls = xllvm.FPExtOp if dst.bitwidth > src.bitwidth else xllvm.FPTruncOp
        return self.insert(cls.create(operands=[v], result_types=[t]))

    def int_to_float(self, v: SSAValue, like: Attribute) -> SSAValue:
        """sitofp of integer `v` to the float type `like` (a scalar `v` is splatted when `like`
        is a vector, as for powi's exponent)."""
        t = like
        if isinstance(v.type, VectorType) and not isinstance(t, VectorType):
            t = VectorType(t, v.type.get_shape())
        if isinstance(t, VectorType) and not isinstance(v.type, VectorType):
            return self.splat(self.int_to_float(v, t.element_type), t)
        return self.insert(xllvm.SIToFPOp.create(operands=[v], result_types=[t]))

    def splat(self, scalar: SSAValue, t: VectorType) -> SSAValue:
        """A vector of type `t` with `scalar` in every lane."""
        from xdsl.dialects.builtin import DenseArrayBase

        zero = self.insert(xllvm.ConstantOp(IntegerAttr(0, i32), i32))
        first = self.insert(xllvm.InsertElementOp.create(operands=[self.insert(ext.PoisonOp(t)), scalar, zero], result_types=[t]))
        n = t.get_shape()[0]
        return self.insert(xllvm.ShuffleVectorOp.create(
            operands=[first, first], properties={"mask": DenseArrayBase.from_list(i32, [0] * n)}, result_types=[t]
        ))  # fmt: skip

    # ---- math functions -----------------------------------------------------------------

    def call(self, name: str, *args: SSAValue) -> SSAValue:
        """A math function of float scalars or vectors, as an intrinsic when LLVM has one."""
        op_cls = ext.intrinsic_op_by_name().get(f"llvm.{name}")
        if op_cls is not None and name in INTRINSIC_MATH:
            return self.insert(
                op_cls.create(operands=list(args), result_types=[args[0].type], properties={"fastmathFlags": _NO_FMF})
            )
        return self.libm(name, *args)

    def powi(self, x: SSAValue, n: SSAValue) -> SSAValue:
        op_cls = ext.intrinsic_op_by_name()["llvm.powi"]
        return self.insert(op_cls.create(operands=[x, n], result_types=[x.type], properties={"fastmathFlags": _NO_FMF}))

    def libm(self, name: str, *args: SSAValue) -> SSAValue:
        t = args[0].type
        if isinstance(t, VectorType):
            return self._per_lane(name, args)
        fname = libm_name(name, t)
        ensure_declaration(self.module, fname, ext.LLVMFunctionType([a.type for a in args], t))
        call = xllvm.CallOp.create(
            operands=list(args),
            result_types=[t],
            properties={
                "callee": SymbolRefAttr(fname),
                "fastmathFlags": _NO_FMF,
                "CConv": xllvm.CallingConventionAttr("ccc"),
                "TailCallKind": xllvm.TailCallKindAttr(xllvm.TailCallKind.NONE),
                "op_bundle_sizes": _dense_i32([]),
                "operandSegmentSizes": _dense_i32([len(args), 0]),
            },
            attributes={"fn_attrs": PURE_CALL_ATTRS},
        )
        return self.insert(call)

    def _per_lane(self, name: str, args: Sequence[SSAValue]) -> SSAValue:
        t = args[0].type
        assert isinstance(t, VectorType)
        acc = self.insert(ext.PoisonOp(t))
        for lane in range(t.get_shape()[0]):
            idx = self.insert(xllvm.ConstantOp(IntegerAttr(lane, i32), i32))
            lane_args = [self.insert(ext.ExtractElementOp(a, idx)) for a in args]
            r = self.libm(name, *lane_args)
            acc = self.insert(xllvm.InsertElementOp.create(operands=[acc, r, idx], result_types=[t]))
        return acc


def scalar_constant(value: float, t: Attribute) -> Operation:
    """A constant op of float/int type `t`, splatted when `t` is a vector."""
    et = element_type(t)
    if isinstance(et, IntegerType):
        attr: Attribute = IntegerAttr(int(value), et)
        if isinstance(t, VectorType):
            attr = DenseIntOrFPElementsAttr.from_list(t, [int(value)])
    else:
        attr = FloatAttr(float(value), et)  # type: ignore[arg-type]
        if isinstance(t, VectorType):
            attr = DenseIntOrFPElementsAttr.from_list(t, [float(value)])
    return xllvm.ConstantOp.create(properties={"value": attr}, result_types=[t])


def zero_constant(t: Attribute, negative: bool = False) -> Operation:
    """The zero of any type: a constant for scalars and vectors, `llvm.mlir.zero` otherwise.

    `negative` asks for -0.0 in floating-point scalars and vectors: the identity of `fadd`
    (x + -0.0 is x for every x, while -0.0 + +0.0 is +0.0), so LLVM removes the addition of a
    derivative to an adjoint that starts at -0.0 without fast-math flags.  Aggregates stay +0.0.
    """
    et = element_type(t)
    if isinstance(et, AnyFloat):
        return scalar_constant(-0.0 if negative else 0.0, t)
    if isinstance(et, IntegerType):
        return scalar_constant(0, t)
    return xllvm.ZeroOp.create(result_types=[t])


def _dense_i32(values: list[int]):
    from xdsl.dialects.builtin import DenseArrayBase

    return DenseArrayBase.from_list(i32, values)


INTRINSIC_MATH = {
    "sqrt", "sin", "cos", "tan", "exp", "exp2", "exp10", "log", "log2", "log10", "pow", "fabs",
    "copysign", "floor", "ceil", "trunc", "round", "fma", "fmuladd", "minnum", "maxnum",
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
}  # fmt: skip
"""Math functions that LLVM has as overloaded intrinsics (so they work on vectors too)."""

PURE_CALL_ATTRS = xllvm.ArrayAttr([StringAttr("nounwind"), StringAttr("willreturn"), StringAttr("memory(none)")])
"""Call-site attributes for math library calls in generated code: their only side effect is
errno, which differentiated programs do not inspect, and this lets LLVM remove unused ones."""


def libm_name(name: str, t: Attribute) -> str:
    """`exp` on f32 is `expf`, on x86_fp80 `expl`."""
    from xdsl.dialects.builtin import Float32Type, Float80Type

    if isinstance(t, Float32Type):
        return name + "f"
    if isinstance(t, Float80Type):
        return name + "l"
    return name


def ensure_declaration(module: ModuleOp, name: str, ftype: ext.LLVMFunctionType) -> None:
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp) and op.sym_name.data == name:
            return
    decl = xllvm.FuncOp(name, ftype, linkage=xllvm.LinkageAttr("external"))
    module.body.block.add_op(decl)


LN2 = math.log(2.0)
LN10 = math.log(10.0)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
