"""Reverse mode at the structured level: a `func.func` in func/arith/math/scf/memref
differentiated into a `func.func` of the same dialects.

    func.func @f(%x: f64, %a: memref<4xf64>) -> f64
      ==>
    func.func private @diffe_f(%x: f64, %a: memref<4xf64>, %da: memref<4xf64>, %seed: f64) -> f64 {
      <forward sweep: the body of @f, plus shadows of allocations and stores into caches>
      <reverse sweep: each op's reverse, last first; region ops reversed as region ops>
      func.return <adjoint of %x>
    }

The function has one block; its region ops (scf.for, scf.if) hold blocks of their own, and the
reverse sweep keeps a *frame* per reversed block.  Adjoints are SSA values (`adjoints`), which
region ops carry in and out as loop arguments and results (rules/scf.py).  A primal value the
reverse sweep needs (`get`) is the forward sweep's when defined in the function's own block;
inside a region it is recomputed at the head of its reversed block when its op has no effect
(or only reads memory nothing in the function writes), or cached: stored in the forward sweep
into a memref indexed by the iterations of the loops around it, whose shape is their trip counts
(known before the outermost of them starts), and loaded in the reverse sweep.  Which values are
cached is the llvm level's minimum cut (analysis/cache_plan.py), on what a planning run of the
same builder asked for.  Activity is the llvm level's analysis through its structured interface
(analysis/structured_activity.py).

What this level does not take (an op without a structured rule, a loop whose bounds change
inside an enclosing loop, an allocation in a loop, a call of a function that writes memory)
raises `StructuredUnsupported`; the caller then lowers the module to llvm and differentiates
there.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NoReturn

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IntegerType, MemRefType, ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, MemoryEffectKind, has_effects, only_has_effect

from xenzyme.analysis.activity import ActivityInfo
from xenzyme.analysis.cache_plan import cache_cost, minimum_cache_cut
from xenzyme.analysis.memref_views import aliases_of_written
from xenzyme.analysis.structured_activity import analyze_structured
from xenzyme.diagnostics import XenzymeError
from xenzyme.rules import OpRule, rule_for
from xenzyme.rules.structured import (
    ConstantPool,
    StructuredEmitter,
    constant_int,
    index,
    reverse_zero,
    static_trip_count,
)
from xenzyme.transforms.diff.errors import location_of


class StructuredUnsupported(XenzymeError):
    """The structured level cannot differentiate this function (the llvm level may)."""


def _unsupported(op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
    raise StructuredUnsupported(f"'{op.name}' {message}", location_of(op), list(notes))


STRUCTURED_RULES = frozenset({"arith", "math", "memref", "scf", "func"})
"""The dialects whose ops this level differentiates (any other op sends the function to the llvm level)."""


def _rule(op: Operation) -> OpRule | None:
    return rule_for(op) if op.dialect_name() in STRUCTURED_RULES else None


def _owner_op(v: SSAValue) -> Operation | None:
    return v.owner.parent_op() if isinstance(v, BlockArgument) else v.owner  # type: ignore[union-attr]


def _def_block(v: SSAValue) -> Block | None:
    return v.owner if isinstance(v, BlockArgument) else v.owner.parent_block()  # type: ignore[return-value, union-attr]


def _inside(v: SSAValue, op: Operation) -> bool:
    """Whether `v` is defined in one of `op`'s regions (not: a result of `op`)."""
    o = v.owner.parent_op()  # (a block argument's op, or the op around the defining op)
    while o is not None:
        if o is op:
            return True
        o = o.parent_op()
    return False


def _in_region(v: SSAValue, region: Region) -> bool:
    """Whether `v` is defined in `region` (at any depth)."""
    b = _def_block(v)
    while b is not None:
        if b.parent is region:
            return True
        o = b.parent_op()
        b = o.parent_block() if o is not None else None
    return False


class StructuredGenerator:
    """The derivative functions of a module's `func.func`s, built on demand (one per function
    and activities), added to the module by `commit` once all of them could be built."""

    def __init__(self, module: ModuleOp, mincut: bool = True):
        self.module = module
        self.mincut = mincut
        """Choose the cached values by a minimum cut (`_Builder.plan_caches`); otherwise each
        needed value is recomputed from its operands down to values that cannot be."""
        self.functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
        self.names: dict[tuple[str, tuple[str, ...], str], str] = {}
        self.caches: dict[str, list[MemRefType]] = {}
        """The cache memrefs of each derivative function built (for reports of cache bytes)."""
        self.built: list[func.FuncOp] = []
        self.taken = set(self.functions)

    def tangent(self, name: str, activity: Sequence[str], width: int, at: Operation | None = None) -> str:
        """The name of the tangent function of @name (see `_ForwardBuilder`)."""
        return self.gradient(name, activity, f"tangent{width}", at)

    def gradient(self, name: str, activity: Sequence[str], ret: str, at: Operation | None = None) -> str:
        key = (name, tuple(activity), ret)
        if key in self.names:
            return self.names[key]
        fn = self.functions.get(name)
        if fn is None or not fn.body.blocks:
            if at is not None:
                _unsupported(at, f"needs the derivative of @{name}, whose body is not a func.func of the module")
            raise StructuredUnsupported(f"no func.func named @{name} with a body in the module")
        forward = ret.startswith("tangent")
        stem = f"fwddiffe_{name}" if forward else f"diffe_{name}"
        out, k = stem, 1
        while out in self.taken:
            out, k = f"{stem}_{k}", k + 1
        self.taken.add(out)
        self.names[key] = out
        at_ = len(self.built)
        plan = None
        if not forward and self.mincut and any(o.regions for o in fn.walk() if o is not fn):
            # A planning run records what the reverse sweep needs; the cut chooses the caches.
            planning = _Builder(self, fn, list(activity), ret, out, planning=True)
            planning.build()
            plan = planning.plan_caches()
        builder = (_ForwardBuilder(self, fn, list(activity), int(ret[len("tangent"):]), out) if forward
                   else _Builder(self, fn, list(activity), ret, out, plan))  # fmt: skip
        self.built.insert(at_, builder.build())  # (before its callees')
        self.caches[out] = [c.type for c in getattr(builder, "cache_memrefs", [])]  # type: ignore[misc]
        return out

    def commit(self) -> None:
        for f in self.built:
            self.module.body.block.add_op(f)
        self.built = []


@dataclass(eq=False)
class _Frame:
    """A primal block being reversed into `block`."""

    primal: Block | None
    block: Block
    values: dict[SSAValue, SSAValue] = field(default_factory=dict)
    head: Operation | None = None
    """The last op put at the head of `block` (recomputed and reloaded values)."""
    loop: Operation | None = None
    """The primal loop when `primal` is its body."""
    iteration: SSAValue | None = None
    """The primal iteration number (0, 1, ...) this reversed iteration is."""

    def put(self, op: Operation) -> Operation:
        if self.head is not None:
            StructuredEmitter.after(self.head).emit(op)
        elif self.block.first_op is not None:
            Rewriter.insert_op(op, InsertPoint.before(self.block.first_op))
        else:
            self.block.add_op(op)
        self.head = op
        return op


class _RuleContext:
    """What both builders answer the rules alike: errors naming the function being
    differentiated, and activity (`self.fn`, `self.info` set by each builder)."""

    fn: func.FuncOp
    info: ActivityInfo

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        _unsupported(op, f"{message} (differentiating @{self.fn.sym_name.data})", notes)

    def reject(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        raise XenzymeError(f"'{op.name}' {message} (differentiating @{self.fn.sym_name.data})", location_of(op),
                           list(notes))  # fmt: skip

    def active(self, v: SSAValue) -> bool:
        """Varied and useful: `v` depends on an active input and an output depends on it."""
        return self.info.is_active(v)

    def needs_shadow(self, m: SSAValue) -> bool:
        """Whether memref `m`, allocated in the function, holds data whose derivative is used."""
        return m in self.info.shadowed

    def analyze(self, ret_activity: str) -> None:
        """Activity (`info`); a store of varied data into a `const` memref is an error when it
        is read back into something useful (its derivative would be lost there), or when
        nothing else carries a derivative out (what was asked for went there)."""
        info = self.info = analyze_structured(self.fn, self.activity, ret_activity)  # type: ignore[attr-defined]
        for store in info.unshadowed_stores:
            if not info.useful or info.is_active(store.operands[0]):
                self.reject(store, STORE_WITHOUT_SHADOW,
                            ["pass that memref 'dup' (with a shadow array), or allocate it in the function"])  # fmt: skip


STORE_WITHOUT_SHADOW = "stores a value that carries a derivative into a memref without a shadow"


class _Builder(_RuleContext):
    """One derivative function (see the module docstring); it is the rules' context too."""

    def __init__(self, gen: StructuredGenerator, fn: func.FuncOp, activity: list[str], ret: str, name: str,
                 plan: set[SSAValue] | None = None, planning: bool = False):  # fmt: skip
        self.gen, self.fn, self.activity, self.ret, self.name = gen, fn, activity, ret, name
        self.plan = plan
        """The values to cache (a minimum cut); None: each needed value that cannot be recomputed."""
        self.planning = planning
        """A run that records what the reverse sweep asks for (`requests`), for the cut."""
        self.requests: list[SSAValue] = []
        self._recomputing = 0
        self.adjoints: dict[SSAValue, SSAValue] = {}
        self.shadows: dict[SSAValue, SSAValue] = {}
        self.frames: list[_Frame] = []
        self.caches: dict[SSAValue, tuple[SSAValue, list[Operation]]] = {}
        self.cache_memrefs: list[SSAValue] = []
        self.fwd_iteration: dict[Operation, SSAValue] = {}
        self.trips: dict[Operation, tuple[SSAValue, SSAValue, SSAValue]] = {}
        """Per while loop: the times its forward copy ran its body, and the copy's iteration
        numbers in its `before` and `after` blocks (see `while_trips`)."""
        self.counts: dict[Operation, SSAValue] = {}
        """Per while loop whose values are cached: its trip count from the counting run."""

    # ---- building -------------------------------------------------------------------------

    def build(self) -> func.FuncOp:
        fn = self.fn
        if len(fn.body.blocks) != 1:
            _unsupported(fn, f"@{fn.sym_name.data} has several blocks (cf branches): the structured reverse mode "
                         "reverses scf regions only")  # fmt: skip
        entry = fn.body.blocks[0]
        params = list(entry.args)
        if len(self.activity) != len(params):
            raise XenzymeError(f"@{fn.sym_name.data} takes {len(params)} arguments, {len(self.activity)} activities given")
        outputs = list(fn.function_type.outputs.data)
        ret_active = self.ret == "active"
        if ret_active and (len(outputs) != 1 or not isinstance(outputs[0], AnyFloat)):
            _unsupported(fn, f"@{fn.sym_name.data} does not return one float, so its return cannot be 'active'")
        ret_op = entry.last_op
        assert isinstance(ret_op, func.ReturnOp)
        # The forward sweep: a copy of the body; shadow parameters and the seed added.
        self.fwd_map: dict[SSAValue, SSAValue] = {}
        region = Region()
        fn.body.clone_into(region, value_mapper=self.fwd_map, block_mapper={})
        self.fwd_ops = dict(zip(fn.body.walk(), region.walk(), strict=True))
        new_entry = region.blocks[0]
        self.pool = ConstantPool(new_entry)
        inputs, results, pos = [], [], 0
        for p, a in zip(params, self.activity, strict=True):
            inputs.append(p.type)
            pos += 1
            if a in ("dup", "dupnoneed"):
                if not isinstance(p.type, MemRefType):
                    raise XenzymeError(f"argument {p.index} of @{fn.sym_name.data} is marked '{a}' but is not a memref")
                self.shadows[p] = new_entry.insert_arg(p.type, pos)
                self.shadows[p].name_hint = f"d{p.name_hint}" if p.name_hint else None
                inputs.append(p.type)
                pos += 1
            elif a == "active":
                if not isinstance(p.type, AnyFloat):
                    raise XenzymeError(f"argument {p.index} of @{fn.sym_name.data} is marked 'active' but is not a float")
                results.append(p.type)
        seed = new_entry.insert_arg(outputs[0], pos) if ret_active else None
        if seed is not None:
            seed.name_hint = "seed"
            inputs.append(outputs[0])
        new = func.FuncOp(self.name, (inputs, results), region, visibility="private")
        self.analyze("active" if ret_active else "none")
        for op in fn.body.walk():
            rule = _rule(op)
            if rule is None:
                _unsupported(op, "has no derivative rule at the structured level",
                             ["the module is lowered to the llvm dialect and differentiated there"])  # fmt: skip
            if op is ret_op:
                continue
            if rule.augment is not None:
                self.e = StructuredEmitter.after(self.fwd_ops[op], self.pool)
                rule.augment(self, op)  # type: ignore[arg-type]
            if rule.emits_primal:
                Rewriter.erase_op(self.fwd_ops[op])
        self.written = aliases_of_written(fn, {v for o in fn.walk() if o is not fn and not o.regions
                                               and not isinstance(o, func.CallOp) and has_effects(o, MemoryEffectKind.WRITE)
                                               for v in o.operands if isinstance(v.type, MemRefType)})
        """Memrefs the function writes, and their views (a call's callee is checked apart: see `derivative`)."""  # fmt: skip
        # The reverse sweep, before the copy of the return.
        fwd_ret = self.fwd_ops[ret_op]
        self.e = StructuredEmitter(InsertPoint.before(fwd_ret), self.pool)
        self.frames = [_Frame(entry, new_entry)]
        if seed is not None:
            self.accumulate(ret_op.operands[0], seed)
        self.reverse_ops(entry)
        outs = [reverse_zero(self, p) for p, a in zip(params, self.activity, strict=True) if a == "active"]
        for c in self.cache_memrefs:
            self.e.dealloc(c)
        self.e.emit(func.ReturnOp(*outs))
        Rewriter.erase_op(fwd_ret)
        return new

    # ---- the context the rules see ----------------------------------------------------------

    def shadowed(self, m: SSAValue) -> bool:
        return m in self.shadows

    def shadow(self, m: SSAValue) -> SSAValue:
        if m not in self.shadows:
            _unsupported(_owner_op(m) or self.fn, "has no shadow")
        return self.shadows[m]

    def fwd(self, v: SSAValue) -> SSAValue:
        return self.fwd_map[v]

    def set_shadow(self, m: SSAValue, shadow: SSAValue) -> None:
        self.shadows[m] = shadow

    def in_loop(self, op: Operation) -> bool:
        p = op.parent_op()
        while p is not None and p is not self.fn:
            if isinstance(p, scf.ForOp) or p.name in ("scf.while", "scf.parallel"):
                return True
            p = p.parent_op()
        return False

    def adjoint(self, v: SSAValue) -> SSAValue | None:
        return self.adjoints.pop(v, None)

    def current_adjoint(self, v: SSAValue) -> SSAValue:
        if (a := self.adjoints.get(v)) is None:
            a = self.adjoints[v] = self.e.zero(v.type)
        return a

    def set_adjoint(self, v: SSAValue, a: SSAValue) -> None:
        self.adjoints[v] = a

    def accumulate(self, v: SSAValue, d: SSAValue) -> None:
        if not self.active(v):
            return
        cur = self.adjoints.get(v)
        self.adjoints[v] = d if cur is None else self.e.add(cur, d)

    def free_adjoints(self, op: Operation) -> list[SSAValue]:
        seen: dict[SSAValue, None] = {}
        for o in op.walk():
            if o is op:
                continue
            for v in o.operands:
                if self.active(v) and not _inside(v, op):
                    seen[v] = None
        return list(seen)

    def reverse_ops(self, primal: Block) -> None:
        ops = list(primal.ops)
        if ops and ops[-1].has_trait(IsTerminator):
            ops.pop()
        for op in reversed(ops):
            rule = _rule(op)
            assert rule is not None
            if rule.reverse is not None:
                rule.reverse(self, op)  # type: ignore[arg-type]
            elif any(self.active(r) for r in op.results):
                _unsupported(op, "has no reverse rule but its result carries a derivative")

    @contextmanager
    def region(self, primal: Block | None, block: Block | None,
               loop: tuple[SSAValue, SSAValue, SSAValue] | None = None,
               iteration: SSAValue | None = None) -> Iterator[None]:  # fmt: skip
        outer_e = self.e
        if block is None:  # reversed in place, where the sweep is
            point = self.e.point
            block = point.block
            prev = point.insert_before.prev_op if point.insert_before is not None else block.last_op
            frame = _Frame(primal, block, head=prev)
        else:
            frame = _Frame(primal, block, head=block.last_op)
            self.e = StructuredEmitter.at_end(block, self.pool)
        if iteration is not None:  # a while loop's block: the iteration is given
            assert primal is not None
            frame.loop, frame.iteration = primal.parent_op(), iteration
        elif loop is not None:
            assert primal is not None
            lb, step, last = loop
            e = self.e
            j = e.subi(last, block.args[0])
            iv = j if constant_int(lb) == 0 and constant_int(step) == 1 else e.addi(lb, e.muli(j, step))
            if primal.args[0].name_hint:
                iv.name_hint = f"{primal.args[0].name_hint}_rev"
            frame.loop, frame.iteration, frame.head = primal.parent_op(), j, iv.owner  # type: ignore[assignment]
            frame.values[primal.args[0]] = iv
        self.frames.append(frame)
        try:
            yield
        finally:
            self.frames.pop()
            self.e = outer_e
            if primal is not None:
                owner = primal.parent_op()
                for v in [v for v in self.adjoints if owner is not None and _inside(v, owner)]:
                    del self.adjoints[v]

    def derivative(self, op: Operation, callee: str, activity: Sequence[str], ret: str) -> str:
        target = self.gen.functions.get(callee)
        if target is None:
            _unsupported(op, f"calls @{callee}, which is not a func.func of the module")
        if _writes_memory(target, self.gen.functions, set()):
            self.fail(op, f"calls @{callee}, which writes memory: the structured reverse mode calls the "
                      "derivatives of functions that only read it")  # fmt: skip
        for a in op.operands:
            if isinstance(a.type, MemRefType) and a in self.written:
                self.fail(op, "passes a memref that the function also writes to a call")
        return self.gen.gradient(callee, activity, ret, op)

    # ---- while loops ---------------------------------------------------------------------------

    def while_trips(self, op: Operation) -> SSAValue:
        """The times the forward copy of while loop `op` ran its body: the copy carries one more
        index, its iteration number, which it returns (usable anywhere after the copy, as `op`
        is in the function's own block: one run of it, a trip count for the reverse sweep)."""
        assert isinstance(op, scf.WhileOp)
        if op in self.trips:
            return self.trips[op][0]
        if op.parent_block() is not self.fn.body.blocks[0]:
            _unsupported(op, "is inside a region: the structured reverse mode reverses while loops in the function's "
                         "own block (the trip count of a nested one would need caching per run)")  # fmt: skip
        old = self.fwd_ops[op]
        assert isinstance(old, scf.WhileOp)
        before, after = (old.detach_region(r) for r in (old.before_region, old.after_region))
        kb = before.block.insert_arg(index, len(before.block.args))
        ka = after.block.insert_arg(index, len(after.block.args))
        kb.name_hint = ka.name_hint = "trip"
        cond, yielded = before.block.last_op, after.block.last_op
        assert isinstance(cond, scf.ConditionOp) and isinstance(yielded, scf.YieldOp)
        new_cond = scf.ConditionOp(cond.condition, *cond.args, kb)
        Rewriter.replace_op(cond, new_cond)
        e = StructuredEmitter(InsertPoint.before(yielded), self.pool)
        new_yield = scf.YieldOp(*yielded.operands, e.addi(ka, e.const(1, index)))
        Rewriter.replace_op(yielded, new_yield)
        new = scf.WhileOp([*old.arguments, self.pool.get(0, index)], [*old.result_types, index], before, after)
        Rewriter.replace_op(old, new, new_results=new.results[:-1])
        self.fwd_ops[op] = new
        self.fwd_ops[op.before_region.block.last_op] = new_cond  # type: ignore[index]
        self.fwd_ops[op.after_region.block.last_op] = new_yield  # type: ignore[index]
        for r, n in zip(op.results, new.results, strict=False):
            self.fwd_map[r] = n
        n = new.results[-1]
        n.name_hint = "trips"
        self.trips[op] = (n, kb, ka)
        return n

    def _counted_trips(self, op: Operation) -> SSAValue:
        """The trip count of while loop `op` known before its forward copy starts, to size the
        caches of its values: a first run of the loop that only counts (so the loop must not
        write memory, which the second run would see changed)."""
        if op in self.counts:
            return self.counts[op]
        for o in op.walk():
            if o is op:
                continue
            if isinstance(o, func.CallOp):
                callee = self.gen.functions.get(o.callee.string_value())
                if callee is None or _writes_memory(callee, self.gen.functions, set()):
                    _unsupported(o, "is called in a while loop whose values the reverse sweep caches: the structured "
                                 "reverse mode runs such a loop twice (counting its trips to size the caches first), "
                                 "which needs a loop that does not write memory")  # fmt: skip
            elif not o.regions and (has_effects(o, MemoryEffectKind.WRITE) or has_effects(o, MemoryEffectKind.ALLOC)):
                _unsupported(o, "writes memory in a while loop whose values the reverse sweep caches: the structured "
                             "reverse mode runs such a loop twice (counting its trips to size the caches first), which "
                             "needs a loop that does not write memory")  # fmt: skip
        self.while_trips(op)
        fwd = self.fwd_ops[op]
        counting = fwd.clone()
        Rewriter.insert_op(counting, InsertPoint.before(fwd))
        n = counting.results[-1]
        n.name_hint = "trips_counted"
        self.counts[op] = n
        return n

    # ---- primal values in the reverse sweep --------------------------------------------------

    def get(self, v: SSAValue) -> SSAValue:
        block = _def_block(v)
        frame = next((f for f in reversed(self.frames) if f.primal is block), None)
        if frame is None:
            _unsupported(_owner_op(v) or self.fn, "defines a value the reverse sweep cannot reach")
        if frame is self.frames[0]:
            return self.fwd_map[v]
        if self.planning and not self._recomputing:
            self.requests.append(v)
        if v in frame.values:
            return frame.values[v]
        op = v.owner
        if (self.plan is None or v not in self.plan) and isinstance(op, Operation) and self._recomputable(op):
            self._recomputing += 1
            try:
                operands = [self.get(o) for o in op.operands]
            finally:
                self._recomputing -= 1
            new = frame.put(op.clone(value_mapper=dict(zip(op.operands, operands, strict=True))))
            for r, n in zip(op.results, new.results, strict=True):
                frame.values[r] = n
            return frame.values[v]
        cache, loops = self._cache(v)
        idx = [f.iteration for f in self.frames if f.loop is not None and f.loop in loops]
        load = frame.put(memref.LoadOp.get(cache, idx))  # type: ignore[arg-type]
        load.results[0].name_hint = v.name_hint
        frame.values[v] = load.results[0]
        return load.results[0]

    def _recomputable(self, op: Operation) -> bool:
        if op.regions:
            return False
        rule = _rule(op)
        if rule is not None and rule.recomputable:
            return True
        return only_has_effect(op, MemoryEffectKind.READ) and not any(o in self.written for o in op.operands)

    def plan_caches(self) -> set[SSAValue]:
        """After a planning run: the values to cache, a minimum cut (analysis/cache_plan.py)
        with the llvm level's cost model -- bytes, times 16 per loop around the definition.  A
        value is free where the reverse sweep has it as it is (defined in the function's own
        block, a loop's induction variable), recomputed from its operands when its op may be
        repeated (`_recomputable`), and otherwise (loop-carried values, region results, loads of
        memory the function writes) must come from a cache."""

        def inputs(v: SSAValue) -> list[SSAValue] | None:
            if _def_block(v) is self.fn.body.blocks[0]:
                return []
            if isinstance(v, BlockArgument):
                return [] if isinstance(v.owner.parent_op(), scf.ForOp) and v.index == 0 else None
            op = v.owner
            assert isinstance(op, Operation)
            return list(op.operands) if self._recomputable(op) else None

        def cost(v: SSAValue) -> int:
            return cache_cost(_bytes(v.type), len(self._loops_around(v)))

        return minimum_cache_cut(self.requests, inputs, cost)  # type: ignore[return-value]

    def _loops_around(self, v: SSAValue) -> list[Operation]:
        """The scf.for loops around the definition of `v`, outermost first."""
        loops = []
        p = v.owner.parent_op()
        while p is not None and p is not self.fn:
            if isinstance(p, scf.ForOp):
                loops.append(p)
            p = p.parent_op()
        return loops[::-1]

    def _cache(self, v: SSAValue) -> tuple[SSAValue, list[Operation]]:
        """The memref holding `v` for each iteration of the loops around it, and those loops
        (outermost first); stored into in the forward sweep where `v` is defined."""
        if v in self.caches:
            return self.caches[v]

        around: list[Operation] = []
        p = v.owner.parent_op()
        while p is not None and p is not self.fn:
            around.append(p)
            p = p.parent_op()
        around.reverse()
        outermost = around[0]
        loops = [o for o in around if isinstance(o, scf.ForOp | scf.WhileOp)]
        if isinstance(outermost, scf.WhileOp):
            self._counted_trips(outermost)  # (before the caches are allocated, which need it)
        fe = StructuredEmitter(InsertPoint.before(self.fwd_ops[outermost]), self.pool)
        shape, sizes = [], []
        for loop in loops:
            if isinstance(loop, scf.WhileOp):  # (the outermost: `while_trips` allows no other)
                shape.append(DYNAMIC_INDEX)
                n = self.counts[loop]
                in_before = _in_region(v, loop.before_region)
                sizes.append(fe.addi(n, fe.const(1, index)) if in_before else n)
                continue
            assert isinstance(loop, scf.ForOp)
            c = static_trip_count(loop.lb, loop.ub, loop.step)
            shape.append(c if c is not None else DYNAMIC_INDEX)
            if c is not None:
                continue
            for bound in (loop.lb, loop.ub, loop.step):
                if _inside(bound, outermost):
                    _unsupported(loop, "has bounds that change inside an enclosing loop: the structured reverse "
                                 "mode sizes its caches by trip counts known before the outermost loop starts")  # fmt: skip
            sizes.append(fe.trip_count(self.fwd_map[loop.lb], self.fwd_map[loop.ub], self.fwd_map[loop.step]))
        cache = fe.alloc(MemRefType(v.type, shape), sizes)
        cache.name_hint = f"{v.name_hint}_cache" if v.name_hint else "cache"
        self.cache_memrefs.append(cache)
        idx = [self._fwd_iteration(loop, v) for loop in loops]
        if isinstance(v, BlockArgument):
            body = self.fwd_map[v].owner
            assert isinstance(body, Block)
            last = idx[-1].owner if idx and isinstance(idx[-1].owner, Operation) and idx[-1].owner.parent_block() is body else None
            se = StructuredEmitter.after(last) if last is not None else StructuredEmitter(InsertPoint.at_start(body))
        else:
            se = StructuredEmitter.after(self.fwd_ops[v.owner])  # type: ignore[index]
        se.store(self.fwd_map[v], cache, idx)
        self.caches[v] = (cache, loops)
        return self.caches[v]

    def _fwd_iteration(self, loop: Operation, v: SSAValue) -> SSAValue:
        """The iteration number of the forward copy of `loop`, at the start of its body (of a
        while loop: of the block whose region holds `v`)."""
        if isinstance(loop, scf.WhileOp):
            _, kb, ka = self.trips[loop]
            return kb if _in_region(v, loop.before_region) else ka
        assert isinstance(loop, scf.ForOp)
        if loop in self.fwd_iteration:
            return self.fwd_iteration[loop]
        body = self.fwd_map[loop.body.block.args[0]].owner
        assert isinstance(body, Block)
        iv = body.args[0]
        lb, step = self.fwd_map[loop.lb], self.fwd_map[loop.step]
        if constant_int(lb) == 0 and constant_int(step) == 1:
            k = iv
        else:
            e = StructuredEmitter(InsertPoint.at_start(body), self.pool)
            k = e.divsi(e.subi(iv, lb), step)
        self.fwd_iteration[loop] = k
        return k


def _bytes(t: Attribute) -> int:
    """The bytes of a scalar of type `t` in a cache memref."""
    if isinstance(t, AnyFloat):
        return t.bitwidth // 8
    if isinstance(t, IntegerType):
        return max(1, t.width.data // 8)
    return 8  # (index)


def _writes_memory(fn: func.FuncOp, functions: dict[str, func.FuncOp], seen: set[str]) -> bool:
    """Whether `fn`, or a function it calls, writes or allocates memory."""
    seen.add(fn.sym_name.data)
    for o in fn.walk():
        if isinstance(o, func.CallOp):
            callee = functions.get(o.callee.string_value())
            if callee is None or (callee.sym_name.data not in seen and _writes_memory(callee, functions, seen)):
                return True
        elif o is not fn and not o.regions and (has_effects(o, MemoryEffectKind.WRITE) or has_effects(o, MemoryEffectKind.ALLOC)):
            return True
    return False


class _ForwardBuilder(_RuleContext):
    """One tangent function (forward mode): the body copied op by op, each op's tangents after
    it; a region op's rule emits the op again with its tangents carried.  Parameters: the
    function's, `width` tangents after each `dup` one (a float's tangents, a memref's shadows);
    results: the function's, then `width` tangents of each float result."""

    def __init__(self, gen: StructuredGenerator, fn: func.FuncOp, activity: list[str], width: int, name: str):
        self.gen, self.fn, self.activity, self.width, self.name = gen, fn, activity, width, name
        self.values: dict[SSAValue, SSAValue] = {}
        self.tangents: dict[SSAValue, list[SSAValue]] = {}
        self.copies: dict[Operation, Operation] = {}

    def build(self) -> func.FuncOp:
        fn, w = self.fn, self.width
        if len(fn.body.blocks) != 1:
            _unsupported(fn, f"@{fn.sym_name.data} has several blocks (cf branches): the structured forward mode "
                         "follows scf regions only")  # fmt: skip
        entry = fn.body.blocks[0]
        params = list(entry.args)
        if len(self.activity) != len(params):
            raise XenzymeError(f"@{fn.sym_name.data} takes {len(params)} arguments, {len(self.activity)} activities given")
        types: list = []
        for p, a in zip(params, self.activity, strict=True):
            types += [p.type] * (1 + (w if a in ("dup", "dupnoneed") else 0))
        block = Block(arg_types=types)
        it = iter(block.args)
        for p, a in zip(params, self.activity, strict=True):
            self.values[p] = next(it)
            self.values[p].name_hint = p.name_hint
            if a in ("dup", "dupnoneed"):
                self.tangents[p] = [next(it) for _ in range(w)]
                for k, t in enumerate(self.tangents[p]):
                    t.name_hint = f"d{p.name_hint}{k if w > 1 else ''}" if p.name_hint else None
        self.analyze("active")  # (every float result carries its tangents out)
        ret_op = entry.last_op
        assert isinstance(ret_op, func.ReturnOp)
        outputs = list(fn.function_type.outputs.data)
        self.pool = ConstantPool(block)
        self.e = StructuredEmitter.at_end(block, self.pool)
        self.forward_ops(entry)
        floats = [v for v in ret_op.operands if isinstance(v.type, AnyFloat)]
        self.e.emit(func.ReturnOp(*[self.get(v) for v in ret_op.operands], *[t for v in floats for t in self.tangent(v)]))
        results = outputs + [v.type for v in floats for _ in range(w)]
        return func.FuncOp(self.name, (types, results), Region(block), visibility="private")

    # ---- the context the rules see ----------------------------------------------------------

    def shadowed(self, m: SSAValue) -> bool:
        return m in self.tangents

    def get(self, v: SSAValue) -> SSAValue:
        return self.values[v]

    def map(self, v: SSAValue, new: SSAValue) -> None:
        self.values[v] = new
        if v.name_hint and not new.name_hint:
            new.name_hint = v.name_hint

    def tangent(self, v: SSAValue) -> list[SSAValue]:
        if v in self.tangents:
            return self.tangents[v]
        if isinstance(v.type, MemRefType):
            _unsupported(_owner_op(v) or self.fn, "has no shadow")
        return [self.e.zero(v.type) for _ in range(self.width)]

    def set_tangent(self, v: SSAValue, tangents: Sequence[SSAValue]) -> None:
        self.tangents[v] = list(tangents)

    @contextmanager
    def region(self, primal: Block, block: Block) -> Iterator[None]:
        outer = self.e
        self.e = StructuredEmitter.at_end(block, self.pool)
        try:
            yield
        finally:
            self.e = outer

    def forward_ops(self, primal: Block) -> None:
        ops = list(primal.ops)
        if ops and ops[-1].has_trait(IsTerminator):
            ops.pop()
        for op in ops:
            rule = _rule(op)
            if rule is None:
                _unsupported(op, "has no derivative rule at the structured level",
                             ["the module is lowered to the llvm dialect and differentiated there"])  # fmt: skip
            if op.regions:
                if rule.tangent is None:
                    _unsupported(op, "has no tangent rule at the structured level")
                rule.tangent(self, op)  # type: ignore[arg-type]
                continue
            copy = self.e.emit(op.clone(value_mapper={v: self.values[v] for v in op.operands}))
            self.copies[op] = copy
            for r, n in zip(op.results, copy.results, strict=True):
                self.map(r, n)
            if rule.tangent is not None:
                rule.tangent(self, op)  # type: ignore[arg-type]
            elif any(self.active(r) for r in op.results):
                _unsupported(op, "has no tangent rule but its result carries a derivative")

    def drop_copy(self, op: Operation) -> None:
        Rewriter.erase_op(self.copies.pop(op))

    def derivative(self, op: Operation, callee: str, activity: Sequence[str], ret: str) -> str:
        if callee not in self.gen.functions:
            _unsupported(op, f"calls @{callee}, which is not a func.func of the module")
        return self.gen.tangent(callee, activity, self.width, op)


def tangent_entry(module: ModuleOp, function: str, activity: Sequence[str], width: int) -> tuple[str, list] | None:
    """A public function computing the tangents of `function` at the structured level, for
    the Python API: `function`'s parameters with `width` tangents (floats) or shadows (memrefs)
    after each `dup` one, then a rank-0 memref per tangent of its float result.  None when the
    structured level cannot take `function`."""
    gen = StructuredGenerator(module)
    target = gen.functions[function]
    try:
        name = gen.tangent(function, activity, width)
    except StructuredUnsupported:
        return None
    gen.commit()
    outputs = list(target.function_type.outputs.data)
    params = list(target.function_type.inputs.data)
    types: list = []
    for t, a in zip(params, activity, strict=True):
        types += [t] * (1 + (width if a in ("dup", "dupnoneed") else 0))
    floats = [t for t in outputs if isinstance(t, AnyFloat)]
    outs = [t for t in floats for _ in range(width)]
    block = Block(arg_types=types + [MemRefType(t, []) for t in outs])
    e = StructuredEmitter.at_end(block)
    call = e.emit(func.CallOp(name, list(block.args[: len(types)]), outputs + outs))
    for r, m in zip(call.results[len(outputs):], block.args[len(types):], strict=True):
        e.store(r, m, [])
    e.emit(func.ReturnOp())
    entry = f"{name}_entry"
    module.body.block.add_op(func.FuncOp(entry, (block.arg_types, []), Region(block)))
    return entry, outs


def differentiate_requests(module: ModuleOp, mincut: bool = True) -> bool:
    """Replace each `autodiff.autodiff` request on a `func.func` by a call of the derivative
    the structured level builds, where it can (several derivatives: the request's struct of them
    built from the call's results); whether requests are left for the llvm level."""
    from xenzyme.dialects import autodiff as ad
    from xenzyme.rules.structured import StructuredEmitter as E

    left = False
    for req in [o for o in module.walk() if isinstance(o, ad.FwdDiffOp)]:
        left |= not _forward_request(module, req)
    for req in [o for o in module.walk() if isinstance(o, ad.AutodiffOp)]:
        acts, ret = req.activities, req.ret_activity.data
        if req.callee.string_value() not in {f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)}:
            left = True
            continue
        gen = StructuredGenerator(module, mincut)
        try:
            name = gen.gradient(req.callee.string_value(), acts, ret, req)
        except StructuredUnsupported:
            left = True
            continue
        gen.commit()
        target = gen.functions[req.callee.string_value()]
        e = E(InsertPoint.before(req))
        args = list(req.args)
        if ret == "active":
            args.append(e.const(1.0, target.function_type.outputs.data[0]))
        outs = [t for t, a in zip(target.function_type.inputs.data, acts, strict=True) if a == "active"]
        call = func.CallOp(name, args, outs)
        call.location = req.location
        e.emit(call)
        result = call.results[0] if len(outs) == 1 else None
        if len(outs) > 1 and req.results:  # several derivatives: the request's literal struct of them
            import xdsl.dialects.llvm as xllvm
            from xdsl.dialects.builtin import DenseArrayBase, i64

            acc = e.value(xllvm.UndefOp(req.results[0].type))
            for k, r in enumerate(call.results):
                acc = e.value(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [k]), acc, r))
            result = acc
        if req.results and result is not None:
            req.results[0].replace_all_uses_with(result)
        Rewriter.erase_op(req)
    return left


def _forward_request(module: ModuleOp, req: Operation) -> bool:
    """An `autodiff.fwddiff` in one direction returning the tangent (`dupnoneed`) or nothing,
    replaced by a call of the tangent function; whether it was."""
    from xenzyme.dialects import autodiff as ad
    from xenzyme.rules.structured import StructuredEmitter as E

    assert isinstance(req, ad.FwdDiffOp)
    callee = req.callee.string_value()
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    ret = req.ret_activity.data
    if callee not in functions or req.width.value.data != 1 or ret not in ("dupnoneed", "none"):
        return False
    target = functions[callee]
    outputs = list(target.function_type.outputs.data)
    if ret == "dupnoneed" and (len(outputs) != 1 or not isinstance(outputs[0], AnyFloat)):
        return False
    gen = StructuredGenerator(module)
    try:
        name = gen.tangent(callee, [a.data for a in req.activity.data], 1, req)
    except StructuredUnsupported:
        return False
    gen.commit()
    types = outputs + [t for t in outputs if isinstance(t, AnyFloat)]
    call = func.CallOp(name, list(req.operands), types)
    call.location = req.location
    E(InsertPoint.before(req)).emit(call)
    if req.results:
        req.results[0].replace_all_uses_with(call.results[len(outputs)])
    Rewriter.erase_op(req)
    return True


def gradient_entry(module: ModuleOp, function: str, activity: Sequence[str]) -> tuple[str, list] | None:
    """A public function computing the gradient of `function` at the structured level, for the
    Python API: its parameters are `function`'s with a shadow after each `dup` memref, then a
    rank-0 memref per `active` argument that receives its derivative (the return, a float, is
    seeded with 1).  None when the structured level cannot take `function`."""
    gen = StructuredGenerator(module)
    target = gen.functions[function]
    outputs = list(target.function_type.outputs.data)
    ret = "active" if len(outputs) == 1 and isinstance(outputs[0], AnyFloat) else "const" if outputs else "none"
    try:
        name = gen.gradient(function, activity, ret)
    except StructuredUnsupported:
        return None
    gen.commit()
    params = list(target.function_type.inputs.data)
    types: list = []
    for t, a in zip(params, activity, strict=True):
        types += [t, t] if a in ("dup", "dupnoneed") else [t]
    outs = [t for t, a in zip(params, activity, strict=True) if a == "active"]
    block = Block(arg_types=types + [MemRefType(t, []) for t in outs])
    e = StructuredEmitter.at_end(block)
    args = list(block.args[: len(types)])
    if ret == "active":
        args.append(e.const(1.0, outputs[0]))
    call = e.emit(func.CallOp(name, args, outs))
    for r, m in zip(call.results, block.args[len(types):], strict=True):
        e.store(r, m, [])
    e.emit(func.ReturnOp())
    entry = f"{name}_entry"
    module.body.block.add_op(func.FuncOp(entry, (block.arg_types, []), Region(block)))
    return entry, outs
