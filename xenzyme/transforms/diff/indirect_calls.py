"""Indirect calls that derivatives flow through, turned into choices among direct calls.

The candidates of a call through a function pointer come from `xenzyme.analysis.callees`; each
becomes a direct call behind a comparison of the pointer, and is then differentiated like any
direct call (the reverse sweep follows the branch the forward sweep took; forward mode calls
the candidate's tangent function).  When the candidates
are only guessed, the indirect call stays for any other pointer and is recorded as unresolved:
reached with derivatives, the generated code stops the program with a message.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, SymbolRefAttr, i32, i64
from xdsl.ir import Block, Operation, SSAValue

from xenzyme.analysis.alias import remember_module
from xenzyme.analysis.callees import CalleeIndex, Targets
from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter, call_op, ensure_declaration
from xenzyme.transforms.diff.errors import location_of
from xenzyme.transforms.diff.symbols import ModuleSymbols


def resolved_copy(fn: xllvm.FuncOp, active: set[int], index: CalleeIndex, unresolved: set[Operation],
                  direct: set[Operation]) -> xllvm.FuncOp:  # fmt: skip
    """A copy of `fn` (outside the module, which analyses still look in) in which the indirect
    calls at positions `active` of its walk choose among direct calls."""
    copy = fn.clone()
    remember_module(copy, index.module)
    calls = [op for i, op in enumerate(copy.walk()) if i in active]
    resolve_indirect_calls(copy, calls, index, unresolved, direct)  # type: ignore[arg-type]
    return copy


def resolve_indirect_calls(fn: xllvm.FuncOp, calls: list[xllvm.CallOp], index: CalleeIndex,
                           unresolved: set[Operation], direct: set[Operation]) -> None:
    """Each of the indirect `calls` of `fn` (derivatives flow through them) becomes a chain of
    pointer comparisons choosing among direct calls to its candidate callees, which are then
    differentiated like any direct call (the reverse sweep follows the branch the forward sweep
    took).  When the candidates are only guessed, the original indirect call stays for any
    other pointer and joins `unresolved`: reached with derivatives, it stops the program."""
    try:
        cfg = CFG(fn.body)
    except IrreducibleControlFlow:
        return  # reported when the function is differentiated
    plans = [(op, index.targets(op, cfg)) for op in calls]  # (all traced before any block is split)
    for op, targets in plans:
        if targets.names:
            _dispatch_indirect_call(op, targets, unresolved, direct)


def _dispatch_indirect_call(op: xllvm.CallOp, targets: Targets, unresolved: set[Operation],
                            direct: set[Operation]) -> None:
    """Split `op`'s block at `op`: compare the pointer with each candidate in turn, each hit
    calling it directly and branching to the rest of the block, which receives the result."""
    block = op.parent_block()
    assert block is not None and block.parent is not None
    region = block.parent
    join = Block()
    region.insert_block_after(join, block)
    following: list[Operation] = []
    nxt = op.next_op
    while nxt is not None:
        following.append(nxt)
        nxt = nxt.next_op
    for o in following:
        o.detach()
        join.add_op(o)
    if op.returned is not None:
        op.returned.replace_all_uses_with(join.insert_arg(op.returned.type, 0))
    ptr, args = op.args[0], list(op.args[1:])
    names = targets.names
    compared = names[:-1] if targets.complete else names
    current = block
    for name in compared:
        addr = xllvm.AddressOfOp(name, ext.LLVMPointerType())
        same = ext.ICmpOp(ptr, addr.result, "eq")
        hit, miss = Block(), Block()
        region.insert_block_before(hit, join)
        region.insert_block_before(miss, join)
        for o in (addr, same):
            o.location = op.location
        current.add_ops([addr, same, xllvm.CondBrOp(same.res, hit, [], miss, [])])
        direct.add(_direct_call(op, name, args, hit, join))
        current = miss
    if targets.complete:
        direct.add(_direct_call(op, names[-1], args, current, join))
    else:
        op.detach()
        current.add_op(op)
        current.add_op(xllvm.BrOp(join, *op.results))
        unresolved.add(op)
        return
    op.detach()
    op.erase()


def _direct_call(op: xllvm.CallOp, name: str, args: list[SSAValue], block: Block, join: Block) -> xllvm.CallOp:
    """A copy of indirect call `op` calling @name, ending `block` with a branch to `join`."""
    props = dict(op.properties)
    props["callee"] = SymbolRefAttr(name)
    props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(args), len(op.op_bundle_operands)])
    call = xllvm.CallOp.create(
        operands=[*args, *op.op_bundle_operands], result_types=[r.type for r in op.results],
        properties=props, attributes=dict(op.attributes),
    )  # fmt: skip
    call.location = op.location
    block.add_ops([call, xllvm.BrOp(join, *call.results)])
    return call


def stop_at_unresolved_call(e: LLVMEmitter, symbols: ModuleSymbols, op: Operation, fname: str,
                            filename: str | None) -> None:  # fmt: skip
    """Code that stops the program with a message where unresolved indirect call `op` of the
    derivative of @fname is reached: the pointer leads to a function whose derivative was not
    generated, so going on would compute a wrong derivative."""
    loc = location_of(op, filename)
    where = f"{loc}: " if loc is not None else ""
    text = (f"xenzyme: {where}in the derivative of @{fname}, a function pointer leads to a function "
            "that is not one of the candidates differentiated for this indirect call; stopping\n")  # fmt: skip
    msg, size = symbols.message_global(text)
    ptr = ext.LLVMPointerType()
    ensure_declaration(symbols.module, "write", ext.LLVMFunctionType([i32, ptr, i64], i64))
    ensure_declaration(symbols.module, "abort", ext.LLVMFunctionType([], ext.LLVMVoidType()))
    stderr = e.insert(xllvm.ConstantOp(IntegerAttr(2, i32), i32))
    e.insert(call_op("write", [stderr, e.insert(xllvm.AddressOfOp(msg, ptr)), e.i64(size)], i64))
    e.insert(call_op("abort", [], None))
