"""What one iteration of a loop needs and leaves: the state a checkpoint of the loop holds.

`loop_state(cfg, loop)` describes a loop in the form LLVM's optimiser leaves it (rotated: one
entering edge, one latch that is also the only exit), with its trip count where it is
computable on entry (`cfg.trip_count`), as the pieces checkpoint-loops outlines:

    carried   the header's arguments (the loop-carried SSA values, the counter among them)
    next      what the latch passes back to them
    outputs   values defined in the loop and used after it (the last iteration's)
    live_ins  values defined before the loop and used in it (read, never changed by it)

    regions   the memory the body overwrites: per store, the pointer it is based on (defined
              before the loop) and the range of its byte offsets, as expressions of values
              defined before the loop: an inner loop's counter ranges from its start to the
              last value its exit test lets through (none if it does not run), a value merged
              from several paths over all of them; a store behind a branch on a condition
              defined before the loop (`if (m > 2)`) has an empty range where it fails

Memory the body only reads is not part of the state.  A store whose extent cannot be bounded
that way (an address carried from one iteration to the next, indexed by the outer counter, or
loaded from memory), a memory intrinsic, or a call of a function that may write memory is
reported (`LoopStateError`, naming the instruction).  Pure functions of the IR; nothing here
rewrites.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xenzyme.analysis.alias import callee_name
from xenzyme.analysis.cfg import (
    CFG,
    Loop,
    TripCount,
    affine_iv,
    constant_int,
    defining_block,
    trip_count,
)
from xenzyme.analysis.types import size_align
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


Expr = tuple
"""A byte offset computable where the loop starts: ("c", k), ("v", value) (an integer defined
before the loop, sign-extended to i64), ("add", a, b), ("sub", a, b), ("mul", a, k),
("div", a, k) (-1 for a < 0), ("and", a, k) (k < 0), ("min", a, b), ("max", a, b).

Each range is exact where it can be (the memory it names is copied and restored: a range too
wide would touch memory the program does not own); what cannot be bounded exactly enough (a
mask of low bits, a loaded index) is not bounded at all."""


@dataclass
class Region:
    """The bytes a store may write: from `root + lo` to `root + hi` (exclusive)."""

    root: SSAValue
    lo: Expr
    hi: Expr
    op: Operation
    guards: list[tuple[SSAValue, bool]]
    """Conditions defined before the loop that the store needs (value, which way): where one
    fails, the store does not run and its range is empty."""


@dataclass
class LoopState:
    loop: Loop
    entering: Block
    latch: Block
    exit: Block
    trips: TripCount | None
    """None: the trip count is not known when the loop starts (a `while` loop)."""
    carried: list[SSAValue]
    next: list[SSAValue]
    outputs: list[SSAValue]
    live_ins: list[SSAValue]
    regions: list[Region]


def _outside(v: SSAValue, loop: Loop) -> bool:
    b = defining_block(v)
    return b is None or b not in loop.blocks


def _scale(iv: tuple[Expr, Expr], k: int) -> tuple[Expr, Expr]:
    lo, hi = ("mul", iv[0], k), ("mul", iv[1], k)
    return (lo, hi) if k >= 0 else (hi, lo)


class _Intervals:
    """The range of an integer in the loop, as expressions of values defined before it."""

    def __init__(self, cfg: CFG, outer: Loop):
        self.cfg = cfg
        self.outer = outer
        self.known: dict[SSAValue, tuple[Expr, Expr] | None] = {}

    def of(self, x: SSAValue) -> tuple[Expr, Expr] | None:
        if x not in self.known:
            self.known[x] = None  # (a cycle through phis that are not induction variables: unknown)
            self.known[x] = self._of(x)
        return self.known[x]

    def _of(self, x: SSAValue) -> tuple[Expr, Expr] | None:
        c = constant_int(x)
        if c is not None:
            return ("c", c), ("c", c)
        if _outside(x, self.outer):
            return ("v", x), ("v", x)
        op = x.owner
        if isinstance(op, xllvm.SExtOp | xllvm.ZExtOp | xllvm.TruncOp):
            return self.of(op.operands[0])
        disjoint = isinstance(op, xllvm.OrOp) and op.properties.get("isDisjoint") is not None  # (an add)
        if isinstance(op, xllvm.AddOp | xllvm.SubOp) or disjoint:
            a, b = (self.of(v) for v in op.operands)
            if a is None or b is None:
                return None
            if isinstance(op, xllvm.SubOp):
                return ("sub", a[0], b[1]), ("sub", a[1], b[0])
            return ("add", a[0], b[0]), ("add", a[1], b[1])
        if isinstance(op, xllvm.AndOp) and (k := constant_int(op.operands[1])) is not None and k < 0:
            a = self.of(op.operands[0])  # (rounded down to a multiple of a power of two: monotone)
            return None if a is None else (("and", a[0], k), ("and", a[1], k))
        if isinstance(op, xllvm.MulOp | xllvm.ShlOp):
            k = constant_int(op.operands[1])
            a = self.of(op.operands[0])
            if k is None or a is None:
                return None
            return _scale(a, k if isinstance(op, xllvm.MulOp) else 1 << k)
        if not isinstance(x, BlockArgument):
            return None
        cfg = self.cfg
        lp = cfg.loop_of.get(x.block)
        if lp is None or lp.header is not x.block:
            # A value merged where paths join (after an inner loop, say): any incoming one.
            found = [self.of(cfg.incoming(x.block, p)[x.index]) for p in cfg.preds.get(x.block, [])]
            if not found or any(f is None for f in found):
                return None
            lo, hi = found[0]
            for f in found[1:]:
                lo, hi = ("min", lo, f[0]), ("max", hi, f[1])
            return lo, hi
        # An inner loop's induction variable: from its start over as many steps as the loop's
        # exit test lets its counter take.
        iv = affine_iv(cfg, x)
        trips = trip_count(cfg, lp) if iv is not None and lp is not self.outer else None
        if iv is None or trips is None or len(iv.step) != 1 or len(trips.iv.step) != 1:
            return None
        counter = trips.iv
        cstart, limit, start = self.of(counter.start), self.of(trips.limit), self.of(iv.start)
        if cstart is None or limit is None or start is None:
            return None
        cstep = counter.step[0]
        inclusive = 1 if trips.inclusive else 0
        if cstep > 0:
            last = ("add", limit[1], ("c", -1 + (0 if trips.compares_next else cstep) + inclusive))
            span: Expr = ("sub", last, cstart[0])  # counter's last value minus its first, at most
        else:
            last = ("add", limit[0], ("c", 1 - (0 if trips.compares_next else -cstep) - inclusive))
            span = ("sub", cstart[1], last)
        span = ("max", span, ("c", -1))  # (-1: the loop does not run; the region is then empty)
        if abs(cstep) != 1:  # (whole steps of the counter)
            span = ("div", span, abs(cstep))
            span = span if counter.value is not x else ("mul", span, abs(cstep))
        if counter.value is not x:  # (another variable counts the trips: its steps)
            span = ("mul", span, abs(iv.step[0]))
        if iv.step[0] > 0:
            return start[0], ("add", start[1], span)
        return ("sub", start[0], span), start[1]


def _region(ranges: _Intervals, op: Operation, ptr: SSAValue, size: int) -> Region | None:
    """The bytes a store of `size` bytes at `ptr` may write, or None."""
    lo: Expr = ("c", 0)
    hi: Expr = ("c", 0)
    while isinstance(ptr.owner, ext.GEPOp):
        gep = ptr.owner
        idx = gep.mixed_indices()
        sa = size_align(gep.elem_type)
        if len(idx) != 1 or sa is None:
            return None
        i = ((("c", idx[0]), ("c", idx[0])) if isinstance(idx[0], int) else ranges.of(idx[0]))
        if i is None:
            return None
        i = _scale(i, sa[0])
        lo, hi = ("add", lo, i[0]), ("add", hi, i[1])
        ptr = gep.operands[0]
    if not _outside(ptr, ranges.outer):
        return None
    return Region(ptr, lo, ("add", hi, ("c", size)), op, _guards(ranges.cfg, ranges.outer, op))


def _guards(cfg: CFG, outer: Loop, op: Operation) -> list[tuple[SSAValue, bool]]:
    """The branches on conditions defined before the loop that lead only towards `op`'s block."""
    block = op.parent_block()
    out = []
    for d in outer.blocks:
        term = d.last_op
        if not isinstance(term, xllvm.CondBrOp) or not _outside(term.cond, outer) or term.then_block is term.else_block:
            continue
        for succ, way in ((term.then_block, True), (term.else_block, False)):
            # (the only way into succ, but for its own loop's back edges)
            only = all(p is d or cfg.dominates(succ, p) for p in cfg.preds.get(succ, []))
            if succ in outer.blocks and only and block is not None and cfg.dominates(succ, block):
                out.append((term.cond, way))
    return out


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
    if trips is not None and (trips.iv.value.block is not loop.header or trips.iv.element is not None):
        trips = None  # (a loop run until its test fails, counted as it runs)
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
    regions: list[Region] = []
    ranges = _Intervals(cfg, loop)
    order = [b for b in cfg.rpo if b in loop.blocks]
    # (a counted loop's exit test is dropped with the back edge where nothing else uses it)
    test = term.cond.owner if trips is not None else None
    for b in order:
        for op in b.ops:
            if op is test and sum(1 for _ in term.cond.uses) == 1:
                continue
            if op.regions or op.dialect_name() != "llvm":
                raise LoopStateError(f"the loop body holds '{op.name}' (a parallel region, a kernel launch, a "
                                     "message, ...), whose effects on memory checkpoints do not capture yet", op,
                                     ("use checkpoint=off for this function",))  # fmt: skip
            if isinstance(op, ext.StoreOp) and _writes_memory(op, loop, pure):
                sa = size_align(op.operands[0].type)
                found = _region(ranges, op, op.operands[1], sa[0]) if sa is not None else None
                if found is None:
                    raise LoopStateError("the loop body writes memory whose extent is not known when the loop starts",
                                         op, ("checkpoints hold the memory a step overwrites: stores to p[i] with p "
                                              "defined before the loop and i an inner loop's counter or a value "
                                              "defined before it; use checkpoint=off for this function",))  # fmt: skip
                regions.append(found)
            elif _writes_memory(op, loop, pure):
                raise LoopStateError("the loop body writes memory through a call, which checkpoints do not hold", op,
                                     ("a memory intrinsic or a call that may write memory is not part of a "
                                      "checkpoint; use checkpoint=off for this function",))  # fmt: skip
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
    return LoopState(loop, entering, latch, exit_block, trips, carried, nxt, outputs, live_ins, regions)
