"""Derivatives of the `func` dialect at the structured level.

A `func.call` of a function of the module calls that function's derivative in the reverse
sweep (built the same way, recursively):

    %y = func.call @g(%x, %a) : (f64, memref<3xf64>) -> f64
      ==>  (reverse)
    %dx = func.call @diffe_g(%x, %a, %da, <adjoint of %y>) : (f64, memref<3xf64>, memref<3xf64>, f64) -> f64

`func.return` is the sweep's: where the reverse starts, from the return's seed.  In forward
mode a call whose arguments carry tangents calls the callee's tangent function instead, which
returns the callee's results and their tangents.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import AnyFloat, MemRefType
from xdsl.ir import Operation

from xenzyme.rules.context import OpRule
from xenzyme.rules.structured import StructuredForwardContext as Fwd
from xenzyme.rules.structured import StructuredReverseContext as Ctx
from xenzyme.rules.structured import reverse_zero


def _call(ctx: Ctx, op: Operation) -> None:
    assert isinstance(op, func.CallOp)
    if len(op.results) > 1:
        ctx.fail(op, "calls a function returning more than one value, which the structured reverse mode does not "
                 "support yet")  # fmt: skip
    acts = ["active" if ctx.active(a) else "dup" if isinstance(a.type, MemRefType) and ctx.shadowed(a) else "const"
            for a in op.arguments]  # fmt: skip
    ret_active = bool(op.results) and ctx.active(op.results[0])
    if not ret_active and not any(a == "dup" for a in acts):
        return  # nothing flows back through it
    name = ctx.derivative(op, op.callee.string_value(), acts, "active" if ret_active else "const")
    args = []
    for a, act in zip(op.arguments, acts, strict=True):
        args.append(ctx.get(a))
        if act == "dup":
            args.append(ctx.shadow(a))
    if ret_active:
        args.append(reverse_zero(ctx, op.results[0]))
    outs = [a for a, act in zip(op.arguments, acts, strict=True) if act == "active"]
    call = func.CallOp(name, args, [a.type for a in outs])
    ctx.e.emit(call)
    for a, r in zip(outs, call.results, strict=True):
        ctx.accumulate(a, r)


def _t_call(ctx: Fwd, op: Operation) -> None:
    """A call with tangents calls the callee's tangent function, which also returns its results."""
    assert isinstance(op, func.CallOp)
    acts = ["dup" if ctx.active(a) or (isinstance(a.type, MemRefType) and ctx.shadowed(a)) else "const"
            for a in op.arguments]  # fmt: skip
    floats = [i for i, r in enumerate(op.results) if isinstance(r.type, AnyFloat)]
    if not any(a == "dup" for a in acts):
        return  # the engine's copy of the call stands
    name = ctx.derivative(op, op.callee.string_value(), acts, "dup")
    args = []
    for a, act in zip(op.arguments, acts, strict=True):
        args.append(ctx.get(a))
        if act == "dup":
            args += ctx.tangent(a)
    w = ctx.width
    types = [r.type for r in op.results] + [op.results[i].type for i in floats for _ in range(w)]
    call = func.CallOp(name, args, types)
    ctx.e.emit(call)
    n = len(op.results)
    for r, nr in zip(op.results, call.results[:n], strict=True):
        ctx.map(r, nr)
    for k, i in enumerate(floats):
        ctx.set_tangent(op.results[i], call.results[n + k * w: n + (k + 1) * w])
    ctx.drop_copy(op)  # (the tangent function computed the results: the callee runs once)


def rule_for(op: Operation) -> OpRule | None:
    if isinstance(op, func.CallOp):
        return OpRule(reverse=_call, tangent=_t_call)  # type: ignore[arg-type]
    if isinstance(op, func.ReturnOp):
        return OpRule()
    return None


__all__ = ["rule_for"]
