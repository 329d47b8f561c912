"""libstdc++'s out-of-line functions that link the nodes of `std::map`, `std::set` (red-black
trees) and `std::list`: they live in the shared library, so their bodies are not in the module.

They only move pointers between nodes: they read and write no floating-point data.  Every node of
a container with derivatives has a shadow node (allocated beside it by `operator new`'s rule), and
the shadow of the container's header lives in the container's shadow, so calling the same function
on the shadows links the shadow nodes exactly as the primal nodes are linked: the algorithms
(rebalancing included, whose colours they store in the nodes they are given) depend only on the
links and colours, which the two structures share.  So:

* forward sweep and forward mode: the call is copied, then called again on the shadows of its
  pointer arguments (once per direction); a pointer it returns has as shadow what the shadow call
  returned;
* reverse sweep: nothing (no derivative flows through a link).

A call of one of them is recognised by its mangled name (`rule_of`), which `llvm_calls` consults
before its own cases.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Operation, SSAValue

from xenzyme.analysis.alias import LINKING_FUNCTIONS, callee_name
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.context import AugmentContext, ForwardContext, OpRule



def _is_pointer(v: SSAValue) -> bool:
    return isinstance(v.type, ext.LLVMPointerType)


def _all_or_none(ctx: AugmentContext | ForwardContext, op: Operation, shadowed: list[bool]) -> bool:
    """Whether the pointers have shadows (all of them); an error if only some have: linking a
    shadow node into the primal structure would corrupt both."""
    if all(shadowed):
        return True
    if any(shadowed):
        ctx.fail(op, f"@{callee_name(op)} links nodes of a container with derivatives, but where some of the nodes "
                     "it is given come from cannot be followed (a pointer returned in a struct by a function too "
                     "large to inline, or loaded from memory without a shadow)",
                 ["build the container inside the function differentiated, or pass its elements through an array"])  # fmt: skip
    return False


def _augment(ctx: AugmentContext, op: Operation) -> None:
    ctx.copy(op)
    args = list(op.args)  # type: ignore[attr-defined]
    if not _all_or_none(ctx, op, [ctx.shadowed(a) for a in args if _is_pointer(a)]):
        return
    shadows = {a: ctx.fwd_shadow(a) if _is_pointer(a) else ctx.fwd(a) for a in args}
    shadow_call = ctx.e.insert(op.clone_without_regions(shadows))
    if op.results and ctx.shadowed(op.results[0]):
        ctx.set_shadow(op.results[0], shadow_call)


def _tangent(ctx: ForwardContext, op: Operation) -> None:
    args = list(op.args)  # type: ignore[attr-defined]
    if not _all_or_none(ctx, op, [a in ctx.info.shadowed for a in args if _is_pointer(a)]):
        return
    results = []
    for j in range(ctx.width):
        shadows = {a: ctx.shadows(a)[j] if _is_pointer(a) else ctx.get(a) for a in args}
        results.append(ctx.e.insert(op.clone_without_regions(shadows)))
    if op.results and op.results[0] in ctx.info.shadowed:
        ctx.set_shadows(op.results[0], results)


_RULE = OpRule(reverse=lambda ctx, op: None, augment=_augment, tangent=_tangent, emits_primal=True)


def rule_of(op: Operation) -> OpRule | None:
    if isinstance(op, xllvm.CallOp) and callee_name(op) in LINKING_FUNCTIONS:
        return _RULE
    return None
