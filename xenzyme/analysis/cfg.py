"""Control flow of one function: edges, reverse post-order, dominators, natural loops.

Pure functions of the IR; nothing here rewrites.  Dominators are Cooper, Harvey and Kennedy's
iteration over the reverse post-order; dominance queries use the dominator tree's DFS
intervals, so they are O(1).  Natural
loops are found from back edges (an edge whose target dominates its source); an edge that
retreats in the depth-first order without being a back edge means the CFG is irreducible, which
the differentiation passes reject.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, IntegerType, VectorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from xenzyme.dialects import llvm_ext as ext


def _immediate_dominators(n: int, succs: list[list[int]]) -> list[int]:
    """The immediate dominator of each node of a graph numbered in reverse post-order from its
    entry 0, which is its own (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
    Algorithm"): iterate to a fixed point, intersecting the dominators of the predecessors by
    walking up the tree, where a dominator always has a smaller number."""
    preds: list[list[int]] = [[] for _ in range(n)]
    for u, ss in enumerate(succs):
        for v in ss:
            preds[v].append(u)
    idom = [-1] * n
    if n:
        idom[0] = 0
    changed = True
    while changed:
        changed = False
        for b in range(1, n):
            new = -1
            for p in preds[b]:
                if idom[p] < 0:
                    continue
                if new < 0:
                    new = p
                    continue
                a, c = p, new
                while a != c:
                    while a > c:
                        a = idom[a]
                    while c > a:
                        c = idom[c]
                new = a
            if new != idom[b]:
                idom[b] = new
                changed = True
    return idom


@dataclass(eq=False)
class Loop:
    """A natural loop: the header dominates every block in it."""

    header: Block
    blocks: set[Block]
    latches: list[Block]
    """Predecessors of the header inside the loop (sources of back edges)."""
    entering: list[Block]
    """Predecessors of the header outside the loop."""
    parent: Loop | None = None
    children: list[Loop] = field(default_factory=list)
    exits: list[tuple[Block, Block]] = field(default_factory=list)
    """Edges (inside, outside) leaving the loop."""

    @property
    def depth(self) -> int:
        d, p = 1, self.parent
        while p is not None:
            d, p = d + 1, p.parent
        return d

    def contains(self, b: Block) -> bool:
        return b in self.blocks

    def enclosing(self) -> list[Loop]:
        """This loop and its ancestors, outermost first."""
        out: list[Loop] = []
        lp: Loop | None = self
        while lp is not None:
            out.append(lp)
            lp = lp.parent
        return out[::-1]


class IrreducibleControlFlow(Exception):
    """The CFG has a cycle with more than one entry."""

    def __init__(self, block: Block):
        super().__init__("irreducible control flow")
        self.block = block


def successors(block: Block) -> list[Block]:
    """Distinct successors, in terminator order."""
    term = block.last_op
    if term is None:
        return []
    out: list[Block] = []
    for s in term.successors:
        if s not in out:
            out.append(s)
    return out


class CFG:
    """The control-flow graph of a function body, with dominators and loops."""

    def __init__(self, region: Region):
        self.region = region
        self.entry: Block = region.blocks.first  # type: ignore[assignment]
        self.succs: dict[Block, list[Block]] = {b: successors(b) for b in region.blocks}
        self.rpo = self._reverse_post_order()
        self.reachable = set(self.rpo)
        self.preds: dict[Block, list[Block]] = {b: [] for b in region.blocks}
        for b in self.rpo:
            for s in self.succs[b]:
                if b not in self.preds[s]:
                    self.preds[s].append(b)
        self.index = {b: i for i, b in enumerate(self.rpo)}
        self._dominators()
        self.loops: list[Loop] = []
        self.loop_of: dict[Block, Loop | None] = {b: None for b in self.rpo}
        self._find_loops()

    # ---- orders and dominators -----------------------------------------------------------

    def _reverse_post_order(self) -> list[Block]:
        seen: set[Block] = set()
        post: list[Block] = []
        stack: list[tuple[Block, int]] = [(self.entry, 0)]
        seen.add(self.entry)
        while stack:
            b, i = stack.pop()
            succ = self.succs[b]
            if i < len(succ):
                stack.append((b, i + 1))
                s = succ[i]
                if s not in seen:
                    seen.add(s)
                    stack.append((s, 0))
            else:
                post.append(b)
        return post[::-1]

    def _dominators(self) -> None:
        idom = _immediate_dominators(len(self.rpo), [[self.index[s] for s in self.succs[b]] for b in self.rpo])
        self.idom: dict[Block, Block | None] = {
            self.rpo[n]: (self.rpo[d] if n != 0 else None) for n, d in enumerate(idom)
        }
        children: dict[Block, list[Block]] = {b: [] for b in self.rpo}
        for b, d in self.idom.items():
            if d is not None:
                children[d].append(b)
        self._pre: dict[Block, int] = {}
        self._post: dict[Block, int] = {}
        counter = 0
        stack: list[tuple[Block, bool]] = [(self.entry, False)]
        while stack:
            b, done = stack.pop()
            if done:
                self._post[b] = counter
                counter += 1
                continue
            self._pre[b] = counter
            counter += 1
            stack.append((b, True))
            stack.extend((c, False) for c in reversed(children[b]))

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether every path from the entry to `b` goes through `a` (reflexive)."""
        if a not in self._pre or b not in self._pre:
            return False
        return self._pre[a] <= self._pre[b] and self._post[b] <= self._post[a]

    # ---- loops ----------------------------------------------------------------------------

    def _find_loops(self) -> None:
        by_header: dict[Block, Loop] = {}
        for b in self.rpo:
            for s in self.succs[b]:
                if self.index[s] > self.index[b]:
                    continue  # forward edge in RPO
                if not self.dominates(s, b):
                    raise IrreducibleControlFlow(s)
                loop = by_header.get(s)
                if loop is None:
                    loop = by_header[s] = Loop(s, {s}, [], [])
                loop.latches.append(b)
                self._collect(loop, b)
        # Nest: sort by size so that inner loops get their innermost parent.
        loops = sorted(by_header.values(), key=lambda lp: len(lp.blocks))
        for i, lp in enumerate(loops):
            for outer in loops[i + 1 :]:
                if lp.header in outer.blocks and outer is not lp:
                    lp.parent = outer
                    outer.children.append(lp)
                    break
        for lp in reversed(loops):  # outermost first, so inner loops overwrite
            for b in lp.blocks:
                self.loop_of[b] = lp
        for lp in loops:
            lp.entering = [p for p in self.preds[lp.header] if p not in lp.blocks]
            for b in lp.blocks:
                for s in self.succs[b]:
                    if s not in lp.blocks:
                        lp.exits.append((b, s))
        self.loops = sorted(loops, key=lambda lp: self.index[lp.header])

    def _collect(self, loop: Loop, latch: Block) -> None:
        work = [latch]
        while work:
            b = work.pop()
            if b in loop.blocks:
                continue
            loop.blocks.add(b)
            work.extend(p for p in self.preds[b])

    def loops_of(self, b: Block) -> list[Loop]:
        """Loops containing `b`, outermost first."""
        lp = self.loop_of.get(b)
        return lp.enclosing() if lp is not None else []

    def exited_loops(self, src: Block, dst: Block) -> list[Loop]:
        """Loops the edge src -> dst leaves, innermost first."""
        return [lp for lp in reversed(self.loops_of(src)) if dst not in lp.blocks]

    def is_back_edge(self, src: Block, dst: Block) -> bool:
        lp = self.loop_of.get(dst)
        while lp is not None:
            if lp.header is dst and src in lp.blocks:
                return True
            lp = lp.parent
        return False

    def incoming(self, block: Block, pred: Block) -> Sequence[SSAValue]:
        """Values `pred` passes to `block`'s arguments (the phi inputs along that edge)."""
        term = pred.last_op
        assert term is not None
        for dest, args in ext.successor_operands(term):
            if dest is block:
                return args
        raise ValueError("not a predecessor")


# ---------------------------------------------------------------------------------------------
# Induction variables
# ---------------------------------------------------------------------------------------------


@dataclass
class AffineIV:
    """A header argument equal to `start + step * iteration`, iteration counted from 0.

    Integer IVs (scalar or vector; a vector IV has one step per lane) and pointer IVs that
    advance by a constant number of `element` values per iteration.
    """

    value: BlockArgument
    loop: Loop
    start: SSAValue
    step: tuple[int, ...]
    element: Attribute | None = None
    """For pointer IVs: the type whose size is the unit of `step`."""


def defining_block(v: SSAValue) -> Block | None:
    if isinstance(v, BlockArgument):
        return v.block
    owner = v.owner
    assert isinstance(owner, Operation)
    return owner.parent_block()


def is_invariant(cfg: CFG, v: SSAValue, loop: Loop) -> bool:
    b = defining_block(v)
    return b is None or b not in loop.blocks


def affine_iv(cfg: CFG, v: SSAValue) -> AffineIV | None:
    """Recognise `i = phi [start, entering], [i + step, latch]` with a constant step."""
    if not isinstance(v, BlockArgument):
        return None
    lp = cfg.loop_of.get(v.block)
    if lp is None or lp.header is not v.block or len(lp.entering) == 0:
        return None
    starts = {cfg.incoming(v.block, p)[v.index] for p in lp.entering}
    if len(starts) != 1:
        return None
    (start,) = starts
    if not is_invariant(cfg, start, lp):
        return None
    step: tuple[int, ...] | None = None
    element: Attribute | None = None
    for latch in lp.latches:
        nxt = cfg.incoming(v.block, latch)[v.index]
        found = _step_of(nxt, v)
        if found is None or (step is not None and found != (step, element)):
            return None
        step, element = found
    if step is None:
        return None
    return AffineIV(v, lp, start, step, element)


def constant_ints(v: SSAValue) -> tuple[int, ...] | None:
    """The integer constant(s) of `v`: one for a scalar, one per lane for a vector."""
    op = v.owner
    if not isinstance(op, xllvm.ConstantOp):
        return None
    val = op.value
    if isinstance(val, IntegerAttr):
        return (val.value.data,)
    if isinstance(val, DenseIntOrFPElementsAttr) and isinstance(val.get_element_type(), IntegerType):
        n = v.type.get_shape()[0] if isinstance(v.type, VectorType) else 1
        values = tuple(int(x) for x in val.get_values())
        return values * n if len(values) == 1 else values
    return None


def constant_int(v: SSAValue) -> int | None:
    c = constant_ints(v)
    return c[0] if c is not None and len(c) == 1 else None


def _step_of(nxt: SSAValue, iv: SSAValue) -> tuple[tuple[int, ...], Attribute | None] | None:
    op = nxt.owner
    if isinstance(op, xllvm.AddOp):
        a, b = op.lhs, op.rhs
        if a is iv and (c := constant_ints(b)) is not None:
            return c, None
        if b is iv and (c := constant_ints(a)) is not None:
            return c, None
    if isinstance(op, xllvm.SubOp) and op.lhs is iv and (c := constant_ints(op.rhs)) is not None:
        return tuple(-x for x in c), None
    if isinstance(op, ext.GEPOp) and op.ptr is iv:
        idx = op.mixed_indices()
        if len(idx) == 1:
            k = idx[0] if isinstance(idx[0], int) else constant_int(idx[0])
            if k is not None:
                return (k,), op.elem_type
    return None


@dataclass
class TripCount:
    """How many times a loop's header runs, as `(limit - start) / step` (rounded up, >= 1).

    An estimate computable on entry to the loop: exact for counted loops, an upper bound when
    the loop may also leave early.  Used to size buffers, never for control flow.
    """

    iv: AffineIV
    limit: SSAValue
    compares_next: bool
    """Whether the exit test compares `iv + step` (rotated loops) rather than `iv`."""
    inclusive: bool
    """`<=`-style tests run one more iteration."""
    unsigned: bool
    """The test compares unsigned values (widen with zero extension)."""


_CONTINUE_WHILE = {"ne", "slt", "ult", "sle", "ule", "sgt", "ugt", "sge", "uge"}
_NEGATED = {
    "eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt", "sgt": "sle",
    "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule",
}  # fmt: skip
_SWAPPED = {
    "eq": "eq", "ne": "ne", "slt": "sgt", "sgt": "slt", "sle": "sge", "sge": "sle",
    "ult": "ugt", "ugt": "ult", "ule": "uge", "uge": "ule",
}  # fmt: skip


def trip_count(cfg: CFG, loop: Loop) -> TripCount | None:
    """Recognise an exit test `iv (+ step) <pred> limit` with `limit` invariant in the loop."""
    for src, dst in loop.exits:
        term = src.last_op
        if not isinstance(term, xllvm.CondBrOp):
            continue
        cond = term.cond.owner
        if not isinstance(cond, ext.ICmpOp):
            continue
        exit_on_true = term.then_block is dst
        pred = cond.predicate_name
        a, b = cond.lhs, cond.rhs
        for x, limit, p in ((a, b, pred), (b, a, _SWAPPED[pred])):
            if not is_invariant(cfg, limit, loop) or isinstance(x.type, VectorType):
                continue
            found = _iv_or_next(cfg, x, loop)
            if found is None:
                continue
            iv, is_next = found
            keep_going = _NEGATED[p] if exit_on_true else p
            if keep_going not in _CONTINUE_WHILE or len(iv.step) != 1 or iv.element is not None:
                continue
            step = iv.step[0]
            counts_up = keep_going in ("slt", "ult", "sle", "ule")
            if step == 0 or (keep_going != "ne" and (step > 0) != counts_up):
                continue
            return TripCount(
                iv, limit, is_next, keep_going in ("sle", "ule", "sge", "uge"), keep_going.startswith("u")
            )
    return None


def _iv_or_next(cfg: CFG, x: SSAValue, loop: Loop) -> tuple[AffineIV, bool] | None:
    if isinstance(x.owner, xllvm.TruncOp):  # (a 64-bit counter tested in 32 bits: a worksharing loop's)
        x = x.owner.arg
    iv = affine_iv(cfg, x)
    if iv is not None and iv.loop is loop:
        return iv, False
    op = x.owner
    if isinstance(op, xllvm.AddOp | xllvm.SubOp):
        for operand in op.operands:
            iv = affine_iv(cfg, operand)
            if iv is not None and iv.loop is loop and _step_of(x, operand) == (iv.step, None):
                return iv, True
    return None


def blocks_in_rpo(region: Region) -> Iterable[Block]:
    return CFG(region).rpo
