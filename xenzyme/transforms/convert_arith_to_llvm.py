"""`convert-arith-to-llvm`: `arith` ops -> llvm ops, one for one; `index` is i64.

    %z = arith.mulf %x, %y : f64         ->  %z = llvm.fmul %x, %y : f64
    %c = arith.cmpi slt, %i, %n : index  ->  %c = llvm.icmp "slt" %i, %n : i64
    %j = arith.index_cast %k : i32 to index -> %j = llvm.sext %k : i32 to i64

`floordivsi` and `ceildivsi` (what the affine dialect's maps divide with) are a signed
division corrected by one where the remainder is not zero and the quotient was rounded the
other way.  Ops without an llvm counterpart here (the extended multiplications, ...) are an
error naming the op and its location.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from xenzyme.backend.memrefs import llvm_type
from xenzyme.dialects import llvm_ext as ext
from xenzyme.transforms.llvm_lowering import as_llvm, replace, unsupported, erase_dead_casts

_BINARY = {
    "arith.addf": xllvm.FAddOp, "arith.subf": xllvm.FSubOp, "arith.mulf": xllvm.FMulOp,
    "arith.divf": xllvm.FDivOp,
    "arith.addi": xllvm.AddOp, "arith.subi": xllvm.SubOp, "arith.muli": xllvm.MulOp,
    "arith.divsi": xllvm.SDivOp, "arith.divui": xllvm.UDivOp, "arith.remsi": xllvm.SRemOp,
    "arith.remui": xllvm.URemOp, "arith.andi": xllvm.AndOp, "arith.ori": xllvm.OrOp,
    "arith.xori": xllvm.XOrOp, "arith.shli": xllvm.ShlOp, "arith.shrsi": xllvm.AShrOp,
    "arith.shrui": xllvm.LShrOp,
}  # fmt: skip
_MIN_MAX = {"arith.maximumf": "maximum", "arith.minimumf": "minimum", "arith.maxnumf": "maxnum",
            "arith.minnumf": "minnum"}  # fmt: skip
_INT_MIN_MAX = {"arith.maxsi": "sgt", "arith.minsi": "slt", "arith.maxui": "ugt", "arith.minui": "ult"}
_CMPF = ["_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une",
         "uno", "_true"]  # fmt: skip
_CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def _width(t) -> int:
    return 64 if isinstance(t, IndexType) else t.width.data


def _rounded_division(a, b, floor: bool) -> tuple[list[Operation], list]:
    """a / b rounded down (floor) or up: the truncated quotient, minus (plus) one where the
    remainder is not zero and its sign differs from (equals) the divisor's."""
    t = a.type
    q, r, z = xllvm.SDivOp(a, b), xllvm.SRemOp(a, b), xllvm.ConstantOp(IntegerAttr(0, t), t)
    inexact = ext.ICmpOp(r.results[0], z.results[0], "ne")
    rneg, bneg = ext.ICmpOp(r.results[0], z.results[0], "slt"), ext.ICmpOp(b, z.results[0], "slt")
    away = ext.ICmpOp(rneg.results[0], bneg.results[0], "ne" if floor else "eq")
    fix = xllvm.AndOp(inexact.results[0], away.results[0])
    one = xllvm.ZExtOp(fix.results[0], t)
    out = (xllvm.SubOp if floor else xllvm.AddOp)(q.results[0], one.results[0])
    return [q, r, z, inexact, rneg, bneg, away, fix, one, out], [out.results[0]]


def _lower(op: Operation) -> tuple[list[Operation], list]:
    """The llvm ops for one arith op and the values standing for its results."""
    name = op.name
    ops = [as_llvm(v, op) for v in op.operands]
    if name in _BINARY:
        cls = _BINARY[name]
        new = cls(ops[0], ops[1])
        return [new], [new.results[0]]
    if isinstance(op, arith.FloorDivSIOp | arith.CeilDivSIOp):
        return _rounded_division(ops[0], ops[1], floor=isinstance(op, arith.FloorDivSIOp))
    if name == "arith.negf":
        new = xllvm.FNegOp(ops[0])
        return [new], [new.results[0]]
    if isinstance(op, arith.ConstantOp):
        t = llvm_type(op.result.type)
        v = op.value
        if isinstance(v, IntegerAttr):
            v = IntegerAttr(v.value.data, t)
        elif not isinstance(v, FloatAttr):
            raise unsupported(op, f"with a {type(v).__name__} value is not supported yet (only scalar constants)")
        new = xllvm.ConstantOp(v, t)
        return [new], [new.result]
    if isinstance(op, arith.CmpfOp):
        new = ext.FCmpOp(ops[0], ops[1], _CMPF[op.predicate.value.data])
        return [new], [new.results[0]]
    if isinstance(op, arith.CmpiOp):
        new = ext.ICmpOp(ops[0], ops[1], _CMPI[op.predicate.value.data])
        return [new], [new.results[0]]
    if isinstance(op, arith.SelectOp):
        new = ext.SelectOp(ops[0], ops[1], ops[2])
        return [new], [new.results[0]]
    if name in _INT_MIN_MAX:
        cmp = ext.ICmpOp(ops[0], ops[1], _INT_MIN_MAX[name])
        sel = ext.SelectOp(cmp, ops[0], ops[1])
        return [cmp, sel], [sel.results[0]]
    if name in _MIN_MAX:
        cls = ext.intrinsic_op_by_name()[f"llvm.{_MIN_MAX[name]}"]
        new = cls.create(operands=ops, result_types=[ops[0].type], properties={"fastmathFlags": xllvm.FastMathAttr(None)})
        return [new], [new.results[0]]
    rt = llvm_type(op.results[0].type) if op.results else None
    if isinstance(op, arith.SIToFPOp):
        new = xllvm.SIToFPOp(ops[0], rt)
    elif isinstance(op, arith.UIToFPOp):
        new = ext.UIToFPOp(ops[0], rt)
    elif isinstance(op, arith.FPToSIOp):
        new = ext.FPToSIOp(ops[0], rt)
    elif isinstance(op, arith.FPToUIOp):
        new = ext.FPToUIOp(ops[0], rt)
    elif isinstance(op, arith.ExtFOp):
        new = xllvm.FPExtOp(ops[0], rt)
    elif isinstance(op, arith.TruncFOp):
        new = xllvm.FPTruncOp(ops[0], rt)
    elif isinstance(op, arith.ExtSIOp):
        new = xllvm.SExtOp(ops[0], rt)
    elif isinstance(op, arith.ExtUIOp):
        new = xllvm.ZExtOp(ops[0], rt)
    elif isinstance(op, arith.TruncIOp):
        new = xllvm.TruncOp(ops[0], rt)
    elif isinstance(op, arith.IndexCastOp):
        src, dst = _width(op.operands[0].type), _width(op.results[0].type)
        if src == dst:
            return [], [ops[0]]
        new = xllvm.TruncOp(ops[0], rt) if src > dst else xllvm.SExtOp(ops[0], rt)
    else:
        raise unsupported(op, "has no lowering to the llvm dialect yet",
                          ["rewrite it with the arith ops that have one (add/sub/mul/div, cmp, select, casts)"])  # fmt: skip
    return [new], [new.results[0]]


@dataclass(frozen=True)
class ConvertArithToLLVMPass(ModulePass):
    """arith ops -> llvm ops."""

    name = "convert-arith-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in list(op.walk()):
            if o.dialect_name() == "arith":
                new_ops, results = _lower(o)
                replace(o, new_ops, results)
        erase_dead_casts(op)

