"""The rule for LLVM's calls (`call`, `invoke`, intrinsic calls, inline assembly).

A call is differentiated by what it calls:

* a math function (libm, an LLVM intrinsic, one with a rule registered from Python, one marked
  `__enzyme_function_like`): its rule in `libm.py`, like an instruction;
* an allocator (malloc, calloc, new, ...): its shadow is fresh zeroed memory from the same
  allocator, given back where the reverse sweep reaches the allocation; deallocators act on the
  primal only (the shadow's end is its allocation's reverse).  An allocation whose address
  escapes its function may outlive the gradient: its shadow is given back there only if the
  forward sweep freed the primal memory, which is known at run time (`NOTE_FREED`);
* a function with no derivative by the program's word (`__enzyme_inactivefn`) or by its nature
  (printf, clock, ...): nothing;
* a function of the module, or one with the user's custom derivative: the engine's business
  (`ctx.calls`): in reverse mode the call becomes a call of its augmented forward function,
  and the reverse sweep calls its reverse function with the tape; in forward mode a call of its
  tangent function;
* anything else that touches derivatives: an error saying what to do.
"""

from __future__ import annotations

from typing import NoReturn

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Operation, SSAValue

from xenzyme.analysis.alias import (
    FORGET_FREED,
    KEEP_SHADOW,
    NOTE_FREED,
    RELEASE_SHADOW,
    allocation_escapes,
    allocator_of,
    callee_name,
    deallocated_pointer,
    is_deallocation,
    pointer_roots,
    rust_allocator_kind,
    store_destinations,
)
from xenzyme.analysis.callees import call_type
from xenzyme.analysis.forward_activity import NO_STORE_FUNCTIONS, has_tangent_type, masked_kind
from xenzyme.analysis.globals import touches_shadowed_globals
from xenzyme.analysis.types import INTEGER, integer_access
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules import c_library, complex, cpp_library, enzyme_abi, fortran_runtime, reallocation
from xenzyme.rules.context import AugmentContext, ForwardContext, OpRule, ReverseContext
from xenzyme.rules.emitter import PURE_CALL_ATTRS
from xenzyme.rules.libm import math_base_name
from xenzyme.rules.llvm import FUNCTION_LIKE_ATTR, math_rule_of

CALL_OPS = (xllvm.CallOp, ext.InvokeOp, xllvm.CallIntrinsicOp, xllvm.InlineAsmOp)

INACTIVE_FUNCTIONS = {
    "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "fflush", "abort", "exit",
    "__assert_fail", "clock", "time", "rand", "srand", "malloc_usable_size",
    NOTE_FREED, RELEASE_SHADOW, KEEP_SHADOW, FORGET_FREED,
}  # fmt: skip
"""Library functions that neither read nor write memory the derivative depends on (and the
runtime of noted shadows, in a gradient that is differentiated again)."""

REALLOCATORS = ("realloc", "reallocf")
SHADOWED_HINTS = ("madvise",)
"""Calls about memory (not its contents) that apply to the shadow memory as well."""


LIBRARY_FAMILIES = (
    c_library.rule_of, complex.rule_of, cpp_library.rule_of, reallocation.rule_of, fortran_runtime.rule_of, enzyme_abi.rule_of,
)
"""Finders of the rules of library functions kept in files of their own (callee -> `OpRule`),
consulted before the cases below: the forward sweep copies such a call unless the rule has an
`augment` hook; `tangent` runs after the copy."""


def library_rule(op: Operation) -> OpRule | None:
    for find in LIBRARY_FAMILIES:
        if (rule := find(op)) is not None:
            return rule
    return None


def _inactive(ctx: AugmentContext | ReverseContext, op: Operation) -> bool:
    name = callee_name(op)
    return name is not None and (name in INACTIVE_FUNCTIONS or name in ctx.hints.inactive)


def _carries(ctx: AugmentContext | ReverseContext, values) -> bool:
    info = ctx.info
    return any(v in info.varied or v in info.shadowed for v in values)


def _differentiated(ctx: AugmentContext | ReverseContext, op: Operation) -> bool:
    """A call of a function the engine differentiates (defined here, or with a custom
    gradient) that derivatives flow through."""
    if ctx.calls.callee(op) is None or math_rule_of(op) is not None or _inactive(ctx, op):
        return False
    if allocator_of(op) is not None or is_deallocation(op):
        return False  # (a function of the module registered as an allocator or its release)
    return _carries(ctx, (*op.operands, *op.results)) or touches_shadowed_globals(op)


# ---- reverse mode -----------------------------------------------------------------------


def _augment(ctx: AugmentContext, op: Operation) -> None:
    if ctx.calls.unresolved(op) and _carries(ctx, (*op.operands[1:], *op.results)):
        ctx.calls.trap(op)
        return
    if (lib := library_rule(op)) is not None and lib.augment is not None:
        lib.augment(ctx, op)
        return
    if _differentiated(ctx, op) and lib is None:
        ctx.calls.augment(op)
        return
    new = ctx.copy(op)
    new.attributes.pop(FUNCTION_LIKE_ATTR, None)
    if is_deallocation(op):
        _note_freed_shadow(ctx, op)
    if isinstance(new, xllvm.CallOp) and new.callee is not None and math_base_name(new.callee.string_value()):
        new.attributes["fn_attrs"] = PURE_CALL_ATTRS  # errno aside, math is pure: unused calls go
    for r in op.results:
        if not ctx.shadowed(r):
            continue
        if isinstance(op, xllvm.CallOp) and allocator_of(op) is not None:
            ctx.set_shadow(r, _shadow_allocation(ctx, op))
        elif (name := callee_name(op)) is not None:
            ctx.fail(op, f"@{name} returns a pointer to memory that receives derivatives, and no derivative "
                         f"of @{name} is known to give that memory a shadow",
                     [f"define @{name} in this module, or give it a custom derivative "
                      f"(__enzyme_register_gradient_{name})"])  # fmt: skip
        else:
            ctx.fail(op, "this instruction produces a pointer to active memory, which is not supported here",
                     ["calls returning pointers and pointer arithmetic through integers are not supported yet"])  # fmt: skip


def _device_code(ctx: AugmentContext | ReverseContext) -> bool:
    """GPU code (many threads at once, no host runtime): as the generator judged the module."""
    gen = getattr(ctx, "generator", None)
    return gen.device if gen is not None else gpu.is_device_code(ctx.module)


def _note_freed_shadow(ctx: AugmentContext, op: Operation) -> None:
    """Memory freed here whose allocation may be in another function (a node linked into a
    structure and released by a walk): its shadow, noted, is given back where the reverse sweep
    reaches that allocation.  Not noted: a shadow this function's derivative frees itself (the
    pointer comes from an allocation here whose address stays here), and device code."""
    p = deallocated_pointer(op)
    if not ctx.shadowed(p) or _device_code(ctx):
        return
    for root in pointer_roots(p, ctx.cfg):
        if allocator_of(root.owner) is not None and not allocation_escapes(root, ctx.cfg, ctx.functions):
            return
    ctx.e.declare(NOTE_FREED, [ext.LLVMPointerType()])
    ctx.e.call_function(NOTE_FREED, [ctx.fwd_shadow(p)])


def _shadow_allocation(ctx: AugmentContext, op: xllvm.CallOp) -> SSAValue:
    """Zeroed memory of the same size from the same allocator (malloc's from calloc)."""
    e = ctx.e
    name = callee_name(op)
    alloc = allocator_of(op)
    assert name is not None and alloc is not None
    args = [ctx.fwd(o) for o in op.args]
    ptr = ext.LLVMPointerType()
    if name == "malloc":
        one = e.i64(1)
        size = e.to_i64(args[0])
        e.declare("calloc", [size.type, size.type], ptr)
        return e.call_function("calloc", [one, size], ptr)
    s = e.call_function(name, args, ptr)
    if not alloc.zeroed:
        size = e.to_i64(args[alloc.size_args[0]])
        for i in alloc.size_args[1:]:
            size = e.insert(xllvm.MulOp(size, e.to_i64(args[i])))  # type: ignore[arg-type]
        e.memset_zero(s, size)
    return s


def _reverse(ctx: ReverseContext, op: Operation) -> None:
    if ctx.calls.planned(op):
        ctx.calls.reverse(op)
        return
    if ctx.calls.trapped(op):
        return  # never reached: the forward sweep stopped the program there
    if (lib := library_rule(op)) is not None:
        if lib.reverse is not None:
            lib.reverse(ctx, op)
        return
    if isinstance(op, xllvm.CallOp) and allocator_of(op) is not None:
        if ctx.shadowed(op.results[0]):
            _reverse_allocation(ctx, op)
        return
    if _inactive(ctx, op):
        return  # no derivative, by the program's word (__enzyme_inactivefn) or by its nature
    if is_deallocation(op):
        return  # given back in the forward sweep; the shadow ends at its allocation's reverse
    math = math_rule_of(op)
    if not any(ctx.active(r) for r in op.results):
        if _pure_call(op) or math is not None:
            return  # a call with a derivative rule does nothing but compute its result
        if isinstance(op, xllvm.CallIntrinsicOp) and store_destinations(op) == []:
            return  # an intrinsic that writes no memory (llvm.is.fpclass, ...)
        if _carries(ctx, op.operands):
            _no_rule(ctx, op)  # it may write derivatives somewhere: into memory, or a global
        return
    if math is None:
        _no_rule(ctx, op)
    assert math.reverse is not None
    math.reverse(ctx, op)


def _reverse_allocation(ctx: ReverseContext, op: xllvm.CallOp) -> None:
    """The shadow of a heap object ends where the reverse sweep reaches its allocation.  If
    its address may outlive the function, only when the forward sweep freed the primal memory
    (`NOTE_FREED`: known at run time; otherwise the shadow lives on, like the primal memory).
    Every adjoint of the memory is computed by then: they run in the reverse order of its
    uses, all of which come after the allocation."""
    alloc = allocator_of(op)
    assert alloc is not None
    if allocation_escapes(op.results[0], ctx.cfg, ctx.functions):
        if alloc.dealloc_args == (-1,) and not _device_code(ctx):
            ptr = ext.LLVMPointerType()
            ctx.e.declare(alloc.deallocator, [ptr])
            ctx.e.declare(RELEASE_SHADOW, [ptr, ptr])
            deallocate = ctx.e.insert(xllvm.AddressOfOp(alloc.deallocator, ptr))
            ctx.e.call_function(RELEASE_SHADOW, [ctx.shadow(op.results[0]), deallocate])
        return
    args = [ctx.shadow(op.results[0]) if i < 0 else ctx.get(op.args[i]) for i in alloc.dealloc_args]
    ctx.e.declare(alloc.deallocator, [a.type for a in args])
    ctx.e.call_function(alloc.deallocator, args)


def _no_rule(ctx: ReverseContext, op: Operation):
    if isinstance(op, xllvm.CallOp):
        callee = op.callee.string_value() if op.callee is not None else None
        if callee is None:
            _fail_unknown_callee(ctx, op)
        if ctx.calls.through_pointer(op):
            _fail_external_candidate(ctx, op, f"__enzyme_register_gradient_{callee}")
        fn = ctx.functions.get(callee)
        if fn is not None and fn.body.blocks:
            ctx.fail(op, f"the call to @{callee} (not inlined) has active arguments; calls are not supported yet",
                     ["inline it (static inline, or a higher preopt level)"])  # fmt: skip
        ctx.fail(op, f"no derivative is known for external function @{callee}",
                 [f"give one with __enzyme_register_gradient_{callee}, or mark it inactive"])  # fmt: skip
    ctx.fail(op, f"no derivative rule for '{op.name}'",
             ["rewrite this computation with supported operations, or mark the values it uses enzyme_const"])  # fmt: skip


def _fail_external_candidate(ctx: ReverseContext | ForwardContext, op: xllvm.CallOp, register: str) -> NoReturn:
    """A direct call that replaced a call through a function pointer, to a candidate that is
    only declared: no derivative of it can be generated."""
    callee = callee_name(op)
    ctx.fail(op, f"@{callee}, which the function pointer called here may point to, is an external "
                 "function with no known derivative",
             [f"give it one with {register}, define it in this module, or mark it inactive (__enzyme_inactivefn)"])  # fmt: skip


def _fail_unknown_callee(ctx: ReverseContext | ForwardContext, op: xllvm.CallOp) -> NoReturn:
    """An indirect call with derivatives whose pointer may hold no function of this module."""
    ftype = call_type(op)
    args = ", ".join(str(t) for t in ftype.inputs.data)
    ctx.fail(op, "an indirect call (through a function pointer) has active arguments, but no function of "
                 f"this module of its type ({ftype.output} ({args})) has its address taken: the function "
                 "it calls is not in this module, so no derivative can be generated for it",
             ["pass the address of a function defined in this module (its derivative is generated), "
              "or mark the arguments enzyme_const"])  # fmt: skip


def _pure_call(op: Operation) -> bool:
    attrs = op.attributes.get("fn_attrs")
    if isinstance(attrs, ArrayAttr):
        return any(isinstance(a, StringAttr) and a.data in ("memory(none)", "readnone") for a in attrs.data)
    return False


# ---- forward mode -----------------------------------------------------------------------


def _tangent(ctx: ForwardContext, op: Operation) -> None:
    info = ctx.info
    callee = callee_name(op)
    results_active = [r for r in op.results if r in info.varied or r in info.shadowed]
    args = list(op.operands) if not isinstance(op, xllvm.CallIntrinsicOp) else list(op.args)
    args_active = any(a in info.varied or a in info.shadowed for a in args)
    if isinstance(op, ext.InvokeOp):
        if results_active or args_active:
            ctx.fail(op, "invoke (a call that may throw) cannot be differentiated",
                     ["exception handling is not supported in differentiated code"])  # fmt: skip
        copy_call(ctx, op)
        return
    if (kind := masked_kind(op)) is not None:
        copy_call(ctx, op)
        _masked(ctx, op, kind)
        return
    if (lib := library_rule(op)) is not None:
        copy_call(ctx, op)
        if lib.tangent is not None:
            lib.tangent(ctx, op)
        return
    if (math := math_rule_of(op)) is not None:
        copy_call(ctx, op)
        assert math.tangent is not None
        math.tangent(ctx, op)
        return
    if allocator_of(op) is not None or _reallocation(callee):
        copy_call(ctx, op)
        _heap_allocation(ctx, op, callee)
        return
    if is_deallocation(op) or callee in SHADOWED_HINTS:
        copy_call(ctx, op)
        p = deallocated_pointer(op) if is_deallocation(op) else args[0]
        if p in info.shadowed:
            for s in ctx.shadows(p):
                ctx.e.insert(op.clone_without_regions(_operands(ctx, op, {p: s})))
        return
    if callee in NO_STORE_FUNCTIONS or not (results_active or args_active or touches_shadowed_globals(op)):
        copy_call(ctx, op)
        return
    custom = ctx.hints.derivatives.get(callee) if callee is not None else None
    if custom is not None:
        ctx.calls.custom(op, custom)
        return
    fn = ctx.functions.get(callee) if callee is not None else None
    if fn is not None and fn.body.blocks:
        ctx.calls.tangent(op, fn)
        return
    if not results_active and _call_writes_nothing(op):
        copy_call(ctx, op)
        return
    if callee is None:
        if isinstance(op, xllvm.CallIntrinsicOp):
            ctx.fail(op, f"no derivative rule for intrinsic '{op.intrin.data}'",
                     ["rewrite this computation with supported operations, or mark its arguments enzyme_const"])  # fmt: skip
        if ctx.calls.unresolved(op):
            ctx.calls.trap(op)
            return
        _fail_unknown_callee(ctx, op)
    if ctx.calls.through_pointer(op):
        _fail_external_candidate(ctx, op, f"__enzyme_register_derivative_{callee}")
    ctx.fail(op, f"no derivative is known for external function @{callee}",
             [f"give it a custom derivative (__enzyme_register_derivative_{callee}), "
              "define it in this module, or mark its arguments enzyme_const"])  # fmt: skip


def copy_call(ctx: ForwardContext, op: Operation) -> Operation:
    """Copy a call; a math function's becomes pure (errno aside), so that unused ones go."""
    new = ctx.copy(op)
    if isinstance(new, xllvm.CallOp) and (c := callee_name(new)) is not None and math_base_name(c):
        new.attributes["fn_attrs"] = PURE_CALL_ATTRS  # errno aside, math is pure: unused calls go
    return new


def _operands(ctx: ForwardContext, op: Operation, replace: dict[SSAValue, SSAValue]) -> dict[SSAValue, SSAValue]:
    """A value map for cloning `op`: its operands as computed here, some replaced."""
    mapping = {o: ctx.get(o) for o in op.operands}
    mapping.update(replace)
    return mapping


def _call_writes_nothing(op: Operation) -> bool:
    attrs = op.attributes.get("fn_attrs")
    if isinstance(attrs, ArrayAttr):
        return any(isinstance(a, StringAttr) and a.data in ("memory(none)", "memory(read)", "readnone", "readonly")
                   for a in attrs.data)  # fmt: skip
    return False


def _reallocation(callee: str | None) -> bool:
    return callee is not None and (callee in REALLOCATORS or rust_allocator_kind(callee) == "realloc")


def _heap_allocation(ctx: ForwardContext, op: Operation, callee: str) -> None:
    r = op.results[0]
    if r not in ctx.info.shadowed:
        return
    e = ctx.e
    out = []
    alloc = allocator_of(op)
    for k in range(ctx.width):
        if alloc is None:  # a reallocation: of the old buffer's shadow (the new part is written before it is read)
            old = op.operands[0]
            if old not in ctx.info.shadowed and not isinstance(old.owner, xllvm.ZeroOp):
                ctx.fail(op, "realloc of a buffer without a shadow, whose new part receives derivatives",
                         ["allocate the buffer in this function, or pass it with its shadow (enzyme_dup)"])  # fmt: skip
            s = e.insert(op.clone_without_regions(_operands(ctx, op, {old: ctx.shadows(old)[k]})))
        else:
            s = e.insert(op.clone_without_regions(_operands(ctx, op, {})))
            if not alloc.zeroed:
                size = e.to_i64(ctx.get(op.operands[alloc.size_args[0]]))
                for i in alloc.size_args[1:]:
                    size = e.insert(xllvm.MulOp(size, e.to_i64(ctx.get(op.operands[i]))))  # type: ignore[arg-type]
                e.memset_zero(s, size)
        if r.name_hint:
            s.name_hint = f"d{'' if ctx.width == 1 else k}_{r.name_hint}"
        out.append(s)
    ctx.set_shadows(r, out)


def _masked(ctx: ForwardContext, op: Operation, kind: str) -> None:
    """llvm.masked.load/gather read the tangents through the shadow pointer(s) under the same
    mask (the pass-through lanes take the pass-through's tangent); llvm.masked.store/scatter
    write the value's tangent (zero for a value without one) into the shadow(s)."""
    info, e = ctx.info, ctx.e
    args = list(op.args)  # type: ignore[attr-defined]
    if kind in ("load", "gather"):
        ptr, mask, passthru = args
        r = op.results[0]
        if r not in info.varied and r not in info.shadow_bits:
            return
        if ptr in info.shadowed:
            out = [e.insert(op.clone_without_regions(_operands(ctx, op, {ptr: s, passthru: t})))
                   for s, t in zip(ctx.shadows(ptr), ctx.tangent(passthru), strict=True)]  # fmt: skip
        else:  # memory without a shadow: zero tangents, except in the pass-through lanes
            zero = e.zero(r.type)
            out = [e.select(ctx.get(mask), zero, t) for t in ctx.tangent(passthru)]
        ctx.set_tangent(r, out)
        return
    value, ptr, _ = args
    if ptr not in info.shadowed:
        return  # a value with a tangent stored there is reported before the function is built
    if not has_tangent_type(value.type):
        kind_of, _ = integer_access(ctx.views.of(ptr), value.type) if kind == "store" else (None, None)
        if kind_of == INTEGER:
            return
        if value in info.shadow_bits:
            tangents = ctx.tangent(value)
        else:
            ctx.fail(op, f"a masked {kind} of integers into memory with derivatives is not supported in forward mode",
                     ["store floating-point data with floating-point types"])  # fmt: skip
    else:
        tangents = ctx.tangent(value)
    for s, t in zip(ctx.shadows(ptr), tangents, strict=True):
        e.insert(op.clone_without_regions(_operands(ctx, op, {value: t, ptr: s})))


CALL = OpRule(reverse=_reverse, augment=_augment, tangent=_tangent, emits_primal=True)
"""The rule of every call-like op."""
