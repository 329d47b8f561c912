"""`convert-scf-while-to-cf`: `scf.while` -> blocks and branches (xDSL's convert-scf-to-cf
lowers `scf.for` and `scf.if` but not `scf.while`).

    %r = scf.while (%v = %x) : (f64) -> f64 {          llvm-like blocks:
      %c = ... ; scf.condition(%c) %v : f64               cf.br ^before(%x)
    } do {                                              ^before(%v): ...; cf.cond_br %c, ^after(%v), ^done(%v)
    ^bb0(%w: f64): ... ; scf.yield %u : f64             ^after(%w): ...; cf.br ^before(%u)
    }                                                   ^done(%r): the ops after the loop

The loop's exit is data dependent, so LLVM-level differentiation sees an ordinary loop whose
trip count is only known at run time (its caches grow as it runs).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import BlockInsertPoint, InsertPoint, Rewriter


def lower_while(op: scf.WhileOp) -> None:
    block = op.parent_block()
    assert block is not None
    nxt = op.next_op
    assert nxt is not None  # a while is never a block's terminator
    done = block.split_before(nxt, arg_types=[r.type for r in op.results])
    for old, new in zip(op.results, done.args, strict=True):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
    before = op.before_region.blocks[0]
    after = op.after_region.blocks[0]
    Rewriter.inline_region(op.after_region, BlockInsertPoint.after(block))
    Rewriter.inline_region(op.before_region, BlockInsertPoint.after(block))
    cond = before.last_op
    assert isinstance(cond, scf.ConditionOp)
    Rewriter.replace_op(cond, cf.ConditionalBranchOp(cond.condition, after, list(cond.args), done,
                                                     list(cond.args)))  # fmt: skip
    yld = after.last_op
    assert isinstance(yld, scf.YieldOp)
    Rewriter.replace_op(yld, cf.BranchOp(before, *yld.arguments))
    Rewriter.insert_op(cf.BranchOp(before, *op.arguments), InsertPoint.before(op))
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class ConvertScfWhileToCfPass(ModulePass):
    """scf.while -> cf blocks."""

    name = "convert-scf-while-to-cf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in list(op.walk()):
            if isinstance(o, scf.WhileOp):
                lower_while(o)
