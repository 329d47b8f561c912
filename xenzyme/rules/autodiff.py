"""Rules for `autodiff` ops met inside code being differentiated: derivative requests nested in
a differentiated function are not supported yet, and say so."""

from __future__ import annotations

from xdsl.ir import Operation

from xenzyme.dialects import autodiff as ad
from xenzyme.rules.context import AugmentContext, ForwardContext, OpRule


def _nested_in_reverse(ctx: AugmentContext, op: Operation) -> None:
    ctx.fail(op, "nested derivative requests are not supported in reverse mode yet")


def _reverse_request_in_forward(ctx: ForwardContext, op: Operation) -> None:
    ctx.fail(op, "a reverse-mode request is left in the function; run reverse-diff before forward-diff")


def _forward_request_in_forward(ctx: ForwardContext, op: Operation) -> None:
    ctx.fail(op, "a nested forward-mode request is left in the function")


RULES: dict[type[Operation], OpRule] = {
    ad.AutodiffOp: OpRule(augment=_nested_in_reverse, tangent=_reverse_request_in_forward, emits_primal=True),
    ad.FwdDiffOp: OpRule(tangent=_forward_request_in_forward),
}


def rule_for(op: Operation) -> OpRule | None:
    return RULES.get(type(op))
