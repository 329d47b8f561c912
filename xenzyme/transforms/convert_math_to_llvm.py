"""`convert-math-to-llvm`: `math` ops -> LLVM's math intrinsics, or the C library's functions
where LLVM has no intrinsic (`log1p`, `expm1`, `erf`, `cbrt`, ...).

    %y = math.exp %x : f64        ->  %y = llvm.intr.exp(%x) : (f64) -> f64
    %y = math.log1p %x : f32      ->  %y = llvm.call @log1pf(%x) : (f32) -> f32

Both forms are what clang makes of C's math, so the derivative rules of xenzyme/rules/libm.py
apply to them unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import FloatAttr, ModuleOp, f32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from xenzyme.dialects import llvm_ext as ext
from xenzyme.transforms.llvm_lowering import as_llvm, declare, replace, unsupported, erase_dead_casts

_INTRINSICS = {
    "math.exp": "exp", "math.exp2": "exp2", "math.log": "log", "math.log2": "log2", "math.log10": "log10",
    "math.sin": "sin", "math.cos": "cos", "math.tan": "tan", "math.asin": "asin", "math.acos": "acos",
    "math.atan": "atan", "math.sinh": "sinh", "math.cosh": "cosh", "math.tanh": "tanh", "math.sqrt": "sqrt",
    "math.powf": "pow", "math.absf": "fabs", "math.floor": "floor", "math.ceil": "ceil", "math.trunc": "trunc",
    "math.round": "round", "math.roundeven": "roundeven", "math.fma": "fma", "math.copysign": "copysign",
    "math.atan2": "atan2", "math.fpowi": "powi",
}  # fmt: skip
_LIBM = {"math.log1p": "log1p", "math.expm1": "expm1", "math.erf": "erf", "math.cbrt": "cbrt",
         "math.asinh": "asinh", "math.acosh": "acosh", "math.atanh": "atanh"}  # fmt: skip


def _lower(op: Operation, module: ModuleOp) -> tuple[list[Operation], list[SSAValue]]:
    args = [as_llvm(v, op) for v in op.operands]
    t = op.results[0].type
    if op.name in _INTRINSICS:
        cls = ext.intrinsic_op_by_name()["llvm." + _INTRINSICS[op.name]]
        new = cls.create(operands=args, result_types=[t], properties={"fastmathFlags": xllvm.FastMathAttr(None)})
        return [new], [new.results[0]]
    if op.name in _LIBM:
        name = _LIBM[op.name] + ("f" if t == f32 else "")
        declare(module, name, xllvm.LLVMFunctionType([t], t))
        new = xllvm.CallOp(name, *args, return_type=t)
        return [new], [new.results[0]]
    if op.name == "math.rsqrt":
        sq = ext.intrinsic_op_by_name()["llvm.sqrt"].create(operands=args, result_types=[t],
                                                             properties={"fastmathFlags": xllvm.FastMathAttr(None)})  # fmt: skip
        one = xllvm.ConstantOp(FloatAttr(1.0, t), t)  # type: ignore[arg-type]
        div = xllvm.FDivOp(one.result, sq.results[0])
        return [sq, one, div], [div.res]
    raise unsupported(op, "has no lowering to the llvm dialect yet",
                      ["use the math ops on floats (exp, log, sin, cos, sqrt, powf, tanh, ...)"])  # fmt: skip


@dataclass(frozen=True)
class ConvertMathToLLVMPass(ModulePass):
    """math ops -> llvm intrinsics and libm calls."""

    name = "convert-math-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in list(op.walk()):
            if o.dialect_name() == "math":
                new_ops, results = _lower(o, op)
                replace(o, new_ops, results)
        erase_dead_casts(op)
