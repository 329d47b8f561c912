"""Type analysis: what kind of data lives behind a pointer.

LLVM IR after optimisation has untyped pointers, so when memory is copied or cleared wholesale
(memcpy, memmove, memset) the differentiation passes need to know whether the bytes are
floating-point numbers (their adjoints move), pointers (their shadows are copied) or integers
(nothing to do); and when bytes are loaded or stored as integers, whether they are really
floats.  Two levels of answer:

* per object (`memory_contents`): the types of the allocas and globals behind the pointer and
  of every load and store that touches the same objects;
* per byte offset (`Views`): the scalar at each offset behind a pointer, repeating with the
  element size of the array it points into (see the section below).
"""

from __future__ import annotations

import math
import re
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import AnyFloat, ArrayAttr, IntegerType, ModuleOp, StringAttr, VectorType, f32, f64
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from xenzyme.analysis.alias import UNKNOWN, module_of, pointer_roots, underlying_objects
from xenzyme.analysis.cfg import CFG
from xenzyme.dialects import llvm_ext as ext

FLOAT, POINTER, INTEGER, MIXED, UNKNOWN_KIND = "float", "pointer", "integer", "mixed", "unknown"


def leaf_types(t: Attribute) -> list[Attribute]:
    """Scalar types inside a (nested) aggregate or vector type."""
    if isinstance(t, VectorType):
        return [t.element_type]
    if isinstance(t, ext.LLVMArrayType):
        return leaf_types(t.type)
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        return [x for m in t.types.data for x in leaf_types(m)]
    return [t]


def _kind(t: Attribute) -> str:
    if isinstance(t, AnyFloat):
        return FLOAT
    if isinstance(t, ext.LLVMPointerType):
        return POINTER
    if isinstance(t, IntegerType):
        return INTEGER
    return UNKNOWN_KIND


def memory_contents(ptr: SSAValue, cfg: CFG, blocks: Iterable[Block], globals_: dict[str, Attribute]) -> tuple[str, Attribute | None]:
    """(kind, float type) of the data behind `ptr`: FLOAT with its type, POINTER, INTEGER,
    MIXED or UNKNOWN_KIND."""
    objects = underlying_objects(ptr, cfg)
    # Memory a loaded or returned pointer leads to is known by the pointers' origins instead.
    origins = {_origin(r, cfg) for r in pointer_roots(ptr, cfg) if isinstance(r.owner, xllvm.LoadOp | xllvm.CallOp)}
    types: list[Attribute] = []
    for obj in objects:
        if obj is UNKNOWN:
            continue
        if isinstance(obj, str):
            if obj in globals_:
                types += leaf_types(globals_[obj])
        elif isinstance(obj.owner, xllvm.AllocaOp):
            types += leaf_types(obj.owner.elem_type)
    for b in blocks:
        for op in b.ops:
            if isinstance(op, xllvm.LoadOp):
                p, t = op.ptr, op.dereferenced_value.type
            elif isinstance(op, ext.StoreOp):
                p, t = op.ptr, op.value.type
            else:
                continue
            if underlying_objects(p, cfg) & objects - {UNKNOWN} or origins and origins & {
                    _origin(r, cfg) for r in pointer_roots(p, cfg)}:  # fmt: skip
                types += leaf_types(t)
    kinds = {_kind(t) for t in types}
    kinds.discard(UNKNOWN_KIND)
    if not kinds:
        return UNKNOWN_KIND, None
    if len(kinds) > 1:
        return MIXED, None
    kind = kinds.pop()
    if kind == FLOAT:
        floats = {t for t in types if isinstance(t, AnyFloat)}
        if len(floats) > 1:
            return MIXED, None
        return FLOAT, floats.pop()
    return kind, None


def _origin(root: SSAValue, cfg: CFG) -> object:
    """What a loaded or returned pointer stands for: itself, or for a pointer loaded from a
    global (`double *buf` at file scope), that global -- the function may load it again after
    a call or a copy, and each load leads to the same memory as long as the global holds the
    same address."""
    owner = root.owner
    if isinstance(owner, xllvm.LoadOp):
        objects = underlying_objects(owner.ptr, cfg)
        if len(objects) == 1 and isinstance(name := next(iter(objects)), str) and owner.ptr.owner is not None \
                and isinstance(owner.ptr.owner, xllvm.AddressOfOp):  # fmt: skip
            return ("loaded from", name)
    return root


# ---------------------------------------------------------------------------------------------
# Byte layouts: which scalar type lives at which offset behind a pointer
# ---------------------------------------------------------------------------------------------
#
# After optimisation, LLVM moves bytes with whatever type is convenient: a struct of one double
# copied with `load i64` / `store i64`, a struct with an int field copied with one memcpy.
# Differentiation needs the type the program gave those bytes.  A pointer's *view* says what it
# points at: a repeating pattern of scalar fields (an array of some element type) and the byte
# offset inside one period.  Views come from the types the IR names -- getelementptr element
# types, allocas, globals -- and, for arguments without such a type, from the accesses made
# through them.  Sizes and alignments are those of the x86-64 and AArch64 ABIs (the layout clang
# gives C types on 64-bit hosts).

def size_align(t: Attribute) -> tuple[int, int] | None:
    """(allocation size, ABI alignment) of `t` in bytes; None for types without a size."""
    if isinstance(t, IntegerType):
        n = max(1, (t.width.data + 7) // 8)
        size = 1
        while size < n:
            size *= 2
        return size, min(size, 16)
    if isinstance(t, AnyFloat):
        n = t.bitwidth
        return (16, 16) if n > 64 else (n // 8, n // 8)
    if isinstance(t, ext.LLVMPointerType):
        return 8, 8
    if isinstance(t, VectorType):
        inner = size_align(t.element_type)
        if inner is None:
            return None
        n = inner[0] * t.get_shape()[0]
        align = 1
        while align < n:
            align *= 2
        return align, align
    if isinstance(t, ext.LLVMArrayType):
        inner = size_align(t.type)
        return None if inner is None else (inner[0] * t.size.data, inner[1])
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        layout = struct_layout(t)
        return None if layout is None else (layout[1], layout[2])
    return None


def struct_layout(t: Attribute) -> tuple[list[int], int, int] | None:
    """(field offsets, size, alignment) of a struct: C layout, or no padding when packed."""
    packed = isinstance(t, ext.LLVMPackedStructType)
    offsets: list[int] = []
    pos, align = 0, 1
    for m in t.types.data:  # type: ignore[attr-defined]
        sa = size_align(m)
        if sa is None:
            return None
        size, a = sa
        if packed:
            a = 1
        pos = (pos + a - 1) // a * a
        offsets.append(pos)
        pos += size
        align = max(align, a)
    return offsets, (pos + align - 1) // align * align, align


def scalar_fields(t: Attribute, base: int = 0) -> list[tuple[int, Attribute]] | None:
    """The scalars inside `t`, as (byte offset, scalar type), in order."""
    if isinstance(t, IntegerType | AnyFloat | ext.LLVMPointerType):
        return [(base, t)]
    if isinstance(t, VectorType | ext.LLVMArrayType):
        elem = t.element_type if isinstance(t, VectorType) else t.type
        n = t.get_shape()[0] if isinstance(t, VectorType) else t.size.data
        sa = size_align(elem)
        inner = scalar_fields(elem)
        if sa is None or inner is None:
            return None
        return [(base + i * sa[0] + o, s) for i in range(n) for o, s in inner]
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        layout = struct_layout(t)
        if layout is None:
            return None
        out: list[tuple[int, Attribute]] = []
        for off, m in zip(layout[0], t.types.data, strict=True):
            inner = scalar_fields(m, base + off)
            if inner is None:
                return None
            out += inner
        return out
    return None


def _smallest_period(t: Attribute) -> int:
    """The shortest repetition of a type's fields (an array of 4 doubles repeats every 8 bytes,
    so does `struct { double v[4]; }`), so that a copy of whole elements covers whole periods."""
    if isinstance(t, ext.LLVMArrayType | VectorType):
        return _smallest_period(t.type if isinstance(t, ext.LLVMArrayType) else t.element_type)
    size = (size_align(t) or (0, 0))[0]
    if isinstance(t, ext.LLVMStructType) and len(t.types.data) == 1:
        return _smallest_period(t.types.data[0])
    return size or 1


@dataclass(frozen=True)
class View:
    """What a pointer points at: `fields` (offset, scalar type) repeating every `period` bytes
    (0: no repetition known), and the pointer's byte `offset` within that pattern."""

    fields: tuple[tuple[int, Attribute], ...]
    period: int
    offset: int

    @staticmethod
    def of_type(t: Attribute, offset: int = 0) -> View | None:
        fields = scalar_fields(t)
        sa = size_align(t)
        if fields is None or sa is None or sa[0] == 0 or all(_is_byte(f) for _, f in fields):
            return None  # (raw bytes, `char buf[n]`, say nothing about what they hold)
        period = _smallest_period(t)
        return View(tuple(f for f in fields if f[0] < period), period, offset % period)

    def shifted(self, delta: int) -> View:
        off = self.offset + delta
        return View(self.fields, self.period, off % self.period if self.period else off)

    def scalar_at(self, delta: int, nbytes: int) -> Attribute | None:
        """The scalar type of exactly `nbytes` bytes at `delta` bytes past the pointer."""
        t = self.field_at(delta)
        return t if t is not None and size_align(t) is not None and _store_bytes(t) == nbytes else None

    def field_at(self, delta: int) -> Attribute | None:
        """The type of the field starting `delta` bytes past the pointer, if one does."""
        pos = self.offset + delta
        if self.period:
            pos %= self.period
        return next((t for off, t in self.fields if off == pos), None)

    def kinds_in(self, delta: int, nbytes: int) -> set[str]:
        """The kinds (FLOAT, INTEGER, POINTER) of the fields overlapping `nbytes` bytes at `delta`
        past the pointer; UNKNOWN_KIND for bytes no field covers outside a repeating pattern."""
        kinds: set[str] = set()
        for b in range(nbytes):
            pos = self.offset + delta + b
            if self.period:
                pos %= self.period
            covering = [t for o, t in self.fields if o <= pos < o + _store_bytes(t)]
            if covering:
                kinds.add(_kind(covering[0]))
            elif not self.period:
                kinds.add(UNKNOWN_KIND)
        return kinds or {UNKNOWN_KIND}

    def float_fields(self) -> list[tuple[int, Attribute]]:
        return [(o, t) for o, t in self.fields if isinstance(t, AnyFloat)]

    def pointer_fields(self) -> list[tuple[int, Attribute]]:
        return [(o, t) for o, t in self.fields if isinstance(t, ext.LLVMPointerType)]


def _store_bytes(t: Attribute) -> int:
    if isinstance(t, AnyFloat):
        return 10 if t.bitwidth == 80 else t.bitwidth // 8
    if isinstance(t, IntegerType):
        return (t.width.data + 7) // 8
    sa = size_align(t)
    return sa[0] if sa is not None else 0


def known_multiple(v: SSAValue, depth: int = 0) -> int:
    """A number `v` is known to be a multiple of (1 when nothing is known)."""
    from xenzyme.analysis.cfg import constant_int

    c = constant_int(v)
    if c is not None:
        return abs(c) if c else 1 << 30
    op = v.owner
    if depth > 6 or not isinstance(op, Operation):
        return 1
    if isinstance(op, xllvm.ShlOp) and (k := constant_int(op.rhs)) is not None and 0 <= k < 64:
        return known_multiple(op.lhs, depth + 1) << k
    if isinstance(op, xllvm.AShrOp | xllvm.LShrOp) and op.is_exact and (k := constant_int(op.rhs)) is not None and 0 <= k < 64:
        m = known_multiple(op.lhs, depth + 1)  # (an exact shift drops only zero bits)
        return m >> k if m % (1 << k) == 0 else 1
    if isinstance(op, xllvm.MulOp):
        return known_multiple(op.lhs, depth + 1) * known_multiple(op.rhs, depth + 1)
    if isinstance(op, xllvm.SExtOp | xllvm.ZExtOp | xllvm.TruncOp):
        return known_multiple(op.operands[0], depth + 1)
    if isinstance(op, xllvm.AddOp | xllvm.SubOp):
        return math.gcd(known_multiple(op.lhs, depth + 1), known_multiple(op.rhs, depth + 1))
    return 1


class Views:
    """Pointer views for one function (memoised; phis are resolved by assuming and checking)."""

    def __init__(self, cfg: CFG, globals_: dict[str, Attribute]):
        self.cfg = cfg
        self.globals = globals_
        self.memo: dict[SSAValue, View | None] = {}
        self._assumed: dict[SSAValue, View | None] = {}
        self._root_views: dict[SSAValue, View | None] = {}
        self._depth = 0

    def of(self, p: SSAValue) -> View | None:
        if p in self._assumed:
            return self._assumed[p]
        if p in self.memo:
            return self.memo[p]
        if self._depth > 200:
            return None  # a very long chain of address arithmetic: give up, stay unknown
        self._depth += 1
        try:
            v = self._compute(p)
        finally:
            self._depth -= 1
        if not self._assumed:
            self.memo[p] = v
        return v

    def _compute(self, p: SSAValue) -> View | None:
        if isinstance(p, BlockArgument):
            return self._root(p) if p.block is self.cfg.entry else self._phi(p)
        op = p.owner
        if isinstance(op, ext.GEPOp):
            return self._gep(op)
        if isinstance(op, xllvm.BitcastOp | ext.AddrSpaceCastOp):
            return self.of(op.operands[0])
        if isinstance(op, xllvm.AllocaOp):
            return View.of_type(op.elem_type)
        if isinstance(op, xllvm.AddressOfOp):
            t = self.globals.get(op.global_name.string_value())
            return View.of_type(t) if t is not None else None
        if isinstance(op, ext.SelectOp):
            a, b = self.of(op.lhs), self.of(op.rhs)
            return a if a == b else None
        if isinstance(op, xllvm.LoadOp | xllvm.CallOp):
            return self._root(p)
        return None

    def _gep(self, op: ext.GEPOp) -> View | None:
        idx = op.mixed_indices()
        e = op.elem_type
        if isinstance(e, IntegerType) and e.width.data == 8 and len(idx) == 1:
            base = self.of(op.ptr)
            if base is None:
                return None
            k = idx[0]
            if isinstance(k, int):
                return base.shifted(k)
            if base.period and known_multiple(k) % base.period == 0:
                return base
            return None
        return _descend(e, idx[1:])

    def _phi(self, p: BlockArgument) -> View | None:
        preds = self.cfg.preds.get(p.block, [])
        incoming = [self.cfg.incoming(p.block, q)[p.index] for q in preds]
        self._assumed[p] = None
        try:
            first = [self.of(v) for v in incoming]
            known = {v for v in first if v is not None}
            if len(known) != 1:
                return None
            (candidate,) = known
            self._assumed[p] = candidate
            again = {self.of(v) for v in incoming}
            return candidate if again == {candidate} else None
        finally:
            del self._assumed[p]

    def _root(self, p: SSAValue) -> View | None:
        """A pointer the function did not compute (an argument, a loaded or returned pointer):
        what the function itself indexes it as, or accesses through it."""
        if p in self._root_views:
            return self._root_views[p]
        if (t := _declared_pointee(p)) is not None:
            self._root_views[p] = View.of_type(t)
            return self._root_views[p]
        typed = {use.operation.elem_type for use in p.uses
                 if isinstance(use.operation, ext.GEPOp) and use.operation.ptr is p
                 and not _is_byte(use.operation.elem_type)}  # fmt: skip
        if len(typed) == 1:
            view = View.of_type(typed.pop())
        else:
            view = _call_site_view(p) or (None if _callers_disagree(p) else _view_from_accesses(p))
        self._root_views[p] = view
        return view


def _call_site_view(p: SSAValue, depth: int = 0) -> View | None:
    """The view every call of the function in its module gives its parameter `p`: a helper
    taking `void *` that moves the bytes as integers (a generic swap) knows what they are only
    from its callers (`&a[i]` of an array of doubles, or a caller's own parameter, as that
    caller uses it or its callers see it)."""
    if not isinstance(p, BlockArgument) or depth > 3:
        return None
    fn = p.block.parent_op()
    if not isinstance(fn, xllvm.FuncOp) or p.block is not fn.body.blocks.first:
        return None
    module = module_of(fn)
    calls = _calls_by_callee(module).get(fn.sym_name.data) if module is not None else None
    if not calls:
        return None
    views = {_local_view(call.args[p.index], module, depth) if p.index < len(call.args) else None for call in calls}
    if None in views:
        return None
    if len({(v.fields, v.offset) for v in views}) == 1:  # type: ignore[union-attr]
        # the same fields, repeating at some call sites (an array) and not known to at others
        return min(views, key=lambda v: v.period)  # type: ignore[union-attr]
    return None


def _callers_disagree(p: SSAValue) -> bool:
    """Whether the calls of `p`'s function give it pointers to different known things (a copy
    helper called with floats here and doubles there): its own integer accesses then say
    nothing about what the bytes hold."""
    if not isinstance(p, BlockArgument):
        return False
    fn = p.block.parent_op()
    module = module_of(fn) if isinstance(fn, xllvm.FuncOp) and p.block is fn.body.blocks.first else None
    calls = _calls_by_callee(module).get(fn.sym_name.data, []) if module is not None else []  # type: ignore[union-attr]
    known = {v for call in calls if p.index < len(call.args) and (v := _local_view(call.args[p.index], module)) is not None}  # type: ignore[arg-type]
    return len(known) > 1


def _local_view(v: SSAValue, module: ModuleOp, depth: int = 0) -> View | None:
    """What `v` points at, from the address arithmetic right before it (an element of a typed
    array, a local, a global, a parameter), without the rest of its function."""
    if isinstance(v, BlockArgument):
        fn = v.block.parent_op()
        if not isinstance(fn, xllvm.FuncOp) or v.block is not fn.body.blocks.first:
            return None
        if (t := _declared_pointee(v)) is not None:
            return View.of_type(t)
        return _call_site_view(v, depth + 1) or _view_from_accesses(v)
    op = v.owner
    if isinstance(op, ext.GEPOp):
        idx = op.mixed_indices()
        if not _is_byte(op.elem_type):
            return _descend(op.elem_type, idx[1:])
        base = _local_view(op.ptr, module, depth) if len(idx) == 1 else None
        if base is None:
            return None
        k = idx[0]
        if isinstance(k, int):
            return base.shifted(k)
        return base if base.period and known_multiple(k) % base.period == 0 else None
    if isinstance(op, xllvm.AllocaOp):
        return View.of_type(op.elem_type)
    if isinstance(op, xllvm.AddressOfOp):
        name = op.global_name.string_value()
        g = next((o for o in module.ops if isinstance(o, xllvm.GlobalOp) and o.sym_name.data == name), None)
        return View.of_type(g.global_type) if g is not None else None
    return None


_CALLS: weakref.WeakKeyDictionary[ModuleOp, tuple[int, dict[str, list[xllvm.CallOp]]]] = weakref.WeakKeyDictionary()


def _calls_by_callee(module: ModuleOp) -> dict[str, list[xllvm.CallOp]]:
    """The module's direct calls by callee (remade when the module gains or loses functions)."""
    size = len(module.body.block.ops)
    cached = _CALLS.get(module)
    if cached is not None and cached[0] == size:
        return cached[1]
    calls: dict[str, list[xllvm.CallOp]] = {}
    for fn in module.ops:
        if isinstance(fn, xllvm.FuncOp) and fn.body.blocks:
            for op in fn.walk():
                if isinstance(op, xllvm.CallOp) and op.callee is not None:
                    calls.setdefault(op.callee.string_value(), []).append(op)
    _CALLS[module] = (size, calls)
    return calls


def _declared_pointee(p: SSAValue) -> Attribute | None:
    """The type a parameter's attributes say it points to: a struct passed by value in memory
    (`byval`) or returned through a hidden pointer (`sret`)."""
    if not isinstance(p, BlockArgument):
        return None
    fn = p.block.parent_op()
    attrs = getattr(fn, "arg_attrs", None)
    if not isinstance(fn, xllvm.FuncOp) or attrs is None or p.index >= len(attrs.data):
        return None
    d = attrs.data[p.index]
    for key in ("llvm.byval", "llvm.sret"):
        t = d.data.get(key) if hasattr(d, "data") else None
        if t is not None:
            return t
    return None


def _is_byte(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 8


def _descend(t: Attribute, inner: Sequence[int | SSAValue]) -> View | None:
    """View of `getelementptr t, p, i0, inner...`: the first index steps over whole `t`s."""
    off = 0
    for i in inner:
        if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
            layout = struct_layout(t)
            if layout is None or not isinstance(i, int):
                return None
            off += layout[0][i]
            t = t.types.data[i]
        elif isinstance(t, ext.LLVMArrayType | VectorType):
            elem = t.type if isinstance(t, ext.LLVMArrayType) else t.element_type
            sa = size_align(elem)
            if sa is None:
                return None
            if isinstance(i, int):
                off += i * sa[0]
            else:
                t, off = elem, 0  # a variable index: somewhere in an array of `elem`
                continue
            t = elem
        else:
            return None
    return View.of_type(t, off)


def _view_from_accesses(root: SSAValue) -> View | None:
    """The scalars a pointer's memory is accessed as, at constant offsets from it."""
    accesses: list[tuple[int, Attribute]] = []
    work: list[tuple[SSAValue, int]] = [(root, 0)]
    while work:
        p, off = work.pop()
        for use in p.uses:
            op = use.operation
            if isinstance(op, ext.GEPOp) and op.ptr is p and _is_byte(op.elem_type):
                idx = op.mixed_indices()
                if len(idx) == 1 and isinstance(idx[0], int):
                    work.append((op.result, off + idx[0]))
            elif isinstance(op, xllvm.LoadOp) and op.ptr is p:
                accesses.append((off, op.dereferenced_value.type))
            elif isinstance(op, ext.StoreOp) and op.ptr is p:
                accesses.append((off, op.value.type))
    fields: dict[int, Attribute | None] = {}
    for off, t in sorted(accesses, key=lambda a: isinstance(a[1], IntegerType)):  # (integers last)
        if not (isinstance(t, IntegerType) and _packed_floats(View(_known(fields), 0, off), _store_bytes(t))):
            _record(fields, off, t)  # (an integer over floats of one type, exactly: a copy of them)
    if not fields or any(t is None for t in fields.values()):
        return None
    return View(tuple(sorted(fields.items(), key=lambda f: f[0])), 0, 0)


def _known(fields: dict[int, Attribute | None]) -> tuple[tuple[int, Attribute], ...]:
    return tuple(sorted((o, t) for o, t in fields.items() if t is not None))


def moved_integer(v: SSAValue) -> bool:
    """Whether `v` is an integer loaded only to be stored (`load i64` / `store i64`: LLVM's copy
    of 8 bytes of any type), which says nothing about what the bytes hold."""
    load = v.owner
    if not isinstance(v.type, IntegerType) or not isinstance(load, xllvm.LoadOp):
        return False
    users = ext.real_users(load.dereferenced_value)
    return bool(users) and all(isinstance(u, ext.StoreOp) and u.value is v and u.ptr is not v for u in users)


def _record(fields: dict[int, Attribute | None], off: int, t: Attribute) -> None:
    """Note an access of type `t` at `off`; bytes read both as an integer and as a float of the
    same size are the float (a copy), any other disagreement makes the offset unknown."""
    for o, s in scalar_fields(t, off) or []:
        old = fields.get(o, s)
        if old == s:
            fields[o] = s
        elif isinstance(old, IntegerType) and isinstance(s, AnyFloat) and _store_bytes(old) == _store_bytes(s):
            fields[o] = s
        elif not (isinstance(s, IntegerType) and isinstance(old, AnyFloat) and _store_bytes(old) == _store_bytes(s)):
            fields[o] = None


def copy_view(views: Views, op: Operation) -> View | None:
    """What the bytes a memcpy/memmove (dst, src, n) moves hold: the destination's view, else
    the source's.  A view without a repeating period knows only the bytes stored through it: it
    describes a copy of known size whose every byte lies in its fields (a vector's new block is
    known by its last element, stored before the copy fills the bytes before it)."""
    from xenzyme.analysis.cfg import constant_int

    for p in (op.operands[0], op.operands[1]):
        view = views.of(p)
        if view is None:
            continue
        if view.period:
            return view
        n = constant_int(op.operands[2])
        extent = max(o + (size_align(t) or (0, 0))[0] for o, t in view.fields)
        if n is not None and view.offset + n <= extent and UNKNOWN_KIND not in view.kinds_in(0, n):
            return view
    return None


def _packed_floats(view: View, nbytes: int) -> VectorType | None:
    """The vector of floats of one type that fill exactly `nbytes` bytes at the pointer (fields
    that are floats or vectors of them, as vectorised code stores them), if more than one do."""
    elements: list[Attribute] = []
    pos = 0
    while pos < nbytes:
        field = view.field_at(pos)
        if field is None:
            return None
        if isinstance(field, VectorType) and isinstance(field.element_type, AnyFloat):
            elements += [field.element_type] * field.get_shape()[0]
        elif isinstance(field, AnyFloat):
            elements.append(field)
        else:
            return None
        pos += _store_bytes(field)
    if pos != nbytes or len(elements) < 2 or len(set(elements)) != 1:
        return None
    return VectorType(elements[0], [len(elements)])


def integer_access(view: View | None, t: Attribute) -> tuple[str, Attribute | None]:
    """What an integer load or store of type `t` (scalar or vector) through a pointer with this
    view really moves: (FLOAT, the float type of the same bits), (INTEGER, None), or
    (UNKNOWN_KIND, None) when the bytes are not known or mix kinds."""
    lanes, et = (t.get_shape()[0], t.element_type) if isinstance(t, VectorType) else (1, t)
    if view is None or not isinstance(et, IntegerType):
        return UNKNOWN_KIND, None
    width = et.width.data
    nbytes = (width + 7) // 8
    floats = {view.scalar_at(i * nbytes, nbytes) for i in range(lanes)}
    if len(floats) == 1:
        (f,) = floats
        if isinstance(f, AnyFloat) and f.bitwidth == width:
            return FLOAT, VectorType(f, [lanes]) if isinstance(t, VectorType) else f
    if (packed := _packed_floats(view, nbytes * lanes)) is not None:
        return FLOAT, packed  # (two floats copied as one i64)
    if view.kinds_in(0, nbytes * lanes) == {INTEGER}:
        return INTEGER, None
    return UNKNOWN_KIND, None


# ---------------------------------------------------------------------------------------------
# TBAA: the scalar type the frontend says an access has
# ---------------------------------------------------------------------------------------------

_TBAA_NODE = re.compile(r"^!(\d+) = !\{(.*)\}$")
_TBAA_FLOATS = {"double": f64, "float": f32}


class TBAA:
    """Reads the module's type-based alias analysis nodes (kept verbatim in `llvm.metadata`):
    an access tag `!{base, access type, offset}` names the scalar type the source accessed,
    `!{!"double", parent, i64 0}`.  LLVM keeps the tag when it moves a double as an `i64`."""

    def __init__(self, module: ModuleOp):
        self.nodes: dict[int, list[str]] = {}
        lines = module.attributes.get("llvm.metadata")
        if isinstance(lines, ArrayAttr):
            for line in lines.data:
                m = _TBAA_NODE.match(line.data) if isinstance(line, StringAttr) else None
                if m:
                    self.nodes[int(m.group(1))] = [x.strip() for x in m.group(2).split(",")]

    def float_type(self, op: Operation) -> Attribute | None:
        """The float type an access's TBAA tag names, if it names one."""
        name = self.access_type_name(op)
        return _TBAA_FLOATS.get(name) if name is not None else None

    def access_type_name(self, op: Operation) -> str | None:
        """The name of the scalar type an access's TBAA tag names (`double`, `int`, `any
        pointer`, `omnipotent char`, ...), if it has a tag."""
        md = op.attributes.get("md")
        tag = md.get("tbaa") if isinstance(md, ext.MetadataAttachmentsAttr) else None
        fields = self.nodes.get(tag) if tag is not None else None
        if not fields or len(fields) < 2 or not fields[1].startswith("!"):
            return None
        access = self.nodes.get(int(fields[1][1:])) if fields[1][1:].isdigit() else None
        if not access or not access[0].startswith('!"'):
            return None
        return access[0][2:-1]
