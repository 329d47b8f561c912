"""Which objects a pointer may point into, and which objects a function may write.

Deliberately simple and conservative: a pointer's underlying objects are found by walking back
through address arithmetic (GEP, casts, select, block arguments); an object is an argument, an
alloca, a global, a heap allocation (the call to `malloc` & co. that returned it), or `UNKNOWN`
(a pointer loaded from memory or returned by any other call).  The
differentiation passes use it to decide whether a load can be repeated in the reverse sweep
instead of being cached: it can when nothing in the function may write what it reads.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.traits import MemoryEffectKind, get_effects

from xenzyme.analysis.cfg import CFG
from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import par


@dataclass(frozen=True)
class Unknown:
    """A pointer of unknown origin (loaded from memory, returned by a call)."""


UNKNOWN = Unknown()

Object = SSAValue | str | Unknown
"""An argument, alloca or heap allocation (its SSA value), a global (its name), or UNKNOWN."""


@dataclass(frozen=True)
class Allocator:
    """A function returning fresh heap memory, and how that memory is given back."""

    size_args: tuple[int, ...]
    """Arguments whose product is the size in bytes."""
    deallocator: str
    dealloc_args: tuple[int, ...] = ()
    """Arguments of the allocation passed to the deallocator after the pointer (alignment)."""


ALLOCATORS = {
    "malloc": Allocator((0,), "free"),
    "calloc": Allocator((0, 1), "free"),
    "aligned_alloc": Allocator((1,), "free"),
    "valloc": Allocator((0,), "free"),
    "_Znwm": Allocator((0,), "_ZdlPv"),
    "_Znam": Allocator((0,), "_ZdaPv"),
    "_ZnwmSt11align_val_t": Allocator((0,), "_ZdlPvSt11align_val_t", (1,)),
    "_ZnamSt11align_val_t": Allocator((0,), "_ZdaPvSt11align_val_t", (1,)),
}
"""C's allocation functions and C++'s operator new (plain, array, aligned)."""

DEALLOCATORS = {
    "free", "_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm", "_ZdlPvSt11align_val_t", "_ZdaPvSt11align_val_t",
    "_ZdlPvmSt11align_val_t", "_ZdaPvmSt11align_val_t",
}  # fmt: skip
"""free and C++'s operator delete: they end the object their first argument points into."""


def callee_name(op: Operation) -> str | None:
    """The name of the function a direct call calls."""
    if isinstance(op, xllvm.CallOp) and op.callee is not None:
        return op.callee.string_value()
    return None


def allocator_of(op: Operation) -> Allocator | None:
    """How `op` allocates, if it is a call to a heap allocation function."""
    name = callee_name(op)
    return ALLOCATORS.get(name) if name is not None else None

_ADDRESS_OPS = (ext.GEPOp, xllvm.BitcastOp, ext.AddrSpaceCastOp)

# Functions that read their pointer arguments but write no memory visible to the caller
# (other than errno, which programs being differentiated do not inspect).
READONLY_LIBRARY = {
    "printf", "puts", "fputs", "fprintf", "putchar", "strlen", "strcmp", "strncmp", "memcmp",
    "sin", "cos", "tan", "exp", "log", "pow", "sqrt", "fabs", "atan2", "hypot", "malloc_usable_size",
}  # fmt: skip


def pointer_roots(v: SSAValue, cfg: CFG | None = None, limit: int = 64) -> list[SSAValue]:
    """Where the address arithmetic behind `v` starts: arguments, allocas, globals, and the
    results of loads and calls (the values `underlying_objects` classifies)."""
    roots: list[SSAValue] = []
    seen: set[SSAValue] = set()
    work = [v]
    while work and len(seen) <= limit:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        if isinstance(x, BlockArgument):
            block = x.block
            parent = block.parent_region()
            if cfg is None or (parent is not None and block is parent.blocks.first):
                roots.append(x)
            else:
                work += [cfg.incoming(block, p)[x.index] for p in cfg.preds.get(block, [])]
            continue
        op = x.owner
        if isinstance(op, _ADDRESS_OPS):
            work.append(op.operands[0])
        elif isinstance(op, ext.SelectOp):
            work += [op.lhs, op.rhs]
        else:
            roots.append(x)
    return roots


def underlying_objects(v: SSAValue, cfg: CFG | None = None, limit: int = 64) -> set[Object]:
    """The objects `v` may point into."""
    out: set[Object] = set()
    seen: set[SSAValue] = set()
    work = [v]
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        if len(seen) > limit:
            return {UNKNOWN}
        if isinstance(x, BlockArgument):
            block = x.block
            parent = block.parent_region()
            if parent is not None and block is parent.blocks.first:
                out.add(x)  # function argument
                continue
            if cfg is None:
                return {UNKNOWN}
            for p in cfg.preds.get(block, []):
                work.append(cfg.incoming(block, p)[x.index])
            continue
        op = x.owner
        assert isinstance(op, Operation)
        if isinstance(op, _ADDRESS_OPS):
            work.append(op.operands[0])
        elif isinstance(op, ext.SelectOp):
            work += [op.lhs, op.rhs]
        elif isinstance(op, xllvm.AllocaOp) or allocator_of(op) is not None:
            out.add(x)
        elif isinstance(op, xllvm.AddressOfOp):
            out.add(op.global_name.string_value())
        elif isinstance(op, xllvm.ZeroOp | xllvm.UndefOp | ext.PoisonOp):
            continue
        elif isinstance(op, xllvm.LoadOp) and (stored := _stored_into_local_slots(op.ptr, cfg)) is not None:
            work += stored
        else:
            out.add(UNKNOWN)
    return out


def _stored_into_local_slots(p: SSAValue, cfg: CFG | None) -> list[SSAValue] | None:
    """The values ever stored into the memory `p` points to, when that is only allocas whose
    address never escapes (a pointer variable of unoptimised code, `double *cur = a;`); None
    otherwise."""
    if cfg is None:
        return None
    values: list[SSAValue] = []
    for obj in underlying_objects(p, None):
        if not (isinstance(obj, SSAValue) and isinstance(obj.owner, xllvm.AllocaOp)):
            return None
        stores = _slot_stores(obj)
        if stores is None:
            return None
        values += stores
    return values


def _slot_stores(alloca: SSAValue) -> list[SSAValue] | None:
    """Values stored into an alloca that is only loaded from and stored to (through address
    arithmetic); None if its address is used any other way."""
    values: list[SSAValue] = []
    work = [alloca]
    while work:
        p = work.pop()
        for use in p.uses:
            op = use.operation
            if isinstance(op, xllvm.LoadOp) or (isinstance(op, _ADDRESS_OPS) and use.index == 0):
                if isinstance(op, _ADDRESS_OPS):
                    work.append(op.results[0])
                continue
            if isinstance(op, ext.StoreOp) and use.index == 1:
                values.append(op.value)
                continue
            if ext.is_annotation(op):
                continue
            return None
    return values


def store_destinations(op: Operation) -> list[SSAValue] | None:
    """Pointers an op writes through; None when it may write anything."""
    if isinstance(op, ext.StoreOp):
        return [op.ptr]
    if isinstance(op, ext.MemcpyOp | ext.MemmoveOp | ext.MemsetOp):
        return [op.args[0]]
    if isinstance(op, ext.AtomicRMWOp | ext.CmpXchgOp):
        return [op.ptr]
    if isinstance(op, xllvm.CallOp):
        name = callee_name(op)
        if name in READONLY_LIBRARY or name in ALLOCATORS:
            return []
        if name in DEALLOCATORS:
            return [op.operands[0]]  # the object ends: what it held is gone
        if _call_writes_nothing(op):
            return []
        return None
    if isinstance(op, xllvm.CallIntrinsicOp | xllvm.InlineAsmOp | ext.VAArgOp | ext.InvokeOp):
        return None if not isinstance(op, xllvm.CallIntrinsicOp) or not _intrinsic_pure(op) else []
    if isinstance(op, par.ReduceOp):
        return [op.shared]
    if isinstance(op, par.AtomicUpdateOp):
        return [op.ptr]
    if isinstance(op, par.ParallelOp):
        return None  # the region's body, like a call
    if op.name.startswith(("llvm.", "par.", "omp.barrier", "omp.flush")):
        return []  # (the team's scheduling and synchronisation write no data)
    # Ops of other dialects that say what they write (xDSL memory effects: MPI receives); one
    # that says nothing may write through the pointers it takes.
    effects = get_effects(op)
    if effects is None:
        return None if any(isinstance(o.type, ext.LLVMPointerType) for o in op.operands) else []
    writes = [e.value for e in effects if e.kind == MemoryEffectKind.WRITE]
    if any(not isinstance(w, SSAValue) for w in writes):
        return None
    return writes  # type: ignore[return-value]


def _call_writes_nothing(op: xllvm.CallOp) -> bool:
    attrs = op.attributes.get("fn_attrs")
    if attrs is None:
        return False
    for a in attrs.data:  # type: ignore[attr-defined]
        if isinstance(a, StringAttr) and a.data in ("memory(none)", "memory(read)", "readnone", "readonly"):
            return True
    return False


def _intrinsic_pure(op: xllvm.CallIntrinsicOp) -> bool:
    name = op.intrin.data
    return not any(k in name for k in ("mem", "store", "scatter", "stack", "va_", "lifetime", "trap"))


class WriteSummary:
    """The objects a function (body) may write.

    A `noalias` argument's memory is reached, while the function runs, only through pointers
    based on that argument: writes through unknown pointers miss it, and an op that may write
    anything (a call) reaches it only when given a pointer into it."""

    def __init__(self, blocks: Iterable[Block], cfg: CFG | None = None):
        self.objects: set[Object] = set()
        self.anything = False
        self.handed: set[Object] = set()
        """The objects pointers passed to the ops that may write anything point into."""
        for b in blocks:
            for op in b.ops:
                dests = store_destinations(op)
                if dests is None:
                    self.anything = True
                    for v in op.operands:
                        if isinstance(v.type, ext.LLVMPointerType):
                            self.handed |= underlying_objects(v, cfg)
                    continue
                for d in dests:
                    self.objects |= underlying_objects(d, cfg)
        if UNKNOWN in self.objects:
            self.anything = True

    def may_write(self, objects: set[Object]) -> bool:
        """Whether memory behind any of `objects` may be written."""
        if UNKNOWN in objects:
            return True
        if self.anything:
            return any(not noalias_argument(o, uncaptured=True) or o in self.objects or o in self.handed
                       or UNKNOWN in self.handed for o in objects)  # fmt: skip
        for o in objects:
            if o in self.objects:
                return True
            if _is_argument(o) and not noalias_argument(o) and any(
                isinstance(w, str) or (_is_argument(w) and not noalias_argument(w)) for w in self.objects
            ):
                return True  # an argument may point to a global or to another argument's memory
        return False


def _is_argument(o: Object) -> bool:
    return isinstance(o, BlockArgument)


def noalias_argument(o: Object, uncaptured: bool = False) -> bool:
    """A `noalias` argument, or one pointing to a caller's stack slot nothing else reaches
    (`par.LOCAL_SLOT`); with `uncaptured`, one the function does not store anywhere either (no
    pointer loaded from memory can be based on it)."""
    if not isinstance(o, BlockArgument):
        return False
    fn = o.block.parent_op()
    if not isinstance(fn, xllvm.FuncOp) or fn.arg_attrs is None:
        return False
    attrs = fn.arg_attrs.data[o.index].data  # type: ignore[attr-defined]
    captures = attrs.get("llvm.captures")
    distinct = "llvm.noalias" in attrs or par.LOCAL_SLOT in attrs
    return distinct and (not uncaptured or isinstance(captures, StringAttr) and captures.data == "none")


def allocation_escapes(alloc: SSAValue, cfg: CFG, functions: dict[str, xllvm.FuncOp]) -> bool:
    """Whether the address of a heap allocation may outlive the function: returned, stored into
    memory, passed to a call that may keep it, or turned into an integer.  Loads, stores into
    it, memory intrinsics, comparisons and deallocation do not let it escape.  `functions`
    gives the callees' declarations, whose `captures(none)` says they keep nothing."""
    flows: dict[SSAValue, list[SSAValue]] = {}
    for b in cfg.rpo:
        for p in cfg.preds.get(b, []):
            for arg, inc in zip(b.args, cfg.incoming(b, p), strict=True):
                flows.setdefault(inc, []).append(arg)
    seen: set[SSAValue] = set()
    work = [alloc]
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        work += flows.get(v, [])
        for use in v.uses:
            op = use.operation
            if isinstance(op, (*_ADDRESS_OPS, ext.SelectOp, ext.FreezeOp)):
                work += op.results
            elif isinstance(op, xllvm.CallOp):
                name = callee_name(op)
                if name not in DEALLOCATORS and name not in READONLY_LIBRARY and not _keeps_nothing(op, use.index, functions):
                    return True
            elif isinstance(op, ext.StoreOp):
                if use.index == 0:
                    return True
            elif not isinstance(op, _KEEPS_NOTHING) and not (op.successors and not isinstance(op, xllvm.ReturnOp)):
                return True
    return False


_KEEPS_NOTHING = (xllvm.LoadOp, ext.ICmpOp, ext.MemcpyOp, ext.MemmoveOp, ext.MemsetOp, xllvm.CallIntrinsicOp)
"""Uses of an address that do not keep it (branches are followed through the block arguments
they feed)."""


def _keeps_nothing(op: xllvm.CallOp, index: int, functions: dict[str, xllvm.FuncOp]) -> bool:
    """Whether the callee cannot keep its `index`-th operand (`nocapture` / `captures(none)`)."""
    fn = functions.get(callee_name(op) or "")
    for attrs in (op.attributes.get("arg_attrs"), fn.arg_attrs if fn is not None else None):
        if isinstance(attrs, ArrayAttr) and index < len(attrs.data):
            d = attrs.data[index]
            if isinstance(d, DictionaryAttr):
                captures = d.data.get("llvm.captures")
                if "llvm.nocapture" in d.data or isinstance(captures, StringAttr) and captures.data == "none":
                    return True
    return False
