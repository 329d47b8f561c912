"""`convert-scf-parallel-to-for`: an `scf.parallel` -> a nest of `scf.for` loops, one per
dimension, its reductions carried as iteration arguments.

    %r = scf.parallel (%i, %j) = (%l0, %l1) to (%u0, %u1) step (%s0, %s1) init (%z) -> f64 {
      %v = ...
      scf.reduce(%v : f64) { ^bb0(%a: f64, %b: f64): %t = arith.addf %a, %b; scf.reduce.return %t }
    }
      ==>
    %r = scf.for %i = %l0 to %u0 step %s0 iter_args(%acc0 = %z) -> (f64) {
      %r1 = scf.for %j = %l1 to %u1 step %s1 iter_args(%acc = %acc0) -> (f64) {
        %v = ...
        %t = arith.addf %acc, %v              // the reduction's combiner, inlined
        scf.yield %t : f64
      }
      scf.yield %r1 : f64
    }

The iterations of an `scf.parallel` are independent, so running them in order computes what
running them at once does (up to the order in which the combiner adds floats): both levels then
differentiate the loop as sequential loops.  Running it on threads is not done here.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter


def inline_combiners(block: Block, accs: list[SSAValue], reduce: scf.ReduceOp,
                     mapping: dict[SSAValue, SSAValue]) -> list[SSAValue]:
    """Append to `block` each reduction's combiner of `reduce`, applied to its accumulator in
    `accs` and the iteration's value (through `mapping`, the body's values as cloned); the
    combined values, in order."""
    combined: list[SSAValue] = []
    for acc, v, region in zip(accs, reduce.operands, reduce.regions, strict=True):
        rb = region.blocks[0]
        local = dict(mapping)
        local[rb.args[0]], local[rb.args[1]] = acc, local.get(v, v)
        for o in rb.ops:
            if isinstance(o, scf.ReduceReturnOp):
                combined.append(local.get(o.operands[0], o.operands[0]))
                break
            block.add_op(o.clone(value_mapper=local))
    return combined


def _serialize(op: scf.ParallelOp) -> None:
    body = op.body.block
    reduce = body.last_op
    assert isinstance(reduce, scf.ReduceOp)
    types = [v.type for v in op.initVals]
    blocks = [Block(arg_types=[IndexType(), *types]) for _ in op.lowerBound]
    loops: list[scf.ForOp] = []
    accs: list[SSAValue] = list(op.initVals)
    for k, (lb, ub, st, b) in enumerate(zip(op.lowerBound, op.upperBound, op.step, blocks, strict=True)):
        loops.append(scf.ForOp(lb, ub, st, accs, Region(b)))
        accs = list(b.args[1:])
        if k:
            blocks[k - 1].add_op(loops[k])
            blocks[k - 1].add_op(scf.YieldOp(*loops[k].results))
    inner = blocks[-1]
    for iv, b in zip(body.args, blocks, strict=True):
        b.args[0].name_hint = iv.name_hint
        iv.replace_all_uses_with(b.args[0])
    for o in list(body.ops)[:-1]:
        o.detach()
        inner.add_op(o)
    inner.add_op(scf.YieldOp(*inline_combiners(inner, accs, reduce, {})))
    outer = loops[0]
    Rewriter.insert_op(outer, InsertPoint.before(op))
    for r, n in zip(op.results, outer.results, strict=True):
        r.replace_all_uses_with(n)
    Rewriter.erase_op(op)


def serialize_parallel_loops(module: Operation) -> None:
    """Every `scf.parallel` (innermost first) as `scf.for` loops."""
    for o in reversed(list(module.walk())):
        if isinstance(o, scf.ParallelOp):
            _serialize(o)


@dataclass(frozen=True)
class ConvertScfParallelToForPass(ModulePass):
    """scf.parallel -> nested scf.for, reductions carried."""

    name = "convert-scf-parallel-to-for"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        serialize_parallel_loops(op)
