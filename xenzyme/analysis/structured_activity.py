"""Activity of a structured function (func/arith/math/scf/memref): the analysis of
`activity.py` (`solve`) through `StructuredActivityIR`, its interface to this level.

What differs from the llvm level is the IR, not the analysis:

* carried values are region-carried: an `scf.for`'s initial and yielded values flow into its
  iteration arguments and results, an `scf.if`'s yielded values into its results, an
  `scf.while`'s into its region arguments and results;
* memory objects are the memrefs themselves (a function's arguments and its `memref.alloc`s;
  no pointer arithmetic makes one reach another), so usefulness follows memory too: a useful
  load makes the values stored into its memref useful.  A memref holding varied data gets a
  shadow only where something useful reads it (`shadowed`): a temporary only read by inactive
  code needs none;
* the outputs are the active return's values and the stores into `dup` memrefs.

A store of a varied value into a memref without a shadow (a `const` argument) is recorded in
`unshadowed_stores`: the derivative would be lost there when the value is read back usefully
(its store is then active, which the store's rule rejects) or when nothing else carries a
derivative out (`useful` is empty).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import AnyFloat, MemRefType
from xdsl.ir import BlockArgument, Operation, SSAValue

from xenzyme.analysis.activity import ActivityInfo, Carried, solve
from xenzyme.analysis.memref_views import VIEWS, root


def _float(v: SSAValue) -> bool:
    return isinstance(v.type, AnyFloat)


def _yields(op: Operation) -> list[Operation]:
    return [b.last_op for r in op.regions for b in r.blocks if b.last_op is not None]


@dataclass
class StructuredActivityIR:
    """`ActivityIR` of a `func.func` in the structured dialects."""

    fn: func.FuncOp
    ret_activity: str
    """'active': the returned floats carry derivatives out (every one of them: the tangents of
    forward mode); otherwise none does."""
    stores: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)
    """The values stored into each memref (for usefulness through memory)."""
    copied_from: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)
    """The memrefs `memref.copy` copies into each memref (their stored values reach it too)."""

    def __post_init__(self) -> None:
        for op in self.fn.walk():
            if isinstance(op, memref.StoreOp):
                self.stores.setdefault(root(op.memref), []).append(op.value)
            elif isinstance(op, memref.CopyOp):
                self.copied_from.setdefault(root(op.destination), []).append(root(op.source))

    def steps(self) -> Iterable[Operation | Carried]:
        for op in self.fn.walk():
            if op is self.fn:
                continue
            yield op
            yield from _carried(op)

    def join(self, info: ActivityInfo, value: SSAValue, into: SSAValue) -> bool:
        if value in info.varied and _float(into) and into not in info.varied:
            info.varied.add(into)
            return True
        return False

    def transfer(self, info: ActivityInfo, op: Operation) -> bool:
        if op.regions:
            return False  # (its results: carried values)
        if isinstance(op, memref.LoadOp):
            varied = root(op.memref) in info.shadowed_objects
        elif isinstance(op, memref.StoreOp):
            if op.value not in info.varied:
                return False
            changed = False
            obj = root(op.memref)  # (a view's memory is its source's)
            if obj not in info.shadowed and op not in info.unshadowed_stores and _is_argument(obj):
                info.unshadowed_stores.append(op)
                changed = True
            if obj not in info.shadowed_objects:  # (a `const` argument too: read back, the store is active)
                info.shadowed_objects.add(obj)
                changed = True
            return changed
        elif isinstance(op, memref.CopyOp):  # a load of every element and a store of it
            src, dst = root(op.source), root(op.destination)
            if src not in info.shadowed_objects or dst in info.shadowed_objects:
                return False
            info.shadowed_objects.add(dst)
            return True
        elif isinstance(op, func.CallOp):  # a callee reads the memrefs it is given (writes are rejected)
            varied = any(o in info.varied or root(o) in info.shadowed_objects for o in op.operands)
        else:
            varied = any(o in info.varied for o in op.operands)
        changed = False
        for r in op.results:
            if varied and _float(r) and r not in info.varied:
                info.varied.add(r)
                changed = True
        return changed

    def outputs(self, info: ActivityInfo) -> Iterable[SSAValue]:
        for op in self.fn.walk():
            if isinstance(op, func.ReturnOp) and op.parent_op() is self.fn and self.ret_activity == "active":
                yield from op.operands
            elif isinstance(op, memref.StoreOp) and root(op.memref) in info.shadowed and _is_argument(root(op.memref)):
                yield op.value

    def _stored(self, m: SSAValue) -> list[SSAValue]:
        """The values stored into memory `m` (a root memref), directly or through copies."""
        out: list[SSAValue] = []
        seen, work = set(), [m]
        while work:
            x = work.pop()
            if x not in seen:
                seen.add(x)
                out += self.stores.get(x, [])
                work += self.copied_from.get(x, [])
        return out

    def inputs(self, info: ActivityInfo, op: Operation) -> Iterable[SSAValue]:
        if isinstance(op, memref.LoadOp):
            return self._stored(root(op.memref))
        if isinstance(op, func.CallOp):
            return [*op.operands, *(v for o in op.operands if isinstance(o.type, MemRefType)
                                    for v in self._stored(root(o)))]  # fmt: skip
        return op.operands


def _is_argument(m: SSAValue) -> bool:
    return isinstance(m, BlockArgument) and m.owner.parent_op() is not None and isinstance(m.owner.parent_op(), func.FuncOp)  # type: ignore[union-attr]


def _carried(op: Operation) -> Iterable[Carried]:
    """The values `op` carries into its region arguments and results."""
    if isinstance(op, scf.ForOp):
        yielded = op.body.block.last_op
        assert yielded is not None
        for init, arg, out, r in zip(op.iter_args, op.body.block.args[1:], yielded.operands, op.results, strict=True):
            yield from ((init, arg), (out, arg), (init, r), (out, r))
    elif isinstance(op, scf.WhileOp):
        before, after = op.before_region.block, op.after_region.block
        cond, yielded = before.last_op, after.last_op
        assert cond is not None and yielded is not None
        for init, out, arg in zip(op.arguments, yielded.operands, before.args, strict=True):
            yield from ((init, arg), (out, arg))
        for v, arg, r in zip(cond.operands[1:], after.args, op.results, strict=True):
            yield from ((v, arg), (v, r))
    elif op.results and op.regions:  # (scf.if, scf.execute_region: what each region yields)
        for term in _yields(op):
            if len(term.operands) == len(op.results):
                yield from zip(term.operands, op.results, strict=True)


def analyze_structured(fn: func.FuncOp, activities: Sequence[str], ret_activity: str) -> ActivityInfo:
    """The activity of `fn`'s values for the given argument activities: `active` floats (and
    `dup` floats in forward mode) are varied, `dup` memrefs shadowed; a memref allocated in
    `fn` is shadowed when it holds varied data that something useful reads."""
    info = ActivityInfo()
    params = list(fn.body.blocks[0].args)
    for p, a in zip(params, activities, strict=True):
        if a in ("active", "dup", "dupnoneed") and _float(p):
            info.varied.add(p)
        elif a in ("dup", "dupnoneed") and isinstance(p.type, MemRefType):
            info.shadowed.add(p)
            info.shadowed_objects.add(p)
    ir = StructuredActivityIR(fn, ret_activity)
    solve(ir, info)
    read_usefully = {root(op.memref) for op in fn.walk() if isinstance(op, memref.LoadOp) and op.res in info.useful}
    read_usefully |= {o for op in fn.walk() if isinstance(op, func.CallOp) and any(r in info.useful for r in op.results)
                      for o in op.operands if isinstance(o.type, MemRefType)}  # fmt: skip
    for m in info.shadowed_objects:
        if not _is_argument(m) and m in read_usefully:
            info.shadowed.add(m)
    for op in fn.walk():  # a view of memory with a shadow has one: the same view of the shadow
        if isinstance(op, VIEWS) and root(op.results[0]) in info.shadowed:
            info.shadowed.add(op.results[0])
    info.unshadowed_stores = [s for s in info.unshadowed_stores if s.operands[1] not in info.shadowed]  # (store: value, memref)
    return info
