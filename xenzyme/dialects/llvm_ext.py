"""The `llvm` dialect as xenzyme uses it: xDSL's llvm dialect plus what real LLVM IR needs.

xDSL 0.74 models a subset of LLVM IR. This module adds the missing instructions (switch, invoke,
landingpad, resume, the remaining casts, extractelement, freeze, poison, va_arg, atomicrmw,
cmpxchg, fence, aliases, metadata operands, debug records), the missing intrinsics as ops, the
types LLVM has and xDSL lacks (packed and opaque structs, metadata, token), and an attribute for
metadata attachments (TBAA, loop metadata, ...).

Four xDSL ops have type constraints that reject valid LLVM IR -- `icmp` on pointers, `fcmp` on
vectors, `select` with a vector condition, `getelementptr` with vector indices -- and three lose
information when printed (`fcmp` fast-math, `getelementptr` nusw/nuw, `store` its atomic
ordering).  They are redefined here under the same names with the same properties, and
registered in place of xDSL's; passes match them as `llvm_ext.ICmpOp`, `llvm_ext.StoreOp`, ...

Everything is registered as one dialect, `LLVM`, under the name `llvm`.

Conventions shared by the importer, the exporter and the passes:

* LLVM metadata attachments other than `!dbg` live in the discardable attribute `md`
  (`#llvm.md<tbaa = 5, llvm.loop = 9>`); the numbered nodes themselves are kept verbatim in the
  module attribute `llvm.metadata`.  `!dbg` locations are the op's xDSL location,
  `loc("!15"("file.c":3:5))`: the name is the node, the file/line/column are for diagnostics.
  A phi's `!dbg` is the location of the block argument it became.  (Phi fast-math flags have no
  place on a block argument and are not kept; dropping them only forgoes optimisations.)
* Call-site and parameter attributes are dictionaries in the discardable attributes `arg_attrs`
  and `res_attrs` (one dictionary per argument, keys `llvm.<kind>`), call-site function
  attributes in `fn_attrs` (the same shape as `llvm.func`'s `passthrough`).
* Flags xDSL's ops have no property for are discardable unit attributes: `volatile_` on
  `llvm.load`, `fastmathFlags` on casts, `nneg` on `llvm.uitofp`.
"""

from __future__ import annotations

import functools
import re

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    I1,
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoMemoryEffect, Pure, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

FastMathAttr = xllvm.FastMathAttr
LLVMPointerType = xllvm.LLVMPointerType
LLVMStructType = xllvm.LLVMStructType
LLVMArrayType = xllvm.LLVMArrayType
LLVMFunctionType = xllvm.LLVMFunctionType
LLVMVoidType = xllvm.LLVMVoidType

ATOMIC_ORDERINGS = ("unordered", "monotonic", "acquire", "release", "acq_rel", "seq_cst")
"""LLVM's atomic orderings, as written in IR (`not_atomic` is the absence of an ordering)."""

ORDERING_TO_INT = {v: k for k, v in xllvm.ATOMIC_ORDERING_KEYWORDS.items()}
"""xDSL's integer encoding of orderings on `llvm.load` / `llvm.store`."""

ATOMICRMW_OPS = (
    "xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin",
    "fadd", "fsub", "fmax", "fmin", "fmaximum", "fminimum", "uinc_wrap", "udec_wrap",
    "usub_cond", "usub_sat",
)  # fmt: skip

GEP_NUSW = 2
GEP_NUW = 4
"""Bits of `noWrapFlags` on `llvm.getelementptr` (`inbounds` is its own unit property)."""

GPU_CALLING_CONVS = ("ptx_kernel", "ptx_device", "amdgpu_kernel")
"""Calling conventions of GPU code that xDSL's list lacks.  LLVM 22 marks an NVPTX kernel with
`ptx_kernel` (it turns clang-19's `!nvvm.annotations` into it when it reads the IR), so the
convention is what tells a kernel from a device function; xDSL's `CallingConventionAttr`
verifier and parser consult `LLVM_CALLING_CONVS`, which therefore gets them."""
xllvm.LLVM_CALLING_CONVS.update(GPU_CALLING_CONVS)


# ---------------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------------


def _print_struct_body(printer: Printer, name: StringAttr, types: ArrayAttr) -> None:
    with printer.in_angle_brackets():
        if name.data:
            printer.print_string_literal(name.data)
            printer.print_string(", ")
        with printer.in_parens():
            printer.print_list(types.data, printer.print_attribute)


def _parse_struct_body(parser: AttrParser) -> tuple[StringAttr, ArrayAttr]:
    parser.parse_punctuation("<")
    name = parser.parse_optional_str_literal() or ""
    if name:
        parser.parse_punctuation(",")
    types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    parser.parse_punctuation(">")
    return StringAttr(name), ArrayAttr(types)


@irdl_attr_definition
class LLVMPackedStructType(ParametrizedAttribute, TypeAttribute):
    """A packed struct, `<{ i8, i32 }>` in LLVM IR: fields without padding.

    `!llvm.packed_struct<(i8, i32)>`, or with a name `!llvm.packed_struct<"S", (i8, i32)>`.
    """

    name = "llvm.packed_struct"

    struct_name: StringAttr
    types: ArrayAttr[Attribute]

    def print_parameters(self, printer: Printer) -> None:
        _print_struct_body(printer, self.struct_name, self.types)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, ArrayAttr]:
        return _parse_struct_body(parser)


@irdl_attr_definition
class LLVMOpaqueStructType(ParametrizedAttribute, TypeAttribute):
    """A named struct without a body (`%T = type opaque`): `!llvm.opaque_struct<"T">`."""

    name = "llvm.opaque_struct"

    struct_name: StringAttr

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.struct_name.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            return (StringAttr(parser.parse_str_literal()),)


@irdl_attr_definition
class LLVMMetadataType(ParametrizedAttribute, TypeAttribute):
    """The type of a metadata operand (`metadata !"enzyme_dup"` in a call)."""

    name = "llvm.metadata"


@irdl_attr_definition
class LLVMTokenType(ParametrizedAttribute, TypeAttribute):
    """LLVM's `token` type."""

    name = "llvm.token"


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------


@irdl_attr_definition
class MetadataAttachmentsAttr(ParametrizedAttribute):
    """Metadata attached to an instruction, function or global, by kind and node number.

    `#llvm.md<tbaa = 5, llvm.loop = 9>`: the nodes are the module's numbered metadata
    (`!5`, `!9`), kept verbatim in the module attribute `llvm.metadata`.
    """

    name = "llvm.md"

    kinds: ArrayAttr[StringAttr]
    nodes: ArrayAttr[IntAttr]

    @staticmethod
    def from_pairs(pairs: Sequence[tuple[str, int]]) -> MetadataAttachmentsAttr:
        return MetadataAttachmentsAttr(
            ArrayAttr([StringAttr(k) for k, _ in pairs]), ArrayAttr([IntAttr(n) for _, n in pairs])
        )

    def pairs(self) -> list[tuple[str, int]]:
        return [(k.data, n.data) for k, n in zip(self.kinds.data, self.nodes.data, strict=True)]

    def get(self, kind: str) -> int | None:
        for k, n in zip(self.kinds.data, self.nodes.data, strict=True):
            if k.data == kind:
                return n.data
        return None

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_list(self.pairs(), lambda p: printer.print_string(f"{p[0]} = {p[1]}"))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[ArrayAttr, ArrayAttr]:
        def pair() -> tuple[str, int]:
            kind = parser.parse_identifier()
            parser.parse_punctuation("=")
            return kind, parser.parse_integer(allow_boolean=False, allow_negative=False)

        pairs = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, pair)
        attr = cls.from_pairs(pairs)
        return attr.kinds, attr.nodes

    def verify(self) -> None:
        if len(self.kinds.data) != len(self.nodes.data):
            raise VerifyException("#llvm.md needs one node per kind")


# ---------------------------------------------------------------------------------------------
# Shared printing/parsing helpers
# ---------------------------------------------------------------------------------------------


def _print_attrs(printer: Printer, op: Operation, reserved: Sequence[str] = ()) -> None:
    printer.print_op_attributes(op.attributes, reserved_attr_names=reserved)


def _fastmath_prop(attrs: dict[str, Attribute]) -> FastMathAttr:
    fmf = attrs.pop("fastmathFlags", None)
    return fmf if isinstance(fmf, FastMathAttr) else FastMathAttr(None)


def _print_fastmath(printer: Printer, op: Operation) -> None:
    """Print properties that are only present when set, then the discardable attributes."""
    attrs: dict[str, Attribute] = {}
    fmf = op.properties.get("fastmathFlags")
    if isinstance(fmf, FastMathAttr) and fmf.data:
        attrs["fastmathFlags"] = fmf
    attrs |= op.attributes
    printer.print_op_attributes(attrs)


def _print_successor_with_args(
    printer: Printer, block: Block, args: Sequence[SSAValue]
) -> None:
    printer.print_block_name(block)
    if args:
        printer.print_string("(")
        printer.print_list(args, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list([a.type for a in args], printer.print_attribute)
        printer.print_string(")")


def _parse_successor_with_args(parser: Parser) -> tuple[Block, list[SSAValue]]:
    block = parser.parse_successor()
    if parser.parse_optional_punctuation("(") is None:
        return block, []
    names = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return block, parser.resolve_operands(names, types, parser.pos)


def _parse_keyword_of(parser: Parser, options: Sequence[str], what: str) -> str:
    kw = parser.parse_optional_keyword_in(options)
    if kw is None:
        parser.raise_error(f"expected {what} (one of {', '.join(options)})")
    return kw


# ---------------------------------------------------------------------------------------------
# Replacements for xDSL ops whose constraints reject valid LLVM IR
# ---------------------------------------------------------------------------------------------

def _i1_like(t: Attribute) -> Attribute:
    return VectorType(i1, t.get_shape()) if isinstance(t, VectorType) else i1



@functools.lru_cache(maxsize=1024)
def int_attr(value: int, type: IntegerType) -> IntegerAttr:
    """`IntegerAttr(value, type)`, made once per value: attributes are immutable, and building
    one (xDSL normalises and verifies it) costs more than the op that carries it; the engine
    builds an ordering and an alignment for each of the hundreds of thousands of loads and
    stores of a large gradient."""
    return IntegerAttr(value, type)

@irdl_op_definition
class ICmpOp(IRDLOperation):
    """Integer or pointer comparison, scalar or vector.

    `%c = llvm.icmp "slt" %a, %b : i32`; `samesign` is a unit property.
    """

    name = "llvm.icmp"

    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(I1 | VectorType[I1])
    predicate = prop_def(IntegerAttr[IntegerType])
    samesign = opt_prop_def(UnitAttr)

    traits = traits_def(NoMemoryEffect())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        predicate: str | IntegerAttr,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(predicate, str):
            predicate = int_attr(xllvm.ICmpPredicateFlag(predicate).to_int(), i64)
        lhs = SSAValue.get(lhs)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[_i1_like(lhs.type)],
            properties={"predicate": predicate},
            attributes=attributes or {},
        )

    @property
    def predicate_name(self) -> str:
        return str(xllvm.ICmpPredicateFlag.from_int(self.predicate.value.data))

    def print(self, printer: Printer) -> None:
        printer.print_string(f' "{self.predicate_name}" ')
        if self.samesign is not None:
            printer.print_string("samesign ")
        printer.print_ssa_value(self.lhs)
        printer.print_string(", ")
        printer.print_ssa_value(self.rhs)
        _print_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    @classmethod
    def parse(cls, parser: Parser) -> ICmpOp:
        pred = parser.parse_str_literal()
        if pred not in {str(f) for f in xllvm.ICmpPredicateFlag}:
            parser.raise_error(f"unknown icmp predicate '{pred}'")
        samesign = parser.parse_optional_keyword("samesign") is not None
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        a, b = parser.resolve_operands([lhs, rhs], [t, t], parser.pos)
        op = cls(a, b, pred, attrs)
        if samesign:
            op.properties["samesign"] = UnitAttr()
        return op

    def verify_(self) -> None:
        if self.res.type != _i1_like(self.lhs.type):
            raise VerifyException("icmp result must be i1, or a vector of i1 for vector operands")


@irdl_op_definition
class FCmpOp(IRDLOperation):
    """Floating-point comparison, scalar or vector, with fast-math flags.

    `%c = llvm.fcmp "olt" %a, %b {fastmathFlags = #llvm.fastmath<nnan>} : f64`
    """

    name = "llvm.fcmp"

    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(I1 | VectorType[I1])
    predicate = prop_def(IntegerAttr[IntegerType])
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        predicate: str | IntegerAttr,
        fast_math: FastMathAttr | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(predicate, str):
            predicate = int_attr(xllvm.FCmpPredicateFlag(predicate).to_int(), i64)
        lhs = SSAValue.get(lhs)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[_i1_like(lhs.type)],
            properties={"predicate": predicate, "fastmathFlags": fast_math or FastMathAttr(None)},
            attributes=attributes or {},
        )

    @property
    def predicate_name(self) -> str:
        """The predicate as LLVM spells it (`false`/`true` rather than xDSL's `_false`)."""
        return str(xllvm.FCmpPredicateFlag.from_int(self.predicate.value.data)).lstrip("_")

    def print(self, printer: Printer) -> None:
        flag = xllvm.FCmpPredicateFlag.from_int(self.predicate.value.data)
        printer.print_string(f' "{flag}" ')
        printer.print_ssa_value(self.lhs)
        printer.print_string(", ")
        printer.print_ssa_value(self.rhs)
        _print_fastmath(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    @classmethod
    def parse(cls, parser: Parser) -> FCmpOp:
        pred = parser.parse_str_literal()
        if pred not in {str(f) for f in xllvm.FCmpPredicateFlag}:
            parser.raise_error(f"unknown fcmp predicate '{pred}'")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        a, b = parser.resolve_operands([lhs, rhs], [t, t], parser.pos)
        return cls(a, b, pred, _fastmath_prop(attrs), attrs)

    def verify_(self) -> None:
        if self.res.type != _i1_like(self.lhs.type):
            raise VerifyException("fcmp result must be i1, or a vector of i1 for vector operands")


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`select`, with a scalar or a per-lane vector condition.

    `%r = llvm.select %c, %a, %b : i1, f64`
    """

    name = "llvm.select"

    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(I1 | VectorType[I1])
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        cond: SSAValue | Operation,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        fast_math: FastMathAttr | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[cond, lhs, rhs],
            result_types=[SSAValue.get(lhs).type],
            properties={"fastmathFlags": fast_math or FastMathAttr(None)},
            attributes=attributes or {},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.cond, self.lhs, self.rhs], printer.print_ssa_value)
        _print_fastmath(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)
        printer.print_string(", ")
        printer.print_attribute(self.res.type)

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        names = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        if len(names) != 3:
            parser.raise_error("llvm.select takes three operands")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ct = parser.parse_type()
        parser.parse_punctuation(",")
        t = parser.parse_type()
        c, a, b = parser.resolve_operands(names, [ct, t, t], parser.pos)
        return cls(c, a, b, _fastmath_prop(attrs), attrs)

    def verify_(self) -> None:
        if isinstance(self.cond.type, VectorType) and (
            not isinstance(self.res.type, VectorType)
            or self.res.type.get_shape() != self.cond.type.get_shape()
        ):
            raise VerifyException("a vector select condition needs values of the same length")


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`store`, with its atomic ordering in the custom syntax (xDSL's leaves it out).

    `llvm.store volatile %v, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr`
    """

    name = "llvm.store"

    value = operand_def()
    ptr = operand_def(LLVMPointerType)
    alignment = opt_prop_def(IntegerAttr[IntegerType])
    ordering = opt_prop_def(IntegerAttr[IntegerType])
    volatile_ = opt_prop_def(UnitAttr)
    nontemporal = opt_prop_def(UnitAttr)

    def __init__(
        self,
        value: SSAValue | Operation,
        ptr: SSAValue | Operation,
        alignment: int | None = None,
        ordering: int = 0,
        volatile: bool = False,
        nontemporal: bool = False,
    ):
        super().__init__(
            operands=[value, ptr],
            properties={
                "ordering": int_attr(ordering, i64),
                "alignment": int_attr(alignment, i64) if alignment is not None else None,
                "volatile_": UnitAttr() if volatile else None,
                "nontemporal": UnitAttr() if nontemporal else None,
            },
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.volatile_ is not None:
            printer.print_string("volatile ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.ptr)
        ordering = self.ordering.value.data if self.ordering is not None else 0
        if ordering:
            printer.print_string(f" atomic {xllvm.ATOMIC_ORDERING_KEYWORDS[ordering]}")
        attrs = dict(self.attributes)
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        if self.nontemporal is not None:
            attrs["nontemporal"] = self.nontemporal
        printer.print_op_attributes(attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.ptr.type)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ptr = parser.parse_unresolved_operand()
        ordering = 0
        if parser.parse_optional_keyword("atomic") is not None:
            ordering = ORDERING_TO_INT[_parse_keyword_of(parser, ATOMIC_ORDERINGS, "an atomic ordering")]
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        ptr_type = parser.parse_type()
        alignment = attrs.pop("alignment", None)
        op = cls(
            parser.resolve_operand(value, value_type),
            parser.resolve_operand(ptr, ptr_type),
            alignment=alignment.value.data if isinstance(alignment, IntegerAttr) else None,
            ordering=ordering,
            volatile=volatile,
            nontemporal=attrs.pop("nontemporal", None) is not None,
        )
        op.attributes |= attrs
        return op


GEP_USE_SSA_VAL = xllvm.GEP_USE_SSA_VAL


@irdl_op_definition
class GEPOp(IRDLOperation):
    """`getelementptr`, including vector GEPs and the nusw/nuw flags.

    `%p = llvm.getelementptr inbounds %base[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f64)>`

    Constant indices are in `rawConstantIndices`; `GEP_USE_SSA_VAL` marks the positions taken by
    the SSA operands `ssa_indices`, in order.
    """

    name = "llvm.getelementptr"

    ptr = operand_def(AnyAttr())
    ssa_indices = var_operand_def(AnyAttr())
    elem_type = prop_def()
    rawConstantIndices = prop_def(DenseArrayBase.constr(i32))
    noWrapFlags = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(0, 32))
    inbounds = opt_prop_def(UnitAttr)
    result = result_def(AnyAttr())

    traits = traits_def(NoMemoryEffect())

    def __init__(
        self,
        ptr: SSAValue | Operation,
        indices: Sequence[int],
        pointee_type: Attribute,
        ssa_indices: Sequence[SSAValue | Operation] = (),
        result_type: Attribute = LLVMPointerType(),
        inbounds: bool = False,
        no_wrap_flags: int = 0,
        attributes: dict[str, Attribute] | None = None,
    ):
        props: dict[str, Attribute] = {
            "rawConstantIndices": DenseArrayBase.from_list(i32, indices),
            "elem_type": pointee_type,
            "noWrapFlags": int_attr(no_wrap_flags, i32),
        }
        if inbounds:
            props["inbounds"] = UnitAttr()
        super().__init__(
            operands=[ptr, ssa_indices],
            result_types=[result_type],
            properties=props,
            attributes=attributes or {},
        )

    @staticmethod
    def from_mixed_indices(
        ptr: SSAValue | Operation,
        indices: Sequence[int | SSAValue | Operation],
        pointee_type: Attribute,
        result_type: Attribute = LLVMPointerType(),
        inbounds: bool = False,
    ) -> GEPOp:
        consts = [i if isinstance(i, int) else GEP_USE_SSA_VAL for i in indices]
        ssa = [i for i in indices if not isinstance(i, int)]
        return GEPOp(ptr, consts, pointee_type, ssa, result_type, inbounds)

    def mixed_indices(self) -> list[int | SSAValue]:
        """Constant and SSA indices in source order."""
        ssa = iter(self.ssa_indices)
        return [
            next(ssa) if c == GEP_USE_SSA_VAL else c for c in self.rawConstantIndices.iter_values()
        ]

    def flag_keywords(self) -> list[str]:
        flags = self.noWrapFlags.value.data
        words = ["inbounds"] if self.inbounds is not None else []
        if flags & GEP_NUSW and self.inbounds is None:
            words.append("nusw")
        if flags & GEP_NUW:
            words.append("nuw")
        return words

    def print(self, printer: Printer) -> None:
        for w in self.flag_keywords():
            printer.print_string(f" {w}")
        printer.print_string(" ")
        printer.print_ssa_value(self.ptr)
        printer.print_string("[")
        printer.print_list(
            self.mixed_indices(),
            lambda i: printer.print_int(i) if isinstance(i, int) else printer.print_ssa_value(i),
        )
        printer.print_string("]")
        _print_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_function_type(
            [self.ptr.type, *(v.type for v in self.ssa_indices)], [self.result.type]
        )
        printer.print_string(", ")
        printer.print_attribute(self.elem_type)

    @classmethod
    def parse(cls, parser: Parser) -> GEPOp:
        inbounds = False
        flags = 0
        while (kw := parser.parse_optional_keyword_in(("inbounds", "nusw", "nuw"))) is not None:
            if kw == "inbounds":
                inbounds, flags = True, flags | GEP_NUSW
            else:
                flags |= GEP_NUSW if kw == "nusw" else GEP_NUW
        ptr = parser.parse_unresolved_operand()

        def index() -> int | UnresolvedOperand:
            if (v := parser.parse_optional_integer()) is not None:
                return v
            return parser.parse_unresolved_operand()

        indices = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, index)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        parser.parse_punctuation(",")
        elem_type = parser.parse_type()
        names = [ptr, *(i for i in indices if not isinstance(i, int))]
        values = parser.resolve_operands(names, ft.inputs.data, parser.pos)
        consts = [i if isinstance(i, int) else GEP_USE_SSA_VAL for i in indices]
        return cls(
            values[0], consts, elem_type, values[1:], ft.outputs.data[0], inbounds, flags, attrs
        )

    def verify_(self) -> None:
        consts = tuple(self.rawConstantIndices.iter_values())
        if sum(c == GEP_USE_SSA_VAL for c in consts) != len(self.ssa_indices):
            raise VerifyException("getelementptr: one GEP_USE_SSA_VAL marker per SSA index")
        current: Attribute = self.elem_type
        for pos, idx in enumerate(consts[1:], start=1):
            if isinstance(current, LLVMArrayType):
                current = current.type
            elif isinstance(current, VectorType):
                current = current.element_type
            elif isinstance(current, LLVMStructType | LLVMPackedStructType):
                if idx == GEP_USE_SSA_VAL or not 0 <= idx < len(current.types.data):
                    got = "a value" if idx == GEP_USE_SSA_VAL else str(idx)
                    raise VerifyException(
                        f"getelementptr index #{pos}: struct fields are selected by constants "
                        f"in range (got {got})"
                    )
                current = current.types.data[idx]
            else:
                raise VerifyException(f"getelementptr index #{pos}: cannot index into {current}")


# ---------------------------------------------------------------------------------------------
# Control flow
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """Multi-way branch on an integer.

    `llvm.switch %x : i32, ^default(%a : f64) [1: ^bb1, 7: ^bb2(%b : f64)]`
    """

    name = "llvm.switch"

    value = operand_def(IntegerType)
    default_operands = var_operand_def()
    case_operands = var_operand_def()
    case_values = prop_def(ArrayAttr[IntegerAttr])
    case_operand_segments = prop_def(DenseArrayBase.constr(i32))
    default_dest = successor_def()
    case_dests = var_successor_def()

    traits = traits_def(IsTerminator())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        value: SSAValue | Operation,
        default_dest: Block,
        default_operands: Sequence[SSAValue],
        cases: Sequence[tuple[int, Block, Sequence[SSAValue]]],
        attributes: dict[str, Attribute] | None = None,
    ):
        vtype = SSAValue.get(value).type
        super().__init__(
            operands=[value, default_operands, [v for _, _, args in cases for v in args]],
            successors=[default_dest, [b for _, b, _ in cases]],
            properties={
                "case_values": ArrayAttr([IntegerAttr(c, vtype) for c, _, _ in cases]),
                "case_operand_segments": DenseArrayBase.from_list(
                    i32, [len(args) for _, _, args in cases]
                ),
            },
            attributes=attributes or {},
        )

    def cases(self) -> list[tuple[int, Block, Sequence[SSAValue]]]:
        """(value, destination, operands) per case, in order."""
        out: list[tuple[int, Block, Sequence[SSAValue]]] = []
        pos = 0
        operands = self.case_operands
        for val, dest, n in zip(
            self.case_values.data,
            self.case_dests,
            self.case_operand_segments.iter_values(),
            strict=True,
        ):
            out.append((val.value.data, dest, operands[pos : pos + n]))
            pos += n
        return out

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        _print_successor_with_args(printer, self.default_dest, self.default_operands)
        printer.print_string(" [")
        printer.print_list(
            self.cases(),
            lambda c: (
                printer.print_string(f"{c[0]}: "),
                _print_successor_with_args(printer, c[1], c[2]),
            ),
        )
        printer.print_string("]")
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        name = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        value = parser.resolve_operand(name, t)
        parser.parse_punctuation(",")
        default, default_args = _parse_successor_with_args(parser)

        def case() -> tuple[int, Block, Sequence[SSAValue]]:
            v = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(":")
            block, args = _parse_successor_with_args(parser)
            return v, block, args

        cases = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, case)
        attrs = parser.parse_optional_attr_dict()
        return cls(value, default, default_args, cases, attrs)

    def verify_(self) -> None:
        n = len(self.case_dests)
        if len(self.case_values.data) != n or len(self.case_operand_segments) != n:
            raise VerifyException("llvm.switch needs one value and one operand group per case")
        if sum(self.case_operand_segments.iter_values()) != len(self.case_operands):
            raise VerifyException("llvm.switch case operand groups do not add up")
        if len({v.value.data for v in self.case_values.data}) != n:
            raise VerifyException("llvm.switch case values must be unique")


@irdl_op_definition
class InvokeOp(IRDLOperation):
    """A call that may unwind: continues at `normal_dest` or, on an exception, `unwind_dest`.

    `%r = llvm.invoke @f(%x) to ^bb1 unwind ^bb2 : (f64) -> f64`; an indirect invoke has the
    callee pointer as its first argument and no `callee`.
    """

    name = "llvm.invoke"

    callee = opt_prop_def(SymbolRefAttr)
    var_callee_type = opt_prop_def(LLVMFunctionType)
    CConv = prop_def(xllvm.CallingConventionAttr, default_value=xllvm.CallingConventionAttr("ccc"))
    args = var_operand_def()
    normal_operands = var_operand_def()
    unwind_operands = var_operand_def()
    result = opt_result_def()
    normal_dest = successor_def()
    unwind_dest = successor_def()

    traits = traits_def(IsTerminator())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        callee: str | SymbolRefAttr | None,
        args: Sequence[SSAValue],
        result_type: Attribute | None,
        normal_dest: Block,
        unwind_dest: Block,
        normal_operands: Sequence[SSAValue] = (),
        unwind_operands: Sequence[SSAValue] = (),
        var_callee_type: LLVMFunctionType | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(
            operands=[args, normal_operands, unwind_operands],
            result_types=[[result_type] if result_type is not None else []],
            successors=[normal_dest, unwind_dest],
            properties={"callee": callee, "var_callee_type": var_callee_type},
            attributes=attributes or {},
        )

    def call_args(self) -> Sequence[SSAValue]:
        return self.args if self.callee is not None else self.args[1:]

    def print(self, printer: Printer) -> None:
        if self.CConv.convention.data != "ccc":
            printer.print_string(f" {self.CConv.convention.data}")
        printer.print_string(" ")
        if self.callee is not None:
            printer.print_attribute(self.callee)
        else:
            printer.print_ssa_value(self.args[0])
        printer.print_string("(")
        printer.print_list(self.call_args(), printer.print_ssa_value)
        printer.print_string(")")
        if self.var_callee_type is not None:
            printer.print_string(" vararg(")
            printer.print_attribute(self.var_callee_type)
            printer.print_string(")")
        printer.print_string(" to ")
        _print_successor_with_args(printer, self.normal_dest, self.normal_operands)
        printer.print_string(" unwind ")
        _print_successor_with_args(printer, self.unwind_dest, self.unwind_operands)
        _print_attrs(printer, self)
        printer.print_string(" : ")
        if self.callee is None:
            printer.print_attribute(self.args[0].type)
            printer.print_string(", ")
        printer.print_function_type(
            [a.type for a in self.call_args()], [r.type for r in self.results]
        )

    @classmethod
    def parse(cls, parser: Parser) -> InvokeOp:
        cconv = parser.parse_optional_keyword_in(xllvm.LLVM_CALLING_CONVS - {"ccc"})
        sym = parser.parse_optional_symbol_name()
        callee_ptr = None if sym is not None else parser.parse_unresolved_operand()
        names = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        var_type = None
        if parser.parse_optional_keyword("vararg") is not None:
            parser.parse_punctuation("(")
            var_type = parser.parse_type()
            parser.parse_punctuation(")")
        parser.parse_keyword("to")
        normal, normal_args = _parse_successor_with_args(parser)
        parser.parse_keyword("unwind")
        unwind, unwind_args = _parse_successor_with_args(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        args: list[SSAValue] = []
        if callee_ptr is not None:
            args.append(parser.resolve_operand(callee_ptr, parser.parse_type()))
            parser.parse_punctuation(",")
        ft = parser.parse_function_type()
        args += parser.resolve_operands(names, ft.inputs.data, parser.pos)
        op = cls(
            SymbolRefAttr(sym) if sym is not None else None,
            args,
            ft.outputs.data[0] if ft.outputs.data else None,
            normal,
            unwind,
            normal_args,
            unwind_args,
            var_type,  # type: ignore[arg-type]
            attrs,
        )
        if cconv is not None:
            op.properties["CConv"] = xllvm.CallingConventionAttr(cconv)
        return op


@irdl_op_definition
class LandingPadOp(IRDLOperation):
    """The first op of an unwind destination: `%lp = llvm.landingpad cleanup (catch %ti : !llvm.ptr) : !llvm.struct<(ptr, i32)>`."""

    name = "llvm.landingpad"

    cleanup = opt_prop_def(UnitAttr)
    clause_kinds = prop_def(ArrayAttr[StringAttr], default_value=ArrayAttr([]))
    clauses = var_operand_def()
    res = result_def()

    def __init__(
        self,
        result_type: Attribute,
        clauses: Sequence[tuple[str, SSAValue]] = (),
        cleanup: bool = False,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[[v for _, v in clauses]],
            result_types=[result_type],
            properties={
                "cleanup": UnitAttr() if cleanup else None,
                "clause_kinds": ArrayAttr([StringAttr(k) for k, _ in clauses]),
            },
            attributes=attributes or {},
        )

    def print(self, printer: Printer) -> None:
        if self.cleanup is not None:
            printer.print_string(" cleanup")
        for kind, v in zip(self.clause_kinds.data, self.clauses, strict=True):
            printer.print_string(f" ({kind.data} ")
            printer.print_ssa_value(v)
            printer.print_string(" : ")
            printer.print_attribute(v.type)
            printer.print_string(")")
        _print_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)

    @classmethod
    def parse(cls, parser: Parser) -> LandingPadOp:
        cleanup = parser.parse_optional_keyword("cleanup") is not None
        clauses: list[tuple[str, SSAValue]] = []
        while parser.parse_optional_punctuation("(") is not None:
            kind = _parse_keyword_of(parser, ("catch", "filter"), "a landingpad clause")
            name = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            clauses.append((kind, parser.resolve_operand(name, parser.parse_type())))
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls(parser.parse_type(), clauses, cleanup, attrs)

    def verify_(self) -> None:
        if len(self.clause_kinds.data) != len(self.clauses):
            raise VerifyException("llvm.landingpad needs one kind per clause")
        if self.cleanup is None and not self.clauses:
            raise VerifyException("llvm.landingpad without clauses must be a cleanup")


@irdl_op_definition
class ResumeOp(IRDLOperation):
    """Continue unwinding: `llvm.resume %lp : !llvm.struct<(ptr, i32)>`."""

    name = "llvm.resume"

    value = operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value])


# ---------------------------------------------------------------------------------------------
# Casts and simple value ops
# ---------------------------------------------------------------------------------------------


class _CastOp(IRDLOperation):
    arg = operand_def(AnyAttr())
    result = result_def(AnyAttr())

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$arg attr-dict `:` type($arg) `to` type($result)"

    def __init__(self, val: SSAValue | Operation, res_type: Attribute):
        super().__init__(operands=[val], result_types=[res_type])


@irdl_op_definition
class FPToSIOp(_CastOp):
    """`%i = llvm.fptosi %x : f64 to i32`"""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(_CastOp):
    """`%i = llvm.fptoui %x : f64 to i32`"""

    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(_CastOp):
    """`%x = llvm.uitofp %i : i32 to f64`; `{nneg}` when the operand is known non-negative."""

    name = "llvm.uitofp"


@irdl_op_definition
class AddrSpaceCastOp(_CastOp):
    """`%q = llvm.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr`"""

    name = "llvm.addrspacecast"


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`%e = llvm.extractelement %v[%i : i64] : vector<4xf64>`"""

    name = "llvm.extractelement"

    vector = operand_def(VectorType)
    position = operand_def(IntegerType)
    res = result_def()

    traits = traits_def(NoMemoryEffect())

    def __init__(self, vector: SSAValue | Operation, position: SSAValue | Operation):
        vt = SSAValue.get(vector).type
        assert isinstance(vt, VectorType)
        super().__init__(operands=[vector, position], result_types=[vt.element_type])

    @classmethod
    def parse(cls, parser: Parser) -> ExtractElementOp:
        vec = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        pos = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        pos_type = parser.parse_type()
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        vt = parser.parse_type()
        op = cls(parser.resolve_operand(vec, vt), parser.resolve_operand(pos, pos_type))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.vector)
        printer.print_string("[")
        printer.print_ssa_value(self.position)
        printer.print_string(" : ")
        printer.print_attribute(self.position.type)
        printer.print_string("]")
        _print_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.vector.type)

    def verify_(self) -> None:
        assert isinstance(self.vector.type, VectorType)
        if self.res.type != self.vector.type.element_type:
            raise VerifyException("llvm.extractelement result must be the vector's element type")


@irdl_op_definition
class FreezeOp(IRDLOperation):
    """`%y = llvm.freeze %x : i32`: stops undef/poison from propagating."""

    name = "llvm.freeze"

    T: ClassVar = VarConstraint("T", AnyAttr())
    val = operand_def(T)
    res = result_def(T)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$val attr-dict `:` type($val)"

    def __init__(self, val: SSAValue | Operation):
        super().__init__(operands=[val], result_types=[SSAValue.get(val).type])


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """`%p = llvm.mlir.poison : f64`"""

    name = "llvm.mlir.poison"

    res = result_def()
    traits = traits_def(NoMemoryEffect())
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class MetadataOp(IRDLOperation):
    """A metadata operand, in LLVM syntax: `%m = llvm.mlir.metadata "!\\"enzyme_dup\\""`.

    Calls such as `__enzyme_autodiff(f, metadata !"enzyme_dup", x, dx)` pass these.
    """

    name = "llvm.mlir.metadata"

    text = prop_def(StringAttr)
    res = result_def(LLVMMetadataType)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$text attr-dict"

    def __init__(self, text: str):
        super().__init__(properties={"text": StringAttr(text)}, result_types=[LLVMMetadataType()])

    def string_value(self) -> str | None:
        """The string of a `!"..."` operand, None for other metadata."""
        t = self.text.data
        if t.startswith('!"') and t.endswith('"'):
            return t[2:-1]
        return None


@irdl_op_definition
class VAArgOp(IRDLOperation):
    """`%v = llvm.va_arg %ap : (!llvm.ptr) -> i32`"""

    name = "llvm.va_arg"

    arg = operand_def(LLVMPointerType)
    res = result_def()
    assembly_format = "$arg attr-dict `:` functional-type($arg, $res)"

    def __init__(self, arg: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[arg], result_types=[result_type])


# ---------------------------------------------------------------------------------------------
# Atomics
# ---------------------------------------------------------------------------------------------


def _print_sync(printer: Printer, op: Operation) -> None:
    scope = op.properties.get("syncscope")
    if isinstance(scope, StringAttr):
        printer.print_string(" syncscope(")
        printer.print_string_literal(scope.data)
        printer.print_string(")")


def _parse_sync(parser: Parser) -> StringAttr | None:
    if parser.parse_optional_keyword("syncscope") is None:
        return None
    parser.parse_punctuation("(")
    s = parser.parse_str_literal()
    parser.parse_punctuation(")")
    return StringAttr(s)


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """`%old = llvm.atomicrmw fadd %p, %v seq_cst {alignment = 8 : i64} : !llvm.ptr, f64`"""

    name = "llvm.atomicrmw"

    ptr = operand_def(LLVMPointerType)
    val = operand_def()
    res = result_def()
    bin_op = prop_def(StringAttr)
    ordering = prop_def(StringAttr)
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr)
    volatile_ = opt_prop_def(UnitAttr)

    def __init__(
        self,
        bin_op: str,
        ptr: SSAValue | Operation,
        val: SSAValue | Operation,
        ordering: str = "seq_cst",
        alignment: int | None = None,
        syncscope: str | None = None,
        volatile: bool = False,
    ):
        super().__init__(
            operands=[ptr, val],
            result_types=[SSAValue.get(val).type],
            properties={
                "bin_op": StringAttr(bin_op),
                "ordering": StringAttr(ordering),
                "syncscope": StringAttr(syncscope) if syncscope is not None else None,
                "alignment": int_attr(alignment, i64) if alignment is not None else None,
                "volatile_": UnitAttr() if volatile else None,
            },
        )

    def print(self, printer: Printer) -> None:
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        printer.print_string(f" {self.bin_op.data} ")
        printer.print_ssa_value(self.ptr)
        printer.print_string(", ")
        printer.print_ssa_value(self.val)
        _print_sync(printer, self)
        printer.print_string(f" {self.ordering.data}")
        attrs = dict(self.attributes)
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        printer.print_op_attributes(attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.val.type)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        bin_op = _parse_keyword_of(parser, ATOMICRMW_OPS, "an atomicrmw operation")
        p = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        v = parser.parse_unresolved_operand()
        scope = _parse_sync(parser)
        ordering = _parse_keyword_of(parser, ATOMIC_ORDERINGS, "an atomic ordering")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pt = parser.parse_type()
        parser.parse_punctuation(",")
        vt = parser.parse_type()
        align = attrs.pop("alignment", None)
        op = cls(
            bin_op,
            parser.resolve_operand(p, pt),
            parser.resolve_operand(v, vt),
            ordering,
            align.value.data if isinstance(align, IntegerAttr) else None,
            scope.data if scope is not None else None,
            volatile,
        )
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        if self.bin_op.data not in ATOMICRMW_OPS:
            raise VerifyException(f"unknown atomicrmw operation '{self.bin_op.data}'")
        if self.ordering.data not in ATOMIC_ORDERINGS or self.ordering.data == "unordered":
            raise VerifyException(f"invalid atomicrmw ordering '{self.ordering.data}'")


@irdl_op_definition
class CmpXchgOp(IRDLOperation):
    """`%r = llvm.cmpxchg %p, %cmp, %new acq_rel monotonic : !llvm.ptr, i32` -> `{i32, i1}`"""

    name = "llvm.cmpxchg"

    ptr = operand_def(LLVMPointerType)
    cmp = operand_def()
    new = operand_def()
    res = result_def(LLVMStructType)
    success_ordering = prop_def(StringAttr)
    failure_ordering = prop_def(StringAttr)
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr)
    weak = opt_prop_def(UnitAttr)
    volatile_ = opt_prop_def(UnitAttr)

    def __init__(
        self,
        ptr: SSAValue | Operation,
        cmp: SSAValue | Operation,
        new: SSAValue | Operation,
        success_ordering: str = "seq_cst",
        failure_ordering: str = "seq_cst",
        alignment: int | None = None,
        syncscope: str | None = None,
        weak: bool = False,
        volatile: bool = False,
    ):
        vt = SSAValue.get(cmp).type
        super().__init__(
            operands=[ptr, cmp, new],
            result_types=[LLVMStructType.from_type_list([vt, i1])],
            properties={
                "success_ordering": StringAttr(success_ordering),
                "failure_ordering": StringAttr(failure_ordering),
                "syncscope": StringAttr(syncscope) if syncscope is not None else None,
                "alignment": int_attr(alignment, i64) if alignment is not None else None,
                "weak": UnitAttr() if weak else None,
                "volatile_": UnitAttr() if volatile else None,
            },
        )

    def print(self, printer: Printer) -> None:
        if self.weak is not None:
            printer.print_string(" weak")
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        printer.print_string(" ")
        printer.print_list([self.ptr, self.cmp, self.new], printer.print_ssa_value)
        _print_sync(printer, self)
        printer.print_string(f" {self.success_ordering.data} {self.failure_ordering.data}")
        attrs = dict(self.attributes)
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        printer.print_op_attributes(attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.cmp.type)

    @classmethod
    def parse(cls, parser: Parser) -> CmpXchgOp:
        weak = parser.parse_optional_keyword("weak") is not None
        volatile = parser.parse_optional_keyword("volatile") is not None
        names = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        if len(names) != 3:
            parser.raise_error("llvm.cmpxchg takes a pointer, a comparand and a new value")
        scope = _parse_sync(parser)
        succ = _parse_keyword_of(parser, ATOMIC_ORDERINGS, "an atomic ordering")
        fail = _parse_keyword_of(parser, ATOMIC_ORDERINGS, "an atomic ordering")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pt = parser.parse_type()
        parser.parse_punctuation(",")
        vt = parser.parse_type()
        p, c, n = parser.resolve_operands(names, [pt, vt, vt], parser.pos)
        align = attrs.pop("alignment", None)
        op = cls(
            p, c, n, succ, fail,
            align.value.data if isinstance(align, IntegerAttr) else None,
            scope.data if scope is not None else None,
            weak, volatile,
        )  # fmt: skip
        op.attributes |= attrs
        return op


@irdl_op_definition
class FenceOp(IRDLOperation):
    """`llvm.fence seq_cst`, or `llvm.fence syncscope("singlethread") acquire`"""

    name = "llvm.fence"

    ordering = prop_def(StringAttr)
    syncscope = opt_prop_def(StringAttr)

    def __init__(self, ordering: str, syncscope: str | None = None):
        super().__init__(
            properties={
                "ordering": StringAttr(ordering),
                "syncscope": StringAttr(syncscope) if syncscope is not None else None,
            }
        )

    def print(self, printer: Printer) -> None:
        _print_sync(printer, self)
        printer.print_string(f" {self.ordering.data}")
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> FenceOp:
        scope = _parse_sync(parser)
        ordering = _parse_keyword_of(parser, ATOMIC_ORDERINGS, "an atomic ordering")
        op = cls(ordering, scope.data if scope is not None else None)
        op.attributes |= parser.parse_optional_attr_dict()
        return op


# ---------------------------------------------------------------------------------------------
# Module level
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class AliasOp(IRDLOperation):
    """A global alias; its region computes the aliasee, as a global's initializer does.

    `llvm.mlir.alias external @f1 : !llvm.ptr { %0 = llvm.mlir.addressof @f2 : !llvm.ptr; llvm.return %0 : !llvm.ptr }`
    """

    name = "llvm.mlir.alias"

    sym_name = prop_def(StringAttr)
    alias_type = prop_def()
    linkage = prop_def(xllvm.LinkageAttr)
    body = region_def("single_block")

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        sym_name: str,
        alias_type: Attribute,
        linkage: str,
        body: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "alias_type": alias_type,
                "linkage": xllvm.LinkageAttr(linkage),
            },
            regions=[body],
            attributes=attributes or {},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.linkage.linkage.data} ")
        printer.print_symbol_name(self.sym_name.data)
        _print_attrs(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.alias_type)
        printer.print_string(" ")
        printer.print_region(self.body)

    @classmethod
    def parse(cls, parser: Parser) -> AliasOp:
        linkage = parser.parse_identifier()
        name = parser.parse_symbol_name().data
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        return cls(name, t, linkage, parser.parse_region(), attrs)


@irdl_op_definition
class DbgRecordOp(IRDLOperation):
    """A debug record (`#dbg_value`, `#dbg_declare`, `#dbg_assign`, `#dbg_label`), kept verbatim.

    `llvm.dbg_record "#dbg_value($0, !12, !DIExpression(), !15)"(%x) : f64` -- each `$N` in the
    text stands for operand N (printed with its type on export).  The record describes where a
    source variable lives; it computes nothing, so transformations may drop it.
    """

    name = "llvm.dbg_record"

    text = prop_def(StringAttr)
    locations = var_operand_def()

    def __init__(self, text: str, locations: Sequence[SSAValue] = ()):
        super().__init__(operands=[locations], properties={"text": StringAttr(text)})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.text.data)
        printer.print_string("(")
        printer.print_list(self.locations, printer.print_ssa_value)
        printer.print_string(")")
        _print_attrs(printer, self)
        if self.locations:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.locations], printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> DbgRecordOp:
        text = parser.parse_str_literal()
        names = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        types: list[Attribute] = []
        if names:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        op = cls(text, parser.resolve_operands(names, types, parser.pos))
        op.attributes |= attrs
        return op


NO_ACCESS_PREFIXES = ("llvm.intr.lifetime", "llvm.intr.prefetch", "llvm.intr.invariant")
"""Intrinsics that take a pointer without reading or writing what it points to."""


def is_annotation(op: Operation) -> bool:
    """Whether `op` only annotates the values it uses (a debug record, a lifetime marker, a
    prefetch): analyses asking how a value is used look past it, so `-g` or lifetime markers
    never change what they conclude."""
    return isinstance(op, DbgRecordOp) or op.name.startswith(NO_ACCESS_PREFIXES)


def real_users(v: SSAValue) -> list[Operation]:
    """The operations using `v` other than annotations (see `is_annotation`)."""
    return [u.operation for u in v.uses if not is_annotation(u.operation)]


# ---------------------------------------------------------------------------------------------
# Intrinsics
# ---------------------------------------------------------------------------------------------

class _IntrinsicOp(IRDLOperation):
    """Common shape of intrinsic ops: operands, at most one result, fast-math flags.

    `%y = llvm.intr.trunc(%x) : (f64) -> f64`
    """

    args = var_operand_def()
    res = opt_result_def()
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $args `)` attr-dict `:` functional-type($args, results)"

    ARITY: ClassVar[int] = 1
    """Number of operands."""

    def __init__(
        self,
        args: Sequence[SSAValue | Operation],
        result_type: Attribute | None = None,
        fast_math: FastMathAttr | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if result_type is None:
            result_type = SSAValue.get(args[0]).type
        super().__init__(
            operands=[args],
            result_types=[[] if isinstance(result_type, LLVMVoidType) else [result_type]],
            properties={"fastmathFlags": fast_math or FastMathAttr(None)},
            attributes=attributes or {},
        )

    def verify_(self) -> None:
        if len(self.args) != self.ARITY:
            raise VerifyException(f"{self.name} takes {self.ARITY} operand(s), got {len(self.args)}")


class _MemIntrinsicOp(IRDLOperation):
    """memcpy/memmove/memset: `llvm.intr.memcpy(%dst, %src, %n) : !llvm.ptr, !llvm.ptr, i64`"""

    args = var_operand_def()
    isVolatile = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(0, i1))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $args `)` attr-dict `:` type($args)"

    def __init__(
        self,
        args: Sequence[SSAValue | Operation],
        is_volatile: bool = False,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[args],
            properties={"isVolatile": int_attr(int(is_volatile), i1)},
            attributes=attributes or {},
        )

    def verify_(self) -> None:
        if len(self.args) != 3:
            raise VerifyException(f"{self.name} takes (dst, src or value, length)")


def _intrinsic(name: str, arity: int, doc: str, pure: bool = True) -> type[_IntrinsicOp]:
    cls = type(
        "Intr_" + name.replace(".", "_"),
        (_IntrinsicOp,),
        {
            "name": f"llvm.intr.{name}",
            "ARITY": arity,
            "__annotations__": {"ARITY": ClassVar[int]},
            "__doc__": doc,
            "traits": traits_def(Pure()) if pure else traits_def(),
        },
    )
    return irdl_op_definition(cls)


_UNARY_FP = (
    "trunc", "round", "roundeven", "rint", "nearbyint", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "tanh", "log10", "exp10", "canonicalize",
)  # fmt: skip
_BINARY_FP = ("minimum", "maximum", "atan2", "minimumnum", "maximumnum")

EXTRA_INTRINSIC_OPS: list[type[IRDLOperation]] = [
    *(_intrinsic(n, 1, f"`llvm.{n}` on a float or float vector.") for n in _UNARY_FP),
    *(_intrinsic(n, 2, f"`llvm.{n}` of two floats or float vectors.") for n in _BINARY_FP),
    _intrinsic("powi", 2, "`llvm.powi`: float raised to an integer power."),
    _intrinsic("ldexp", 2, "`llvm.ldexp`: x * 2^n."),
    _intrinsic("fmuladd", 3, "`llvm.fmuladd`: a*b+c, fused or not at the backend's choice."),
    *(
        _intrinsic(f"vector.reduce.{n}", 1, f"`llvm.vector.reduce.{n}` over a vector.")
        for n in (
            "fmax", "fmin", "fmaximum", "fminimum",
            "add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin",
        )  # fmt: skip
    ),
    _intrinsic("lifetime.start", 1, "Start of an alloca's lifetime.", pure=False),
    _intrinsic("lifetime.end", 1, "End of an alloca's lifetime.", pure=False),
    _intrinsic("assume", 1, "`llvm.assume(i1)`: an optimisation hint.", pure=False),
]


@irdl_op_definition
class MemcpyOp(_MemIntrinsicOp):
    """`llvm.intr.memcpy(%dst, %src, %n) : !llvm.ptr, !llvm.ptr, i64`"""

    name = "llvm.intr.memcpy"


@irdl_op_definition
class MemmoveOp(_MemIntrinsicOp):
    """`llvm.intr.memmove(%dst, %src, %n) : !llvm.ptr, !llvm.ptr, i64`"""

    name = "llvm.intr.memmove"


@irdl_op_definition
class MemsetOp(_MemIntrinsicOp):
    """`llvm.intr.memset(%dst, %byte, %n) : !llvm.ptr, i8, i64`"""

    name = "llvm.intr.memset"


INTRINSIC_OVERLOADS: dict[str, tuple[int, ...]] = {
    # op name (without "llvm.intr.") -> which types make up the mangled suffix:
    # -1 is the result, N >= 0 is operand N.  Unlisted float intrinsics use (-1,).
    "powi": (-1, 1),
    "ldexp": (-1, 1),
    "memcpy": (0, 1, 2),
    "memmove": (0, 1, 2),
    "memset": (0, 2),
    "lifetime.start": (0,),
    "lifetime.end": (0,),
    "assume": (),
    "vector.reduce.fadd": (1,),
    "vector.reduce.fmul": (1,),
    "stacksave": (-1,),
    "stackrestore": (0,),
    "masked.store": (0, 1),
}
for _n in ("fmax", "fmin", "fmaximum", "fminimum", "add", "mul", "and", "or", "xor",
           "smax", "smin", "umax", "umin"):  # fmt: skip
    INTRINSIC_OVERLOADS[f"vector.reduce.{_n}"] = (0,)


# ---------------------------------------------------------------------------------------------
# The dialect
# ---------------------------------------------------------------------------------------------

_REPLACED = {"llvm.icmp", "llvm.fcmp", "llvm.select", "llvm.getelementptr", "llvm.store"}

NEW_OPS: list[type[IRDLOperation]] = [
    ICmpOp, FCmpOp, SelectOp, GEPOp, StoreOp,
    SwitchOp, InvokeOp, LandingPadOp, ResumeOp,
    FPToSIOp, FPToUIOp, UIToFPOp, AddrSpaceCastOp,
    ExtractElementOp, FreezeOp, PoisonOp, MetadataOp, VAArgOp,
    AtomicRMWOp, CmpXchgOp, FenceOp,
    AliasOp, DbgRecordOp,
    MemcpyOp, MemmoveOp, MemsetOp,
    *EXTRA_INTRINSIC_OPS,
]  # fmt: skip

NEW_ATTRS = [
    LLVMPackedStructType,
    LLVMOpaqueStructType,
    LLVMMetadataType,
    LLVMTokenType,
    MetadataAttachmentsAttr,
]

LLVM = Dialect(
    "llvm",
    [op for op in xllvm.LLVM.operations if op.name not in _REPLACED] + NEW_OPS,
    [*xllvm.LLVM.attributes, *NEW_ATTRS],
)
"""xDSL's llvm dialect with xenzyme's additions and replacements, as one dialect."""


def intrinsic_op_by_name() -> dict[str, type[Operation]]:
    """Ops that model an intrinsic, keyed by its unmangled name (`llvm.sqrt`)."""
    return {
        "llvm." + op.name.removeprefix("llvm.intr."): op
        for op in LLVM.operations
        if op.name.startswith("llvm.intr.")
    }


def successor_operands(term: Operation) -> list[tuple[Block, Sequence[SSAValue]]]:
    """Each edge of a terminator: (destination, the values it passes to the block's arguments)."""
    if isinstance(term, xllvm.BrOp):
        return [(term.successor, term.arguments)]
    if isinstance(term, xllvm.CondBrOp):
        return [(term.then_block, term.then_arguments), (term.else_block, term.else_arguments)]
    if isinstance(term, SwitchOp):
        return [(term.default_dest, term.default_operands)] + [(d, a) for _, d, a in term.cases()]
    if isinstance(term, InvokeOp):
        return [(term.normal_dest, term.normal_operands), (term.unwind_dest, term.unwind_operands)]
    return [(s, ()) for s in term.successors]


_MANGLE_PART = re.compile(r"^(?:[vp]\d+|nxv\d+\w*|[if]\d+|v\d+[if]\d+|v\d+p\d+|a\d+\w+|s_\w+|sl_\w+)$")


def intrinsic_base_name(name: str) -> str:
    """`llvm.memcpy.p0.p0.i64` -> `llvm.memcpy` (drop the type-mangling suffixes)."""
    parts = name.split(".")
    while len(parts) > 2 and _MANGLE_PART.match(parts[-1]):
        parts.pop()
    return ".".join(parts)
