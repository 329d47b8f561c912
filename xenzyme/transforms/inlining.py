"""Inlining a direct call of an `llvm.func` at the xDSL level.

lower-gpu needs it where LLVM's inliner cannot run yet: the CPU lowering splits a kernel into
phases at its barriers, so a device function that reads thread ids or waits at a barrier must
be part of the kernel's own body first.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Block, Region

from xenzyme.analysis.cfg import constant_int
from xenzyme.dialects import llvm_ext as ext

_CALLEE_ONLY_METADATA = frozenset({"llvm.loop", "alias.scope", "noalias"})


def inline_call(call: xllvm.CallOp, callee: xllvm.FuncOp) -> None:
    """Replace `call` by a copy of `callee`'s body (the call must be direct, not variadic, and
    `callee` defined).  Static allocas of the callee's entry block move to the caller's entry
    block, so that they are not allocated again on each trip of a loop around the call.  The
    copied ops take the call's debug location, and the callee's debug records and loop metadata
    (which hold locations too) are dropped: their scopes are the callee's subprogram, which LLVM's
    verifier rejects inside the caller.  So are the callee's alias scopes: two copies of one
    body would share them, and LLVM would take accesses of one copy for distinct from the
    other's."""
    block = call.parent_block()
    region = block.parent_region() if block is not None else None
    assert block is not None and region is not None and callee.body.blocks
    # The continuation: everything after the call, receiving the result as an argument.
    rest = Block(arg_types=[r.type for r in call.results])
    region.insert_block_after(rest, block)
    after = call.next_op
    while after is not None:
        nxt = after.next_op
        after.detach()
        rest.add_op(after)
        after = nxt
    for old, new in zip(call.results, rest.args, strict=True):
        old.replace_all_uses_with(new)
    body: Region = callee.body.clone()
    for b in body.blocks:
        for arg in b.args:  # (a phi's debug location)
            arg.location = call.location
    for op in list(body.walk()):
        if isinstance(op, ext.DbgRecordOp):
            op.detach()
            op.erase()
        else:
            op.location = call.location
            md = op.attributes.get("md")
            if isinstance(md, ext.MetadataAttachmentsAttr):
                kept = [(k, n) for k, n in md.pairs() if k not in _CALLEE_ONLY_METADATA]
                if kept:
                    op.attributes["md"] = ext.MetadataAttachmentsAttr.from_pairs(kept)
                else:
                    del op.attributes["md"]
    blocks = list(body.blocks)
    entry = blocks[0]
    for arg, value in zip(entry.args, call.args, strict=True):
        arg.replace_all_uses_with(value)
    for arg in reversed(list(entry.args)):
        entry.erase_arg(arg)
    anchor = block
    for b in blocks:
        body.detach_block(b)
        region.insert_block_after(b, anchor)
        anchor = b
        term = b.last_op
        if isinstance(term, xllvm.ReturnOp):
            values = [term.arg] if term.arg is not None else []
            term.detach()
            term.erase()
            b.add_op(xllvm.BrOp(rest, *values))
    caller_entry = region.blocks.first
    assert caller_entry is not None
    for op in list(entry.ops):
        if isinstance(op, xllvm.AllocaOp) and constant_int(op.size) is not None:
            size_op = op.size.owner
            op.detach()
            caller_entry.insert_op_before(op, caller_entry.first_op)  # type: ignore[arg-type]
            if isinstance(size_op, xllvm.ConstantOp) and size_op.parent_block() is entry:
                size_op.detach()
                caller_entry.insert_op_before(size_op, op)
    call.detach()
    call.erase()
    block.add_op(xllvm.BrOp(entry))
