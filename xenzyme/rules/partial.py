"""Partial derivatives as linear maps, shared by reverse and forward mode.

A math function's rule gives one `Partial` per argument; reverse mode applies it to the result's
adjoint (`adjoint * partial`), forward mode to each argument's tangent and sums the terms
(`linear_tangent`).  One description serves both modes, and both emit the same instructions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

if TYPE_CHECKING:
    from xenzyme.rules.emitter import Emitter


@dataclass(frozen=True)
class Partial:
    """A partial derivative as the linear map it applies to a seed `t` (an adjoint or a tangent):

        t * factor / divisor, negated if `negate`, zero unless `where`, zero where `unless`.

    Keeping the division (rather than a factor 1/divisor) and the selects lets reverse mode emit
    exactly `d / (2*y)` for sqrt or `select(c, d, 0)` for fmax, one instruction per contribution
    and no multiplication of a zero with an infinite adjoint.  The empty `Partial()` is 1.

    A partial with a divisor maps a zero seed to zero even where the divisor is zero: `sqrt(acc)`
    of a state that starts at the constant 0 has a zero tangent there, not 0/0 = NaN (the rule
    fdiv follows too).  A nonzero seed there still gives the infinity the derivative is.
    """

    factor: SSAValue | None = None
    divisor: SSAValue | None = None
    negate: bool = False
    where: SSAValue | None = None
    unless: SSAValue | None = None
    zero_seed_gives_zero: bool = False
    """Set where the divisor was folded into the factor (`folded`), which then may be infinite."""

    def apply(self, e: Emitter, t: SSAValue, negate: bool | None = None) -> SSAValue:
        """The map applied to `t` (`negate` overrides the sign, for a caller that subtracts)."""
        v = t
        if self.factor is not None:
            v = e.mul(v, self.factor)
        if self.divisor is not None:
            v = e.div(v, self.divisor)
        if self.divisor is not None or self.zero_seed_gives_zero:
            v = e.select(e.fcmp("une", t, e.zero(t.type)), v, e.zero(v.type))
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
        return Partial(e.div(num, self.divisor), None, self.negate, self.where, self.unless, True)


ONE = Partial()
"""The partial derivative 1: the seed passes unchanged."""


def times(v: SSAValue) -> Partial:
    return Partial(factor=v)


def over(v: SSAValue) -> Partial:
    return Partial(divisor=v)


def as_partial(p: Partial | SSAValue) -> Partial:
    """A partial given as a plain value is the factor it multiplies the seed by."""
    return p if isinstance(p, Partial) else times(p)


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


Getter = Callable[[], SSAValue]
"""Gives a primal value where the rule runs; called only for what a partial needs."""
PartialThunk = Callable[[], "Partial | SSAValue"]
Partials = Sequence[PartialThunk | None]
MathPartials = Callable[["Emitter", list[Getter], Getter], Partials]
"""A math function's derivative: `partials(e, x, y)` -> one thunk per argument (None where the
function does not depend on it), `x` getters of the arguments, `y` of the result."""

LN2 = math.log(2.0)
LN10 = math.log(10.0)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
