"""Activity analysis: which values and which memory carry derivatives.

A floating-point value is *active* when it is both varied (it depends on an active input) and
useful (an active output depends on it); only active values get adjoints.  A pointer is
*shadowed* when the memory it points into may hold varied data: it then has a shadow pointer into
shadow memory of the same shape.  Memory is tracked by object (argument, alloca, heap allocation,
global): an object becomes shadowed when a varied value or a shadowed pointer is stored into it.

Integers never carry derivatives.  The analysis is a fixpoint over the function in reverse
post-order; it does not rewrite anything.  `print-activity` shows its results for tests.

The same analysis serves both levels through `ActivityIR`, what it needs to know of an IR: the
function's ops and carried values (phis here, iteration arguments and region results at the
structured level), what an op makes varied or shadowed, where derivatives leave the function,
and what a value depends on.  `solve` runs the forward fixpoint (varied, shadowed) and the
backward walk (useful) on any of them; `LLVMActivityIR` is this level's implementation,
`structured_activity.StructuredActivityIR` the structured level's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr, VectorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from xenzyme.analysis.alias import (
    DEALLOCATORS, LINKING_FUNCTIONS, UNKNOWN, Object, allocator_of, call_reads_only_argument, callee_name, defined_callee, may_return_argument,
    pointer_roots, merged_with_unshadowed_arguments, pointers_without_shadows, returns_argument_memory, underlying_objects,
)  # fmt: skip
from xenzyme.analysis.cfg import CFG
from xenzyme.analysis.globals import shadowed_globals, touches_shadowed_globals
from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import par
from xenzyme.dialects.autodiff import has_shadow, is_float_like, shadowed_operands


def is_pointer_like(t: Attribute) -> bool:
    if isinstance(t, VectorType):
        t = t.element_type
    return isinstance(t, ext.LLVMPointerType)


def carries_derivative(t: Attribute) -> bool:
    """Float scalars/vectors and aggregates containing them."""
    if is_float_like(t):
        return True
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        return any(carries_derivative(m) for m in t.types.data)
    if isinstance(t, ext.LLVMArrayType):
        return carries_derivative(t.type)
    return False


_POINTER_FORWARDING = (ext.GEPOp, xllvm.BitcastOp, ext.AddrSpaceCastOp)
_NO_DERIVATIVE = (
    ext.ICmpOp, ext.FCmpOp, ext.FPToSIOp, ext.FPToUIOp, xllvm.SIToFPOp, ext.UIToFPOp,
    xllvm.PtrToIntOp, xllvm.IntToPtrOp, xllvm.AllocaOp,
)  # fmt: skip
"""Ops whose results never depend differentiably on their operands (pointers aside)."""


@dataclass
class ActivityInfo:
    varied: set[SSAValue] = field(default_factory=set)
    useful: set[SSAValue] = field(default_factory=set)
    shadowed: set[SSAValue] = field(default_factory=set)
    shadowed_objects: set[Object] = field(default_factory=set)
    """Objects (allocas, heap allocations, globals, arguments) whose memory may hold varied data."""
    unshadowed_stores: list[Operation] = field(default_factory=list)
    """Stores of varied data into memory that has no shadow (errors for the caller to report)."""
    aggregated_pointers: list[Operation] = field(default_factory=list)
    """`insertvalue`s putting a pointer with a shadow into an aggregate value that is stored as
    a whole or has the pointer read back out after a branch: reverse mode follows shadows of
    scalar pointers only, so the shadow would be lost (errors to report)."""
    reinterpreted: list[Operation] = field(default_factory=list)
    """Ops where the bits of a varied float, after passing through integer code, become a float
    again or are stored into shadowed memory: the derivative would be lost (errors to report)."""
    unshadowed_pointers: list[Operation] = field(default_factory=list)
    merged_pointers: list[Operation] = field(default_factory=list)
    """Stores of pointers without shadows that may lead to floats into shadowed memory (errors
    to report: see `alias.pointers_without_shadows`)."""

    def is_active(self, v: SSAValue) -> bool:
        return v in self.varied and v in self.useful

    def has_shadow(self, v: SSAValue) -> bool:
        return v in self.shadowed


Carried = tuple[SSAValue, SSAValue]
"""(a value, what it flows into without an op: a phi, an iteration argument, a region's result)."""


class ActivityIR(Protocol):
    """What activity analysis needs to know of a function's IR (one implementation per level)."""

    def steps(self) -> Iterable[Operation | Carried]:
        """The function's ops and carried values, definitions mostly first (the forward fixpoint's order)."""
        ...

    def transfer(self, info: ActivityInfo, op: Operation) -> bool:
        """Mark what `op` makes varied or shadowed (its results, memory it writes); whether anything changed."""
        ...

    def join(self, info: ActivityInfo, value: SSAValue, into: SSAValue) -> bool:
        """Carry `value`'s activity into `into`; whether anything changed."""
        ...

    def outputs(self, info: ActivityInfo) -> Iterable[SSAValue]:
        """The varied values whose derivatives leave the function (useful by themselves)."""
        ...

    def inputs(self, info: ActivityInfo, op: Operation) -> Iterable[SSAValue]:
        """The values `op`'s results depend on (those a useful result makes useful)."""
        ...


def solve(ir: ActivityIR, info: ActivityInfo) -> None:
    """Varied and shadowed (a forward fixpoint from what `info` holds), then useful (backward
    from the outputs through ops and carried values)."""
    changed = True
    while changed:
        changed = False
        for step in ir.steps():
            changed |= ir.join(info, *step) if isinstance(step, tuple) else ir.transfer(info, step)
    carried: dict[SSAValue, list[SSAValue]] = {}
    defs: dict[SSAValue, Operation] = {}
    for step in ir.steps():
        if isinstance(step, tuple):
            carried.setdefault(step[1], []).append(step[0])
        else:
            defs.update((r, step) for r in step.results)
    useful = info.useful
    work: list[SSAValue] = []

    def add(v: SSAValue) -> None:
        if v in info.varied and v not in useful:
            useful.add(v)
            work.append(v)

    for v in ir.outputs(info):
        add(v)
    while work:
        v = work.pop()
        if v in carried:
            for x in carried[v]:
                add(x)
        elif (op := defs.get(v)) is not None:
            for x in ir.inputs(info, op):
                add(x)


@dataclass
class LLVMActivityIR:
    """`ActivityIR` of an llvm-dialect function: blocks in reverse post-order, phis as block
    arguments, memory as objects (`alias.underlying_objects`); loads make nothing useful (a
    store into shadowed memory is an output by itself)."""

    cfg: CFG
    ret_activity: str
    constant_globals: set[str]

    def steps(self) -> Iterable[Operation | Carried]:
        cfg = self.cfg
        for b in cfg.rpo:
            for p in cfg.preds[b]:
                for arg, inc in zip(b.args, cfg.incoming(b, p), strict=True):
                    yield inc, arg
            yield from b.ops

    def join(self, info: ActivityInfo, value: SSAValue, into: SSAValue) -> bool:
        changed = _mark(info, into, value in info.varied, value in info.shadowed)
        if into in info.shadowed and value not in info.shadowed:
            # Every pointer a shadowed phi may take needs a shadow to take with it.
            changed |= _demand_shadow(info, value, self.cfg, self.constant_globals)
        return changed

    def transfer(self, info: ActivityInfo, op: Operation) -> bool:
        changed = _transfer(self.cfg, info, op, self.constant_globals)
        if isinstance(op, ext.SelectOp) and op.res in info.shadowed:
            for inc in (op.lhs, op.rhs):
                if inc not in info.shadowed:
                    changed |= _demand_shadow(info, inc, self.cfg, self.constant_globals)
        return changed

    def outputs(self, info: ActivityInfo) -> Iterable[SSAValue]:
        for b in self.cfg.rpo:
            for op in b.ops:
                if isinstance(op, xllvm.ReturnOp) and op.arg is not None and self.ret_activity == "active":
                    yield op.arg
                elif isinstance(op, ext.StoreOp) and op.ptr in info.shadowed:
                    yield op.value
                elif (stored := atomically_stored(op)) is not None and stored[1] in info.shadowed:
                    yield stored[0]
                elif isinstance(op, xllvm.CallOp | ext.InvokeOp | par.ParallelOp) and (
                    any(o in info.shadowed for o in (*op.operands, *op.results)) or touches_shadowed_globals(op)
                ):
                    # (a pointer the call returns may lead to memory holding what it received)
                    yield from op.operands

    def inputs(self, info: ActivityInfo, op: Operation) -> Iterable[SSAValue]:
        return () if isinstance(op, xllvm.LoadOp) else op.operands


def analyze_activity(
    cfg: CFG,
    args: Sequence[BlockArgument],
    activities: Sequence[str],
    ret_activity: str,
    constant_globals: set[str],
) -> ActivityInfo:
    info = ActivityInfo()
    fn = cfg.entry.parent_op()
    if fn is not None:  # (mutable globals any function may store derivatives into)
        info.shadowed_objects |= shadowed_globals(fn) - constant_globals
    for arg, act in zip(args, activities, strict=True):
        if act == "active" and carries_derivative(arg.type):
            info.varied.add(arg)
        elif has_shadow(act) and is_pointer_like(arg.type):
            info.shadowed.add(arg)
            info.shadowed_objects.add(arg)
    if ret_activity == "dup":
        # The caller receives a shadow of what is returned: the memory returned needs one.
        for b in cfg.rpo:
            if isinstance(b.last_op, xllvm.ReturnOp) and b.last_op.arg is not None:
                _demand_shadow(info, b.last_op.arg, cfg, constant_globals)
    solve(LLVMActivityIR(cfg, ret_activity, constant_globals), info)
    _after_forward(cfg, info)
    _reinterpretation(cfg, info)
    info.unshadowed_pointers = pointers_without_shadows(cfg, info.shadowed)
    info.merged_pointers = merged_with_unshadowed_arguments(cfg, info.shadowed)
    return info


def _mark(info: ActivityInfo, v: SSAValue, varied: bool, shadowed: bool) -> bool:
    changed = False
    if varied and carries_derivative(v.type) and v not in info.varied:
        info.varied.add(v)
        changed = True
    if shadowed and is_pointer_like(v.type) and v not in info.shadowed:
        info.shadowed.add(v)
        changed = True
    return changed


def _objects_shadowed(info: ActivityInfo, ptr: SSAValue, cfg: CFG) -> bool:
    return ptr in info.shadowed


def _after_forward(cfg: CFG, info: ActivityInfo) -> None:
    """The errors the forward fixpoint found, as they stand once it is done."""
    # Candidates found on the way may have gained a shadow pointer in a later round.
    info.unshadowed_stores = [op for op in info.unshadowed_stores if _written_pointer(op) not in info.shadowed]
    info.aggregated_pointers = [op for b in cfg.rpo for op in b.ops
                                if isinstance(op, xllvm.InsertValueOp) and op.value in info.shadowed
                                and _aggregate_escapes(op.res)]  # fmt: skip


def _aggregate_escapes(agg: SSAValue) -> bool:
    """Whether an aggregate value (or one made from it by inserting more, or a block argument it
    is passed to) is stored to memory or has a pointer read out of it.  (Aggregates passed to
    calls and returned are judged by the call and return rules.)"""
    work, seen = [agg], set()
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            user = use.operation
            if isinstance(user, xllvm.InsertValueOp) and use.index == 0:
                work.append(user.res)
            elif isinstance(user, xllvm.ExtractValueOp):
                if _holds_pointer(user.res.type):
                    return True
            elif isinstance(user, ext.StoreOp):
                return True
            elif user.successors:  # (on to the block it is passed to)
                for dest, values in ext.successor_operands(user):
                    work += [arg for value, arg in zip(values, dest.args, strict=False) if value is v]
    return False


def _holds_pointer(t: Attribute) -> bool:
    if is_pointer_like(t):
        return True
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        return any(_holds_pointer(m) for m in t.types.data)
    return isinstance(t, ext.LLVMArrayType) and _holds_pointer(t.type)


def read_back_with_derivative(cfg: CFG, info: ActivityInfo, store: Operation, ret_activity: str) -> bool:
    """Whether varied data that `store` writes into memory without a shadow (memory the caller
    marked constant) may be read back in this function into something that carries a derivative
    out -- then its derivative would be lost, and that is an error.  Written and not read (a
    constant output, a log, a running maximum only compared against) it is a side effect the
    derivative does not follow, as for any constant argument.  A read is of the written memory
    when both reach the same object or come from the same pointer; two pointers of unknown
    origin are taken for different constant arrays, as the caller declared them."""
    written = underlying_objects(_written_pointer(store), cfg)
    written_roots = set(pointer_roots(_written_pointer(store), cfg))
    for b in cfg.rpo:
        for op in b.ops:
            if not isinstance(op, xllvm.LoadOp) or not carries_derivative(op.dereferenced_value.type):
                continue
            if op.ptr in info.shadowed:
                continue  # (memory with a shadow is not what the store wrote: the two do not alias)
            read = underlying_objects(op.ptr, cfg) - {UNKNOWN}
            same = read & (written - {UNKNOWN}) or written_roots & set(pointer_roots(op.ptr, cfg))
            if same and _reaches_output(op.dereferenced_value, info, ret_activity):
                return True
    return False


_STOPS_DERIVATIVES = (ext.ICmpOp, ext.FCmpOp, ext.FPToSIOp, ext.FPToUIOp)


def has_derivative_output(info: ActivityInfo, ret_activity: str) -> bool:
    """Whether any varied value reaches an output of the function (an active return, shadowed
    memory, a call).  Without one, what the caller asked for is identically zero: where varied
    data is stored into memory marked constant, that is the derivative the caller wanted, sent
    where it was told not to go."""
    return _reaches_output(info.varied, info, ret_activity)


def _reaches_output(v: SSAValue | Iterable[SSAValue], info: ActivityInfo, ret_activity: str) -> bool:
    """Whether `v` (or any of several values) flows, through operations that carry derivatives,
    into the function's active return, shadowed memory, or a call."""
    seen: set[SSAValue] = set()
    work = [v] if isinstance(v, SSAValue) else list(v)
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        for use in x.uses:
            user = use.operation
            if isinstance(user, _STOPS_DERIVATIVES):
                continue
            if isinstance(user, xllvm.ReturnOp):
                if ret_activity == "active":
                    return True
                continue
            if isinstance(user, ext.StoreOp):
                if use.index == 0 and (user.ptr in info.shadowed or read_back_target(user)):
                    return True
                continue
            if isinstance(user, xllvm.CallOp | ext.InvokeOp | par.ParallelOp) and not _pure_math(user):
                return True
            for dest, args in ext.successor_operands(user) if user.successors else ():
                for a, da in zip(args, dest.args, strict=False):
                    if a is x:
                        work.append(da)
            work += [r for r in user.results if carries_derivative(r.type)]
    return False


def read_back_target(store: ext.StoreOp) -> bool:
    """(A store into memory without a shadow passes the value on only if that is read back;
    followed by the caller of `read_back_with_derivative` for each such store.)"""
    return False


def _pure_math(op: Operation) -> bool:
    attrs = op.attributes.get("fn_attrs")
    return isinstance(attrs, ArrayAttr) and any(isinstance(a, StringAttr) and a.data in ("memory(none)", "readnone")
                                                for a in attrs.data)  # fmt: skip


def _written_pointer(op: Operation) -> SSAValue:
    return op.ptr if isinstance(op, ext.StoreOp) else op.operands[0]


def _transfer(cfg: CFG, info: ActivityInfo, op: Operation, constant_globals: set[str]) -> bool:
    varied = info.varied
    shadowed = info.shadowed
    if isinstance(op, _NO_DERIVATIVE):
        if isinstance(op, xllvm.AllocaOp) and op.res in info.shadowed_objects:
            return _mark(info, op.res, False, True)
        return False
    if isinstance(op, xllvm.AddressOfOp):
        name = op.global_name.string_value()
        if name in info.shadowed_objects and name not in constant_globals:
            return _mark(info, op.result, False, True)
        return False
    if isinstance(op, xllvm.LoadOp):
        s = op.ptr in shadowed
        return _mark(info, op.dereferenced_value, s, s)
    if isinstance(op, ext.StoreOp):
        v, p = op.value, op.ptr
        changed = False
        if p in shadowed and is_pointer_like(v.type) and v not in shadowed:
            # A pointer kept in shadowed memory needs a shadow of its own for the shadow
            # memory to hold (a heap buffer whose address is kept in a local variable).
            changed = _demand_shadow(info, v, cfg, constant_globals)
        if v not in varied and v not in shadowed:
            return changed
        return _store_into(cfg, info, op, p, constant_globals) or changed
    if isinstance(op, ext.MemcpyOp | ext.MemmoveOp | par.ReduceOp):
        dst, src = copied(op)
        if src in shadowed:
            return _store_into(cfg, info, op, dst, constant_globals)
        return False
    if (stored := atomically_stored(op)) is not None:
        # An atomic update writes the value it is given into memory, as a store does.
        v, p = stored
        changed = False
        for r in op.results:
            changed |= _mark(info, r, p in shadowed, p in shadowed and is_pointer_like(r.type))
        if v in varied or v in shadowed:
            changed |= _store_into(cfg, info, op, p, constant_globals)
        return changed
    if allocator_of(op) is not None:
        # Fresh heap memory is an object of its own: shadowed once varied data is stored in it.
        return op.results[0] in info.shadowed_objects and _mark(info, op.results[0], False, True)
    if callee_name(op) in DEALLOCATORS:
        return False
    if isinstance(op, _POINTER_FORWARDING):
        # A bitcast between float types (double <-> <1 x double>, vector reshapes) forwards the
        # value's derivative; one to an integer never carries it (reverse-diff rejects that).
        return _mark(info, op.results[0], op.operands[0] in varied, op.operands[0] in shadowed)
    if callee_name(op) in LINKING_FUNCTIONS:
        # Called again on the shadows: all its pointers get one, or none (a shadow structure
        # linked into the primal one would corrupt both).
        pointers = [o for o in op.operands if is_pointer_like(o.type)]
        if not any(p in shadowed for p in pointers):
            return False
        changed = any([_demand_shadow(info, p, cfg, constant_globals) for p in pointers])
        return any([_mark(info, r, False, True) for r in op.results]) or changed
    # Memory that receives another process's data (an MPI receive) may hold varied data.
    changed = any([_demand_shadow(info, p, cfg, constant_globals) for p in shadowed_operands(op)])
    any_varied = any(o in varied for o in op.operands)
    any_shadowed = any(o in shadowed for o in op.operands)
    # What a call returns may be computed from memory it reads through shadowed pointers.
    reads_memory = isinstance(op, xllvm.CallOp | ext.InvokeOp | xllvm.CallIntrinsicOp | par.ParallelOp)
    # A callee using a global that may hold derivatives reads or writes them unseen.
    touches = reads_memory and touches_shadowed_globals(op)
    any_varied = any_varied or touches
    # A pointer a call returns may lead to memory holding what it received (a node that stores
    # a varied argument): it gets a shadow, which the callee's derivative provides.
    shadow_results = any_shadowed or (reads_memory and any_varied and not returns_argument_memory(op))
    for r in op.results:
        changed |= _mark(info, r, any_varied or (reads_memory and any_shadowed), shadow_results)
    if isinstance(op, xllvm.CallOp | ext.InvokeOp) and op.results and op.results[0] in info.shadowed:
        # The result's shadow is made of the shadows of the arguments it may point into.
        for i, o in enumerate(op.operands):
            if is_pointer_like(o.type) and o not in info.shadowed and may_return_argument(op, i):
                changed |= _demand_shadow(info, o, cfg, constant_globals)
    if isinstance(op, xllvm.CallOp | ext.InvokeOp | par.ParallelOp) and (any_shadowed or any_varied):
        # A callee may store what it received (varied values, or data read through shadowed
        # pointers) through any pointer argument it may write: that memory needs a shadow.
        for i, o in enumerate(op.operands):
            if not is_pointer_like(o.type) or _call_reads_only(op, i) or call_reads_only_argument(op, i):
                continue
            for obj in underlying_objects(o, cfg):
                if obj is UNKNOWN:
                    # A function of this module writing through it gives its derivative's
                    # adjoints to the pointer's shadow: where the pointer comes from (a load,
                    # a call) must provide one, as for a store.  Of other callees, only what
                    # a helper here returned (its derivative provides the shadow).
                    if defined_callee(op) is not None:
                        changed |= _demand_shadow(info, o, cfg, constant_globals)
                    else:
                        changed |= _shadow_returned_pointers(info, o, cfg)
                if obj is UNKNOWN or isinstance(obj, BlockArgument) or obj in info.shadowed_objects:
                    continue
                info.shadowed_objects.add(obj)
                changed = True
    return changed


def _shadow_returned_pointers(info: ActivityInfo, ptr: SSAValue, cfg: CFG) -> bool:
    """A pointer that a function of this module returned (a helper returning a buffer it
    allocated), handed to a callee that may store varied data through it: the pointer gets a
    shadow, which the helper's derivative provides."""
    changed = False
    for root in pointer_roots(ptr, cfg):
        owner = root.owner
        if isinstance(owner, xllvm.CallOp) and allocator_of(owner) is None and defined_callee(owner) is not None:
            changed |= _mark(info, root, False, True)
    return changed


def copied(op: Operation) -> tuple[SSAValue, SSAValue]:
    """(destination, source) of an op copying memory to memory: memcpy/memmove, and a
    reduction, which combines the private copy (source) into the shared one (destination)."""
    if isinstance(op, par.ReduceOp):
        return op.shared, op.private
    return op.operands[0], op.operands[1]


def atomically_stored(op: Operation) -> tuple[SSAValue, SSAValue] | None:
    """(value, pointer) of an atomic update of memory with a value (`atomicrmw`, the parallel
    layer's `atomic_update`); None for other ops (a compare-exchange is judged by its users)."""
    if isinstance(op, ext.AtomicRMWOp):
        return op.operands[1], op.operands[0]
    if isinstance(op, par.AtomicUpdateOp):
        return op.value, op.ptr
    return None


def _call_reads_only(op: Operation, index: int) -> bool:
    """Whether the call cannot write through its `index`-th operand (readonly/readnone, or a
    callee that writes no memory)."""
    fn_attrs = op.attributes.get("fn_attrs")
    if isinstance(fn_attrs, ArrayAttr) and any(
        isinstance(a, StringAttr) and a.data in ("memory(none)", "memory(read)", "readnone", "readonly")
        for a in fn_attrs.data
    ):
        return True
    arg_attrs = op.attributes.get("arg_attrs")
    if isinstance(arg_attrs, ArrayAttr) and index < len(arg_attrs.data):
        d = arg_attrs.data[index]
        if isinstance(d, DictionaryAttr) and ("llvm.readonly" in d.data or "llvm.readnone" in d.data):
            return True
    return False


def _store_into(cfg: CFG, info: ActivityInfo, op: Operation, ptr: SSAValue, constant_globals: set[str]) -> bool:
    changed = False
    for obj in underlying_objects(ptr, cfg):
        if obj in info.shadowed_objects:
            continue
        if obj is UNKNOWN or isinstance(obj, BlockArgument):
            if ptr not in info.shadowed and op not in info.unshadowed_stores:
                info.unshadowed_stores.append(op)
                changed |= _demand_shadow(info, ptr, cfg, constant_globals)
            continue
        info.shadowed_objects.add(obj)
        changed = True
    return changed


def _demand_shadow(info: ActivityInfo, ptr: SSAValue, cfg: CFG, constant_globals: set[str]) -> bool:
    """`ptr` must have a shadow (active data goes through it, or a shadowed phi or memory
    holds it): give one to where it comes from.  A pointer loaded from memory of this function
    makes that memory hold shadow pointers; one a call returned gets its shadow from the
    callee's derivative; locals, heap and mutable globals get shadow memory."""
    changed = _shadow_objects(info, ptr, cfg, constant_globals)
    for root in pointer_roots(ptr, cfg):
        if isinstance(root.owner, xllvm.LoadOp):
            changed |= _shadow_objects(info, root.owner.ptr, cfg, constant_globals)
        elif isinstance(root.owner, xllvm.CallOp) and allocator_of(root.owner) is None:
            changed |= _mark(info, root, False, True)
    return changed


def _shadow_objects(info: ActivityInfo, ptr: SSAValue, cfg: CFG, constant_globals: set[str]) -> bool:
    """Give the local, heap and mutable global objects `ptr` may point into a shadow."""
    changed = False
    for obj in underlying_objects(ptr, cfg):
        if obj is UNKNOWN or isinstance(obj, BlockArgument) or obj in constant_globals:
            continue
        if obj not in info.shadowed_objects:
            info.shadowed_objects.add(obj)
            changed = True
    return changed


_BACK_TO_FLOAT = (xllvm.BitcastOp, xllvm.SIToFPOp, ext.UIToFPOp)
"""Ops that turn integers (here: float bits) back into floating-point values."""


def _reinterpretation(cfg: CFG, info: ActivityInfo) -> None:
    """Find where float bits with a derivative, taken as an integer (`bitcast double to i64`),
    come back into floating-point data.  Integer code that only inspects the bits (a sign test,
    a comparison) loses nothing and is fine."""
    tainted: set[SSAValue] = set()
    changed = True
    while changed:
        changed = False
        for b in cfg.rpo:
            for p in cfg.preds[b]:
                for arg, inc in zip(b.args, cfg.incoming(b, p), strict=True):
                    if inc in tainted and arg not in tainted:
                        tainted.add(arg)
                        changed = True
            for op in b.ops:
                for r in _tainted_results(op, info, tainted):
                    if r not in tainted:
                        tainted.add(r)
                        changed = True
    for b in cfg.rpo:
        for op in b.ops:
            if _is_sink(op, info, tainted):
                info.reinterpreted.append(op)


def _tainted_results(op: Operation, info: ActivityInfo, tainted: set[SSAValue]) -> list[SSAValue]:
    if isinstance(op, xllvm.BitcastOp):
        src = op.operands[0]
        if src in info.varied and not carries_derivative(op.results[0].type) and not is_pointer_like(op.results[0].type):
            return [op.results[0]]
    if isinstance(op, ext.ICmpOp | ext.StoreOp) or not any(o in tainted for o in op.operands):
        return []
    return [r for r in op.results if not carries_derivative(r.type) and not is_pointer_like(r.type)]


def _is_sink(op: Operation, info: ActivityInfo, tainted: set[SSAValue]) -> bool:
    if isinstance(op, par.ParallelOp):
        return any(o in tainted for o in op.operands)  # (firstprivate floats travel as integers)
    if isinstance(op, _BACK_TO_FLOAT):
        return op.operands[0] in tainted and carries_derivative(op.results[0].type)
    if isinstance(op, ext.StoreOp):
        return op.value in tainted and op.ptr in info.shadowed
    if isinstance(op, xllvm.ReturnOp):
        return op.arg is not None and op.arg in tainted  # (the caller may make a float of it again)
    if isinstance(op, xllvm.CallOp | ext.InvokeOp):
        return defined_callee(op) is not None and any(o in tainted for o in op.operands)
    return False
