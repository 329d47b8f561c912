"""Derivatives of bulk memory operations: memcpy and memmove, field by field.

A copy of `n` bytes moves whatever the bytes hold.  Its reverse moves the adjoints of the
floating-point fields back from the destination's shadow to the source's (and clears them); its
forward sweep copies the shadows of pointer fields, so that the destination's pointers have
shadows too.  Integer fields need nothing.  What the bytes hold is a `View` (type analysis): a
pattern of scalar fields repeating every `period` bytes, and where in the pattern the copy
starts.

Each (action, pattern) gets one small internal helper function, `xenzyme.memcpy.<action>.<key>
(src_shadow, dst_shadow, nbytes)`, that walks the records the copy touches; LLVM inlines and
specialises it.  For memmove the helper picks its direction at run time, as memmove itself does
when the two ranges overlap.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i8, i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.types import View, size_align
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter as Emitter

ADJOINT, ATOMIC_ADJOINT, COPY, ZERO = "adjoint", "adjoint_atomic", "copy", "zero"
"""Helper actions: move float adjoints dst -> src and clear them (reverse of a copy; atomically
into a source other threads may add into too); copy pointer shadows src -> dst (forward
sweep); clear float adjoints of dst (reverse of a copy from inactive memory)."""

_PTR = ext.LLVMPointerType()


@dataclass(frozen=True)
class CopyPlan:
    """Which scalars of a copied range an action touches."""

    fields: tuple[tuple[int, Attribute], ...]
    """(offset within the period, scalar type) of the moved scalars."""
    period: int
    offset: int
    """Where the copy starts within the period."""

    @staticmethod
    def of(view: View, action: str) -> CopyPlan | None:
        """The plan for `action` on a copy whose bytes look like `view`; None if nothing to do."""
        fields = view.pointer_fields() if action == COPY else view.float_fields()
        if not fields:
            return None
        period = view.period or max(o + (size_align(t) or (0, 0))[0] for o, t in view.fields)
        plan = CopyPlan(tuple(fields), period, view.offset)
        if plan.dense:  # (one element per record: a copy of any number of elements is whole records)
            t = fields[0][1]
            return CopyPlan(((0, t),), size_align(t)[0], 0)  # type: ignore[index]
        return plan

    @property
    def dense(self) -> bool:
        """Every byte is one of the fields, all of one type, and the copy starts at a field: the
        records can be walked element by element without bounds checks."""
        types = {t for _, t in self.fields}
        if len(types) != 1 or self.offset % self.period:
            return False
        size = size_align(next(iter(types)))
        return size is not None and [o for o, _ in self.fields] == list(range(0, self.period, size[0]))

    def key(self) -> str:
        text = f"{self.period}:{self.offset}:" + ",".join(f"{o}:{t}" for o, t in self.fields)
        return hashlib.sha1(text.encode()).hexdigest()[:10]


def copy_helper(module: ModuleOp, action: str, plan: CopyPlan, overlapping: bool) -> str:
    """The name of the helper doing `action` for `plan` (built on first use)."""
    name = f"xenzyme.memcpy.{action}.{plan.key()}{'.overlap' if overlapping else ''}"
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp) and op.sym_name.data == name:
            return name
    fn = _HelperBuilder(module, action, plan, overlapping).build(name)
    module.body.block.add_op(fn)
    return name


class _HelperBuilder:
    """Builds `helper(src_shadow, dst_shadow, nbytes)`: a loop over the records of the copy."""

    def __init__(self, module: ModuleOp, action: str, plan: CopyPlan, overlapping: bool):
        self.module = module
        self.action = action
        self.plan = plan
        self.overlapping = overlapping
        self.blocks: list[Block] = []

    def _block(self, *arg_types: Attribute) -> Block:
        b = Block(arg_types=list(arg_types))
        self.blocks.append(b)
        return b

    def _emitter(self, b: Block) -> Emitter:
        return Emitter(Builder(InsertPoint.at_end(b)), self.module)

    def build(self, name: str) -> xllvm.FuncOp:
        plan = self.plan
        entry = self._block(_PTR, _PTR, i64)
        self.src, self.dst, self.nbytes = entry.args
        done = Block()
        e = self._emitter(entry)
        if plan.dense:
            count = e.insert(xllvm.UDivOp(self.nbytes, _const(e, plan.period)))  # type: ignore[arg-type]
        else:  # records touched: ceil((offset + nbytes) / period)
            end = e.insert(xllvm.AddOp(self.nbytes, _const(e, plan.offset + plan.period - 1)))  # type: ignore[arg-type]
            count = e.insert(xllvm.UDivOp(end, _const(e, plan.period)))  # type: ignore[arg-type]
        self.count = count
        nonempty = e.insert(ext.ICmpOp(count, _const(e, 0), "ne"))
        forward = self._loop(done, backward=False)
        if not self.overlapping:
            e.insert(xllvm.CondBrOp(nonempty, forward, [_const(e, 0)], done, []))
        else:
            # Overlapping ranges: walk so that nothing is read after being overwritten.
            choose = self._block()
            e.insert(xllvm.CondBrOp(nonempty, choose, [], done, []))
            c = self._emitter(choose)
            lower, higher = (self.dst, self.src) if self.action != COPY else (self.src, self.dst)
            back = c.insert(ext.ICmpOp(lower, higher, "ult"))
            last = c.insert(xllvm.SubOp(count, _const(c, 1)))  # type: ignore[arg-type]
            c.insert(xllvm.CondBrOp(back, self._loop(done, backward=True), [last], forward, [_const(c, 0)]))
        self.blocks.append(done)
        done.add_op(xllvm.ReturnOp())
        return xllvm.FuncOp(name, ext.LLVMFunctionType([_PTR, _PTR, i64], ext.LLVMVoidType()),
                            linkage=xllvm.LinkageAttr("internal"), body=Region(self.blocks))  # fmt: skip

    def _loop(self, done: Block, backward: bool) -> Block:
        """A loop over record numbers, up from 0 or down from count - 1."""
        head = self._block(i64)
        r = head.args[0]
        cur = head
        fields = self.plan.fields[::-1] if backward else self.plan.fields
        for off, t in fields:
            cur = self._field(cur, r, off, t)
        e = self._emitter(cur)
        if backward:
            more = e.insert(ext.ICmpOp(r, _const(e, 0), "ne"))
            nxt = e.insert(xllvm.SubOp(r, _const(e, 1)))  # type: ignore[arg-type]
        else:
            nxt = e.insert(xllvm.AddOp(r, _const(e, 1)))  # type: ignore[arg-type]
            more = e.insert(ext.ICmpOp(nxt, self.count, "ult"))
        e.insert(xllvm.CondBrOp(more, head, [nxt], done, []))
        return head

    def _field(self, b: Block, r: SSAValue, off: int, t: Attribute) -> Block:
        """The action on one field of record `r`; returns the block to continue in."""
        plan = self.plan
        e = self._emitter(b)
        base = e.insert(xllvm.MulOp(r, _const(e, plan.period)))  # type: ignore[arg-type]
        pos = e.insert(xllvm.AddOp(base, _const(e, off - plan.offset)))  # type: ignore[arg-type]
        if plan.dense:
            self._act(e, pos, t)
            return b
        size = (size_align(t) or (1, 1))[0]
        start_ok = e.insert(ext.ICmpOp(pos, _const(e, 0), "sge"))
        end = e.insert(xllvm.AddOp(pos, _const(e, size)))  # type: ignore[arg-type]
        end_ok = e.insert(ext.ICmpOp(end, self.nbytes, "sle"))
        inside = e.insert(xllvm.AndOp(start_ok, end_ok))  # type: ignore[arg-type]
        act, cont = self._block(), self._block()
        e.insert(xllvm.CondBrOp(inside, act, [], cont, []))
        a = self._emitter(act)
        self._act(a, pos, t)
        a.insert(xllvm.BrOp(cont))
        return cont

    def _act(self, e: Emitter, pos: SSAValue, t: Attribute) -> None:
        ps = e.insert(ext.GEPOp(self.src, [ext.GEP_USE_SSA_VAL], i8, [pos]))
        pd = e.insert(ext.GEPOp(self.dst, [ext.GEP_USE_SSA_VAL], i8, [pos]))
        if self.action == COPY:
            e.insert(ext.StoreOp(e.insert(xllvm.LoadOp(ps, t)), pd))
            return
        if self.action in (ADJOINT, ATOMIC_ADJOINT):
            d = e.insert(xllvm.LoadOp(pd, t))
            e.insert(ext.StoreOp(e.zero(t), pd))
            e.insert(ad.AccumulateOp(ps, d, mode="atomic" if self.action == ATOMIC_ADJOINT else "plain"))
            return
        e.insert(ext.StoreOp(e.zero(t), pd))


def _const(e: Emitter, v: int) -> SSAValue:
    return e.insert(xllvm.ConstantOp(IntegerAttr(v, i64), i64))
