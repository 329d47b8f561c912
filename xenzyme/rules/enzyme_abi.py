"""Calls of Enzyme's C interface met in code being differentiated (other than the requests).

`__enzyme_iter(a, b)` counts derivatives: in each derivative function made from code holding it
the call is `__enzyme_iter(a + b, b)`, so a function that calls `__enzyme_autodiff` on itself
through several levels (second, third derivatives) sees `a`, `a + b`, `a + 2b`, ... -- a series
truncated later in each derivative, say.  Where no derivative was taken the call is `a`
(`transforms.raise_enzyme_calls.lower_enzyme_iter`).  Its result is an integer: no derivative.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from xenzyme.analysis.alias import callee_name
from xenzyme.rules.context import AugmentContext, ForwardContext, OpRule, ReverseContext

ITERATION_COUNTER = "__enzyme_iter"


def _advance(copy: Operation) -> None:
    """`__enzyme_iter(a, b)` (a copy just emitted) -> `__enzyme_iter(a + b, b)`."""
    a, b = copy.operands[0], copy.operands[1]
    add = xllvm.AddOp(a, b)  # type: ignore[arg-type]
    Rewriter.insert_op(add, InsertPoint.before(copy))
    copy.operands = (add.results[0], b, *copy.operands[2:])


def _augment(ctx: AugmentContext, op: Operation) -> None:
    _advance(ctx.copy(op))


def _reverse(ctx: ReverseContext, op: Operation) -> None:
    return


def _tangent(ctx: ForwardContext, op: Operation) -> None:
    copy = ctx.get(op.results[0]).owner
    assert isinstance(copy, Operation)
    _advance(copy)


_RULE = OpRule(reverse=_reverse, augment=_augment, tangent=_tangent, emits_primal=True)


def rule_of(op: Operation) -> OpRule | None:
    """The rule of a call of `__enzyme_iter` (two integer arguments), or None."""
    if isinstance(op, xllvm.CallOp) and callee_name(op) == ITERATION_COUNTER and len(op.args) == 2 and op.results:
        return _RULE
    return None
