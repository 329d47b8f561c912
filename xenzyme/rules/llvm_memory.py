"""Rules for LLVM's memory instructions: loads, stores, bulk copies, stack slots, globals and
atomics.

Derivatives of data in memory live in *shadow* memory of the same shape: each pointer whose
memory may hold derivatives (`ctx.shadowed`) has a shadow pointer.  In reverse mode the forward
sweep builds the shadows (a stack slot's shadow is a zeroed slot, a global's a zeroed global, a
pointer loaded from memory the one loaded from the shadow) and the reverse sweep moves adjoints
between shadow memory and values: a load's adjoint is added to the shadow, a store takes the
adjoint from the shadow and clears it.  In forward mode the shadow holds tangents, which loads
read and stores write beside the primal.

What the bytes of a bulk copy hold comes from type analysis (`xenzyme.analysis.types`): floats
move their derivatives, pointers their shadows, integers nothing (`copy_helpers.py`).
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, VectorType, i8
from xdsl.ir import BlockArgument, Operation, SSAValue

from xenzyme.analysis.activity import carries_derivative, is_pointer_like
from xenzyme.analysis.forward_activity import has_tangent_type
from xenzyme.analysis.types import FLOAT, INTEGER, POINTER, UNKNOWN_KIND, copy_view, integer_access, size_align
from xenzyme.diagnostics import location_of
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.context import AugmentContext, ForwardContext, OpRule, ReverseContext
from xenzyme.rules.copy_helpers import ADJOINT, ATOMIC_ADJOINT, COPY, ZERO, CopyPlan, copy_helper
from xenzyme.rules.emitter import alignment_of
from xenzyme.rules.global_pointers import checked_shadow, global_loaded_from, initial_target, only_called

# ---- loads and stores -------------------------------------------------------------------


def _augment_load(ctx: AugmentContext, op: Operation) -> None:
    """A pointer loaded from shadowed memory: its shadow is loaded from the shadow (checked, for
    a pointer a global holds: `global_pointers`)."""
    assert isinstance(op, xllvm.LoadOp)
    r = op.dereferenced_value
    if ctx.shadowed(r):
        shadow = ctx.e.insert(xllvm.LoadOp(ctx.fwd_shadow(op.ptr), r.type, alignment=alignment_of(op)))
        ctx.set_shadow(r, _global_pointer_shadow(ctx, op, ctx.fwd(r), shadow, 0))


def _global_pointer_shadow(ctx: AugmentContext | ForwardContext, op: xllvm.LoadOp, primal: SSAValue,
                           shadow: SSAValue, k: int) -> SSAValue:  # fmt: skip
    """The k-th shadow of a pointer loaded from a global, as `global_pointers.checked_shadow`
    judges it at run time; any other loaded pointer's shadow as it is."""
    name = global_loaded_from(op.ptr)
    r = op.dereferenced_value
    if name is None or not is_pointer_like(r.type) or gpu.is_device_code(ctx.e.module) or only_called(r):
        return shadow
    known = None
    if (target := initial_target(ctx.e.module, name)) is not None:
        address = xllvm.AddressOfOp(target, ext.LLVMPointerType())
        shadow_name = ctx.shadow_global(address, k)  # type: ignore[attr-defined]
        # (None: the address of a function, which is its own shadow)
        known = (ctx.e.insert(address), ctx.e.insert(xllvm.AddressOfOp(shadow_name or target, ext.LLVMPointerType())))
    loc = location_of(op)
    where = f"{loc}: " if loc is not None else ""
    return checked_shadow(ctx.e, op, primal, shadow, known, name, where)


def _reverse_load(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    assert isinstance(op, xllvm.LoadOp)
    ctx.accumulate_memory(ctx.shadow(op.ptr), d, alignment_of(op), primal=op.ptr)


def _tangent_load(ctx: ForwardContext, op: Operation) -> None:
    """The same load from the shadow(s): the tangent, the shadow of a pointer, or the bits of
    a tangent loaded as an integer (`shadow_bits`, which a bitcast back to a float turns into
    the tangent)."""
    assert isinstance(op, xllvm.LoadOp)
    info = ctx.info
    r = op.dereferenced_value
    if op.ptr not in info.shadowed:
        return
    if r not in info.varied and r not in info.shadowed and r not in info.shadow_bits:
        return
    out = [ctx.e.insert(op.clone_without_regions({op.ptr: s})) for s in ctx.shadows(op.ptr)]
    if r in info.varied or r in info.shadow_bits:
        ctx.set_tangent(r, out)
    else:
        ctx.set_shadows(r, [_global_pointer_shadow(ctx, op, ctx.get(r), s, k) for k, s in enumerate(out)])


def _augment_store(ctx: AugmentContext, op: Operation) -> None:
    """A pointer stored into shadowed memory: its shadow is stored into the shadow."""
    assert isinstance(op, ext.StoreOp)
    if ctx.shadowed(op.ptr) and is_pointer_like(op.value.type):
        ctx.e.insert(ext.StoreOp(ctx.fwd_shadow(op.value), ctx.fwd_shadow(op.ptr), alignment=alignment_of(op)))


def _reverse_store(ctx: ReverseContext, op: Operation) -> None:
    """The stored-to location's adjoint flows to the stored value; the location is then zero.
    An integer written over bytes that may have held a float ends that float's adjoint."""
    assert isinstance(op, ext.StoreOp)
    if not ctx.shadowed(op.ptr):
        return
    v = op.value
    if _integer_like(v.type):
        _reverse_integer_store(ctx, op)
        return
    if not carries_derivative(v.type):
        return
    e = ctx.e
    sp = ctx.shadow(op.ptr)
    if not ctx.active(v):
        _fail_if_outside_bits_stored(ctx, op)
    if ctx.active(v):
        dv = e.insert(xllvm.LoadOp(sp, v.type, alignment=alignment_of(op)))
        e.insert(ext.StoreOp(e.zero(v.type), sp, alignment=alignment_of(op)))
        ctx.accumulate(v, dv)
    else:
        e.insert(ext.StoreOp(e.zero(v.type), sp, alignment=alignment_of(op)))


def _reverse_integer_store(ctx: ReverseContext, op: ext.StoreOp) -> None:
    """(Integer copies of bytes known to be floats were made float copies already.)"""
    kind, _ = integer_access(ctx.views.of(op.ptr), op.value.type)
    if kind == INTEGER:
        return
    _fail_if_float_bits_moved(ctx, op)
    e = ctx.e
    e.insert(ext.StoreOp(e.zero(op.value.type), ctx.shadow(op.ptr), alignment=alignment_of(op)))


_BIT_MOVES = (xllvm.ShuffleVectorOp, ext.SelectOp, ext.FreezeOp, ext.ExtractElementOp, xllvm.InsertElementOp,
              xllvm.BitcastOp)  # fmt: skip
"""Integer ops that move bits without looking at them: what they give may be a float's bits."""


def _fail_if_float_bits_moved(ctx: ReverseContext | ForwardContext, op: ext.StoreOp) -> None:
    """An integer stored into memory that may hold floats, whose bits come (through ops that only
    move them) from an integer load of memory with derivatives that may hold floats: the
    derivative would have to follow bytes of unknown type, so it is an error, never a silent
    zero."""
    work, seen = [op.value], set()
    while work:
        v = work.pop()
        if v in seen or len(seen) > 64:
            continue
        seen.add(v)
        src = v.owner
        if isinstance(src, xllvm.LoadOp):
            if ctx.shadowed(src.ptr) and integer_access(ctx.views.of(src.ptr), src.dereferenced_value.type)[0] != INTEGER:
                ctx.fail(op, "cannot tell whether the bytes copied here (as an integer) hold floating-point data",
                         ["copy the fields one by one with their own types, or mark the memory enzyme_const"])  # fmt: skip
        elif isinstance(src, _BIT_MOVES) and not (isinstance(src, xllvm.BitcastOp) and not _integer_like(src.operands[0].type)):
            work += [o for o in src.operands if _integer_like(o.type)]


def _fail_if_outside_bits_stored(ctx: ReverseContext | ForwardContext, op: ext.StoreOp) -> None:
    """A float stored into memory with derivatives that is the bits of an integer the function
    was given or loaded from such memory (`bitcast i64 %param to double`: LLVM passes bytes a
    caller loaded as an integer argument): they may be a float's, whose derivative cannot be
    followed through the integer, so it is an error, never a silent zero."""
    src = op.value.owner
    if not isinstance(src, xllvm.BitcastOp) or not _integer_like(src.operands[0].type):
        return
    work, seen = [src.operands[0]], set()
    while work:
        v = work.pop()
        if v in seen or len(seen) > 64:
            continue
        seen.add(v)
        owner = v.owner
        outside = isinstance(v, BlockArgument) and v.block is ctx.cfg.entry
        if isinstance(owner, xllvm.LoadOp):
            outside = ctx.shadowed(owner.ptr) and integer_access(ctx.views.of(owner.ptr), v.type)[0] != INTEGER
        if outside:
            ctx.fail(op, "a floating-point value stored here is the bits of an integer this function was given or "
                         "loaded (bytes moved as an integer); its derivative cannot be followed",
                     ["move floating-point data with floating-point types (the caller's copy, or the "
                      "parameter's type), or mark the memory enzyme_const"])  # fmt: skip
        elif isinstance(owner, _BIT_MOVES) and not isinstance(owner, xllvm.BitcastOp):
            work += [o for o in owner.operands if _integer_like(o.type)]


def _tangent_store(ctx: ForwardContext, op: Operation) -> None:
    assert isinstance(op, ext.StoreOp)
    if op.ptr not in ctx.info.shadowed:
        return
    v = op.value
    if has_tangent_type(v.type) or is_pointer_like(v.type):
        if v not in ctx.info.varied:
            _fail_if_outside_bits_stored(ctx, op)
        values = ctx.tangent(v)
    else:
        values = _integer_shadow_values(ctx, op)
        if values is None:
            return
    for s, t in zip(ctx.shadows(op.ptr), values, strict=True):
        ctx.e.b.insert(op.clone_without_regions({op.value: t, op.ptr: s}))


def _integer_shadow_values(ctx: ForwardContext, op: ext.StoreOp) -> list[SSAValue] | None:
    """What an integer store puts into the shadow: a copy of the shadow's bytes when the
    integer was loaded from shadowed memory (bytes moved as an integer; for integer data the
    copy is harmless); nothing for other integer data; zero otherwise, so that no stale
    tangent survives in those bytes."""
    if op.value in ctx.info.shadow_bits:
        return ctx.tangent(op.value)  # the shadow's bytes, loaded beside the primal's
    kind, _ = integer_access(ctx.views.of(op.ptr), op.value.type)
    if kind == INTEGER:
        return None
    _fail_if_float_bits_moved(ctx, op)
    z = ctx.e.zero(op.value.type)
    return [z] * ctx.width


# ---- bulk copies ------------------------------------------------------------------------


def _augment_copy(ctx: AugmentContext, op: Operation) -> None:
    """A copy of pointers copies their shadows too."""
    dst, src, n = op.operands[0], op.operands[1], op.operands[2]
    if not ctx.shadowed(dst):
        return
    e = ctx.e
    view = copy_view(ctx.views, op)
    plan = CopyPlan.of(view, COPY) if view is not None else None
    if plan is not None and plan.dense or view is None and ctx.contents(dst)[0] == POINTER:
        # Nothing but pointers: the shadows are copied like the pointers.
        e.insert(type(op).create(operands=[ctx.fwd_shadow(dst), ctx.fwd_shadow(src), ctx.fwd(n)],
                                 properties=dict(op.properties)))  # fmt: skip
        return
    if plan is None:
        return
    helper = copy_helper(ctx.module, COPY, plan, isinstance(op, ext.MemmoveOp))
    e.call_function(helper, [ctx.fwd_shadow(src), ctx.fwd_shadow(dst), e.to_i64(ctx.fwd(n))])


def _reverse_transfer(ctx: ReverseContext, op: Operation) -> None:
    """memset clears the adjoints of what it overwrote; a copy moves the adjoints of the floats
    it copied back to the source (from inactive memory, a constant table, they just end)."""
    dst = op.operands[0]
    if not ctx.shadowed(dst):
        return
    e = ctx.e
    n = ctx.get(op.operands[2])
    if isinstance(op, ext.MemsetOp):
        e.memset_zero(ctx.shadow(dst), n)
        return
    src = op.operands[1]
    _fail_if_float_types_differ(ctx, op)
    action = (ATOMIC_ADJOINT if ctx.shared(src) else ADJOINT) if ctx.shadowed(src) else ZERO
    plan = _float_copy_plan(ctx, op, action)
    if plan is None:
        return
    if action == ZERO and plan.dense:
        e.memset_zero(ctx.shadow(dst), n)
        return
    helper = copy_helper(ctx.module, action, plan, isinstance(op, ext.MemmoveOp))
    from_shadow = ctx.shadow(src) if action != ZERO else ctx.shadow(dst)
    e.call_function(helper, [from_shadow, ctx.shadow(dst), e.to_i64(n)])


def _fail_if_float_types_differ(ctx: ReverseContext | ForwardContext, op: Operation) -> None:
    """A copy from memory holding floats of one type into memory holding floats of another
    (floats into doubles) reinterprets the bits: derivatives cannot follow them, and copying
    the shadow's bytes would make garbage of them."""
    (kd, td), (ks, ts) = ctx.contents(op.operands[0]), ctx.contents(op.operands[1])
    if kd == FLOAT and ks == FLOAT and td != ts:
        ctx.fail(op, f"the bytes copied here are floating-point data of one type ({ts}) copied into memory "
                     f"holding another ({td}): type punning, whose derivative would be lost",
                 ["convert element by element (a loop of casts), or give the function a custom derivative"])  # fmt: skip


def _float_copy_plan(ctx: ReverseContext, op: Operation, action: str) -> CopyPlan | None:
    """The floats a copy moves, from the bytes' view, else from what the objects hold."""
    view = copy_view(ctx.views, op)
    if view is not None:
        return CopyPlan.of(view, action)
    kind, ftype = ctx.contents(op.operands[0])
    if kind == UNKNOWN_KIND:
        kind, ftype = ctx.contents(op.operands[1])  # what the source holds
    if kind in (POINTER, INTEGER):
        return None
    if kind != FLOAT and action == ZERO:
        # Data without derivatives overwrote these bytes: whatever they held, their adjoints
        # end here (a byte-wise plan: the caller clears the destination's shadow).
        return CopyPlan(((0, i8),), 1, 0)
    if kind != FLOAT:
        ctx.fail(op, f"cannot tell whether the copied memory holds floating-point data ({kind})",
                 ["copy typed data element by element, or keep floats and other data in separate arrays"])  # fmt: skip
    size = size_align(ftype)  # type: ignore[arg-type]
    assert size is not None
    return CopyPlan(((0, ftype),), size[0], 0)  # type: ignore[arg-type]


def _tangent_transfer(ctx: ForwardContext, op: Operation) -> None:
    """memcpy/memmove copy the shadow bytes along; memset clears them."""
    dst = op.operands[0]
    info = ctx.info
    if dst not in info.shadowed:
        return
    e = ctx.e
    n = ctx.get(op.operands[2])
    if isinstance(op, ext.MemsetOp):
        zero8 = e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8))
        for s in ctx.shadows(dst):
            e.insert(type(op).create(operands=[s, zero8, n], properties=dict(op.properties)))
        return
    src = op.operands[1]
    _fail_if_float_types_differ(ctx, op)
    if src in info.shadowed:
        for sd, ss in zip(ctx.shadows(dst), ctx.shadows(src), strict=True):
            e.insert(type(op).create(operands=[sd, ss, n], properties=dict(op.properties)))
        return
    _copy_from_inactive(ctx, op, n)


def _copy_from_inactive(ctx: ForwardContext, op: Operation, n: SSAValue) -> None:
    """A copy from memory without a shadow (a constant table): the copied floats have zero
    tangents, copied pointers stand for themselves, as their shadows."""
    e = ctx.e
    dst, src = op.operands[0], op.operands[1]
    view = copy_view(ctx.views, op)
    if view is not None:
        plan = CopyPlan.of(view, ZERO)
        has_pointers = bool(view.pointer_fields())
    else:
        kind, ftype = ctx.contents(dst)
        if kind == INTEGER:
            return
        if kind == POINTER:
            plan, has_pointers = None, True
        elif kind == FLOAT:
            size = size_align(ftype)  # type: ignore[arg-type]
            assert size is not None
            plan, has_pointers = CopyPlan(((0, ftype),), size[0], 0), False  # type: ignore[arg-type]
        else:
            ctx.fail(op, f"cannot tell whether the memory copied here holds floating-point data ({kind})",
                     ["copy typed data element by element, or keep floats and other data in separate arrays"])  # fmt: skip
    zero8 = e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8))
    for s in ctx.shadows(dst):
        if plan is not None and plan.dense and not has_pointers:
            e.insert(ext.MemsetOp([s, zero8, n]))
            continue
        e.insert(type(op).create(operands=[s, ctx.get(src), n], properties=dict(op.properties)))
        if plan is not None:
            helper = copy_helper(ctx.module, ZERO, plan, False)
            e.call_function(helper, [s, s, e.to_i64(n)])


# ---- stack slots and globals ------------------------------------------------------------


def _augment_alloca(ctx: AugmentContext, op: Operation) -> None:
    """A stack slot that may hold derivatives has a zeroed shadow slot; in split mode the
    reverse function needs it after this frame is gone: heap memory, freed where the reverse
    sweep reaches the alloca."""
    assert isinstance(op, xllvm.AllocaOp)
    r = op.res
    if not ctx.shadowed(r):
        return
    if ctx.cfg.loop_of.get(op.parent_block()) is not None:  # type: ignore[arg-type]
        ctx.fail(op, "an alloca inside a loop holds active data; hoist it out of the loop")
    e = ctx.e
    if ctx.split:
        count = e.to_i64(ctx.fwd(op.size))
        e.declare("calloc", [count.type, count.type], ext.LLVMPointerType())
        ctx.set_shadow(r, e.call_function("calloc", [count, e.sizeof(op.elem_type)], ext.LLVMPointerType()))
        return
    s = e.insert(xllvm.AllocaOp.create(operands=[ctx.fwd(op.size)], result_types=[r.type], properties=dict(op.properties)))
    _zero_slot(e, s, op, ctx.fwd(op.size))
    ctx.set_shadow(r, s)


def _zero_slot(e, slot: SSAValue, op: xllvm.AllocaOp, count: SSAValue) -> None:
    """Zero the `count` elements of the shadow slot made for `op`."""
    size = e.sizeof(op.elem_type)
    e.memset_zero(slot, e.insert(xllvm.MulOp(size, e.to_i64(count))))  # type: ignore[arg-type]


def _reverse_alloca(ctx: ReverseContext, op: Operation) -> None:
    assert isinstance(op, xllvm.AllocaOp)
    if ctx.split and ctx.shadowed(op.res):
        ctx.e.declare("free", [ext.LLVMPointerType()])
        ctx.e.call_function("free", [ctx.shadow(op.res)])


def _tangent_alloca(ctx: ForwardContext, op: Operation) -> None:
    assert isinstance(op, xllvm.AllocaOp)
    if op.res not in ctx.info.shadowed:
        return
    e = ctx.e
    out = []
    for k in range(ctx.width):
        s = e.insert(xllvm.AllocaOp.create(operands=[ctx.get(op.size)], result_types=[op.res.type], properties=dict(op.properties)))
        if op.res.name_hint:
            s.name_hint = f"d{'' if ctx.width == 1 else k}_{op.res.name_hint}"
        _zero_slot(e, s, op, ctx.get(op.size))
        out.append(s)
    ctx.set_shadows(op.res, out)


def _augment_address(ctx: AugmentContext, op: Operation) -> None:
    """A global's shadow is a zeroed global beside it; a function's address, kept beside active
    data, is its own shadow (an indirect call with active arguments is judged where it is)."""
    assert isinstance(op, xllvm.AddressOfOp)
    r = op.result
    if not ctx.shadowed(r):
        return
    name = ctx.shadow_global(op, 0)
    ctx.set_shadow(r, ctx.fwd(r) if name is None else ctx.e.insert(xllvm.AddressOfOp(name, r.type)))  # type: ignore[arg-type]


def _tangent_address(ctx: ForwardContext, op: Operation) -> None:
    assert isinstance(op, xllvm.AddressOfOp)
    r = op.result
    if r not in ctx.info.shadowed:
        return
    out = []
    for k in range(ctx.width):
        name = ctx.shadow_global(op, k)
        out.append(ctx.get(r) if name is None else ctx.e.insert(xllvm.AddressOfOp(name, r.type)))  # type: ignore[arg-type]
    ctx.set_shadows(r, out)


# ---- atomics ----------------------------------------------------------------------------


def _reverse_atomic(ctx: ReverseContext, op: Operation) -> None:
    """`atomicrmw fadd/fsub p, v`: the value's adjoint is the memory's (negated for fsub), which
    keeps its adjoint (the old value passes on unchanged); other atomics on memory with
    derivatives are errors."""
    if any(ctx.active(r) for r in op.results):
        ctx.fail(op, f"the result of '{op.name}' (the value the memory held) carries a derivative, which is not "
                     "supported yet", ["use the atomic update as a statement (`#pragma omp atomic`), not its old value"])  # fmt: skip
    if not ctx.shadowed(op.ptr):  # type: ignore[attr-defined]
        return
    kind = op.bin_op.data if isinstance(op, ext.AtomicRMWOp) else None
    v = op.operands[1]
    if kind in ("fadd", "fsub") and carries_derivative(v.type):
        if ctx.active(v):
            d = ctx.e.insert(xllvm.LoadOp(ctx.shadow(op.ptr), v.type))  # type: ignore[attr-defined]
            ctx.accumulate(v, d if kind == "fadd" else ctx.e.neg(d))
        return
    if kind is not None and not carries_derivative(v.type) and integer_access(ctx.views.of(op.ptr), v.type)[0] == INTEGER:  # type: ignore[attr-defined]
        return  # an integer counter beside floating-point data
    ctx.fail(op, f"atomic '{kind or 'cmpxchg'}' updates of memory with derivatives are not supported in reverse mode",
             ["atomic additions and subtractions of floating-point values are (`#pragma omp atomic` with += or -=); "
              "or mark the memory enzyme_const"])  # fmt: skip


def _tangent_atomic(ctx: ForwardContext, op: Operation) -> None:
    info = ctx.info
    ptr = op.operands[0]
    varied = [r for r in op.results if r in info.varied]
    stores_tangent = any(o in info.varied for o in op.operands[1:])
    if ptr in info.shadowed and not (varied or stores_tangent):
        _check_integer_atomic(ctx, op)
    if ptr not in info.shadowed or not (varied or stores_tangent):
        return
    kind = op.properties.get("bin_op") or op.attributes.get("bin_op")
    kind_name = getattr(kind, "data", None)
    if not isinstance(op, ext.AtomicRMWOp) or kind_name not in ("fadd", "fsub", "xchg"):
        ctx.fail(op, f"atomic '{kind_name or op.name}' on memory with derivatives is not supported in forward mode",
                 ["use atomicrmw fadd/fsub/xchg, or a plain update"])  # fmt: skip
    out = []
    for s, t in zip(ctx.shadows(ptr), ctx.tangent(op.operands[1]), strict=True):
        sh = op.clone_without_regions({ptr: s, op.operands[1]: t})
        ctx.e.b.insert(sh)
        out.append(sh.results[0])
    if varied:
        ctx.set_tangent(op.results[0], out)


def _check_integer_atomic(ctx: ForwardContext, op: Operation) -> None:
    """An integer atomic (cmpxchg, atomicrmw xchg/add/...) on shadowed memory writes bytes
    whose tangent it cannot carry: fine for integer data, an error where the bytes may be
    floating-point data (by the memory's type, or because the new value holds a float's
    bits) rather than a silently stale tangent in the shadow."""
    values = op.operands[1:]
    vt = values[-1].type
    if has_tangent_type(vt) or is_pointer_like(vt):
        return
    kind, _ = integer_access(ctx.views.of(op.operands[0]), vt)
    if kind == FLOAT or _holds_float_bits(ctx, values[-1]):  # the value written
        name = "cmpxchg" if isinstance(op, ext.CmpXchgOp) else "atomicrmw"
        ctx.fail(op, f"an integer {name} writes floating-point data with a derivative; forward mode "
                     "cannot carry its tangent",
                 ["use atomicrmw fadd/fsub/xchg on the floating-point type, or plain loads and stores "
                  "outside parallel code"])  # fmt: skip


def _holds_float_bits(ctx: ForwardContext, v: SSAValue) -> bool:
    """Whether an integer is the bits of a float with a tangent, moved as an integer."""
    if v in ctx.info.shadow_bits:
        return True
    owner = v.owner
    return isinstance(owner, xllvm.BitcastOp) and owner.operands[0] in ctx.info.varied


def _integer_like(t) -> bool:
    return isinstance(t.element_type if isinstance(t, VectorType) else t, IntegerType)


RULES: dict[type[Operation], OpRule] = {
    xllvm.LoadOp: OpRule(reverse=_reverse_load, augment=_augment_load, tangent=_tangent_load),
    ext.StoreOp: OpRule(reverse=_reverse_store, augment=_augment_store, tangent=_tangent_store),
    ext.MemcpyOp: OpRule(reverse=_reverse_transfer, augment=_augment_copy, tangent=_tangent_transfer),
    ext.MemmoveOp: OpRule(reverse=_reverse_transfer, augment=_augment_copy, tangent=_tangent_transfer),
    ext.MemsetOp: OpRule(reverse=_reverse_transfer, tangent=_tangent_transfer),
    xllvm.AllocaOp: OpRule(reverse=_reverse_alloca, augment=_augment_alloca, tangent=_tangent_alloca),
    xllvm.AddressOfOp: OpRule(augment=_augment_address, tangent=_tangent_address),
    ext.AtomicRMWOp: OpRule(reverse=_reverse_atomic, tangent=_tangent_atomic),
    ext.CmpXchgOp: OpRule(reverse=_reverse_atomic, tangent=_tangent_atomic),
}
"""Rules for memory instructions, by op class."""
