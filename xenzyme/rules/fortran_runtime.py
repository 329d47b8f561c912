"""flang's runtime functions for whole arrays, where derivatives reach them.

`replace-flang-runtime` gives differentiated code its own definitions of `_FortranAAssign` and
the reductions (`_FortranASumReal8`, ...), loops over the descriptors that are differentiated
like any code; those definitions call the runtime itself only for what they do not do (a
conversion between types, an allocatable reallocated by the assignment, overlapping arrays, a
reduction along one dimension or under a mask).  Such a call, in differentiated code, has no
derivative: reached, it stops the program with a message naming the function (as an indirect
call to no candidate does), instead of computing a wrong derivative.  A call that no derivative
flows through runs as it is.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntegerAttr, StringAttr, i8, i32, i64
from xdsl.ir import Operation

from xenzyme.analysis.alias import callee_name
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.context import AugmentContext, ForwardContext, OpRule, ReverseContext
from xenzyme.rules.emitter import LLVMEmitter, call_op, ensure_declaration

RUNTIME = ("_FortranAAssign",) + tuple(
    f"_FortranA{op}{s}" for s in ("Real8", "Real4") for op in ("Sum", "Product", "Maxval", "Minval", "DotProduct")
)
"""The runtime functions `replace-flang-runtime` defines; what their definitions leave to the
runtime is what this rule stops at."""


def _carries(ctx, op: Operation) -> bool:
    return any(ctx.active(v) or ctx.shadowed(v) for v in (*op.operands, *op.results))


def _stop(e: LLVMEmitter, name: str) -> None:
    """Print why on stderr and abort."""
    text = (f"xenzyme: {name} reached in differentiated code with a case xenzyme does not differentiate "
            "(a conversion between types, a reallocation by assignment, overlapping arrays, a reduction "
            "along a dimension or under a mask); stopping\n")  # fmt: skip
    module = e.module
    gname = f"xenzyme.message.{name}"
    if not any(isinstance(o, xllvm.GlobalOp) and o.sym_name.data == gname for o in module.ops):
        module.body.block.add_op(xllvm.GlobalOp(ext.LLVMArrayType(len(text), i8), gname, "private", constant=True,
                                                value=StringAttr(text)))  # fmt: skip
    ptr = ext.LLVMPointerType()
    ensure_declaration(module, "write", ext.LLVMFunctionType([i32, ptr, i64], i64))
    ensure_declaration(module, "abort", ext.LLVMFunctionType([], ext.LLVMVoidType()))
    fd = e.insert(xllvm.ConstantOp(IntegerAttr(2, i32), i32))
    e.insert(call_op("write", [fd, e.insert(xllvm.AddressOfOp(gname, ptr)), e.i64(len(text))], i64))
    e.insert(call_op("abort", [], None))


def _augment(ctx: AugmentContext, op: Operation) -> None:
    if _carries(ctx, op):
        _stop(ctx.e, callee_name(op) or "?")
    ctx.copy(op)


def _reverse(ctx: ReverseContext, op: Operation) -> None:
    return  # (never reached with derivatives: the forward sweep stopped there)


def _tangent(ctx: ForwardContext, op: Operation) -> None:
    if not any(v in ctx.info.varied or v in ctx.info.shadowed for v in op.operands):
        return
    _stop(ctx.e, callee_name(op) or "?")
    for r in op.results:
        if r in ctx.info.varied:
            ctx.set_tangent(r, [ctx.e.zero(r.type)] * ctx.width)


_RULE = OpRule(reverse=_reverse, augment=_augment, tangent=_tangent, emits_primal=True)


def rule_of(op: Operation) -> OpRule | None:
    """The rule of a call of one of the runtime functions in `RUNTIME`, or None."""
    return _RULE if isinstance(op, xllvm.CallOp) and callee_name(op) in RUNTIME else None
