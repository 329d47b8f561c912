"""Math in GPU code: libdevice's `__nv_*` functions and their counterparts elsewhere.

CUDA math (`sin`, `expf`, `pow`, ...) reaches the IR as calls to libdevice's `__nv_*`
functions, left as declarations (xenzyme/frontend/cuda/cuda_prelude.h).  They stay so through
differentiation; then

* for PTX, the backend links libdevice (xenzyme/backend/ptx.py).  Code that derivative rules
  emit uses LLVM's math intrinsics (`llvm.intr.cos`) and libm names (`cosh`), which NVPTX
  cannot select (an abort inside LLVM): `math_to_libdevice` turns those into `__nv_*` calls;
* for the CPU, `libdevice_to_libm` turns `__nv_sin` into libm's `sin`, `__nv_sinf` into `sinf`
  and so on, and defines the few libdevice functions libm lacks (`__nv_rsqrt`, `__nv_max`, ...)
  in the module.  A libdevice function with no CPU counterpart here is an error naming it.

The `__nv_*` counterparts of libm's functions have libm's derivative rules
(`xenzyme.rules.libm.math_base_name` knows their names).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import llvm_ext as ext

LIBDEVICE_PREFIX = "__nv_"

LIBM = frozenset("""
    sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh sincos
    exp exp2 exp10 expm1 log log2 log10 log1p logb ilogb pow sqrt cbrt hypot
    fabs floor ceil trunc round rint nearbyint lrint llrint lround llround fmod remainder remquo
    copysign fmin fmax fdim fma erf erfc tgamma lgamma ldexp scalbn scalbln frexp modf nextafter
    j0 j1 jn y0 y1 yn
""".split())  # fmt: skip
"""libm functions (double) that libdevice also has, as `__nv_<name>` and `__nv_<name>f`."""

NVPTX_UNSELECTABLE = frozenset("""
    sin cos tan asin acos atan atan2 sinh cosh tanh exp exp2 exp10 log log2 log10 pow
""".split())  # fmt: skip
"""LLVM math intrinsics that the NVPTX backend cannot select (or not for every type); for PTX
they become libdevice calls."""


def libm_name(nv: str) -> str | None:
    """`__nv_sinf` -> `sinf`, `__nv_fast_expf` -> `expf`; None when libm has no such function."""
    if not nv.startswith(LIBDEVICE_PREFIX):
        return None
    base = nv[len(LIBDEVICE_PREFIX) :].removeprefix("fast_")
    if base in LIBM or (base.endswith("f") and base[:-1] in LIBM):
        return base
    return None


def is_float32(t: Attribute) -> bool:
    return isinstance(t.element_type if isinstance(t, VectorType) else t, Float32Type)


def libdevice_name(base: str, t: Attribute) -> str:
    """`sin` on f64 -> `__nv_sin`, on f32 -> `__nv_sinf`."""
    return LIBDEVICE_PREFIX + base + ("f" if is_float32(t) else "")


# ---------------------------------------------------------------------------------------------
# Building calls
# ---------------------------------------------------------------------------------------------


def call_op(name: str, args: Sequence[SSAValue], result: Attribute | None) -> xllvm.CallOp:
    """A plain direct call `name(args)` returning `result` (None: void)."""
    return xllvm.CallOp.create(
        operands=list(args),
        result_types=[result] if result is not None else [],
        properties={
            "callee": SymbolRefAttr(name),
            "fastmathFlags": xllvm.FastMathAttr(None),
            "CConv": xllvm.CallingConventionAttr("ccc"),
            "TailCallKind": xllvm.TailCallKindAttr(xllvm.TailCallKind.NONE),
            "op_bundle_sizes": DenseArrayBase.from_list(i32, []),
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(args), 0]),
        },
    )


def declare(module: ModuleOp, name: str, ftype: ext.LLVMFunctionType) -> xllvm.FuncOp:
    """The function `name` of the module, declared with `ftype` if it is not there."""
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp) and op.sym_name.data == name:
            return op
    decl = xllvm.FuncOp(name, ftype, linkage=xllvm.LinkageAttr("external"))
    module.body.block.add_op(decl)
    return decl


def _scalar_calls(b: Builder, name: Callable[[Attribute], str], args: Sequence[SSAValue], t: Attribute) -> SSAValue:
    """`name(args)` on scalars, or lane by lane on vectors (libdevice has no vector functions)."""
    if not isinstance(t, VectorType):
        return b.insert(call_op(name(t), args, t)).results[0]
    et = t.element_type
    acc: SSAValue = b.insert(xllvm.UndefOp(t)).results[0]
    for lane in range(t.get_shape()[0]):
        idx = b.insert(xllvm.ConstantOp(IntegerAttr(lane, i64), i64)).results[0]
        lanes = [b.insert(ext.ExtractElementOp(a, idx)).results[0] for a in args]
        r = b.insert(call_op(name(et), lanes, et)).results[0]
        acc = b.insert(xllvm.InsertElementOp(acc, r, idx)).results[0]
    return acc


# ---------------------------------------------------------------------------------------------
# PTX: intrinsics and libm calls -> libdevice
# ---------------------------------------------------------------------------------------------


def math_to_libdevice(module: ModuleOp) -> None:
    """Math intrinsics NVPTX cannot select, and calls to libm functions, -> `__nv_*` calls."""
    for fn in [op for op in module.ops if isinstance(op, xllvm.FuncOp) and op.body.blocks]:
        for op in list(fn.walk()):
            base = _math_base(op)
            if base is None:
                continue
            t = op.results[0].type
            b = Builder(InsertPoint.before(op))
            args = list(op.operands)
            r = _scalar_calls(b, lambda et, base=base: libdevice_name(base, et), args, t)
            op.results[0].replace_all_uses_with(r)
            op.detach()
            op.erase()
        for op in fn.walk():
            if isinstance(op, xllvm.CallOp) and op.callee is not None:
                name = op.callee.string_value()
                if _libm_base(name) is not None:
                    op.properties["callee"] = SymbolRefAttr(LIBDEVICE_PREFIX + name)
    for op in list(module.ops):  # libm's declarations, now unused
        if isinstance(op, xllvm.FuncOp) and not op.body.blocks and _libm_base(op.sym_name.data) is not None:
            if not any(isinstance(u, xllvm.CallOp | xllvm.AddressOfOp) and _refers_to(u, op.sym_name.data)
                       for u in module.walk()):  # fmt: skip
                op.detach()
                op.erase()
    _declare_callees(module, LIBDEVICE_PREFIX)


def _refers_to(op: Operation, name: str) -> bool:
    return any(isinstance(a, SymbolRefAttr) and a.string_value() == name for a in op.properties.values())


def _math_base(op: Operation) -> str | None:
    """`sin` for an `llvm.intr.sin` op NVPTX cannot select."""
    if not op.name.startswith("llvm.intr.") or len(op.results) != 1:
        return None
    base = op.name.removeprefix("llvm.intr.")
    return base if base in NVPTX_UNSELECTABLE else None


def _libm_base(name: str) -> str | None:
    if name in LIBM:
        return name
    if name.endswith("f") and name[:-1] in LIBM:
        return name[:-1]
    return None


def _declare_callees(module: ModuleOp, prefix: str) -> None:
    """Declare the functions with `prefix` that calls name and the module lacks."""
    have = {op.sym_name.data for op in module.ops if isinstance(op, xllvm.FuncOp)}
    for op in module.walk():
        if isinstance(op, xllvm.CallOp) and op.callee is not None:
            name = op.callee.string_value()
            if name.startswith(prefix) and name not in have:
                rt = op.results[0].type if op.results else ext.LLVMVoidType()
                declare(module, name, ext.LLVMFunctionType([a.type for a in op.args], rt))
                have.add(name)


# ---------------------------------------------------------------------------------------------
# CPU: libdevice -> libm
# ---------------------------------------------------------------------------------------------


def _fconst(b: Builder, v: float, t: Attribute) -> SSAValue:
    return b.insert(xllvm.ConstantOp(FloatAttr(v, t), t)).results[0]


def _libm(b: Builder, name: str, *args: SSAValue) -> SSAValue:
    t = args[0].type
    return b.insert(call_op(name + ("f" if is_float32(t) else ""), list(args), t)).results[0]


def _rsqrt(b: Builder, x: SSAValue) -> SSAValue:
    return b.insert(xllvm.FDivOp(_fconst(b, 1.0, x.type), _libm(b, "sqrt", x))).results[0]


def _int_select(pred: str) -> Callable[[Builder, SSAValue, SSAValue], SSAValue]:
    def body(b: Builder, x: SSAValue, y: SSAValue) -> SSAValue:
        c = b.insert(ext.ICmpOp(x, y, pred)).results[0]
        return b.insert(ext.SelectOp(c, x, y)).results[0]

    return body


def _abs(b: Builder, x: SSAValue) -> SSAValue:
    zero = b.insert(xllvm.ConstantOp(IntegerAttr(0, x.type), x.type)).results[0]
    neg = b.insert(xllvm.SubOp(zero, x)).results[0]
    c = b.insert(ext.ICmpOp(x, zero, "slt")).results[0]
    return b.insert(ext.SelectOp(c, neg, x)).results[0]


def _fdivide(b: Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(xllvm.FDivOp(x, y)).results[0]


def _saturate(b: Builder, x: SSAValue) -> SSAValue:
    return _libm(b, "fmin", _libm(b, "fmax", x, _fconst(b, 0.0, x.type)), _fconst(b, 1.0, x.type))


CPU_BODIES: dict[str, Callable[..., SSAValue]] = {
    "rsqrt": _rsqrt, "rsqrtf": _rsqrt, "fdividef": _fdivide, "fast_fdividef": _fdivide, "saturatef": _saturate,
    "min": _int_select("slt"), "max": _int_select("sgt"), "umin": _int_select("ult"), "umax": _int_select("ugt"),
    "llmin": _int_select("slt"), "llmax": _int_select("sgt"), "ullmin": _int_select("ult"),
    "ullmax": _int_select("ugt"), "abs": _abs, "llabs": _abs,
}  # fmt: skip
"""libdevice functions without a libm counterpart: their bodies for the CPU, from the arguments."""


def libdevice_to_libm(module: ModuleOp) -> None:
    """On the CPU: calls of `__nv_X` call libm's `X`, or a body defined here (`CPU_BODIES`)."""
    decls = {
        op.sym_name.data: op
        for op in module.ops
        if isinstance(op, xllvm.FuncOp) and not op.body.blocks and op.sym_name.data.startswith(LIBDEVICE_PREFIX)
    }
    for name, decl in decls.items():
        if (target := libm_name(name)) is not None:
            _rename_calls(module, name, target)
            declare(module, target, decl.function_type)
            decl.detach()
            decl.erase()
            continue
        body = CPU_BODIES.get(name[len(LIBDEVICE_PREFIX) :])
        if body is None:
            raise XenzymeError(
                f"the libdevice function @{name} has no counterpart on the CPU",
                notes=["use a math function libm also has (sin, expf, pow, ...), or run the kernel on a GPU"],
            )
        _define(decl, body)
    _declare_callees(module, "")


def _rename_calls(module: ModuleOp, old: str, new: str) -> None:
    for op in module.walk():
        for key, attr in list(op.properties.items()):
            if isinstance(attr, SymbolRefAttr) and attr.string_value() == old:
                op.properties[key] = SymbolRefAttr(new)


def _define(decl: xllvm.FuncOp, body: Callable[..., SSAValue]) -> None:
    """Give the declaration `decl` a body computing `body(builder, *args)`, internal."""
    ftype = decl.function_type
    block = Block(arg_types=list(ftype.inputs.data))
    b = Builder(InsertPoint.at_end(block))
    r = body(b, *block.args)
    b.insert(xllvm.ReturnOp(r))
    decl.body.add_block(block)
    decl.properties["linkage"] = xllvm.LinkageAttr("internal")
    decl.properties["passthrough"] = xllvm.ArrayAttr([StringAttr("alwaysinline")])


# ---------------------------------------------------------------------------------------------
# Derivatives
# ---------------------------------------------------------------------------------------------


__all__ = [
    "CPU_BODIES", "LIBM", "NVPTX_UNSELECTABLE", "call_op", "declare", "libdevice_to_libm", "libm_name",
    "math_to_libdevice",
]  # fmt: skip
