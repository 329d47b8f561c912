"""Promoting stack slots to SSA values, for chosen allocas (LLVM's mem2reg, restricted).

`raise-openmp` uses it for the slots clang passes to the OpenMP runtime (loop bounds, stride,
last-iteration flag): once the runtime call is an op whose results are stored there, the slot is
plain memory that nothing else sees, and promoting it turns every load into the value the op (or
the program) last stored -- so the loop bounds read by the loop are the op's SSA results.

Standard SSA construction: block arguments (phis) at the iterated dominance frontier of the
stores, restricted to blocks where the slot is live; values renamed along the dominator tree.
A slot is promoted only when every use is a non-volatile load or store of one type, or a
lifetime marker, in a reachable block whose predecessors end in br, cond_br or switch.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from xenzyme.analysis.cfg import CFG
from xenzyme.dialects import llvm_ext as ext

def slot_type(alloca: xllvm.AllocaOp, cfg: CFG) -> Attribute | None:
    """The one type `alloca` is loaded and stored as, if it can be promoted; else None."""
    slot = alloca.res
    t: Attribute | None = None
    for use in slot.uses:
        op = use.operation
        if op.parent_block() not in cfg.reachable:
            return None
        if ext.is_annotation(op):
            continue
        if isinstance(op, xllvm.LoadOp) and op.ptr is slot:
            vt = op.dereferenced_value.type
        elif isinstance(op, ext.StoreOp) and op.ptr is slot and op.value is not slot:
            vt = op.value.type
        else:
            return None
        if _volatile_or_atomic(op):
            return None
        if t is not None and vt != t:
            return None
        t = vt
    return t


def _volatile_or_atomic(op: Operation) -> bool:
    if "volatile_" in op.attributes or op.properties.get("volatile_") is not None:
        return True
    ordering = op.properties.get("ordering")
    return isinstance(ordering, IntegerAttr) and ordering.value.data != 0


def promote(allocas: Iterable[xllvm.AllocaOp], cfg: CFG) -> list[xllvm.AllocaOp]:
    """Promote each alloca that can be; return those promoted (and erased)."""
    done: list[xllvm.AllocaOp] = []
    for a in allocas:
        t = slot_type(a, cfg)
        if t is None or not _edges_patchable(a, cfg):
            continue
        _promote(a, t, cfg)
        done.append(a)
    return done


def _edges_patchable(a: xllvm.AllocaOp, cfg: CFG) -> bool:
    for b in cfg.rpo:
        if len(cfg.preds[b]) > 1:
            for p in cfg.preds[b]:
                if not isinstance(p.last_op, xllvm.BrOp | xllvm.CondBrOp | ext.SwitchOp):
                    return False
    return True


def _frontiers(cfg: CFG) -> dict[Block, set[Block]]:
    df: dict[Block, set[Block]] = {b: set() for b in cfg.rpo}
    for b in cfg.rpo:
        preds = cfg.preds[b]
        if len(preds) < 2:
            continue
        for p in preds:
            runner: Block | None = p
            while runner is not None and runner is not cfg.idom[b]:
                df[runner].add(b)
                runner = cfg.idom[runner]
    return df


def _promote(a: xllvm.AllocaOp, t: Attribute, cfg: CFG) -> None:
    slot = a.res
    users = [u.operation for u in slot.uses]
    stores_in: set[Block] = set()
    exposed: set[Block] = set()  # blocks that load before they store
    for b in cfg.rpo:
        stored = False
        for op in b.ops:
            if op not in users:
                continue
            if isinstance(op, ext.StoreOp):
                stored = True
                stores_in.add(b)
            elif isinstance(op, xllvm.LoadOp) and not stored:
                exposed.add(b)
    live_in = set(exposed)
    work = list(exposed)
    while work:
        b = work.pop()
        for p in cfg.preds[b]:
            if p not in stores_in and p not in live_in:
                live_in.add(p)
                work.append(p)
    df = _frontiers(cfg)
    phis: set[Block] = set()
    work = list(stores_in)
    while work:
        b = work.pop()
        for f in df[b]:
            if f not in phis and f in live_in:
                phis.add(f)
                work.append(f)
    arg_of = {b: b.insert_arg(t, len(b.args)) for b in cfg.rpo if b in phis}
    children: dict[Block, list[Block]] = {b: [] for b in cfg.rpo}
    for b in cfg.rpo:
        d = cfg.idom.get(b)
        if d is not None:
            children[d].append(b)
    undef: list[SSAValue] = []

    def initial() -> SSAValue:
        if not undef:
            op = xllvm.UndefOp(t)
            cfg.entry.insert_op_before(op, cfg.entry.first_op)  # type: ignore[arg-type]
            undef.append(op.res)
        return undef[0]

    incoming: dict[Block, list[tuple[Block, SSAValue]]] = {}
    stack: list[tuple[Block, SSAValue | None]] = [(cfg.entry, None)]
    while stack:
        b, cur = stack.pop()
        if b in arg_of:
            cur = arg_of[b]
        for op in list(b.ops):
            if op not in users:
                continue
            if isinstance(op, ext.StoreOp):
                cur = op.value
            elif isinstance(op, xllvm.LoadOp):
                op.dereferenced_value.replace_all_uses_with(cur if cur is not None else initial())
            op.detach()
            op.erase()
        for s in cfg.succs[b]:
            if s in arg_of:
                incoming.setdefault(b, []).append((s, cur if cur is not None else initial()))
        stack.extend((c, cur) for c in children[b])
    for b, pairs in incoming.items():
        add_edge_arguments(b, dict(pairs))
    a.detach()
    a.erase()


def erase_unreachable_blocks(region: Region) -> None:
    """Remove the blocks the entry block does not reach (their values are used only among
    themselves)."""
    entry = region.blocks.first
    if entry is None:
        return
    reached: set[Block] = set()
    work = [entry]
    while work:
        b = work.pop()
        if b in reached:
            continue
        reached.add(b)
        if b.last_op is not None:
            work.extend(b.last_op.successors)
    dead = [b for b in region.blocks if b not in reached]
    for b in dead:
        for op in b.ops:
            op.operands = ()
            op.successors = ()
    for b in dead:
        region.detach_block(b)
        b.erase(safe_erase=False)


def add_edge_arguments(block: Block, extra: dict[Block, SSAValue]) -> None:
    """Rebuild `block`'s terminator with one more argument on each edge into a block of
    `extra` (the value given there)."""
    term = block.last_op
    assert term is not None

    def args(dest: Block, old) -> list[SSAValue]:
        return [*old, extra[dest]] if dest in extra else list(old)

    if isinstance(term, xllvm.BrOp):
        new: Operation = xllvm.BrOp(term.successor, *args(term.successor, term.arguments))
    elif isinstance(term, xllvm.CondBrOp):
        new = xllvm.CondBrOp(
            term.cond,
            term.then_block,
            args(term.then_block, term.then_arguments),
            term.else_block,
            args(term.else_block, term.else_arguments),
        )
    elif isinstance(term, ext.SwitchOp):
        new = ext.SwitchOp(
            term.value,
            term.default_dest,
            args(term.default_dest, term.default_operands),
            [(v, d, args(d, a)) for v, d, a in term.cases()],
        )
    else:
        raise AssertionError(f"cannot add edge arguments to {term.name}")
    new.attributes |= term.attributes
    new.location = term.location
    block.insert_op_before(new, term)
    term.detach()
    term.erase()
