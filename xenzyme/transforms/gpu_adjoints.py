"""Adjoint updates in GPU code are atomic.

Reverse mode adds derivatives into shadow memory (`autodiff.accumulate`).  In a kernel many
threads may add into the same shadow element -- whenever they read the same input, as in a
stencil -- so in GPU code every such update that does not go to a thread's own stack memory
(an `alloca`: the adjoint slots of SSA values, the shadows of local variables) becomes
`atomic`.  That is correct wherever the adjoint lands, on a GPU and on the CPU path once
blocks run in parallel.  It is also the slowest choice: updates to addresses each thread owns
could stay plain, and updates to an address uniform across a block could be combined within
the block first -- refinements for the reverse rules of the gpu layer to make.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, StringAttr

from xenzyme.analysis.divergence import underlying_alloca
from xenzyme.dialects import autodiff as ad


def make_adjoint_updates_atomic(module: ModuleOp) -> int:
    """Turn plain accumulations into memory other than the stack into atomic ones; how many."""
    count = 0
    for op in module.walk():
        if isinstance(op, ad.AccumulateOp) and op.mode.data == "plain" and underlying_alloca(op.ptr) is None:
            op.properties["mode"] = StringAttr("atomic")
            count += 1
    return count
