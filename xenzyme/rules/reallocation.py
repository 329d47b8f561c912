"""The copy a reallocation makes of the old buffer, with a derivative that needs no types.

Differentiation replaces a reallocation by a fresh allocation, a copy of the old contents and
the release of the old buffer (transforms/diff/prepare.py), so that each heap object has one
allocation its shadow follows.  A plain memcpy moves derivatives field by field and must know
which bytes are floats; Rust's `RawVec` grows its buffer in code where the elements are bytes
of an erased type, so its copy is `xenzyme.realloc.move(new, old, n)` instead, whose shadows
move as bytes:

* forward sweep (and forward mode): the shadow bytes are copied as the primal bytes are, so
  the new shadow holds whatever the old one held -- tangents, the shadows of pointers;
* reverse sweep: the new shadow's first n bytes are copied back over the old shadow and
  cleared.  At this point of the reverse sweep the old shadow holds what it held when the copy
  was made: zero adjoints (the forward sweep accumulates none), and shadow pointers, which the
  reverse sweep does not read.  Copying the adjoints back is therefore adding them, whatever
  the type of each byte.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i8, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.alias import callee_name
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.context import AugmentContext, ForwardContext, OpRule, ReverseContext
from xenzyme.rules.emitter import LLVMEmitter, call_op

MOVE = "xenzyme.realloc.move"
_PTR = ext.LLVMPointerType()


def move_call(e: LLVMEmitter, module: ModuleOp, new: SSAValue, old: SSAValue, n: SSAValue) -> Operation:
    """`xenzyme.realloc.move(new, old, n)` at `e`'s point (the helper defined on first use)."""
    if not any(isinstance(op, xllvm.FuncOp) and op.sym_name.data == MOVE for op in module.ops):
        entry = Block(arg_types=[_PTR, _PTR, i64])
        b = LLVMEmitter(Builder(InsertPoint.at_end(entry)), module)
        b.insert(ext.MemcpyOp([entry.args[0], entry.args[1], entry.args[2]]))
        b.insert(xllvm.ReturnOp())
        module.body.block.add_op(xllvm.FuncOp(MOVE, ext.LLVMFunctionType([_PTR, _PTR, i64], ext.LLVMVoidType()),
                                              linkage=xllvm.LinkageAttr("internal"), body=Region([entry])))  # fmt: skip
    call = call_op(MOVE, [new, old, n], None)
    e.insert(call)
    return call


def _augment(ctx: AugmentContext, op: Operation) -> None:
    ctx.copy(op)
    new, old, n = op.operands[:3]
    if ctx.shadowed(new) and ctx.shadowed(old):
        ctx.e.insert(ext.MemcpyOp([ctx.fwd_shadow(new), ctx.fwd_shadow(old), ctx.fwd(n)]))


def _reverse(ctx: ReverseContext, op: Operation) -> None:
    new, old, n = op.operands[:3]
    if not ctx.shadowed(new):
        return
    e = ctx.e
    s_new, size = ctx.shadow(new), ctx.get(n)
    if ctx.shadowed(old):
        e.insert(ext.MemcpyOp([ctx.shadow(old), s_new, size]))
    zero = e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8))
    e.insert(ext.MemsetOp([s_new, zero, size]))


def _tangent(ctx: ForwardContext, op: Operation) -> None:
    new, old, n = op.operands[:3]
    if new not in ctx.info.shadowed or old not in ctx.info.shadowed:
        return
    for s_new, s_old in zip(ctx.tangent(new), ctx.tangent(old), strict=True):
        ctx.e.insert(ext.MemcpyOp([s_new, s_old, ctx.get(n)]))


_MOVE = OpRule(reverse=_reverse, augment=_augment, tangent=_tangent, emits_primal=True)


def rule_of(op: Operation) -> OpRule | None:
    """The rule of a call of `xenzyme.realloc.move`, or None."""
    return _MOVE if isinstance(op, xllvm.CallOp) and callee_name(op) == MOVE else None
