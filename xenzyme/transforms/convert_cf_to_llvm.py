"""`convert-cf-to-llvm`: `cf.br`, `cf.cond_br`, `cf.switch` -> `llvm.br`, `llvm.cond_br`,
`llvm.switch`; block arguments get their llvm types (`index` -> i64, a memref its descriptor).

    ^bb1(%i: index):  cf.cond_br %c, ^bb2, ^bb3(%i : index)
    // becomes
    ^bb1(%i: i64):    llvm.cond_br %c, ^bb2, ^bb3(%i : i64)

`cf.assert` becomes a branch to a block that calls `abort` (the message is dropped).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xdsl.rewriter import BlockInsertPoint, InsertPoint, Rewriter

from xenzyme.backend.memrefs import llvm_type
from xenzyme.transforms.llvm_lowering import as_llvm, back_to, declare, replace, unsupported, erase_dead_casts


def _retype_arguments(block: Block) -> None:
    """Give the arguments of a non-entry block their llvm types; casts back for the users the
    other lowerings have not reached yet."""
    for arg in list(block.args):
        if isinstance(arg.type, MemRefType):
            where = block.parent_op() or block.first_op
            raise unsupported(where, f"has a block argument of type {arg.type} (a memref carried by a loop or "  # type: ignore[arg-type]
                              "passed between blocks), which is not supported yet",
                              ["load the values the loop needs from memrefs defined outside it"])  # fmt: skip
        t = llvm_type(arg.type)
        if t == arg.type:
            continue
        old_type = arg.type
        new = block.insert_arg(t, arg.index)
        new.name_hint = arg.name_hint
        arg.replace_all_uses_with(back_to(new, old_type, InsertPoint.at_start(block)))
        block.erase_arg(arg)


@dataclass(frozen=True)
class ConvertCfToLLVMPass(ModulePass):
    """cf ops -> llvm branches."""

    name = "convert-cf-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in list(op.walk()):
            if isinstance(o, cf.BranchOp):
                replace(o, [xllvm.BrOp(o.successor, *[as_llvm(v, o) for v in o.arguments])], [])
            elif isinstance(o, cf.ConditionalBranchOp):
                new = xllvm.CondBrOp(as_llvm(o.cond, o), o.then_block, [as_llvm(v, o) for v in o.then_arguments],
                                     o.else_block, [as_llvm(v, o) for v in o.else_arguments])  # fmt: skip
                replace(o, [new], [])
            elif isinstance(o, cf.AssertOp):
                _lower_assert(o, op)
            elif o.dialect_name() == "cf":
                raise unsupported(o, "has no lowering to the llvm dialect yet", ["use cf.br and cf.cond_br"])
        for region_op in op.walk():
            for region in region_op.regions:
                if region_op is op:
                    continue
                for block in list(region.blocks)[1:]:
                    _retype_arguments(block)
        erase_dead_casts(op)


def _lower_assert(o: cf.AssertOp, module: ModuleOp) -> None:
    """`cf.assert %ok, "msg"`: continue when %ok, else call abort()."""
    block = o.parent_block()
    assert block is not None and block.parent is not None
    rest = Block()
    fail = Block()
    Rewriter.insert_block(rest, BlockInsertPoint.after(block))
    Rewriter.insert_block(fail, BlockInsertPoint.after(rest))
    for later in _after(o):
        later.detach()
        rest.add_op(later)
    declare(module, "abort", xllvm.LLVMFunctionType([], xllvm.LLVMVoidType()))
    fail.add_ops([xllvm.CallOp("abort"), xllvm.UnreachableOp()])
    block.add_op(xllvm.CondBrOp(as_llvm(o.arg, o), rest, [], fail, []))
    Rewriter.erase_op(o)


def _after(o) -> list:
    """The ops after `o` in its block."""
    out = []
    n = o.next_op
    while n is not None:
        out.append(n)
        n = n.next_op
    return out

