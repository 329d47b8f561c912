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

GROW = "xenzyme.cache.grow"
"""`xenzyme.cache.grow(old, used, bytes)` (lower-autodiff's growable caches): a buffer of
`bytes` holding `old`'s first `used` bytes, `old` given back.  Met when a gradient function is
itself differentiated (reverse over reverse): its caches hold values with derivatives."""


def _grown_shadow(e: LLVMEmitter, s_old: SSAValue | None, used: SSAValue, nbytes: SSAValue) -> SSAValue:
    """A zeroed buffer of `nbytes` holding the old shadow's first `used` bytes (the old shadow
    stays: the reverse sweep moves the derivatives back into it)."""
    e.declare("calloc", [i64, i64], _PTR)
    s_new = e.call_function("calloc", [e.i64(1), nbytes], _PTR)
    if s_old is not None:
        e.insert(ext.MemcpyOp([s_new, s_old, used]))
    return s_new


def _grow_augment(ctx: AugmentContext, op: Operation) -> None:
    ctx.copy(op)
    old, used, nbytes = op.operands[:3]
    r = op.results[0]
    if ctx.shadowed(r):
        s_old = ctx.fwd_shadow(old) if ctx.shadowed(old) else None
        ctx.set_shadow(r, _grown_shadow(ctx.e, s_old, ctx.fwd(used), ctx.fwd(nbytes)))


def _grow_reverse(ctx: ReverseContext, op: Operation) -> None:
    old, used, _ = op.operands[:3]
    r = op.results[0]
    if not ctx.shadowed(r):
        return
    e = ctx.e
    s_new = ctx.shadow(r)
    if ctx.shadowed(old):
        e.insert(ext.MemcpyOp([ctx.shadow(old), s_new, ctx.get(used)]))
    e.declare("free", [_PTR])
    e.call_function("free", [s_new])


def _grow_tangent(ctx: ForwardContext, op: Operation) -> None:
    old, used, nbytes = op.operands[:3]
    r = op.results[0]
    if r not in ctx.info.shadowed:
        return
    olds = ctx.tangent(old) if old in ctx.info.shadowed else [None] * ctx.width
    ctx.set_shadows(r, [_grown_shadow(ctx.e, s, ctx.get(used), ctx.get(nbytes)) for s in olds])  # type: ignore[attr-defined]


_GROW = OpRule(reverse=_grow_reverse, augment=_grow_augment, tangent=_grow_tangent, emits_primal=True)


def rule_of(op: Operation) -> OpRule | None:
    """The rule of a call of `xenzyme.realloc.move` or `xenzyme.cache.grow`, or None."""
    if not isinstance(op, xllvm.CallOp):
        return None
    name = callee_name(op)
    return _MOVE if name == MOVE else _GROW if name == GROW and len(op.args) == 3 else None
