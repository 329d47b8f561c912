"""Rules for the gpu layer (`xenzyme/dialects/gpu.py`): kernels' thread ids and barriers.

A gradient of device code runs on every thread of the grid, each thread reversing its own
work, so its rules are those of one thread plus what keeps the threads in step:

* thread and block ids and sizes are the same in both sweeps (the thread that reverses the
  work is the one that did it): the reverse sweep recomputes them rather than caching them;
* `gpu.barrier` is mirrored by a barrier: what the block's threads did after it in the forward
  sweep is reversed before it.  Every thread reverses the same barriers in the opposite order
  (the primal's control flow around barriers is the same for the whole block, and the reverse
  sweep retraces it), so the reverse's barriers are uniform too.  The barrier orders the
  adjoint updates of shared memory: the adjoints that readers add into the shadow of an
  element after the barrier are all in before the writer, before the barrier, takes them.
  Forward mode runs the barriers where the primal has them (the engine's copy).
* `gpu.combined_add` and `gpu.owned_add` (`*p += v`, made by derivatives) pass the adjoint of
  the memory to the value; in forward mode the tangent is added the same way.

Shared memory's shadows are shared arrays zeroed when each block starts
(`gpu.shared_shadow`); how adjoints are added into memory in GPU code -- plainly, combined per
block, or atomically -- is the engine's choice (`GradientBuilder.accumulate_memory`).
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Operation

from xenzyme.dialects import gpu
from xenzyme.rules.context import ForwardContext, OpRule, ReverseContext


def _reverse_barrier(ctx: ReverseContext, op: Operation) -> None:
    ctx.e.insert(gpu.BarrierOp())


def _reverse_add(ctx: ReverseContext, op: Operation) -> None:
    """`*p += v`: v's adjoint is the memory's, which keeps it."""
    assert isinstance(op, gpu.ADD_OPS)
    if not ctx.active(op.value) or not ctx.shadowed(op.ptr):
        return
    ctx.accumulate(op.value, ctx.e.insert(xllvm.LoadOp(ctx.shadow(op.ptr), op.value.type)))


def _tangent_add(ctx: ForwardContext, op: Operation) -> None:
    assert isinstance(op, gpu.ADD_OPS)
    info = ctx.info
    if op.ptr not in info.shadowed or op.value not in info.varied:
        return
    for s, t in zip(ctx.shadows(op.ptr), ctx.tangent(op.value), strict=True):
        ctx.e.insert(type(op)(s, t))


RULES: dict[type[Operation], OpRule] = {
    **{op: OpRule(recomputable=True) for op in gpu.ID_OPS},
    gpu.BarrierOp: OpRule(reverse=_reverse_barrier),
    **{op: OpRule(reverse=_reverse_add, tangent=_tangent_add) for op in gpu.ADD_OPS},
}


def rule_for(op: Operation) -> OpRule | None:
    return RULES.get(type(op))
