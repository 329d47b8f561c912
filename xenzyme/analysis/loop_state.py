"""What one iteration of a loop needs and leaves: the state a checkpoint of the loop holds.

`loop_state(cfg, loop)` describes a counted loop in the form LLVM's optimiser leaves it
(rotated: one entering edge, one latch that is also the only exit, a trip count computable on
entry, `cfg.trip_count`) as the pieces checkpoint-loops outlines:

    carried   the header's arguments (the loop-carried SSA values, the counter among them)
    next      what the latch passes back to them
    outputs   values defined in the loop and used after it (the last iteration's)
    live_ins  values defined before the loop and used in it (read, never changed by it)

and checks that an iteration changes nothing else: memory written by the body (other than the
body's own allocas) is not part of the state yet, so a store to it, a memory intrinsic, or a
call of a function that may write memory is reported (`LoopStateError`, naming the
instruction).  Pure functions of the IR; nothing here rewrites.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Block, Operation, SSAValue

from xenzyme.analysis.alias import callee_name
from xenzyme.analysis.cfg import CFG, Loop, TripCount, defining_block, trip_count
from xenzyme.dialects import llvm_ext as ext

# Functions an iteration may call without writing memory (besides LLVM's math intrinsics).
_PURE_PREFIXES = ("llvm.",)
_MEMORY_INTRINSICS = ("llvm.memcpy", "llvm.memmove", "llvm.memset", "llvm.lifetime", "llvm.stacksave",
                      "llvm.stackrestore", "llvm.va_")  # fmt: skip


class LoopStateError(Exception):
    """A loop whose state cannot be captured; `op` is where (None: the loop as a whole)."""

    def __init__(self, message: str, op: Operation | None, notes: tuple[str, ...] = ()):
        super().__init__(message)
        self.message = message
        self.op = op
        self.notes = notes


@dataclass
class LoopState:
    loop: Loop
    entering: Block
    latch: Block
    exit: Block
    trips: TripCount
    carried: list[SSAValue]
    next: list[SSAValue]
    outputs: list[SSAValue]
    live_ins: list[SSAValue]


def _writes_memory(op: Operation, loop: Loop, pure: frozenset[str]) -> bool:
    if isinstance(op, ext.StoreOp | ext.AtomicRMWOp | ext.CmpXchgOp | ext._MemIntrinsicOp):
        ptr = op.operands[1] if isinstance(op, ext.StoreOp) else op.operands[0]
        root = ptr
        while isinstance(root.owner, ext.GEPOp):
            root = root.owner.operands[0]
        local = isinstance(root.owner, xllvm.AllocaOp) and defining_block(root) in loop.blocks
        return not local
    if isinstance(op, xllvm.CallOp | ext.InvokeOp):
        name = callee_name(op) if isinstance(op, xllvm.CallOp) else None
        if name is None:
            return True
        if name.startswith(_MEMORY_INTRINSICS):
            return not name.startswith("llvm.lifetime")
        return not (name.startswith(_PURE_PREFIXES) or name in pure)
    return False


def loop_state(cfg: CFG, loop: Loop, pure: frozenset[str] = frozenset()) -> LoopState:
    """The state of `loop` (see the module docstring); `pure` names functions known to write no
    memory (libm's)."""
    if len(loop.entering) != 1 or len(loop.latches) != 1:
        raise LoopStateError("the loop is not in rotated form (one entry, one back edge)", loop.header.first_op)
    (entering,) = loop.entering
    (latch,) = loop.latches
    exits = {(s, d) for s, d in loop.exits}
    term = latch.last_op
    if len(exits) != 1 or next(iter(exits))[0] is not latch or not isinstance(term, xllvm.CondBrOp):
        src = next(iter(exits))[0] if exits else loop.header
        raise LoopStateError("the loop leaves from more than one place, or not at the end of its body", src.last_op,
                             ("only counted loops that run to their end are checkpointed",))  # fmt: skip
    trips = trip_count(cfg, loop)
    if trips is None or trips.iv.value.block is not loop.header or trips.iv.element is not None:
        raise LoopStateError("the loop's trip count is not known when it starts", term,
                             ("binomial and periodic checkpointing need a counted loop (for (i = a; i < b; i++))",))  # fmt: skip
    exit_block = next(iter(exits))[1]
    header = loop.header
    carried = list(header.args)
    nxt = list(cfg.incoming(header, latch))
    inside: set[SSAValue] = set()
    for b in loop.blocks:
        inside.update(b.args)
        for op in b.ops:
            inside.update(op.results)
    outputs: list[SSAValue] = []
    live_ins: list[SSAValue] = []
    seen_out: set[SSAValue] = set()
    seen_in: set[SSAValue] = set()
    order = [b for b in cfg.rpo if b in loop.blocks]
    for b in order:
        for op in b.ops:
            if _writes_memory(op, loop, pure):
                raise LoopStateError("the loop body writes memory, which checkpoints do not hold yet", op,
                                     ("only loops whose state is in SSA values (scalars carried from one iteration "
                                      "to the next) are checkpointed; use checkpoint=off for this function",))  # fmt: skip
            for v in nxt if op is term else op.operands:
                if v not in inside and v not in seen_in and not isinstance(v.owner, xllvm.ConstantOp):
                    seen_in.add(v)
                    live_ins.append(v)
            for r in op.results:
                for use in r.uses:
                    ub = use.operation.parent_block()
                    if ub not in loop.blocks and r not in seen_out:
                        seen_out.add(r)
                        outputs.append(r)
        for a in b.args:
            for use in a.uses:
                if use.operation.parent_block() not in loop.blocks and a not in seen_out:
                    seen_out.add(a)
                    outputs.append(a)
    for v in cfg.incoming(exit_block, latch):
        if v in inside and v not in seen_out:
            seen_out.add(v)
            outputs.append(v)
    return LoopState(loop, entering, latch, exit_block, trips, carried, nxt, outputs, live_ins)
