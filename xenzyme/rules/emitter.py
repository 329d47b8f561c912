"""The emitter: how rules build the arithmetic of derivatives.

Rules describe derivatives with the operations of `Emitter` (add, mul, select, math functions,
constants), not with the ops of one dialect, so that a rule table serves any level whose emitter
implements them.  `LLVMEmitter` builds `llvm` dialect ops; math functions become LLVM intrinsics
where LLVM has one (they then work on vectors too) and libm calls otherwise.

The llvm-level helpers below it (constants of any type, declarations, calls) are for the rules
and passes that work on the llvm dialect itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float80Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    VectorType,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from xenzyme.dialects import llvm_ext as ext

_NO_FMF = xllvm.FastMathAttr(None)


class Emitter(Protocol):
    """What rules may build at their insertion point.  Constants follow the type of `like`;
    every operation works on scalars and on vectors of the same element type."""

    def insert(self, op: Operation) -> SSAValue: ...

    def const(self, value: float, like: SSAValue | Attribute) -> SSAValue: ...

    def zero(self, t: Attribute, negative: bool = False) -> SSAValue: ...

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue: ...

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue: ...

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue: ...

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue: ...

    def neg(self, a: SSAValue) -> SSAValue: ...

    def scale(self, a: SSAValue, k: float) -> SSAValue: ...

    def square(self, a: SSAValue) -> SSAValue: ...

    def fcmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue: ...

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue: ...

    def where(self, c: SSAValue, d: SSAValue) -> SSAValue: ...

    def cast_float(self, v: SSAValue, t: Attribute) -> SSAValue: ...

    def int_to_float(self, v: SSAValue, like: Attribute) -> SSAValue: ...

    def call(self, name: str, *args: SSAValue) -> SSAValue:
        """The math function `name` (libm's base name: `sin`, `pow`, ...) of the arguments."""
        ...

    def powi(self, x: SSAValue, n: SSAValue) -> SSAValue: ...


def element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t


class LLVMEmitter:
    """`Emitter` for the llvm dialect, and the llvm-level helpers rules and passes share."""

    def __init__(self, builder: Builder, module: ModuleOp):
        self.b = builder
        self.module = module

    def insert(self, op: Operation) -> SSAValue:
        """Insert `op`; its result (ops without results return None)."""
        self.b.insert(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    # ---- constants ----------------------------------------------------------------------

    def const(self, value: float, like: SSAValue | Attribute) -> SSAValue:
        t = like.type if isinstance(like, SSAValue) else like
        return self.insert(scalar_constant(value, t))

    def zero(self, t: Attribute, negative: bool = False) -> SSAValue:
        """`zero_constant(t, negative)` inserted here."""
        return self.insert(zero_constant(t, negative))

    def i64(self, v: int) -> SSAValue:
        return self.insert(xllvm.ConstantOp(IntegerAttr(v, i64), i64))

    def i32(self, v: int) -> SSAValue:
        return self.insert(xllvm.ConstantOp(IntegerAttr(v, i32), i32))

    # ---- arithmetic ---------------------------------------------------------------------

    def _bin(self, cls: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
        return self.insert(cls.create(operands=[a, b], result_types=[a.type], properties={"fastmathFlags": _NO_FMF}))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._bin(xllvm.FAddOp, a, b)

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._bin(xllvm.FSubOp, a, b)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._bin(xllvm.FMulOp, a, b)

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._bin(xllvm.FDivOp, a, b)

    def neg(self, a: SSAValue) -> SSAValue:
        return self.insert(xllvm.FNegOp.create(operands=[a], result_types=[a.type], properties={"fastmathFlags": _NO_FMF}))

    def scale(self, a: SSAValue, k: float) -> SSAValue:
        return self.mul(a, self.const(k, a))

    def square(self, a: SSAValue) -> SSAValue:
        return self.mul(a, a)

    def fcmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.insert(ext.FCmpOp(a, b, pred))

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.insert(ext.SelectOp(c, a, b))

    def where(self, c: SSAValue, d: SSAValue) -> SSAValue:
        """`d` where `c` holds, zero elsewhere."""
        return self.select(c, d, self.zero(d.type))

    def cast_float(self, v: SSAValue, t: Attribute) -> SSAValue:
        """fpext/fptrunc `v` to float type `t` (identity if equal)."""
        if v.type == t:
            return v
        src, dst = element_type(v.type), element_type(t)
        assert isinstance(src, AnyFloat) and isinstance(dst, AnyFloat)
        cls = xllvm.FPExtOp if dst.bitwidth > src.bitwidth else xllvm.FPTruncOp
        return self.insert(cls.create(operands=[v], result_types=[t]))

    def int_to_float(self, v: SSAValue, like: Attribute) -> SSAValue:
        """sitofp of integer `v` to the float type `like` (a scalar `v` is splatted when `like`
        is a vector, as for powi's exponent)."""
        t = like
        if isinstance(v.type, VectorType) and not isinstance(t, VectorType):
            t = VectorType(t, v.type.get_shape())
        if isinstance(t, VectorType) and not isinstance(v.type, VectorType):
            return self.splat(self.int_to_float(v, t.element_type), t)
        return self.insert(xllvm.SIToFPOp.create(operands=[v], result_types=[t]))

    def splat(self, scalar: SSAValue, t: VectorType) -> SSAValue:
        """A vector of type `t` with `scalar` in every lane."""
        zero = self.i32(0)
        first = self.insert(xllvm.InsertElementOp.create(operands=[self.insert(ext.PoisonOp(t)), scalar, zero], result_types=[t]))
        n = t.get_shape()[0]
        return self.insert(xllvm.ShuffleVectorOp.create(
            operands=[first, first], properties={"mask": DenseArrayBase.from_list(i32, [0] * n)}, result_types=[t]
        ))  # fmt: skip

    def lanes(self, v: SSAValue) -> list[SSAValue]:
        """The elements of vector `v`, one scalar per lane."""
        assert isinstance(v.type, VectorType)
        return [self.insert(ext.ExtractElementOp(v, self.i32(i))) for i in range(v.type.get_shape()[0])]

    # ---- integers and memory ------------------------------------------------------------

    def to_i64(self, v: SSAValue) -> SSAValue:
        """An unsigned integer widened to i64 (sizes, counts)."""
        return v if v.type == i64 else self.insert(xllvm.ZExtOp(v, i64))  # type: ignore[arg-type]

    def sizeof(self, t: Attribute) -> SSAValue:
        """sizeof(t) in bytes, as `ptrtoint (getelementptr t, ptr null, 1)`."""
        null = self.insert(xllvm.ZeroOp.create(result_types=[ext.LLVMPointerType()]))
        return self.insert(xllvm.PtrToIntOp(self.insert(ext.GEPOp(null, [1], t)), i64))

    def memset_zero(self, ptr: SSAValue, nbytes: SSAValue) -> None:
        zero8 = self.insert(xllvm.ConstantOp(IntegerAttr(0, IntegerType(8)), IntegerType(8)))
        self.insert(ext.MemsetOp([ptr, zero8, nbytes]))

    def call_function(self, callee: str, args: Sequence[SSAValue], rtype: Attribute | None = None) -> SSAValue:
        """A direct call of `callee` (declared elsewhere); its result, or None."""
        return self.insert(call_op(callee, args, rtype))

    def declare(self, name: str, inputs: Sequence[Attribute], output: Attribute | None = None) -> None:
        """Declare the external function `name` in the module, unless it is there already."""
        ensure_declaration(self.module, name, ext.LLVMFunctionType(list(inputs), output or ext.LLVMVoidType()))

    # ---- math functions -----------------------------------------------------------------

    def call(self, name: str, *args: SSAValue) -> SSAValue:
        """A math function of float scalars or vectors, as an intrinsic when LLVM has one; in
        NVPTX code libdevice's function (`__nv_cos`) unless NVPTX selects the intrinsic."""
        if name not in NVPTX_INTRINSIC_MATH and _is_nvptx(self.module):
            return self._per_lane(name, args, LIBDEVICE_PREFIX) if isinstance(args[0].type, VectorType) else \
                self.libm(name, *args, prefix=LIBDEVICE_PREFIX)
        op_cls = ext.intrinsic_op_by_name().get(f"llvm.{name}")
        if op_cls is not None and name in INTRINSIC_MATH:
            return self.insert(
                op_cls.create(operands=list(args), result_types=[args[0].type], properties={"fastmathFlags": _NO_FMF})
            )
        return self.libm(name, *args)

    def powi(self, x: SSAValue, n: SSAValue) -> SSAValue:
        if _is_nvptx(self.module) and not isinstance(x.type, VectorType) and n.type == i32:
            return self.libm("powi", x, n, prefix=LIBDEVICE_PREFIX)
        op_cls = ext.intrinsic_op_by_name()["llvm.powi"]
        return self.insert(op_cls.create(operands=[x, n], result_types=[x.type], properties={"fastmathFlags": _NO_FMF}))

    def libm(self, name: str, *args: SSAValue, prefix: str = "") -> SSAValue:
        t = args[0].type
        if isinstance(t, VectorType):
            return self._per_lane(name, args, prefix)
        fname = prefix + libm_name(name, t)
        ensure_declaration(self.module, fname, ext.LLVMFunctionType([a.type for a in args], t))
        call = call_op(fname, args, t)
        call.attributes["fn_attrs"] = PURE_CALL_ATTRS
        return self.insert(call)

    def _per_lane(self, name: str, args: Sequence[SSAValue], prefix: str = "") -> SSAValue:
        t = args[0].type
        assert isinstance(t, VectorType)
        acc = self.insert(ext.PoisonOp(t))
        for lane in range(t.get_shape()[0]):
            idx = self.i32(lane)
            lane_args = [self.insert(ext.ExtractElementOp(a, idx)) for a in args]
            r = self.libm(name, *lane_args, prefix=prefix)
            acc = self.insert(xllvm.InsertElementOp.create(operands=[acc, r, idx], result_types=[t]))
        return acc


def scalar_constant(value: float, t: Attribute) -> Operation:
    """A constant op of float/int type `t`, splatted when `t` is a vector."""
    et = element_type(t)
    if isinstance(et, IntegerType):
        attr: Attribute = IntegerAttr(int(value), et)
        if isinstance(t, VectorType):
            attr = DenseIntOrFPElementsAttr.from_list(t, [int(value)])
    else:
        attr = FloatAttr(float(value), et)  # type: ignore[arg-type]
        if isinstance(t, VectorType):
            attr = DenseIntOrFPElementsAttr.from_list(t, [float(value)])
    return xllvm.ConstantOp.create(properties={"value": attr}, result_types=[t])


def zero_constant(t: Attribute, negative: bool = False) -> Operation:
    """The zero of any type: a constant for scalars and vectors, `llvm.mlir.zero` otherwise.

    `negative` asks for -0.0 in floating-point scalars and vectors: the identity of `fadd`
    (x + -0.0 is x for every x, while -0.0 + +0.0 is +0.0), so LLVM removes the addition of a
    derivative to an adjoint that starts at -0.0 without fast-math flags.  Aggregates stay +0.0.
    """
    et = element_type(t)
    if isinstance(et, AnyFloat):
        return scalar_constant(-0.0 if negative else 0.0, t)
    if isinstance(et, IntegerType):
        return scalar_constant(0, t)
    return xllvm.ZeroOp.create(result_types=[t])


def call_op(callee: str, args: Sequence[SSAValue], rtype: Attribute | None) -> xllvm.CallOp:
    """A direct call of `callee` with plain attributes (no fast-math flags, C convention)."""
    return xllvm.CallOp.create(
        operands=list(args),
        result_types=[rtype] if rtype is not None else [],
        properties={
            "callee": SymbolRefAttr(callee),
            "fastmathFlags": _NO_FMF,
            "CConv": xllvm.CallingConventionAttr("ccc"),
            "TailCallKind": xllvm.TailCallKindAttr(xllvm.TailCallKind.NONE),
            "op_bundle_sizes": DenseArrayBase.from_list(i32, []),
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(args), 0]),
        },
    )


INTRINSIC_MATH = {
    "sqrt", "sin", "cos", "tan", "exp", "exp2", "exp10", "log", "log2", "log10", "pow", "fabs",
    "copysign", "floor", "ceil", "trunc", "round", "fma", "fmuladd", "minnum", "maxnum",
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
}  # fmt: skip
"""Math functions that LLVM has as overloaded intrinsics (so they work on vectors too)."""

NVPTX_INTRINSIC_MATH = {"sqrt", "fabs", "copysign", "floor", "ceil", "trunc", "round", "fma", "fmuladd", "minnum",
                        "maxnum"}  # fmt: skip
"""Math intrinsics that LLVM's NVPTX backend selects; for the others (`llvm.sin`, `llvm.exp`,
`llvm.pow`, ...) it stops the process, so that derivatives of GPU code call libdevice's
functions instead (`__nv_cos`, `__nv_logf`), which the backend links (CPU code gets libm's)."""

LIBDEVICE_PREFIX = "__nv_"


def _is_nvptx(module: ModuleOp) -> bool:
    triple = module.attributes.get("llvm.target_triple")
    return isinstance(triple, StringAttr) and triple.data.startswith("nvptx")


PURE_CALL_ATTRS = xllvm.ArrayAttr([StringAttr("nounwind"), StringAttr("willreturn"), StringAttr("memory(none)")])
"""Call-site attributes for math library calls in generated code: their only side effect is
errno, which differentiated programs do not inspect, and this lets LLVM remove unused ones."""


def libm_name(name: str, t: Attribute) -> str:
    """`exp` on f32 is `expf`, on x86_fp80 `expl`."""
    if isinstance(t, Float32Type):
        return name + "f"
    if isinstance(t, Float80Type):
        return name + "l"
    return name


def message_global(module: ModuleOp, text: str) -> tuple[str, int]:
    """A private constant string holding `text` (a message generated code prints), made once;
    its name and size."""
    data = text.encode("ascii", errors="replace")[:400].decode()
    taken = set()
    for op in module.ops:
        if isinstance(op, xllvm.GlobalOp | xllvm.FuncOp):
            name = op.sym_name.data
            if (isinstance(op, xllvm.GlobalOp) and name.startswith("xenzyme.message") and isinstance(op.value, StringAttr)
                    and op.value.data == data):  # fmt: skip
                return name, len(data)
            taken.add(name)
    name, n = "xenzyme.message", 1
    while name in taken:
        n += 1
        name = f"xenzyme.message.{n}"
    module.body.block.add_op(
        xllvm.GlobalOp(ext.LLVMArrayType(len(data), i8), name, "private", constant=True, value=StringAttr(data)))
    return name, len(data)


def ensure_declaration(module: ModuleOp, name: str, ftype: ext.LLVMFunctionType) -> None:
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp) and op.sym_name.data == name:
            return
    decl = xllvm.FuncOp(name, ftype, linkage=xllvm.LinkageAttr("external"))
    module.body.block.add_op(decl)


def alignment_of(op: Operation) -> int | None:
    """The `alignment` of a load, store or alloca, if it has one."""
    a = op.properties.get("alignment")
    return a.value.data if isinstance(a, IntegerAttr) else None
