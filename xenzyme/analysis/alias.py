"""Which objects a pointer may point into, and which objects a function may write.

Deliberately simple and conservative: a pointer's underlying objects are found by walking back
through address arithmetic (GEP, casts, select, block arguments); an object is an argument, an
alloca, a global, a heap allocation (the call to `malloc` & co. that returned it), or `UNKNOWN`
(a pointer loaded from memory or returned by any other call).  The
differentiation passes use it to decide whether a load can be repeated in the reverse sweep
instead of being cached: it can when nothing in the function may write what it reads.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, VectorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.traits import MemoryEffectKind, get_effects

from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow
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
    dealloc_args: tuple[int, ...] = (-1,)
    """What the deallocator is called with, in order: -1 the pointer, k the allocation's
    argument k (the alignment of an aligned `new`, the size and alignment Rust's allocator
    wants back)."""
    zeroed: bool = False
    """The memory comes zeroed (calloc)."""


ALLOCATORS = {
    "malloc": Allocator((0,), "free"),
    "calloc": Allocator((0, 1), "free", zeroed=True),
    "aligned_alloc": Allocator((1,), "free"),
    "valloc": Allocator((0,), "free"),
    "_Znwm": Allocator((0,), "_ZdlPv"),
    "_Znam": Allocator((0,), "_ZdaPv"),
    "_ZnwmSt11align_val_t": Allocator((0,), "_ZdlPvSt11align_val_t", (-1, 1)),
    "_ZnamSt11align_val_t": Allocator((0,), "_ZdaPvSt11align_val_t", (-1, 1)),
}
"""C's allocation functions and C++'s operator new (plain, array, aligned)."""

_RUST = re.compile(r"^(?P<prefix>.*?)(?P<len>\d*)(?P<stem>_{2,3}rust_)(?P<what>alloc_zeroed|alloc|realloc|dealloc)$")
"""Rust's global allocator: `__rust_alloc(size, align)`, `__rust_alloc_zeroed(size, align)`,
`__rust_realloc(ptr, old_size, align, new_size)`, `__rust_dealloc(ptr, size, align)`, under
rustc's mangled names (`_RNvCs..._7___rustc12___rust_alloc`: v0 mangling, a length before
each name)."""


def rust_allocator_function(name: str, what: str) -> str | None:
    """The name of Rust's allocator function `what` (alloc, dealloc, realloc, alloc_zeroed)
    spelled as `name`, another of them, is (same crate, same mangling); None if `name` is none
    of them."""
    m = _RUST.match(name)
    if m is None or rust_allocator_kind(name) is None:
        return None
    tail = f"{m['stem']}{what}"
    return f"{m['prefix']}{_v0_length(m['stem'], what) if m['len'] else ''}{tail}"


def _v0_length(stem: str, what: str) -> int:
    """The length v0 mangling writes before `__rust_<what>` (after it, a `_` separator: the
    identifier starts with an underscore)."""
    return len(stem) - 1 + len(what)


def rust_allocator_kind(name: str) -> str | None:
    """alloc, alloc_zeroed, realloc or dealloc for Rust's allocator functions, else None."""
    m = _RUST.match(name)
    if m is None or (m["len"] and int(m["len"]) != _v0_length(m["stem"], m["what"])):
        return None
    if not m["len"] and (m["prefix"] or m["stem"] != "__rust_"):
        return None
    return m["what"]


def _module_allocators(op: Operation) -> dict[str, Allocator]:
    """The allocators the module registers (`__enzyme_allocation_like`), by name."""
    from xenzyme.analysis.hints import Hints

    module = module_of(op)
    if module is None:
        return {}
    found = _CUSTOM.get(module)
    if found is None:
        hints = Hints.of(module)
        found = _CUSTOM[module] = {
            a.function: Allocator((a.size_arg,), a.deallocator, a.dealloc_args)
            for a in (hints.allocators.values() if hints is not None else ())
        }  # fmt: skip
    return found


_CUSTOM: weakref.WeakKeyDictionary[Operation, dict[str, Allocator]] = weakref.WeakKeyDictionary()

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


_ORIGIN: weakref.WeakKeyDictionary[Operation, ModuleOp] = weakref.WeakKeyDictionary()


def remember_module(fn: Operation, module: ModuleOp) -> None:
    """`fn`, a copy of a function kept outside the module (a prepared copy being
    differentiated), belongs to `module`: analyses of its calls and globals look there."""
    _ORIGIN[fn] = module


def module_of(op: Operation) -> ModuleOp | None:
    """The module `op` is in, or that the detached function holding it belongs to."""
    top = op.get_toplevel_object()
    return top if isinstance(top, ModuleOp) else _ORIGIN.get(top)


def defined_callee(op: Operation) -> xllvm.FuncOp | None:
    """The function with a body in this module that a direct call calls, if there is one."""
    name = callee_name(op)
    if name is None:
        return None
    module = module_of(op)
    if module is None:
        return None
    fn = _function_named(module, name)
    return fn if fn is not None and fn.body.blocks else None


_FUNCTIONS: weakref.WeakKeyDictionary[Operation, dict[str, xllvm.FuncOp | None]] = weakref.WeakKeyDictionary()
"""Per module: its functions by name, found on first use."""


_READ_ONLY_WORDS = ("memory(none)", "memory(read)", "readnone", "readonly")

ARGUMENTS_READ_ONLY: dict[str, tuple[int, ...] | None] = {
    "_FortranAAssign": (1, 2),
    **{f"_FortranA{op}{s}": None for s in ("Real8", "Real4") for op in ("Sum", "Product", "Maxval", "Minval", "DotProduct")},
}  # fmt: skip
"""Library functions that write nothing through some pointer arguments (None: through any),
nor through pointers in the memory those point to: flang's runtime reads descriptors of the
arrays it copies from or reduces."""


def call_reads_only_argument(op: Operation, index: int) -> bool:
    """Whether a call can write neither through its `index`-th operand nor through pointers
    found in the memory it points to: the call or the callee writes no memory at all
    (memory(read), readonly, ...), or the callee, defined here, writes none of that memory.
    (A parameter's own `readonly` says nothing of memory reached through loaded pointers.)"""
    fn = None
    name = callee_name(op)
    if name in ARGUMENTS_READ_ONLY:
        which = ARGUMENTS_READ_ONLY[name]
        if which is None or index in which:
            return True
    if name is not None and (module := module_of(op)) is not None:
        fn = _function_named(module, name)
    for attrs in (op.attributes.get("fn_attrs"), fn.passthrough if fn is not None else None):
        if isinstance(attrs, ArrayAttr) and any(
            isinstance(a, StringAttr) and a.data.startswith(_READ_ONLY_WORDS) for a in attrs.data
        ):
            return True
    return fn is not None and bool(fn.body.blocks) and not _writes_through_argument(fn, index)


_ARGUMENT_WRITES: weakref.WeakKeyDictionary[Operation, dict[int, bool]] = weakref.WeakKeyDictionary()


def _writes_through_argument(fn: xllvm.FuncOp, index: int) -> bool:
    """Whether `fn` may write memory its `index`-th argument points into, or memory reachable
    through pointers stored there (directly, or by handing such a pointer to a call that may)."""
    memo = _ARGUMENT_WRITES.setdefault(fn, {})
    if index in memo:
        return memo[index]
    memo[index] = True  # (recursion: assume it does)
    entry = fn.body.blocks.first
    assert entry is not None
    try:
        cfg = CFG(fn.body)
    except Exception:  # noqa: BLE001 -- irreducible control flow: assume it writes
        return True
    # The argument, and the pointers loaded from memory reachable through it.
    reached: set[SSAValue] = {entry.args[index]}
    grew = True
    while grew:
        grew = False
        for b in fn.body.blocks:
            for op in b.ops:
                if (isinstance(op, xllvm.LoadOp) and op.results[0] not in reached
                        and reached & set(pointer_roots(op.ptr, cfg))):  # fmt: skip
                    reached.add(op.results[0])
                    grew = True
    writes = False
    for b in fn.body.blocks:
        for op in b.ops:
            if isinstance(op, xllvm.CallOp | ext.InvokeOp):
                for i, o in enumerate(op.operands):
                    if reached & set(pointer_roots(o, cfg)) and (
                        not isinstance(op, xllvm.CallOp) or not call_reads_only_argument(op, i)
                    ):
                        writes = True
                continue
            dests = store_destinations(op)
            if dests is None or any(reached & set(pointer_roots(d, cfg)) for d in dests):
                writes = True
            if isinstance(op, ext.StoreOp) and reached & set(pointer_roots(op.value, cfg)):
                writes = True  # (the pointer kept in memory: anyone may write through it later)
    memo[index] = writes
    return writes


def _function_named(module: ModuleOp, name: str) -> xllvm.FuncOp | None:
    table = _FUNCTIONS.get(module)
    if table is None:
        table = _FUNCTIONS[module] = {}
    if name not in table or (table[name] is not None and table[name].parent is None):  # type: ignore[union-attr]
        table[name] = next((f for f in module.ops if isinstance(f, xllvm.FuncOp) and f.sym_name.data == name), None)
    return table[name]


def pointers_without_shadows(cfg: CFG, shadowed: set[SSAValue]) -> list[Operation]:
    """Stores of a pointer that has no shadow into memory that has one, where the pointer may
    lead to floating-point data: the shadow memory would hold the primal pointer itself, and
    derivatives written or read through it would go into, or come from, the primal data (a
    constant argument's array, a global) -- silently wrong.  (Null, functions, and memory known
    to hold integers only are fine, and so are the slots of the variables a parallel region
    captures: the parallel-region rules give those their shadows.)"""
    from xenzyme.analysis.types import FLOAT, MIXED, UNKNOWN_KIND, memory_contents

    out: list[Operation] = []
    module = None
    captured = {o for b in cfg.rpo for op in b.ops if isinstance(op, par.ParallelOp) for o in op.operands}
    for b in cfg.rpo:
        for op in b.ops:
            if not isinstance(op, ext.StoreOp) or op.ptr not in shadowed or op.value in shadowed:
                continue
            if captured and captured & set(pointer_roots(op.ptr, cfg)):
                continue
            v = op.value
            if not isinstance(v.type, ext.LLVMPointerType):
                continue
            roots = [r for r in pointer_roots(v, cfg) if not isinstance(r.owner, xllvm.ZeroOp | xllvm.UndefOp | ext.PoisonOp)]
            if not roots:
                continue
            if module is None:
                module = module_of(op)
            globals_ = {g.sym_name.data: g for g in module.ops if isinstance(g, xllvm.GlobalOp)} if module is not None else {}
            functions = {f.sym_name.data for f in module.ops if isinstance(f, xllvm.FuncOp)} if module is not None else set()
            if all(isinstance(r.owner, xllvm.AddressOfOp) and r.owner.global_name.string_value() in functions for r in roots):
                continue
            kind, _ = memory_contents(v, cfg, cfg.rpo, {n: g.global_type for n, g in globals_.items()})
            if kind in (FLOAT, MIXED, UNKNOWN_KIND):
                out.append(op)
    return out


MERGED_WITH_CONSTANT = (
    "a pointer with a shadow and a pointer into an argument without one (enzyme_const) are merged "
    "(a select, or a branch): derivatives would be read and written through it in the constant argument's own memory",
    ["pass that argument with a shadow (enzyme_dup, a zeroed array of the same size): its derivatives are then "
     "computed and ignored", "or keep the two pointers apart"],
)  # fmt: skip
"""The error for `merged_with_unshadowed_arguments`: what, and what to do."""


def merged_with_unshadowed_arguments(cfg: CFG, shadowed: set[SSAValue]) -> list[Operation]:
    """Selects and branches that merge a pointer with a shadow and one into a pointer argument
    without one (`enzyme_const`): the merged pointer's shadow would be the constant argument's
    own memory, so tangents would be read from the primal data and adjoints added into it --
    silently wrong.  (A call returning a pointer into a local gives that local a shadow; an
    argument's shadow is the caller's to give.)"""

    def unshadowed_argument(v: SSAValue) -> bool:
        if v in shadowed:
            return False
        return any(isinstance(r, BlockArgument) and r.block is cfg.entry and r not in shadowed
                   for r in pointer_roots(v, cfg))  # fmt: skip

    out: list[Operation] = []
    for b in cfg.rpo:
        for p in cfg.preds.get(b, []):
            if any(arg in shadowed and isinstance(arg.type, ext.LLVMPointerType) and unshadowed_argument(inc)
                   for arg, inc in zip(b.args, cfg.incoming(b, p), strict=True)):  # fmt: skip
                out.append(p.last_op)
        for op in b.ops:
            if isinstance(op, ext.SelectOp) and op.res in shadowed and isinstance(op.res.type, ext.LLVMPointerType):
                if unshadowed_argument(op.lhs) or unshadowed_argument(op.rhs):
                    out.append(op)
    return out


def returns_argument_memory(op: Operation) -> bool:
    """Whether the function a call calls is defined here and returns only pointers into the
    memory of its arguments (address arithmetic on them, null): the memory of its result then
    holds derivatives only if an argument's memory does."""
    fn = defined_callee(op)
    if fn is None:
        return False
    entry = fn.body.blocks.first
    rets = [b.last_op for b in fn.body.blocks if isinstance(b.last_op, xllvm.ReturnOp)]
    if not rets:
        return False
    try:
        cfg = CFG(fn.body)
    except Exception:  # noqa: BLE001 -- irreducible control flow: say nothing
        return False
    for r in rets:
        if r.arg is None:  # type: ignore[union-attr]
            return False
        for root in pointer_roots(r.arg, cfg):  # type: ignore[union-attr]
            if isinstance(root, BlockArgument) and root.block is entry:
                continue
            if isinstance(root.owner, xllvm.ZeroOp | xllvm.UndefOp | ext.PoisonOp):
                continue
            return False
    return True


def may_return_argument(op: Operation, index: int) -> bool:
    """Whether the pointer a call returns may point into the memory of its `index`-th operand:
    unless the call or the callee says it keeps nothing of it (`nocapture`, `captures(none)`).
    Such an operand needs a shadow when the result has one -- a helper choosing between an
    active array and a constant local one returns either (the constant one then needs a shadow
    of zeros rather than its own memory standing in for one)."""
    fn = defined_callee(op)
    for attrs in (op.attributes.get("arg_attrs"), fn.arg_attrs if fn is not None else None):
        if isinstance(attrs, ArrayAttr) and index < len(attrs.data):
            d = attrs.data[index]
            if isinstance(d, DictionaryAttr):
                captures = d.data.get("llvm.captures")
                if "llvm.nocapture" in d.data or isinstance(captures, StringAttr) and captures.data == "none":
                    return False
    return True


def allocator_of(op: Operation) -> Allocator | None:
    """How `op` allocates, if it is a call to a heap allocation function: C's and C++'s, Rust's
    global allocator, or one the module registers with `__enzyme_allocation_like`."""
    name = callee_name(op)
    if name is None:
        return None
    if (a := ALLOCATORS.get(name)) is not None:
        return a
    kind = rust_allocator_kind(name)
    if kind in ("alloc", "alloc_zeroed"):
        dealloc = rust_allocator_function(name, "dealloc")
        assert dealloc is not None
        return Allocator((0,), dealloc, (-1, 0, 1), zeroed=kind == "alloc_zeroed")
    return _module_allocators(op).get(name)


def is_deallocation(op: Operation) -> bool:
    """Whether `op` gives heap memory back (free, delete, Rust's dealloc, a registered release);
    its first pointer argument (`deallocated_pointer`) ends."""
    name = callee_name(op)
    if name is None:
        return False
    if name in DEALLOCATORS or rust_allocator_kind(name) == "dealloc":
        return True
    return any(a.deallocator == name for a in _module_allocators(op).values())


def deallocated_pointer(op: Operation) -> SSAValue:
    """The pointer a deallocation (`is_deallocation`) gives back."""
    name = callee_name(op)
    for a in _module_allocators(op).values():
        if a.deallocator == name:
            return op.operands[a.dealloc_args.index(-1)]
    return op.operands[0]

_ADDRESS_OPS = (ext.GEPOp, xllvm.BitcastOp, ext.AddrSpaceCastOp)

NOTE_FREED = "__xenzyme_shadow_freed"
RELEASE_SHADOW = "__xenzyme_shadow_release"
KEEP_SHADOW = "__xenzyme_shadow_kept"
FORGET_FREED = "__xenzyme_shadow_reset"
"""The run-time set of shadows whose primal memory the forward sweep freed
(xenzyme/transforms/shadow_runtime.c): `NOTE_FREED(shadow)` at a deallocation,
`RELEASE_SHADOW(shadow, deallocator)` where the reverse sweep reaches an allocation whose
address escapes (the shadow is given back if it was noted), `KEEP_SHADOW(shadow)` before the
reverse of a call whose fresh result's shadow the caller frees itself after it (so it is not
given back twice), `FORGET_FREED()` after each gradient call.  They keep no address the
program reads, and write no memory of its."""

# Functions that read their pointer arguments but write no memory visible to the caller
# (other than errno, which programs being differentiated do not inspect).
READONLY_LIBRARY = {
    "printf", "puts", "fputs", "fprintf", "putchar", "strlen", "strcmp", "strncmp", "memcmp",
    "sin", "cos", "tan", "exp", "log", "pow", "sqrt", "fabs", "atan2", "hypot", "malloc_usable_size",
    NOTE_FREED, RELEASE_SHADOW, KEEP_SHADOW, FORGET_FREED,
}  # fmt: skip

LINKING_FUNCTIONS = {
    "_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base",
    "_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_",
    "_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_",
    "_ZNSt8__detail15_List_node_base7_M_hookEPS0_",
    "_ZNSt8__detail15_List_node_base9_M_unhookEv",
    "_ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_",
    "_ZNSt8__detail15_List_node_base10_M_reverseEv",
    "_ZNSt8__detail15_List_node_base4swapERS0_S1_",
}  # fmt: skip
"""libstdc++'s out-of-line functions that link the nodes of std::map/std::set (tree steps,
insertion, erasure) and std::list (hook, unhook, splice, reverse, swap): they move only pointers
between nodes, and a structure's shadow is linked by calling them on the shadows
(rules/cpp_library.py), so every pointer they are given needs a shadow once one of them has one."""

LIBRARY_GLOBAL_WRITES = {"lgamma": "signgam", "lgammaf": "signgam", "lgammal": "signgam"}
"""Library functions whose only write (errno aside) is to a global of the C library: lgamma
leaves the sign of Gamma in `signgam`."""


ERRNO_ONLY: set[str] = set()
"""Library functions that write no memory but errno (libm's, `memory(errnomem: write)`), by
name: the rule tables, which know them, fill it (xenzyme/rules/libm.py)."""


def _errno_only(op: xllvm.CallOp, name: str) -> bool:
    """A call of an `ERRNO_ONLY` function given no pointer: it writes no memory the program
    reaches through its own pointers."""
    return name in ERRNO_ONLY and not any(isinstance(o.type, ext.LLVMPointerType) for o in op.operands)


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
        if name is not None and name not in LIBRARY_GLOBAL_WRITES and _errno_only(op, name):
            return []
        if is_deallocation(op):
            return [deallocated_pointer(op)]  # the object ends: what it held is gone
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
        self.library_globals: set[str] = set()
        """Globals of the C library written by the library's functions (`LIBRARY_GLOBAL_WRITES`):
        only a load of the global itself reads them (no argument points to `signgam`)."""
        for b in blocks:
            for op in b.ops:
                dests = store_destinations(op)
                if dests is None and (written := LIBRARY_GLOBAL_WRITES.get(callee_name(op) or "")) is not None:
                    self.library_globals.add(written)
                    continue
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
        if UNKNOWN in objects or self.library_globals & objects:
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


def allocation_escapes(alloc: SSAValue, cfg: CFG, functions: dict[str, xllvm.FuncOp],
                       _open: frozenset[tuple[str, int, int]] = frozenset()) -> bool:
    """Whether the address of a heap allocation may outlive the function: returned, stored into
    memory, passed to a call that may keep it, or turned into an integer.  Loads, stores into
    it, memory intrinsics, comparisons and deallocation do not let it escape.  Nor does placing
    it in an aggregate value, or storing it into memory of this function that nothing outside
    it reads (a stack slot or heap block whose own address, kept the same way, only loads,
    stores, comparisons and its deallocation use): the pointers extracted or loaded back are
    followed instead.  `functions` gives the callees: a declaration's `captures(none)` says it
    keeps nothing, and so does a definition whose parameter does not escape it (one that frees
    it, say)."""
    return _escapes(0, alloc, cfg, functions, _open)


def _escapes(depth0: int, start: SSAValue, cfg: CFG, functions: dict[str, xllvm.FuncOp],
             _open: frozenset[tuple[str, int, int]], returned: list[bool] | None = None) -> bool:
    """`allocation_escapes` from `start` at depth `depth0` (see below); with `returned`, a
    return of the address is noted there instead of counting as an escape."""
    flows: dict[SSAValue, list[SSAValue]] = {}
    for b in cfg.rpo:
        for p in cfg.preds.get(b, []):
            for arg, inc in zip(b.args, cfg.incoming(b, p), strict=True):
                flows.setdefault(inc, []).append(arg)
    # (depth, value): at depth 0 a value that may be the allocation's address; at depth d > 0
    # the address of memory of this function that may hold values of depth d - 1
    seen: set[tuple[int, SSAValue]] = set()
    work: list[tuple[int, SSAValue]] = [(depth0, start)]
    while work:
        item = work.pop()
        if item in seen:
            continue
        seen.add(item)
        depth, v = item
        if depth > _MAX_DEPTH or len(seen) > 4096:
            return True
        work += [(depth, a) for a in flows.get(v, [])]
        for use in v.uses:
            op = use.operation
            if returned is not None and depth == 0 and isinstance(op, xllvm.ReturnOp):
                returned.append(True)
            elif isinstance(op, (*_ADDRESS_OPS, ext.SelectOp, ext.FreezeOp, xllvm.InsertValueOp)):
                work += [(depth, r) for r in op.results]
            elif isinstance(op, xllvm.ExtractValueOp):
                t = op.results[0].type
                if isinstance(t, ext.LLVMPointerType):
                    work.append((depth, op.results[0]))
                elif _holds_pointer(t):
                    return True
            elif isinstance(op, ext.StoreOp) and use.index == 0:
                roots = pointer_roots(op.operands[1], cfg)
                if not roots or not all(_own_memory(r) for r in roots):
                    return True
                work += [(depth + 1, r) for r in roots]
            elif isinstance(op, xllvm.CallOp) and use.index == 0 and callee_name(op) in _MOVES:
                work += [(depth, r) for r in op.results]  # (the same memory, moved)
            elif isinstance(op, xllvm.CallOp):
                name = callee_name(op)
                if not is_deallocation(op) and name not in READONLY_LIBRARY and not _keeps_nothing(op, use.index, functions, _open, depth):
                    if depth > 0 or not _only_returned(op, use.index, functions, _open):
                        return True
                    work += [(depth, r) for r in op.results]  # (a helper choosing a pointer: the result)
            elif ext.is_annotation(op):
                pass
            elif isinstance(op, xllvm.PtrToIntOp) and _only_compared(op.results[0]):
                pass  # (an overlap check of vectorised code)
            elif depth == 0:
                if not isinstance(op, (*_KEEPS_NOTHING, ext.StoreOp)) and not (op.successors and not isinstance(op, xllvm.ReturnOp)):
                    return True
            elif isinstance(op, xllvm.LoadOp):
                if _holds_pointer(op.results[0].type):
                    work.append((depth - 1, op.results[0]))
                # (anything else read back is not the pointer: pointers are read back as pointers)
            elif not isinstance(op, (ext.StoreOp, ext.ICmpOp, ext.MemsetOp)) and not (op.successors and not isinstance(op, xllvm.ReturnOp)):
                return True  # (memory holding the pointer, read by a call or copied)
    return False


def _only_compared(v: SSAValue) -> bool:
    """Whether an address turned into an integer only reaches comparisons, through integer
    arithmetic (the run-time overlap checks of vectorised loops): it keeps nothing."""
    seen: set[SSAValue] = set()
    work = [v]
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        if len(seen) > 64:
            return False
        for use in x.uses:
            op = use.operation
            if isinstance(op, ext.ICmpOp):
                continue
            if op.name not in _INTEGER_ARITHMETIC:
                return False
            work += op.results
    return True


_INTEGER_ARITHMETIC = {f"llvm.{n}" for n in ("add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "sdiv",
                                             "urem", "srem", "select", "freeze", "trunc", "zext", "sext")}  # fmt: skip


_MOVES = ("realloc", "reallocf", "xenzyme.cache.grow")
"""Functions that move the memory their first argument points to and return its new address."""

_MAX_DEPTH = 4
"""How deeply memory holding the pointer may nest (a slot holding a block holding it, ...)."""


def _own_memory(root: SSAValue) -> bool:
    """A stack slot or heap block that this function allocates."""
    owner = root.owner
    return isinstance(owner, xllvm.AllocaOp) or isinstance(owner, xllvm.CallOp) and allocator_of(owner) is not None


def _holds_pointer(t: Attribute) -> bool:
    """Whether a type has pointers among its members (a pointer itself included)."""
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        return any(_holds_pointer(m) for m in t.types.data)
    if isinstance(t, ext.LLVMArrayType):
        return _holds_pointer(t.type)
    if isinstance(t, VectorType):
        return _holds_pointer(t.element_type)
    return isinstance(t, ext.LLVMPointerType)


def _arg_kept(op: xllvm.CallOp, index: int, fn: xllvm.FuncOp, functions: dict[str, xllvm.FuncOp],
              _open: frozenset[tuple[str, int, int]], depth: int) -> bool | None:
    """Whether `fn`'s body may keep its `index`-th parameter, or at `depth` > 0 the pointers
    in the memory it points to (None: it cannot be told)."""
    args = fn.body.blocks.first.args  # type: ignore[union-attr]
    if isinstance(op, xllvm.CallOp) and index >= len(op.args) or index >= len(args):
        return None
    try:
        cfg = CFG(fn.body)
    except IrreducibleControlFlow:
        return None
    return _escapes(depth, args[index], cfg, functions, _open | {(fn.sym_name.data, index, depth)})


def _only_returned(op: xllvm.CallOp, index: int, functions: dict[str, xllvm.FuncOp],
                   _open: frozenset[tuple[str, int, int]]) -> bool:
    """Whether a function of the module keeps its `index`-th parameter only by returning it (a
    helper that chooses one of its pointers): the call's result is then that memory too."""
    name = callee_name(op) or ""
    fn = functions.get(name)
    if fn is None or not fn.body.blocks or (name, index, 0) in _open:
        return False
    args = fn.body.blocks.first.args  # type: ignore[union-attr]
    if index >= len(op.args) or index >= len(args):
        return False
    try:
        cfg = CFG(fn.body)
    except IrreducibleControlFlow:
        return False
    returned: list[bool] = []
    return not _escapes(0, args[index], cfg, functions, _open | {(name, index, 0)}, returned) and bool(returned)


_KEEPS_NOTHING = (xllvm.LoadOp, ext.ICmpOp, ext.MemcpyOp, ext.MemmoveOp, ext.MemsetOp, xllvm.CallIntrinsicOp)
"""Uses of an address that do not keep it (branches are followed through the block arguments
they feed)."""


def _keeps_nothing(op: xllvm.CallOp, index: int, functions: dict[str, xllvm.FuncOp],
                   _open: frozenset[tuple[str, int, int]] = frozenset(), depth: int = 0) -> bool:
    """Whether the callee cannot keep its `index`-th operand (at `depth` > 0: the pointers held
    in the memory it points to): for a function of the module, a parameter that does not
    escape its body (a recursive cycle counts as keeping it); for a declaration, at depth 0,
    `nocapture` / `captures(none)`."""
    name = callee_name(op) or ""
    fn = functions.get(name)
    if fn is not None and fn.body.blocks and (name, index, depth) not in _open:
        if _arg_kept(op, index, fn, functions, _open, depth) is False:
            return True
    if depth > 0:
        return False
    for attrs in (op.attributes.get("arg_attrs"), fn.arg_attrs if fn is not None else None):
        if isinstance(attrs, ArrayAttr) and index < len(attrs.data):
            d = attrs.data[index]
            if isinstance(d, DictionaryAttr):
                captures = d.data.get("llvm.captures")
                if "llvm.nocapture" in d.data or isinstance(captures, StringAttr) and captures.data == "none":
                    return True
    return False
