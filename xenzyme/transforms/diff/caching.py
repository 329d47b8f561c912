"""How a primal value reaches the reverse sweep: used as it is, recomputed, or cached.

A rule asks for a primal value (`ctx.get`) at its point in the reverse sweep; this decides:

* *direct* -- the forward-sweep value itself, when its definition dominates every return and no
  loop being reversed here redefines it (in split mode only the parameters: the reverse
  function is another function);
* *recomputed* -- the same ops again, from values available here: address arithmetic, casts,
  loop counters (an induction variable is start + step * counter), loads from memory nothing
  writes once they have run; with the minimum cut also divisions and cheap math functions;
* *cached* -- pushed onto an `autodiff.cache` stack where it is defined and peeked here, popped
  once the reverse sweep has passed its definition.  A value the same in every iteration of
  loops around it is pushed once (where the outermost of them is left, popped where its
  reverse ends) or kept in a single slot.

Which values are cached is a minimum cut (`xenzyme.analysis.cache_plan`): a planning run of the
gradient records what the rules ask for (`requests`), the cut chooses the cheapest set of values
from which all of them can be recomputed, and the gradient is built again caching exactly those
(`plan`).  Without the cut (`mincut=false`) each needed value that cannot be recomputed is
cached as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, IntegerType, VectorType, i64
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.alias import WriteSummary, underlying_objects
from xenzyme.analysis.cache_plan import cache_cost, minimum_cache_cut
from xenzyme.analysis.cfg import AffineIV, Loop, TripCount, affine_iv, defining_block, is_invariant, trip_count
from xenzyme.analysis.types import size_align
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules import rule_for
from xenzyme.rules.emitter import PURE_CALL_ATTRS, LLVMEmitter
from xenzyme.rules.libm import math_base_name
from xenzyme.rules.llvm import FUNCTION_LIKE_ATTR

if TYPE_CHECKING:
    from xenzyme.transforms.diff.builder import GradientBuilder

RECOMPUTABLE = (
    xllvm.AddOp, xllvm.SubOp, xllvm.MulOp, xllvm.AndOp, xllvm.OrOp, xllvm.XOrOp, xllvm.ShlOp,
    xllvm.LShrOp, xllvm.AShrOp, xllvm.TruncOp, xllvm.ZExtOp, xllvm.SExtOp, xllvm.SIToFPOp,
    ext.UIToFPOp, ext.FPToSIOp, ext.FPToUIOp, xllvm.FPExtOp, xllvm.FPTruncOp, xllvm.BitcastOp,
    xllvm.PtrToIntOp, xllvm.IntToPtrOp, ext.AddrSpaceCastOp, ext.ICmpOp, ext.FCmpOp,
    ext.GEPOp, ext.SelectOp, xllvm.ExtractValueOp, xllvm.InsertValueOp, ext.ExtractElementOp,
    xllvm.InsertElementOp, xllvm.ShuffleVectorOp, xllvm.FAddOp, xllvm.FSubOp, xllvm.FMulOp,
    xllvm.FNegOp, ext.FreezeOp,
)  # fmt: skip
"""Ops cheap to repeat in the reverse sweep when their operands are available there."""
CONSTANT_OPS = (xllvm.ConstantOp, xllvm.ZeroOp, xllvm.UndefOp, ext.PoisonOp, xllvm.AddressOfOp, ext.MetadataOp)
_RECOMPUTE_DEPTH = 12
_FLOW_BLOCKS = 400
"""Above this many blocks, a load is reloaded only from memory the function never writes (what
each block can reach is not worked out)."""
CHEAP_MATH = frozenset({"fabs", "copysign", "fmin", "fmax", "minnum", "maxnum", "floor", "ceil", "trunc",
                        "round", "rint", "nearbyint"})  # fmt: skip
"""Math functions of a few instructions, recomputed in the reverse sweep rather than cached."""


@dataclass
class Cache:
    init: ad.CacheInitOp
    """Where the forward sweep pushes."""
    handle: SSAValue
    """Where the reverse sweep peeks and pops: `init`'s result, or in split mode the
    `autodiff.cache.attach` of the reverse function."""
    value: SSAValue | None = None
    """The forward-sweep value pushed right after its definition (None: pushed explicitly)."""
    block: Block | None = None
    """The primal block at whose reverse the value is popped (None: popped explicitly)."""


class Caching:
    """The cache policy of one gradient, and the caches it made."""

    def __init__(self, g: GradientBuilder, mincut: bool, plan: set[SSAValue] | None):
        self.g = g
        self.mincut = mincut
        """Choose what to cache by a minimum cut and cache loop-invariant values once per loop
        entry; otherwise each needed value that cannot be recomputed is cached."""
        self.plan = plan
        """The values to cache (the cut); None while recording what the reverse sweep needs."""
        self.requests: list[tuple[SSAValue, Loop | None]] = []
        """Values the rules asked for and where (innermost loop), recorded when planning."""
        self._recomputing = 0
        self.caches: dict[object, Cache] = {}
        self.limit_caches: dict[Loop, Cache] = {}
        self.all_caches: list[Cache] = []
        self.hoisted: dict[Loop, list[tuple[SSAValue, Cache]]] = {}
        """Caches pushed where a loop is left: the forward value pushed, and the cache."""
        self.invariant_memo: dict[tuple[SSAValue, Loop], bool] = {}
        self.loop_writes: dict[Loop, WriteSummary] = {}
        self.recomputable_memo: dict[tuple[SSAValue, Loop | None], bool] = {}
        self.writes_after: dict[Block, WriteSummary | None] = {}

    @property
    def planning(self) -> bool:
        """A run that only records what the rules need (the cut is chosen from it)."""
        return self.mincut and self.plan is None

    # ---- where a value can be used as it is ---------------------------------------------

    def _loops_at(self) -> list[Loop]:
        g = self.g
        assert g.pos is not None
        return g.cfg.loops_of(g.pos.primal)

    def _innermost(self) -> Loop | None:
        g = self.g
        assert g.pos is not None
        return g.cfg.loop_of.get(g.pos.primal)

    def direct(self, v: SSAValue) -> bool:
        """Whether the forward value of `v` can be used as it is at the current reverse point."""
        return self._direct_in(v, set(self._loops_at()))

    def _direct_in(self, v: SSAValue, here: set[Loop]) -> bool:
        """`direct` where the loops being reversed are `here`."""
        g = self.g
        d = defining_block(v)
        if g.split:
            return isinstance(v, BlockArgument) and d is g.cfg.entry
        if d is None or d is g.cfg.entry and not g.cfg.loops_of(d):
            return True
        if d not in g.dominates_returns:
            return False
        return not any(lp in here for lp in g.cfg.loops_of(d))

    # ---- values -----------------------------------------------------------------------------

    def materialize(self, v: SSAValue) -> SSAValue:
        """The primal value `v` at the current reverse point."""
        g = self.g
        if self.direct(v):
            return g.direct_value(v)
        if self.planning and not self._recomputing:
            self.requests.append((v, self._innermost()))
        if self.plan is not None and v in self.plan:
            return self._peek_value(v)
        if self._recomputable(v, 0):
            return self._recompute(v)
        return self._peek_value(v)

    def materialize_shadow(self, p: SSAValue) -> SSAValue:
        """The shadow of primal pointer `p` at the current reverse point: the same GEPs and
        casts on a shadow available here, else cached.  With the minimum cut a GEP's indices
        are asked for like any primal value (the cut then caches what they are computed from,
        often a value the same for a whole loop, rather than one shadow pointer per
        iteration)."""
        g = self.g
        if self.direct(p):
            return g.direct_shadow(p)
        if not isinstance(p, BlockArgument):
            op = p.owner
            e = g.e
            if isinstance(op, ext.GEPOp | xllvm.BitcastOp | ext.AddrSpaceCastOp) and (
                self.mincut and isinstance(op, ext.GEPOp) and all(_integer_like(o.type) for o in op.operands[1:])
                or all(self._recomputable(o, 1) for o in op.operands[1:])
            ):
                ops = [g.shadow(op.operands[0]), *[g.get(o) for o in op.operands[1:]]]
                return e.insert(type(op).create(operands=ops, result_types=[p.type], properties=dict(op.properties)))
            if isinstance(op, ext.SelectOp) and self._recomputable(op.cond, 1):
                return e.insert(ext.SelectOp(g.get(op.cond), g.shadow(op.lhs), g.shadow(op.rhs)))
        return self._peek_hoisted(("shadow", p), p, g.fwd_shadow(p))

    def _recomputable(self, v: SSAValue, depth: int) -> bool:
        if depth > _RECOMPUTE_DEPTH:
            return False
        key = (v, self._innermost())
        if key in self.recomputable_memo:
            return self.recomputable_memo[key]
        self.recomputable_memo[key] = False  # cycles (loop-carried values) are not recomputable
        ok = self._recomputable_uncached(v, depth)
        self.recomputable_memo[key] = ok
        return ok

    def _recomputable_uncached(self, v: SSAValue, depth: int) -> bool:
        g = self.g
        if self.direct(v) or self.plan is not None and v in self.plan:
            return True
        if isinstance(v, BlockArgument):
            # An induction variable of a loop being reversed: start + step * counter, its start
            # (outside that loop) used directly, recomputed or cached once per entry.
            iv = affine_iv(g.cfg, v)
            return iv is not None and iv.loop in self._loops_at()
        op = v.owner
        assert isinstance(op, Operation)
        if isinstance(op, CONSTANT_OPS):
            return True
        if isinstance(op, xllvm.LoadOp):
            if not self._reloadable(op):
                return False
            return self._recomputable(op.ptr, depth + 1)
        if not self._pure_op(op):
            return False
        return all(self._recomputable(o, depth + 1) for o in op.operands)

    def _reloadable(self, op: xllvm.LoadOp) -> bool:
        """A load the reverse sweep may repeat: plain, from memory nothing in the function
        writes once the load has run (split: never -- the caller may write the memory between
        the halves).  Memory filled first and only read afterwards (a table, a temporary set up
        before a loop) is read again rather than cached."""
        g = self.g
        if g.split or op.ordering.value.data != 0 or "volatile_" in op.attributes:
            return False
        objects = underlying_objects(op.ptr, g.cfg)
        if not g.writes.may_write(objects):
            return True
        after = self._writes_after(op.parent_block())  # type: ignore[arg-type]
        return after is not None and not after.may_write(objects)

    def _writes_after(self, block: Block) -> WriteSummary | None:
        """What may be written once `block` has begun: its own ops and those of every block
        reachable from it.  None for functions of more than `_FLOW_BLOCKS` blocks (the
        function's whole summary is used there)."""
        g = self.g
        if block in self.writes_after:
            return self.writes_after[block]
        summary = None
        if len(g.cfg.rpo) <= _FLOW_BLOCKS:
            seen, work = {block}, [block]
            while work:
                for s in g.cfg.succs[work.pop()]:
                    if s not in seen:
                        seen.add(s)
                        work.append(s)
            summary = WriteSummary([b for b in g.cfg.rpo if b in seen], g.cfg)
        self.writes_after[block] = summary
        return summary

    def _pure_op(self, op: Operation) -> bool:
        """Whether `op` may be repeated in the reverse sweep given its operands.  With the
        minimum cut, divisions (float and integer) and cheap math functions too (the cut weighs
        them against caches by bytes only, so a function as costly as `exp` is cached rather than
        called again)."""
        if isinstance(op, RECOMPUTABLE):
            return True
        if (rule := rule_for(op)) is not None and rule.recomputable:
            return True
        if not self.mincut:
            return False
        if isinstance(op, xllvm.FDivOp | xllvm.SDivOp | xllvm.UDivOp | xllvm.SRemOp | xllvm.URemOp):
            return True  # (an integer division repeated on the operands it had did not trap then)
        return (
            isinstance(op, xllvm.CallOp) and op.callee is not None and FUNCTION_LIKE_ATTR not in op.attributes
            and math_base_name(op.callee.string_value()) in CHEAP_MATH and not self.g.calls.planned(op)
            and len(op.results) == 1 and all(ad.is_float_like(o.type) or _integer_like(o.type) for o in op.operands)
        )  # fmt: skip

    def _recompute(self, v: SSAValue) -> SSAValue:
        g = self.g
        if self.direct(v):
            return g.direct_value(v)
        e = g.e
        self._recomputing += 1
        try:
            if isinstance(v, BlockArgument):
                iv = affine_iv(g.cfg, v)
                assert iv is not None
                return self._recompute_iv(iv)
            op = v.owner
            assert isinstance(op, Operation)
            mapping = {o: g.get(o) for o in op.operands}
        finally:
            self._recomputing -= 1
        new = g.clone_defined(op, dict(mapping))
        if isinstance(new, xllvm.CallOp):
            new.attributes["fn_attrs"] = PURE_CALL_ATTRS
        e.insert(new)
        return new.results[v.index]  # type: ignore[attr-defined]

    def _recompute_iv(self, iv: AffineIV) -> SSAValue:
        """start + step * (reverse loop counter)."""
        g = self.g
        e = g.e
        riv = e.insert(xllvm.LoadOp(g.sweeps.riv_slot(iv.loop), i64))
        start = g.get(iv.start)
        t = iv.value.type
        if iv.element is not None:  # pointer IV: start + step elements per iteration
            k = riv if iv.step == (1,) else e.insert(xllvm.MulOp(riv, e.i64(iv.step[0])))  # type: ignore[arg-type]
            return e.insert(ext.GEPOp(start, [ext.GEP_USE_SSA_VAL], iv.element, [k], result_type=t))
        et = t.element_type if isinstance(t, VectorType) else t
        assert isinstance(et, IntegerType)
        k = riv if et == i64 else e.insert(xllvm.TruncOp(riv, et))  # type: ignore[arg-type]
        if isinstance(t, VectorType):
            k = e.splat(k, t)
            step = e.insert(xllvm.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, list(iv.step)), t))
        else:
            step = e.insert(xllvm.ConstantOp(IntegerAttr(iv.step[0], t), t))
        if iv.step != (1,):
            k = e.insert(xllvm.MulOp(k, step))  # type: ignore[arg-type]
        return e.insert(xllvm.AddOp(start, k))  # type: ignore[arg-type]

    # ---- the plan ---------------------------------------------------------------------------

    def plan_caches(self) -> set[SSAValue]:
        """After a run that recorded what the rules need: the values to cache (the cut)."""
        g = self.g

        def inputs(node: tuple[SSAValue, Loop | None]) -> list[tuple[SSAValue, Loop | None]] | None:
            v, lp = node
            here = set(lp.enclosing()) if lp is not None else set()
            if self._direct_in(v, here):
                return []
            if isinstance(v, BlockArgument):
                iv = affine_iv(g.cfg, v)
                return [(iv.start, lp)] if iv is not None and iv.loop in here else None
            op = v.owner
            assert isinstance(op, Operation)
            if isinstance(op, CONSTANT_OPS):
                return []
            if isinstance(op, xllvm.LoadOp):
                return [(op.ptr, lp)] if self._reloadable(op) else None
            if not self._pure_op(op):
                return None
            return [(o, lp) for o in op.operands]

        def cost(node: tuple[SSAValue, Loop | None]) -> int:
            v = node[0]
            size = size_align(v.type)
            depth = len(g.cfg.loops_of(defining_block(v))) - len(self._hoisting(v)[0])  # type: ignore[arg-type]
            return cache_cost(size[0] if size else 8, depth)

        return {v for v, _ in minimum_cache_cut(self.requests, inputs, cost)}

    # ---- loop-invariant values --------------------------------------------------------------

    def _hoisting(self, v: SSAValue) -> tuple[list[Loop], bool]:
        """How a cache of `v` avoids a push per iteration of loops in which `v` does not change:
        the loops around its definition over which it is pushed once (outermost first), and
        whether that push is where the outermost of them is left (popped where its reverse
        ends; the definition must be on every path out of it, and no return inside); otherwise,
        when `v` is the same throughout every loop around it, it is kept in a single slot that
        each iteration overwrites with the same value.  Nothing without the minimum cut."""
        g = self.g
        d = defining_block(v)
        if not self.mincut or d is None:
            return [], False
        loops = g.cfg.loops_of(d)
        for k, lp in enumerate(loops):
            if any(r in lp.blocks for r in g.ret_blocks) or not self._invariant(v, lp, 0):
                continue
            if all(g.cfg.dominates(d, src) for src, _ in lp.exits):
                return loops[k:], True
        if loops and self._invariant(v, loops[0], 0):
            return loops, False
        return [], False

    def _invariant(self, v: SSAValue, lp: Loop, depth: int) -> bool:
        """Whether `v` is the same in every iteration of `lp` (loads from memory the loop does
        not write, through invariant pointers, and pure operations on invariant values)."""
        g = self.g
        if defining_block(v) not in lp.blocks:
            return True
        if isinstance(v, BlockArgument) or depth > _RECOMPUTE_DEPTH:
            return False
        key = (v, lp)
        if key in self.invariant_memo:
            return self.invariant_memo[key]
        op = v.owner
        assert isinstance(op, Operation)
        if isinstance(op, CONSTANT_OPS):
            ok = True
        elif isinstance(op, xllvm.LoadOp):
            if lp not in self.loop_writes:
                self.loop_writes[lp] = WriteSummary([b for b in g.cfg.rpo if b in lp.blocks], g.cfg)
            ok = (op.ordering.value.data == 0 and "volatile_" not in op.attributes
                  and not self.loop_writes[lp].may_write(underlying_objects(op.ptr, g.cfg))
                  and self._invariant(op.ptr, lp, depth + 1))  # fmt: skip
        else:
            ok = self._pure_op(op) and all(self._invariant(o, lp, depth + 1) for o in op.operands)
        self.invariant_memo[key] = ok
        return ok

    # ---- caches -----------------------------------------------------------------------------

    def _peek_value(self, v: SSAValue) -> SSAValue:
        return self._peek_hoisted(v, v, self.g.fwd(v))

    def _peek_hoisted(self, key: object, v: SSAValue, fwd_value: SSAValue) -> SSAValue:
        """The cache `key` of `fwd_value` (the forward value of `v`, or of its shadow, which
        the same loops leave unchanged: shadow memory is written where the primal's is),
        pushed once per loop `v` does not change in where it can be (`_hoisting`)."""
        block = defining_block(v)
        assert block is not None
        if key not in self.caches:
            loops, at_exit = self._hoisting(v)
            if at_exit:
                cache = self.caches[key] = self.new_cache(fwd_value.type, single=loops[0].parent is None)
                self.hoisted.setdefault(loops[0], []).append((fwd_value, cache))
            elif loops:
                self.register(key, fwd_value, block, single=True)
        return self.peek(key, fwd_value, block)

    def peek(self, key: object, fwd_value: SSAValue | None = None, block: Block | None = None) -> SSAValue:
        """The top of the cache `key` (made for `fwd_value`, defined in `block`, if new)."""
        cache = self.caches.get(key)
        if cache is None:
            assert fwd_value is not None and block is not None
            cache = self.register(key, fwd_value, block)
        return self.g.e.insert(ad.CachePeekOp(cache.handle))

    def register(self, key: object, fwd_value: SSAValue, block: Block, single: bool = False) -> Cache:
        """A cache for `fwd_value`, pushed after its definition and popped at the end of the
        reverse of `block` (`single`: one slot, even inside loops)."""
        if key in self.caches:
            return self.caches[key]
        cache = self.new_cache(fwd_value.type, single=single or not self.g.cfg.loops_of(block))
        cache.value, cache.block = fwd_value, block
        self.caches[key] = cache
        return cache

    def new_cache(self, element: Attribute, single: bool) -> Cache:
        g = self.g
        init = ad.CacheInitOp(element, single=single)
        g.fwd_entry_ops.append(init)
        handle = init.res
        if g.split:  # the reverse function reaches the same state through the tape
            attach = ad.CacheAttachOp(g.tape.tape_in, element, single=single)
            g.rev_entry_ops.append(attach)
            handle = attach.res
        cache = Cache(init, handle)
        self.all_caches.append(cache)
        return cache

    def keyed(self, key: object, element: Attribute) -> Cache:
        """A single-slot cache pushed and popped explicitly, made on first use."""
        if key not in self.caches:
            self.caches[key] = self.new_cache(element, single=True)
        return self.caches[key]

    def limit_cache(self, lp: Loop) -> Cache:
        """Last iteration count of `lp`: pushed where the loop exits, popped where its reverse
        begins."""
        if lp not in self.limit_caches:
            self.limit_caches[lp] = self.new_cache(i64, single=lp.parent is None)
        return self.limit_caches[lp]

    # ---- placing pushes, pops and reservations ----------------------------------------------

    def place(self) -> None:
        """Push each cached value right after its definition, pop it at the end of the reverse
        of its block; hoisted values where their loop is left and where its reverse ends."""
        g = self.g
        for cache in self.caches.values():
            if cache.value is None or cache.block is None:
                continue
            v = cache.value
            push = ad.CachePushOp(cache.init.res, v)
            if isinstance(v, BlockArgument):
                blk = v.block
                anchor = blk.first_op
                if blk is g.g_entry:
                    anchor = None
                if anchor is not None:
                    blk.insert_op_before(push, anchor)
                else:
                    blk.add_op(push)
            else:
                owner = v.owner
                assert isinstance(owner, Operation)
                owner.parent_block().insert_op_after(push, owner)  # type: ignore[union-attr]
            rb = g.R[cache.block]
            term = rb.last_op
            assert term is not None
            rb.insert_op_before(ad.CachePopOp(cache.handle), term)
        for lp, entries in self.hoisted.items():
            for fwd_value, cache in entries:
                for edge in g.sweeps.exit_edges.get(lp, []):
                    edge.insert_op_before(ad.CachePushOp(cache.init.res, fwd_value), edge.last_op)  # type: ignore[arg-type]
                for edge in g.sweeps.entry_edges.get(lp, []):
                    edge.insert_op_before(ad.CachePopOp(cache.handle), edge.last_op)  # type: ignore[arg-type]

    def reserve(self) -> None:
        """Where a counted loop is entered, make room in its caches for all its iterations."""
        g = self.g
        by_loop: dict[Loop, list[ad.CacheInitOp]] = {}
        for cache in self.caches.values():
            lp = g.cfg.loop_of.get(cache.block) if cache.block is not None else None
            if lp is not None and cache.init.single is None:
                by_loop.setdefault(lp, []).append(cache.init)
        for lp, lim in self.limit_caches.items():
            if lp.parent is not None and lim.init.single is None:
                by_loop.setdefault(lp.parent, []).append(lim.init)
        for lp, entries in self.hoisted.items():
            if lp.parent is not None:
                by_loop.setdefault(lp.parent, []).extend(c.init for _, c in entries)
        for lp, inits in by_loop.items():
            tc = trip_count(g.cfg, lp)
            if tc is None:
                continue
            self._reserve_at(lp, [tc], inits)
            # Where the loop's count is the same in every iteration of counted loops around it,
            # also reserve once for the whole nest where the outermost of them is entered: a
            # buffer then grows once per nest, not a logarithmic number of times (a worksharing
            # loop's thread runs its whole nest on buffers of its own, allocated per region).
            at, counts = lp, [tc]
            while at.parent is not None and all(
                is_invariant(g.cfg, x, at.parent) for c in counts for x in (c.iv.start, c.limit)
            ) and (outer := trip_count(g.cfg, at.parent)) is not None:  # fmt: skip
                at, counts = at.parent, [*counts, outer]
            if at is not lp:
                self._reserve_at(at, counts, inits)

    def _reserve_at(self, lp: Loop, counts: list[TripCount], inits: list[ad.CacheInitOp]) -> None:
        """Where `lp` is entered: reserve the product of `counts` (at most 2^32) in `inits`."""
        g = self.g
        for p in lp.entering:
            term = g.F[p].last_op
            assert term is not None
            e = LLVMEmitter(Builder(InsertPoint.before(term)), g.module)
            count = self._trip_count_value(e, counts[0])
            for tc in counts[1:]:  # (each factor is in 1..2^32: the product fits in 64 bits)
                count = e.insert(xllvm.MulOp(count, self._trip_count_value(e, tc)))  # type: ignore[arg-type]
                cap = e.i64(1 << 32)
                count = e.insert(ext.SelectOp(e.insert(ext.ICmpOp(count, cap, "sgt")), cap, count))
            for init in inits:
                e.insert(ad.CacheReserveOp(init.res, count))

    def _trip_count_value(self, e: LLVMEmitter, tc: TripCount) -> SSAValue:
        """max(1, min(2^32, ceil((limit - start) / step) [+1])) as i64, from forward values."""
        g = self.g
        step = tc.iv.step[0]
        start = _to_i64(e, g.fwd(tc.iv.start), tc.unsigned)
        limit = _to_i64(e, g.fwd(tc.limit), tc.unsigned)
        diff = e.insert(xllvm.SubOp(limit, start) if step > 0 else xllvm.SubOp(start, limit))  # type: ignore[arg-type]
        k = abs(step)
        count = e.insert(xllvm.SDivOp(e.insert(xllvm.AddOp(diff, e.i64(k - 1))), e.i64(k)))  # type: ignore[arg-type]
        extra = int(tc.inclusive) + int(not tc.compares_next)
        if extra:
            count = e.insert(xllvm.AddOp(count, e.i64(extra)))  # type: ignore[arg-type]
        one, cap = e.i64(1), e.i64(1 << 32)
        count = e.insert(ext.SelectOp(e.insert(ext.ICmpOp(count, one, "slt")), one, count))
        return e.insert(ext.SelectOp(e.insert(ext.ICmpOp(count, cap, "sgt")), cap, count))


def _to_i64(e: LLVMEmitter, v: SSAValue, unsigned: bool) -> SSAValue:
    t = v.type
    if t == i64:
        return v
    if isinstance(t, IntegerType) and t.width.data < 64:
        return e.insert((xllvm.ZExtOp if unsigned else xllvm.SExtOp)(v, i64))  # type: ignore[arg-type]
    if isinstance(t, ext.LLVMPointerType):
        return e.insert(xllvm.PtrToIntOp(v, i64))
    return e.insert(xllvm.TruncOp(v, i64))  # type: ignore[arg-type]


def _integer_like(t: Attribute) -> bool:
    return isinstance(t.element_type if isinstance(t, VectorType) else t, IntegerType)
