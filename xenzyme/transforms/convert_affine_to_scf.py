"""`convert-affine-to-scf`: affine.for/load/store/apply/yield/min -> scf, memref and arith.

    affine.for %i = max(lbs) to min(ubs) step c   scf.for over the bounds the maps give
    affine.load %m[%i + 1, %j]                    memref.load at the indices the map gives
    affine.store, affine.apply, affine.min        the same, with arith for the expressions

The affine dialect's loops are then differentiated as scf.for loops.  xDSL's own
`lower-affine` takes only constant loop bounds and maps without symbols (the form xDSL's
parser gives `affine.load %m[%i]`), so this pass evaluates each map on all its operands
itself: a map's operands are its dimensions, then its symbols.  `mod` is the non-negative
remainder and `floordiv`/`ceildiv` round as the affine dialect says, for any sign.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xenzyme.transforms.llvm_lowering import unsupported


class _Builder:
    """Inserts arith ops before one op."""

    def __init__(self, before: Operation):
        self.point = InsertPoint.before(before)

    def emit(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, self.point)
        return op.results[0]

    def const(self, n: int) -> SSAValue:
        return self.emit(arith.ConstantOp(IntegerAttr(n, IndexType())))

    def expr(self, e: AffineExpr, dims: Sequence[SSAValue], syms: Sequence[SSAValue]) -> SSAValue:
        if isinstance(e, AffineConstantExpr):
            return self.const(e.value)
        if isinstance(e, AffineDimExpr):
            return dims[e.position]
        if isinstance(e, AffineSymExpr):
            return syms[e.position]
        assert isinstance(e, AffineBinaryOpExpr)
        a, b = self.expr(e.lhs, dims, syms), self.expr(e.rhs, dims, syms)
        if e.kind == AffineBinaryOpKind.Add:
            return self.emit(arith.AddiOp(a, b))
        if e.kind == AffineBinaryOpKind.Mul:
            return self.emit(arith.MuliOp(a, b))
        if e.kind == AffineBinaryOpKind.FloorDiv:
            return self.emit(arith.FloorDivSIOp(a, b))
        if e.kind == AffineBinaryOpKind.CeilDiv:
            return self.emit(arith.CeilDivSIOp(a, b))
        # mod: a - floordiv(a, b) * b, in [0, b) for b > 0 whatever the sign of a
        q = self.emit(arith.FloorDivSIOp(a, b))
        return self.emit(arith.SubiOp(a, self.emit(arith.MuliOp(q, b))))

    def apply(self, m: AffineMap, operands: Sequence[SSAValue]) -> list[SSAValue]:
        dims, syms = operands[: m.num_dims], operands[m.num_dims :]
        return [self.expr(r, dims, syms) for r in m.results]

    def fold(self, values: list[SSAValue], cls: type[Operation]) -> SSAValue:
        out = values[0]
        for v in values[1:]:
            out = self.emit(cls(out, v))  # type: ignore[call-arg]
        return out


SUPPORTED = (affine.ForOp, affine.YieldOp, affine.LoadOp, affine.StoreOp, affine.ApplyOp, affine.MinOp)


def _lower(op: Operation) -> None:
    b = _Builder(op)
    if isinstance(op, affine.ForOp):
        lb = b.fold(b.apply(op.lowerBoundMap.data, op.lowerBoundOperands), arith.MaxSIOp)
        ub = b.fold(b.apply(op.upperBoundMap.data, op.upperBoundOperands), arith.MinSIOp)
        step = b.const(op.step.value.data)
        body = op.body.detach_block(0)
        new = scf.ForOp(lb, ub, step, list(op.inits), body)
        Rewriter.insert_op(new, InsertPoint.before(op))
        for r, n in zip(op.results, new.results, strict=True):
            r.replace_all_uses_with(n)
        Rewriter.erase_op(op)
        return
    if isinstance(op, affine.YieldOp):
        Rewriter.replace_op(op, scf.YieldOp(*op.operands))
        return
    if isinstance(op, affine.LoadOp):
        idx = b.apply(op.map.data, op.indices) if op.map is not None else list(op.indices)
        Rewriter.replace_op(op, memref.LoadOp.get(op.memref, idx))
        return
    if isinstance(op, affine.StoreOp):
        idx = b.apply(op.map.data, op.indices) if op.map is not None else list(op.indices)
        Rewriter.replace_op(op, memref.StoreOp.get(op.value, op.memref, idx))
        return
    if isinstance(op, affine.ApplyOp):
        (v,) = b.apply(op.map.data, op.mapOperands)
        op.results[0].replace_all_uses_with(v)
        Rewriter.erase_op(op)
        return
    if isinstance(op, affine.MinOp):
        v = b.fold(b.apply(op.map.data, op.operands), arith.MinSIOp)
        op.results[0].replace_all_uses_with(v)
        Rewriter.erase_op(op)


def has_affine(module: ModuleOp) -> bool:
    return any(o.dialect_name() == "affine" for o in module.walk())


@dataclass(frozen=True)
class ConvertAffineToScfPass(ModulePass):
    """The affine dialect -> scf, memref and arith."""

    name = "convert-affine-to-scf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = [o for o in op.walk() if o.dialect_name() == "affine"]
        for o in ops:
            if not isinstance(o, SUPPORTED):
                raise unsupported(o, "is not supported yet", ["use affine.for, affine.load, affine.store, affine.apply "
                                                              "and affine.min, or scf and memref"])  # fmt: skip
        for o in ops:
            _lower(o)
