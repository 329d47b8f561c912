"""Activity for forward mode: which values carry tangents and which pointers have shadows.

Forward mode needs half of what reverse mode needs: a value gets a tangent when it is *varied*
(it depends on an input with a tangent); whether anything downstream uses it does not matter,
since an unused tangent is dead code LLVM removes.  Pointers get a *shadow* (a pointer to the
tangents of the memory they point into) when that memory may hold varied data.

Memory is tracked by object, as in `activity.py`, with two differences that forward mode needs
to follow memory the function creates itself:

* the result of a call is an object (memory a call returns: `malloc`, `realloc`, a helper that
  returns a buffer), so that a heap buffer that receives varied data gets a shadow buffer, and
  a defined function returning a pointer is asked for the shadow of its result;
* a pointer stored into shadowed memory makes the memory it points to shadowed too, so that
  whoever loads the pointer back finds a real shadow next to it (the cache buffers of a gradient
  function, a struct holding a pointer to a heap array).

Pointers loaded from local slots that are only loaded and stored (a pointer variable of
unoptimised code) stand for the values stored into the slot.

Data moved as integers: an integer loaded through a shadowed pointer (a double read as `i64`,
as an atomic load, a union or a copy of bytes does it) has its tangent's bits in the same bytes
of the shadow.  Such loads are `shadow_bits`, and so are the selects, freezes and phis that move
them; a `bitcast` of one back to a float is varied, and a store of one copies the shadow's
bytes.  For integer data the shadow's bytes mean nothing, and moving them along is harmless
(unused shadow loads are dead code; atomic and volatile loads count only when their bits are
moved on).  The analysis is a fixpoint over the function in reverse post-order; it
rewrites nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, VectorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from xenzyme.analysis.activity import _reinterpretation, carries_derivative, is_pointer_like
from xenzyme.analysis.alias import (
    DEALLOCATORS, LINKING_FUNCTIONS, UNKNOWN, Object, allocator_of, call_reads_only_argument, is_deallocation, may_return_argument,
    merged_with_unshadowed_arguments, pointer_roots, pointers_without_shadows, returns_argument_memory,
    rust_allocator_kind,
)  # fmt: skip
from xenzyme.analysis.cfg import CFG
from xenzyme.analysis.globals import shadowed_globals, touches_shadowed_globals
from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import par
from xenzyme.dialects.autodiff import has_shadow, shadowed_operands

_ADDRESS_OPS = (ext.GEPOp, xllvm.BitcastOp, ext.AddrSpaceCastOp)
_NO_TANGENT = (
    ext.ICmpOp, ext.FCmpOp, ext.FPToSIOp, ext.FPToUIOp, xllvm.SIToFPOp, ext.UIToFPOp,
    xllvm.PtrToIntOp, xllvm.IntToPtrOp,
)  # fmt: skip
"""Ops whose results never depend differentiably on their operands."""

NO_STORE_FUNCTIONS = {
    "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "fflush", "abort", "exit",
    "__assert_fail", "clock", "time", "rand", "srand", "strlen", "strcmp", "strncmp", "memcmp",
    "madvise",
} | DEALLOCATORS  # fmt: skip
"""Library functions that write no floating-point data into memory their arguments point to."""


def masked_kind(op: Operation) -> str | None:
    """"load", "gather", "store" or "scatter" for the masked memory intrinsics
    (`llvm.masked.load` ...: what clang's vectoriser emits for AVX-512 and AVX2), else None."""
    if isinstance(op, xllvm.CallIntrinsicOp):
        name = op.intrin.data
        for kind in ("load", "gather", "store", "scatter"):
            if name.startswith(f"llvm.masked.{kind}."):
                return kind
    return None


def has_tangent_type(t: Attribute) -> bool:
    """Types whose values carry a tangent by value: floats, float vectors, and aggregates of
    floats or pointers (an aggregate's tangent holds the shadows of its pointer fields)."""
    if carries_derivative(t):
        return True
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        return any(has_tangent_type(m) or is_pointer_like(m) for m in t.types.data)
    if isinstance(t, ext.LLVMArrayType):
        return has_tangent_type(t.type) or is_pointer_like(t.type)
    return False


@dataclass
class ForwardActivity:
    varied: set[SSAValue] = field(default_factory=set)
    """Values with tangents."""
    shadowed: set[SSAValue] = field(default_factory=set)
    """Pointers with shadows."""
    shadowed_objects: set[Object] = field(default_factory=set)
    """Objects (arguments, allocas, globals by name, call results) whose memory may hold varied
    data, or pointers to such memory."""
    unshadowed_stores: list[Operation] = field(default_factory=list)
    """Stores (and copies) of varied data into memory that has no shadow: errors to report."""
    reinterpreted: list[Operation] = field(default_factory=list)
    """Ops where float bits with a tangent come back from integer code (errors to report)."""
    unshadowed_pointers: list[Operation] = field(default_factory=list)
    merged_pointers: list[Operation] = field(default_factory=list)
    """Stores of pointers without shadows that may lead to floats into shadowed memory (errors
    to report: see `alias.pointers_without_shadows`)."""
    shadow_bits: set[SSAValue] = field(default_factory=set)
    """Integers loaded through shadowed pointers, and the selects, freezes and phis of them: the
    same load from the shadow (select, ...) gives the bits of their tangents."""

    def is_active(self, v: SSAValue) -> bool:
        return v in self.varied


def analyze_forward_activity(
    cfg: CFG,
    args: Sequence[BlockArgument],
    activities: Sequence[str],
    return_shadow: bool,
    constant_globals: set[str],
) -> ForwardActivity:
    """Activity of a function whose arguments have these activities (`dup`/`dupnoneed` give an
    argument a tangent or a shadow, `const` none).  `return_shadow`: the caller wants the shadow
    of a returned pointer, so the memory it points to needs one."""
    return _Analysis(cfg, constant_globals).run(args, activities, return_shadow)


class _Analysis:
    def __init__(self, cfg: CFG, constant_globals: set[str]):
        self.cfg = cfg
        self.constant_globals = constant_globals
        self.info = ForwardActivity()
        self.objects_memo: dict[SSAValue, set[Object]] = {}
        self.changed = False

    def run(self, args: Sequence[BlockArgument], activities: Sequence[str], return_shadow: bool) -> ForwardActivity:
        info = self.info
        fn = self.cfg.entry.parent_op()
        if fn is not None:  # (mutable globals any function may store tangents into)
            info.shadowed_objects |= shadowed_globals(fn) - self.constant_globals
        for arg, act in zip(args, activities, strict=True):
            if not has_shadow(act):
                continue
            if is_pointer_like(arg.type):
                info.shadowed.add(arg)
                info.shadowed_objects.add(arg)
            elif has_tangent_type(arg.type):
                info.varied.add(arg)
        self.return_shadow = return_shadow
        self.changed = True
        while self.changed:
            self.changed = False
            for b in self.cfg.rpo:
                for p in self.cfg.preds[b]:
                    for arg, inc in zip(b.args, self.cfg.incoming(b, p), strict=True):
                        self.mark(arg, inc in info.varied, inc in info.shadowed)
                        if arg in info.shadowed and inc not in info.shadowed:
                            self.shadow_objects(inc)  # a shadowed phi takes the shadow of every pointer it may take
                        if inc in info.shadow_bits:
                            self.mark_bits(arg)
                for op in b.ops:
                    self.transfer(op)
        self._collect_unshadowed()
        _reinterpretation(self.cfg, info)  # type: ignore[arg-type]  (same fields as ActivityInfo)
        info.unshadowed_pointers = pointers_without_shadows(self.cfg, info.shadowed)
        info.merged_pointers = merged_with_unshadowed_arguments(self.cfg, info.shadowed)
        return info

    # ---- marking ----------------------------------------------------------------------------

    def mark(self, v: SSAValue, varied: bool, shadowed: bool) -> None:
        info = self.info
        if varied and has_tangent_type(v.type) and v not in info.varied:
            info.varied.add(v)
            self.changed = True
        if shadowed and is_pointer_like(v.type) and v not in info.shadowed:
            info.shadowed.add(v)
            self.changed = True

    def mark_bits(self, v: SSAValue) -> None:
        """`v`, an integer, moves bytes of shadowed memory: its shadow bits go along."""
        if v not in self.info.shadow_bits and _is_integer_like(v.type):
            self.info.shadow_bits.add(v)
            self.changed = True

    def shadow_objects(self, ptr: SSAValue, arguments_too: bool = False, depth: int = 0) -> None:
        """The memory `ptr` points into may hold varied data (or pointers to such memory).
        Arguments cannot gain a shadow here: the caller decides theirs (a store into them is
        reported unless the pointer itself is shadowed).  A pointer loaded from memory (a global
        `double *work`) gets one from that memory, which then holds shadow pointers."""
        for obj in self.objects(ptr):
            if obj is UNKNOWN:
                if depth < 4:
                    for root in pointer_roots(ptr, self.cfg):
                        if isinstance(root.owner, xllvm.LoadOp):
                            self.shadow_objects(root.owner.ptr, depth=depth + 1)
                continue
            if obj in self.info.shadowed_objects:
                continue
            if isinstance(obj, BlockArgument) and obj.block is self.cfg.entry and not arguments_too:
                continue
            if isinstance(obj, str) and obj in self.constant_globals and not arguments_too:
                continue
            self.info.shadowed_objects.add(obj)
            self.changed = True

    # ---- objects ----------------------------------------------------------------------------

    def objects(self, v: SSAValue) -> set[Object]:
        """What `v` may point into: arguments, allocas and call results (their SSA values),
        globals (their names), or UNKNOWN."""
        memo = self.objects_memo.get(v)
        if memo is not None:
            return memo
        out: set[Object] = set()
        seen: set[SSAValue] = set()
        work = [v]
        while work:
            x = work.pop()
            if x in seen:
                continue
            seen.add(x)
            if len(seen) > 256:
                out = {UNKNOWN}
                break
            if isinstance(x, BlockArgument):
                if x.block is self.cfg.entry:
                    out.add(x)
                else:
                    work += [self.cfg.incoming(x.block, p)[x.index] for p in self.cfg.preds.get(x.block, [])]
                continue
            op = x.owner
            if isinstance(op, _ADDRESS_OPS):
                work.append(op.operands[0])
            elif isinstance(op, ext.SelectOp):
                work += [op.lhs, op.rhs]
            elif isinstance(op, xllvm.AllocaOp | xllvm.CallOp):
                out.add(x)
            elif isinstance(op, xllvm.AddressOfOp):
                out.add(op.global_name.string_value())
            elif isinstance(op, xllvm.ZeroOp | xllvm.UndefOp | ext.PoisonOp):
                continue
            elif isinstance(op, xllvm.LoadOp) and (stored := _slot_values(op.ptr, self)) is not None:
                work += stored
            else:
                out.add(UNKNOWN)
        self.objects_memo[v] = out
        return out

    # ---- transfer -----------------------------------------------------------------------------

    def transfer(self, op: Operation) -> None:
        info = self.info
        varied, shadowed = info.varied, info.shadowed
        if isinstance(op, _NO_TANGENT):
            return
        if isinstance(op, xllvm.AllocaOp):
            if op.res in info.shadowed_objects:
                self.mark(op.res, False, True)
            return
        if isinstance(op, xllvm.AddressOfOp):
            if op.global_name.string_value() in info.shadowed_objects:
                self.mark(op.result, False, True)
            return
        if isinstance(op, xllvm.LoadOp):
            s = op.ptr in shadowed
            r = op.dereferenced_value
            self.mark(r, s, s)
            if s and (not _ordered_or_volatile(op) or _moves_bytes(r)):
                self.mark_bits(r)
            return
        if isinstance(op, ext.StoreOp):
            v, p = op.value, op.ptr
            if v in varied or v in shadowed:
                self.shadow_objects(p)
            if p in shadowed and is_pointer_like(v.type):
                self.shadow_objects(v)
            return
        if isinstance(op, ext.MemcpyOp | ext.MemmoveOp):
            if op.args[1] in shadowed:
                self.shadow_objects(op.args[0])
            return
        if isinstance(op, par.ReduceOp):
            if op.private in shadowed:
                self.shadow_objects(op.shared)
            return
        if isinstance(op, par.AtomicUpdateOp):
            if op.value in varied:
                self.shadow_objects(op.ptr)
            return
        if isinstance(op, ext.AtomicRMWOp | ext.CmpXchgOp):
            p = op.operands[0]
            if any(o in varied for o in op.operands[1:]):
                self.shadow_objects(p)
            for r in op.results:
                self.mark(r, p in shadowed, p in shadowed)
            return
        if isinstance(op, _ADDRESS_OPS):
            src = op.operands[0]
            self.mark(op.results[0], src in varied or src in info.shadow_bits, src in shadowed)
            if src in info.shadow_bits:
                self.mark_bits(op.results[0])  # an integer bitcast (i64 <-> <2 x i32>)
            return
        if isinstance(op, ext.SelectOp | ext.FreezeOp):
            if any(o in info.shadow_bits for o in op.operands[-2:]):
                self.mark_bits(op.results[0])
            if op.results[0] in shadowed and is_pointer_like(op.results[0].type):
                for o in op.operands[-2:]:  # a shadowed select takes the shadow of either pointer
                    if o not in shadowed:
                        self.shadow_objects(o)
        if isinstance(op, xllvm.ReturnOp):
            if self.return_shadow and op.arg is not None and is_pointer_like(op.arg.type):
                self.shadow_objects(op.arg)
            return
        if isinstance(op, xllvm.CallOp | ext.InvokeOp | par.ParallelOp):
            self._call(op)
            return
        if (kind := masked_kind(op)) is not None:
            args = list(op.args)  # type: ignore[attr-defined]
            if kind in ("load", "gather"):  # (pointer(s), mask, passthrough)
                r, s = op.results[0], args[0] in shadowed
                self.mark(r, s or args[2] in varied, False)
                if s or args[2] in info.shadow_bits:
                    self.mark_bits(r)
            elif args[0] in varied:  # store, scatter: (value, pointer(s), mask)
                self.shadow_objects(args[1])
            return
        for p in shadowed_operands(op):  # memory receiving another process's data
            self.shadow_objects(p)
        any_varied = any(o in varied for o in op.operands)
        any_shadowed = any(o in shadowed for o in op.operands)
        for r in op.results:
            self.mark(r, any_varied or any_shadowed, any_shadowed or any_varied)

    def _call(self, op: Operation) -> None:
        info = self.info
        callee = op.callee.string_value() if isinstance(op, xllvm.CallOp) and op.callee is not None else None
        args = list(op.operands)
        result = op.results[0] if op.results else None
        if allocator_of(op) is not None:
            if result is not None and result in info.shadowed_objects:
                self.mark(result, False, True)
            return
        if callee in ("realloc", "reallocf") or (callee is not None and rust_allocator_kind(callee) == "realloc"):
            if result is not None and (args[0] in info.shadowed or result in info.shadowed_objects):
                self.mark(result, False, True)
                self.shadow_objects(args[0])
            return
        if callee in NO_STORE_FUNCTIONS or is_deallocation(op):
            return
        if callee in LINKING_FUNCTIONS:
            # Called again on the shadows: all its pointers get one, or none.
            pointers = [o for o in args if is_pointer_like(o.type)]
            if any(p in info.shadowed for p in pointers):
                for p in pointers:
                    self.shadow_objects(p)
                if result is not None:
                    self.mark(result, False, True)
            return
        any_varied = any(o in info.varied for o in args) or touches_shadowed_globals(op)
        any_shadowed = any(o in info.shadowed for o in args)
        if result is not None:
            # A pointer the call returns may lead to memory holding what it received (a buffer
            # the callee fills with a varied argument): it gets a shadow from the callee.
            returned_varied = any_varied and not returns_argument_memory(op)
            self.mark(result, any_varied or any_shadowed,
                      any_shadowed or returned_varied or result in info.shadowed_objects)  # fmt: skip
            if result in info.shadowed:
                # The result's shadow is made of the shadows of the arguments it may point into.
                for i, o in enumerate(args):
                    if is_pointer_like(o.type) and not isinstance(o.type, VectorType) and may_return_argument(op, i):
                        self.shadow_objects(o)
        if any_varied or any_shadowed:
            # The callee may store what it received through any pointer it received.
            for i, o in enumerate(args):
                if is_pointer_like(o.type) and not isinstance(o.type, VectorType) and not (
                    isinstance(op, xllvm.CallOp) and call_reads_only_argument(op, i)
                ):
                    self.shadow_objects(o)

    def _collect_unshadowed(self) -> None:
        info = self.info
        for b in self.cfg.rpo:
            for op in b.ops:
                if isinstance(op, ext.StoreOp):
                    if (op.value in info.varied or op.value in info.shadowed) and op.ptr not in info.shadowed:
                        info.unshadowed_stores.append(op)
                elif isinstance(op, ext.MemcpyOp | ext.MemmoveOp):
                    if op.args[1] in info.shadowed and op.args[0] not in info.shadowed:
                        info.unshadowed_stores.append(op)
                elif isinstance(op, ext.AtomicRMWOp | ext.CmpXchgOp):
                    if any(o in info.varied for o in op.operands[1:]) and op.operands[0] not in info.shadowed:
                        info.unshadowed_stores.append(op)
                elif isinstance(op, par.ReduceOp):
                    if op.private in info.shadowed and op.shared not in info.shadowed:
                        info.unshadowed_stores.append(op)
                elif isinstance(op, par.AtomicUpdateOp):
                    if op.value in info.varied and op.ptr not in info.shadowed:
                        info.unshadowed_stores.append(op)
                elif masked_kind(op) in ("store", "scatter"):
                    args = list(op.args)  # type: ignore[attr-defined]
                    if args[0] in info.varied and args[1] not in info.shadowed:
                        info.unshadowed_stores.append(op)


def _is_integer_like(t: Attribute) -> bool:
    et = t.element_type if isinstance(t, VectorType) else t
    return isinstance(et, IntegerType)


def _ordered_or_volatile(op: xllvm.LoadOp) -> bool:
    """An atomic or volatile load, which LLVM keeps even when its value is unused."""
    ordering = op.properties.get("ordering")
    return "volatile_" in op.properties or "volatile_" in op.attributes or (
        isinstance(ordering, IntegerAttr) and ordering.value.data != 0)  # fmt: skip


def _moves_bytes(v: SSAValue) -> bool:
    """Whether an integer value is reinterpreted as floating-point data by a `bitcast`, or
    stored (memory copied as integers), directly or through selects and freezes."""
    if not _is_integer_like(v.type):
        return False
    work, seen = [v], set()
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        for u in x.uses:
            user = u.operation
            if isinstance(user, xllvm.BitcastOp) and carries_derivative(user.results[0].type):
                return True
            if isinstance(user, ext.StoreOp) and u.index == 0:
                return True
            if isinstance(user, ext.SelectOp | ext.FreezeOp) and u.index > 0 or isinstance(user, ext.FreezeOp):
                work.append(user.results[0])
    return False


def _slot_values(p: SSAValue, analysis: _Analysis) -> list[SSAValue] | None:
    """The values ever stored into the memory `p` points to, when that is only allocas that are
    loaded from and stored to (a pointer variable of unoptimised code); None otherwise."""
    values: list[SSAValue] = []
    roots: list[SSAValue] = []
    work, seen = [p], set()
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        op = x.owner
        if isinstance(op, _ADDRESS_OPS):
            work.append(op.operands[0])
        elif isinstance(op, xllvm.AllocaOp):
            roots.append(x)
        else:
            return None
    for alloca in roots:
        work = [alloca]
        while work:
            q = work.pop()
            for use in q.uses:
                user = use.operation
                if isinstance(user, xllvm.LoadOp):
                    continue
                if isinstance(user, _ADDRESS_OPS) and use.index == 0:
                    work.append(user.results[0])
                    continue
                if isinstance(user, ext.StoreOp) and use.index == 1:
                    values.append(user.value)
                    continue
                if ext.is_annotation(user):
                    continue
                return None
    del analysis
    return values
