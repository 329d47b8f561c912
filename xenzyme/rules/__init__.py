"""Derivative rules, as data, one file per dialect or family of ops.

    llvm.py          LLVM instructions that compute values (arithmetic, casts, aggregates,
                     vectors, math intrinsics) and `rule_for` of the llvm dialect
    llvm_memory.py   loads, stores, bulk copies, stack slots, globals, atomics
    llvm_calls.py    calls: math functions, allocators, inactive functions, calls the engine
                     differentiates, errors for the rest
    libm.py          math functions, one entry each, whatever form they arrive in
    par.py           the parallel layer: regions, reductions, barriers, critical sections
    autodiff.py      derivative requests met inside differentiated code
    mpi.py           MPI calls (the `ompi` dialect): messages, collectives, requests
    gpu.py           the gpu layer: thread ids, barriers, block-wide atomic additions
    registry.py      rules users register from Python (`xenzyme.derivative`)
    copy_helpers.py  the helper functions that move derivatives through memcpy/memmove
    arith.py, math.py, memref.py, scf.py, func.py
                     the structured dialects, differentiated where they are (structured.py:
                     their emitter and context; the sweep is transforms/diff/structured.py)

An op's rule (`OpRule`, context.py) says what it does in the forward sweep of reverse mode, in
the reverse sweep and in forward mode; `rule_for(op)` finds it by the op's dialect and type.
Rules talk to the engine only through the contexts of context.py, and build arithmetic through
an `Emitter` (emitter.py); partial derivatives shared by both modes are `Partial`s
(partial.py).  Adding the derivative of an op is adding its entry here.

What this package may import: `xenzyme.dialects`, `xenzyme.analysis`, `xenzyme.diagnostics`,
xDSL.  Never `xenzyme.transforms` (the engine, which imports the rules) nor the frontends and
backends.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xdsl.ir import Operation

from xenzyme.rules.context import (
    AugmentContext,
    AugmentRule,
    ForwardContext,
    ForwardRule,
    OpRule,
    ReverseContext,
    ReverseRule,
)
from xenzyme.rules.emitter import (
    INTRINSIC_MATH,
    PURE_CALL_ATTRS,
    Emitter,
    LLVMEmitter,
    element_type,
    ensure_declaration,
    libm_name,
    scalar_constant,
    zero_constant,
)
from xenzyme.rules.partial import LN2, LN10, ONE, TWO_OVER_SQRT_PI, Partial, linear_tangent, over, times

_DIALECT_RULES = {
    "llvm": "xenzyme.rules.llvm",
    "autodiff": "xenzyme.rules.autodiff",
    "par": "xenzyme.rules.par",
    "omp": "xenzyme.rules.par",
    "ompi": "xenzyme.rules.mpi",
    "gpu": "xenzyme.rules.gpu",
    "arith": "xenzyme.rules.arith",
    "math": "xenzyme.rules.math",
    "memref": "xenzyme.rules.memref",
    "scf": "xenzyme.rules.scf",
    "func": "xenzyme.rules.func",
}
"""Where the rules of each dialect are: a module with `rule_for(op) -> OpRule | None`."""

_finders: dict[str, Callable[[Operation], OpRule | None] | None] = {}


RULELESS_OPS_INACTIVE = ("llvm", "builtin")
"""Dialects whose ops without a rule compute nothing a derivative flows through (integer
arithmetic, comparisons, addresses): elsewhere an op without a rule that takes or makes values
carrying derivatives is an error, not a derivative silently dropped."""


def needs_rule(op: Operation) -> bool:
    """Whether `op`, having no rule, may hide a derivative (see `RULELESS_OPS_INACTIVE`)."""
    return op.name.split(".", 1)[0] not in RULELESS_OPS_INACTIVE


def rule_for(op: Operation) -> OpRule | None:
    """The rule of `op`, or None when its dialect has none for it."""
    dialect = op.name.split(".", 1)[0]
    find = _finders.get(dialect, False)
    if find is False:
        module = _DIALECT_RULES.get(dialect)
        find = _finders[dialect] = importlib.import_module(module).rule_for if module else None
    return find(op) if find is not None else None


__all__ = [
    "INTRINSIC_MATH",
    "LN2",
    "LN10",
    "ONE",
    "PURE_CALL_ATTRS",
    "TWO_OVER_SQRT_PI",
    "AugmentContext",
    "AugmentRule",
    "Emitter",
    "ForwardContext",
    "ForwardRule",
    "LLVMEmitter",
    "OpRule",
    "Partial",
    "ReverseContext",
    "ReverseRule",
    "element_type",
    "ensure_declaration",
    "libm_name",
    "linear_tangent",
    "needs_rule",
    "over",
    "rule_for",
    "scalar_constant",
    "times",
    "zero_constant",
]
