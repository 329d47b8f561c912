"""Which floats of a structured function (func/arith/math/scf/memref) carry a derivative.

A float is *varied* when it depends on an `active` argument or on a load from a memref that
has a shadow; it is active when varied (values that do not reach a result get an adjoint
of zero, which costs a little and changes nothing).  Loop-carried values are resolved by
iterating to a fixed point.  This is the structured level's own, minimal analysis: the llvm
level's (activity.py) works on pointers and memory through the CFG, which a function of
memrefs and region ops does not have.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import scf
from xdsl.dialects.builtin import AnyFloat
from xdsl.ir import Operation, SSAValue


def varied_values(fn: Operation, seeds: Iterable[SSAValue], shadowed: set[SSAValue]) -> set[SSAValue]:
    """The floats of `fn` that vary with `seeds` or with the memory of the `shadowed` memrefs."""
    varied = {v for v in seeds if isinstance(v.type, AnyFloat)}

    def mark(v: SSAValue) -> bool:
        if v in varied or not isinstance(v.type, AnyFloat):
            return False
        varied.add(v)
        return True

    changed = True
    while changed:
        changed = False
        for op in fn.walk():
            if op is fn:
                continue
            if any(v in varied or v in shadowed for v in op.operands):
                for r in op.results:
                    changed |= mark(r)
            if isinstance(op, scf.ForOp):
                yielded = op.body.block.last_op
                assert yielded is not None
                for i, (init, arg, r) in enumerate(zip(op.iter_args, op.body.block.args[1:], op.results, strict=True)):
                    if init in varied or yielded.operands[i] in varied:
                        changed |= mark(arg) | mark(r)
            elif isinstance(op, scf.WhileOp):  # init or yield -> `before`; condition -> `after`, results
                cond, yielded = op.before_region.block.last_op, op.after_region.block.last_op
                assert isinstance(cond, scf.ConditionOp) and yielded is not None
                for init, arg, y in zip(op.arguments, op.before_region.block.args, yielded.operands, strict=True):
                    if init in varied or y in varied:
                        changed |= mark(arg)
                for v, arg, r in zip(cond.args, op.after_region.block.args, op.results, strict=True):
                    if v in varied:
                        changed |= mark(arg) | mark(r)
            elif op.regions and op.results:
                for region in op.regions:
                    for block in region.blocks:
                        term = block.last_op
                        if term is not None and len(term.operands) == len(op.results):
                            for v, r in zip(term.operands, op.results, strict=True):
                                if v in varied:
                                    changed |= mark(r)
    return varied
