"""What the rules of the structured dialects (arith, math, memref, scf, func) build with, and ask.

At the structured level a derivative is written in the same dialects as the program: adjoints
are SSA values, an `scf.for` is reversed as an `scf.for`, shadows and caches are memrefs.  The
rules build through `StructuredEmitter` (arith/math/memref/scf ops at the current point) and talk
to the structured sweep (xenzyme/transforms/diff/structured.py) through `StructuredReverseContext`,
which adds to `ReverseContext`'s vocabulary what region ops need: the adjoints an op's regions
update (`free_adjoints`), scopes for the reversed regions (`region`), and derivatives of called
functions (`derivative`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import NoReturn, Protocol

from xdsl.dialects import arith, math, memref, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

index = IndexType()


class ConstantPool:
    """The constants a derivative function uses, each made once at the start of its entry block
    (where they dominate every use): the reversed loops do not repeat them."""

    def __init__(self, entry: Block):
        self.entry = entry
        self.values: dict[tuple[str, str], SSAValue] = {}
        self.last: Operation | None = None

    def get(self, v: float | int, t: Attribute) -> SSAValue:
        key = (repr(float(v) if isinstance(t, AnyFloat) else int(v)), str(t))
        if key not in self.values:
            op = _constant(v, t)
            if self.last is not None:
                Rewriter.insert_op(op, InsertPoint.after(self.last))
            else:
                Rewriter.insert_op(op, InsertPoint.at_start(self.entry))
            self.last = op
            self.values[key] = op.results[0]
        return self.values[key]


def _constant(v: float | int, t: Attribute) -> Operation:
    if isinstance(t, AnyFloat):
        return arith.ConstantOp(FloatAttr(float(v), t))
    assert isinstance(t, IndexType | IntegerType)
    return arith.ConstantOp(IntegerAttr(int(v), t))


class StructuredEmitter:
    """Builds arith/math/memref/scf ops, each inserted at `point` (which stays after them);
    constants come from `pool` when one is given."""

    def __init__(self, point: InsertPoint, pool: ConstantPool | None = None):
        self.point = point
        self.pool = pool

    def emit(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def value(self, op: Operation) -> SSAValue:
        return self.emit(op).results[0]

    @staticmethod
    def at_end(block: Block, pool: ConstantPool | None = None) -> StructuredEmitter:
        return StructuredEmitter(InsertPoint.at_end(block), pool)

    @staticmethod
    def after(op: Operation, pool: ConstantPool | None = None) -> StructuredEmitter:
        nxt = op.next_op
        return StructuredEmitter(InsertPoint.before(nxt) if nxt is not None else InsertPoint.at_end(op.parent_block()),  # type: ignore[arg-type]
                                 pool)  # fmt: skip

    # ---- constants and float arithmetic ---------------------------------------------------

    def const(self, v: float | int, t: Attribute | SSAValue) -> SSAValue:
        """A constant of type `t` (or of the type of value `t`, as `Emitter.const` takes it)."""
        t = t.type if isinstance(t, SSAValue) else t
        if self.pool is not None:
            return self.pool.get(v, t)
        return self.value(_constant(v, t))

    def zero(self, t: Attribute, negative: bool = False) -> SSAValue:
        return self.const(-0.0 if negative else 0, t)

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.AddfOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.SubfOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.MulfOp(a, b))

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.DivfOp(a, b))

    def neg(self, a: SSAValue) -> SSAValue:
        return self.value(arith.NegfOp(a))

    def scale(self, a: SSAValue, c: float) -> SSAValue:
        return self.mul(a, self.const(c, a.type))

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.SelectOp(c, a, b))

    def cmpf(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.CmpfOp(a, b, predicate))

    fcmp = cmpf

    def square(self, a: SSAValue) -> SSAValue:
        return self.mul(a, a)

    def where(self, c: SSAValue, d: SSAValue) -> SSAValue:
        """`d` where `c` holds, zero elsewhere."""
        return self.select(c, d, self.zero(d.type))

    def call(self, name: str, *args: SSAValue) -> SSAValue:
        """The math function `name` (libm's base name, as the shared math rules ask for it)."""
        return self.value(_MATH_OPS[name](*args))  # type: ignore[call-arg]

    def unary(self, cls: type[Operation], a: SSAValue) -> SSAValue:
        return self.value(cls(a))  # type: ignore[call-arg]

    def binary(self, cls: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(cls(a, b))  # type: ignore[call-arg]

    # ---- index arithmetic -------------------------------------------------------------------

    def addi(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.AddiOp(a, b))

    def subi(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.SubiOp(a, b))

    def muli(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.MuliOp(a, b))

    def divsi(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(arith.DivSIOp(a, b))

    def trip_count(self, lb: SSAValue, ub: SSAValue, step: SSAValue) -> SSAValue:
        """Iterations of `scf.for lb to ub step step` (0 when ub <= lb), folded when constant."""
        cs = [constant_int(v) for v in (lb, ub, step)]
        if (n := static_trip_count(lb, ub, step)) is not None:
            return self.const(n, index)
        span = ub if cs[0] == 0 else self.subi(ub, lb)
        if cs[2] != 1:
            span = self.divsi(self.addi(span, self.subi(step, self.const(1, index))), step)
        return self.value(arith.MaxSIOp(span, self.const(0, index)))

    # ---- memory -------------------------------------------------------------------------------

    def load(self, m: SSAValue, idx: Sequence[SSAValue]) -> SSAValue:
        return self.value(memref.LoadOp.get(m, idx))

    def store(self, v: SSAValue, m: SSAValue, idx: Sequence[SSAValue]) -> None:
        self.emit(memref.StoreOp.get(v, m, idx))

    def add_into(self, m: SSAValue, idx: Sequence[SSAValue], d: SSAValue) -> None:
        """m[idx] += d."""
        self.store(self.add(self.load(m, idx), d), m, idx)

    def alloc(self, t: MemRefType, sizes: Sequence[SSAValue] = ()) -> SSAValue:
        return self.value(memref.AllocOp(list(sizes), [], t))

    def dealloc(self, m: SSAValue) -> None:
        self.emit(memref.DeallocOp.get(m))

    def fill(self, m: SSAValue, v: SSAValue) -> None:
        """Every element of memref `m` set to `v` (a loop nest, one `scf.for` per dimension)."""
        t = m.type
        assert isinstance(t, MemRefType)
        ivs: list[SSAValue] = []
        e: StructuredEmitter = self
        for d, n in enumerate(t.get_shape()):
            ub = e.const(n, index) if n >= 0 else e.value(memref.DimOp(m, e.const(d, index)))
            body = Block(arg_types=[index])
            body.add_op(scf.YieldOp())
            e.emit(scf.ForOp(e.const(0, index), ub, e.const(1, index), [], body))
            ivs.append(body.args[0])
            e = StructuredEmitter(InsertPoint.before(body.last_op), self.pool)  # type: ignore[arg-type]
        e.store(v, m, ivs)


_MATH_OPS: dict[str, type[Operation]] = {
    "exp": math.ExpOp, "log": math.LogOp, "sqrt": math.SqrtOp, "sin": math.SinOp, "cos": math.CosOp,
    "sinh": math.SinhOp, "cosh": math.CoshOp, "pow": math.PowFOp, "trunc": math.TruncOp,
    "copysign": math.CopySignOp,
}  # fmt: skip
"""The math ops standing for the libm functions the shared partial derivatives (rules/libm.py) call."""


def static_trip_count(lb: SSAValue, ub: SSAValue, step: SSAValue) -> int | None:
    """The iterations of `scf.for lb to ub step step` when its bounds are constants."""
    cs = [constant_int(v) for v in (lb, ub, step)]
    if cs[0] is None or cs[1] is None or cs[2] is None or cs[2] <= 0:
        return None
    return max(0, -(-(cs[1] - cs[0]) // cs[2]))


def constant_int(v: SSAValue) -> int | None:
    """The value of an integer or index `arith.constant`, else None."""
    if isinstance(v.owner, arith.ConstantOp) and isinstance(v.owner.value, IntegerAttr):
        return v.owner.value.value.data
    return None


def is_float(v: SSAValue) -> bool:
    return isinstance(v.type, AnyFloat)


class StructuredReverseContext(Protocol):
    """The reverse sweep of a structured function, at an op's place in it."""

    e: StructuredEmitter

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        """Stop: the structured level does not take `op` here (the module is then lowered to
        llvm and differentiated there)."""
        ...

    def reject(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        """Stop with an error in the program or the request itself (no level would take it)."""
        ...

    def active(self, v: SSAValue) -> bool:
        """Whether `v` is a float that carries a derivative."""
        ...

    def shadowed(self, m: SSAValue) -> bool:
        """Whether memref `m` has a shadow."""
        ...

    def needs_shadow(self, m: SSAValue) -> bool:
        """Whether memref `m`, allocated in the function, needs a shadow (activity analysis)."""
        ...

    def get(self, v: SSAValue) -> SSAValue:
        """Primal `v`, usable here (as computed in the forward sweep, recomputed, or cached)."""
        ...

    def shadow(self, m: SSAValue) -> SSAValue:
        """The shadow of memref `m`."""
        ...

    def adjoint(self, v: SSAValue) -> SSAValue | None:
        """Take the adjoint accumulated for `v` (None if nothing was)."""
        ...

    def current_adjoint(self, v: SSAValue) -> SSAValue:
        """The adjoint of `v` so far, left in place (a zero when nothing was accumulated)."""
        ...

    def set_adjoint(self, v: SSAValue, a: SSAValue) -> None:
        """Make `a` the adjoint of `v` (a region's argument or result carrying it)."""
        ...

    def accumulate(self, v: SSAValue, d: SSAValue) -> None:
        """Add `d` to the adjoint of `v` (ignored when `v` is inactive)."""
        ...

    def free_adjoints(self, op: Operation) -> list[SSAValue]:
        """The active values defined outside `op` and used inside its regions: their adjoints
        are what the reverse of `op` carries in and out."""
        ...

    def region(self, primal: Block | None, block: Block | None,
               loop: tuple[SSAValue, SSAValue, SSAValue] | None = None,
               iteration: SSAValue | None = None) -> AbstractContextManager[None]:
        """Reverse into `block` the ops of `primal` (the body of an scf.for when `loop` gives
        its (lb, step, trip count - 1) and `block`'s first argument counts up; a block of a
        while loop when `iteration` gives the primal iteration it is; or a branch).  `block`
        None: in place, where the sweep is."""
        ...

    def while_trips(self, op: Operation) -> SSAValue:
        """The times the forward run of while loop `op` ran its body (its `after` region)."""
        ...

    def reverse_ops(self, primal: Block) -> None:
        """Reverse the ops of `primal`, last first (its terminator aside)."""
        ...

    def derivative(self, op: Operation, callee: str, activity: Sequence[str], ret: str) -> str:
        """The name of the derivative function of `callee` (its arguments, a shadow after each
        `dup` one, the return's adjoint when `ret` is active; its results the adjoints of the
        `active` arguments)."""
        ...


class StructuredForwardContext(Protocol):
    """Forward mode of a structured function, where the op is (its copy just emitted, but for
    region ops, whose tangent rule emits the op itself with its tangents carried)."""

    e: StructuredEmitter
    width: int

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn: ...

    def reject(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn: ...

    def active(self, v: SSAValue) -> bool: ...

    def shadowed(self, m: SSAValue) -> bool: ...

    def needs_shadow(self, m: SSAValue) -> bool: ...

    def get(self, v: SSAValue) -> SSAValue:
        """The value standing for primal `v` in the derivative function."""
        ...

    def map(self, v: SSAValue, new: SSAValue) -> None:
        """Make `new` stand for primal `v` (a region op's arguments and results)."""
        ...

    def tangent(self, v: SSAValue) -> list[SSAValue]:
        """The `width` tangents of `v` (zeros when inactive; the shadows of a memref)."""
        ...

    def set_tangent(self, v: SSAValue, tangents: Sequence[SSAValue]) -> None: ...

    def region(self, primal: Block, block: Block) -> AbstractContextManager[None]:
        """Build into `block` (the copy of the region op's `primal` block)."""
        ...

    def forward_ops(self, primal: Block) -> None:
        """Copy the ops of `primal` with their tangents (its terminator aside)."""
        ...

    def drop_copy(self, op: Operation) -> None:
        """Erase the copy of `op` emitted before its tangent rule ran (which mapped its results
        to values of its own)."""
        ...

    def derivative(self, op: Operation, callee: str, activity: Sequence[str], ret: str) -> str:
        """The name of the tangent function of `callee`: its arguments, `width` tangents after
        each `dup` one; its results the callee's, then `width` tangents of each float result."""
        ...


def reverse_zero(ctx: StructuredReverseContext, v: SSAValue) -> SSAValue:
    """The adjoint of `v` taken, a zero when there is none."""
    a = ctx.adjoint(v)
    return a if a is not None else ctx.e.zero(v.type)


def walk_values(op: Operation) -> Iterator[SSAValue]:
    for o in op.walk():
        yield from o.operands


__all__ = ["ConstantPool", "StructuredEmitter", "StructuredForwardContext", "StructuredReverseContext", "constant_int", "i1", "index", "is_float", "reverse_zero"]
