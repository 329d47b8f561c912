"""The `autodiff` dialect: derivative requests and the machinery of the reverse sweep.

Requests.  `autodiff.autodiff` asks for the gradient of a function at a call site, with
Enzyme's activities: one per argument, and one for the return value.

    %g = autodiff.autodiff @f(%x, %p, %dp, %n) activity [active, dup, const] ret active
             : (f64, !llvm.ptr, !llvm.ptr, i32) -> f64

Operands are the primal arguments, each `dup`/`dupnoneed` argument followed by its shadow.  The
result holds the derivatives of the `active` arguments: nothing (no result), one value, or a
literal struct of them in argument order.  An `active` return is seeded with 1.0.

Split mode.  `autodiff.augment` runs the forward sweep alone and keeps what the reverse sweep
needs on a tape; `autodiff.reverse` runs the reverse sweep from that tape; `autodiff.augmentsize`
is the size of the tape in bytes (a constant once the functions are generated):

    %t = autodiff.augment @f(%p, %dp) activity [dup] ret none tape value : (...) -> !llvm.ptr
    autodiff.reverse @f(%p, %dp, %t) activity [dup] ret none tape value : (...) -> ()
    %n = autodiff.augmentsize @f activity [dup] ret none : i64

`tape` says where the tape is: `value`, a pointer the augment returns (first field of its
result) and the reverse takes (and frees); `slot`, memory where the augment stores that pointer
and the reverse loads it; `buffer`, caller memory of a given size that holds the tape itself.
Operands: the arguments (shadows interleaved), the return adjoint of a reverse with an `active`
return, the tape pointer (or slot, or buffer), then the buffer's size.

Caches.  Values the reverse sweep needs are kept on last-in-first-out stacks, one per value:

    %c = autodiff.cache.init : !autodiff.cache<f64>      // at function entry
    autodiff.cache.push %c, %v : !autodiff.cache<f64>   // forward sweep, where %v is defined
    autodiff.cache.reserve %c, %n : !autodiff.cache<f64> // room for the %n pushes of a loop
    %v1 = autodiff.cache.peek %c : !autodiff.cache<f64> // reverse sweep, where %v is used
    autodiff.cache.pop %c : !autodiff.cache<f64>        // once the reverse sweep passed %v's block

Reverse sweeps visit dynamic instances in the opposite order to the forward sweep, so a value's
uses in reverse read the top of its stack, and it is popped once the reverse sweep has passed its
definition.  `single` marks a cache whose pushes are outside every loop (at most one value is
live); lowering gives those a plain stack slot.

Accumulation.  `autodiff.accumulate %ptr, %delta {mode = plain}` adds `%delta` to the value in
memory at `%ptr` (shadow memory, adjoint slots); `atomic` and `reduce` are for adjoints that
several threads update.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType, StringAttr, SymbolRefAttr, UnitAttr, VectorType
from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import OpTrait, SymbolTable
from xdsl.utils.exceptions import VerifyException

ARG_ACTIVITIES = ("active", "dup", "dupnoneed", "const")
"""Enzyme's argument activities: `active` scalars get a derivative returned; `dup` pointers
come with a shadow that receives (reverse) or provides (forward) derivatives; `dupnoneed` is
`dup` whose primal result is not needed; `const` carries no derivative."""

RET_ACTIVITIES = ("active", "const", "none")
"""`active`: a floating-point return, seeded with 1.0; `const`: not differentiated;
`none`: the function returns void."""

ACCUMULATE_MODES = ("plain", "atomic", "reduce")


def is_float_like(t: Attribute) -> bool:
    """Floating-point scalars and vectors: the types that carry derivatives by value."""
    from xdsl.dialects.builtin import AnyFloat

    if isinstance(t, VectorType):
        t = t.element_type
    return isinstance(t, AnyFloat)


def has_shadow(activity: str) -> bool:
    return activity in ("dup", "dupnoneed")


# ---------------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------------


@irdl_attr_definition
class CacheType(ParametrizedAttribute, TypeAttribute):
    """`!autodiff.cache<T>`: a stack of T values kept from the forward to the reverse sweep."""

    name = "autodiff.cache"

    element_type: Attribute

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_type(),)


# ---------------------------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------------------------


def _print_words(printer: Printer, words: Sequence[StringAttr]) -> None:
    printer.print_string("[" + ", ".join(w.data for w in words) + "]")


def primal_and_shadow(args: Sequence[SSAValue], activities: Sequence[str]) -> list[tuple[SSAValue, SSAValue | None]]:
    """A request's arguments as (primal, shadow or None) per callee argument: each argument is
    followed by its shadow where its activity has one."""
    out: list[tuple[SSAValue, SSAValue | None]] = []
    it = iter(args)
    for act in activities:
        primal = next(it)
        out.append((primal, next(it) if has_shadow(act) else None))
    return out


@irdl_op_definition
class AutodiffOp(IRDLOperation):
    """Reverse-mode derivative of `callee` at these arguments (see the module docstring)."""

    name = "autodiff.autodiff"

    callee = prop_def(SymbolRefAttr)
    activity = prop_def(ArrayAttr[StringAttr])
    ret_activity = prop_def(StringAttr)
    args = var_operand_def()
    res = opt_result_def()

    def __init__(
        self,
        callee: str | SymbolRefAttr,
        args: Sequence[SSAValue],
        activity: Sequence[str],
        ret_activity: str,
        result_type: Attribute | None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(
            operands=[args],
            result_types=[[result_type] if result_type is not None else []],
            properties={
                "callee": callee,
                "activity": ArrayAttr([StringAttr(a) for a in activity]),
                "ret_activity": StringAttr(ret_activity),
            },
            attributes=attributes or {},
        )

    @property
    def activities(self) -> list[str]:
        return [a.data for a in self.activity.data]

    def primal_and_shadow_args(self) -> list[tuple[SSAValue, SSAValue | None]]:
        """(primal, shadow or None) per callee argument."""
        return primal_and_shadow(self.args, self.activities)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_ssa_value)
        printer.print_string(") activity ")
        _print_words(printer, self.activity.data)
        printer.print_string(f" ret {self.ret_activity.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([a.type for a in self.args], [r.type for r in self.results])

    @classmethod
    def parse(cls, parser: Parser) -> AutodiffOp:
        callee = parser.parse_symbol_name().data
        names = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("activity")
        acts = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_identifier)
        parser.parse_keyword("ret")
        ret = parser.parse_identifier()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        args = parser.resolve_operands(names, ft.inputs.data, parser.pos)
        if len(ft.outputs.data) > 1:
            parser.raise_error("autodiff.autodiff has at most one result")
        rt = ft.outputs.data[0] if ft.outputs.data else None
        return cls(callee, args, acts, ret, rt, attrs)

    def verify_(self) -> None:
        acts = self.activities
        for a in acts:
            if a not in ARG_ACTIVITIES:
                raise VerifyException(
                    f"unknown activity '{a}' (expected one of {', '.join(ARG_ACTIVITIES)})"
                )
        if self.ret_activity.data not in RET_ACTIVITIES:
            raise VerifyException(
                f"unknown return activity '{self.ret_activity.data}' "
                f"(expected one of {', '.join(RET_ACTIVITIES)})"
            )
        expected = len(acts) + sum(has_shadow(a) for a in acts)
        if len(self.args) != expected:
            raise VerifyException(
                f"expected {expected} operands for activities {acts} (each dup argument is "
                f"followed by its shadow), got {len(self.args)}"
            )
        actives: list[Attribute] = []
        for act, (primal, shadow) in zip(acts, self.primal_and_shadow_args(), strict=True):
            if act == "active":
                if not is_float_like(primal.type):
                    raise VerifyException(
                        f"an active argument must be floating point, got {primal.type}"
                    )
                actives.append(primal.type)
            if shadow is not None and shadow.type != primal.type:
                raise VerifyException(
                    f"shadow type {shadow.type} does not match its primal type {primal.type}"
                )
        expected_rt = derivative_result_type(actives)
        got = self.res.type if self.res is not None else None
        if got != expected_rt:
            raise VerifyException(
                f"result type must be {expected_rt or 'absent'} for {len(actives)} active "
                f"argument(s), got {got}"
            )
        self._verify_callee()

    def _verify_callee(self) -> None:
        from xdsl.dialects.llvm import LLVMVoidType

        fn = SymbolTable.lookup_symbol(self, self.callee)
        if fn is None:
            return  # symbol resolution is checked where the module is complete
        params, ret = _callee_signature(fn, self.callee)
        if len(params) != len(self.activities):
            raise VerifyException(
                f"@{self.callee.string_value()} takes {len(params)} arguments, "
                f"{len(self.activities)} activities given"
            )
        for i, ((primal, _), p) in enumerate(zip(self.primal_and_shadow_args(), params, strict=True)):
            if primal.type != p:
                raise VerifyException(f"argument {i} has type {primal.type}, the callee expects {p}")
        ra = self.ret_activity.data
        if ra == "none" and not isinstance(ret, LLVMVoidType):
            raise VerifyException("return activity 'none' needs a void function")
        if ra == "active" and not is_float_like(ret):
            raise VerifyException(f"an active return must be floating point, got {ret}")


def derivative_result_type(actives: Sequence[Attribute]) -> Attribute | None:
    """The result of a gradient: none, the one derivative, or a struct of them in order."""
    if not actives:
        return None
    if len(actives) == 1:
        return actives[0]
    return LLVMStructType.from_type_list(list(actives))


# ---------------------------------------------------------------------------------------------
# Split-mode requests
# ---------------------------------------------------------------------------------------------

SPLIT_RET_ACTIVITIES = ("active", "const", "dup", "none")
"""A split request's return: `dup` is a pointer return with a shadow (the augment returns both)."""

TAPE_KINDS = ("value", "slot", "buffer")


def augment_result_type(ret: Attribute, ret_activity: str, tape: str) -> Attribute | None:
    """What an augment returns: {tape (when returned by value), primal result, its shadow};
    none when nothing is left, the bare tape pointer for a void function."""
    fields: list[Attribute] = [LLVMPointerType()] if tape == "value" else []
    if ret_activity != "none":
        fields.append(ret)
        if ret_activity == "dup":
            fields.append(ret)
    if not fields:
        return None
    if ret_activity == "none":
        return fields[0]
    return LLVMStructType.from_type_list(fields)


class _SplitRequest(IRDLOperation):
    """Shared parts of `autodiff.augment` and `autodiff.reverse` (see the module docstring)."""

    callee = prop_def(SymbolRefAttr)
    activity = prop_def(ArrayAttr[StringAttr])
    ret_activity = prop_def(StringAttr)
    tape_kind = prop_def(StringAttr)
    args = var_operand_def()
    seed = opt_operand_def()
    tape = opt_operand_def(LLVMPointerType)
    size = opt_operand_def(IntegerType)
    res = opt_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        callee: str | SymbolRefAttr,
        args: Sequence[SSAValue],
        activity: Sequence[str],
        ret_activity: str,
        tape_kind: str,
        result_type: Attribute | None,
        seed: SSAValue | None = None,
        tape: SSAValue | None = None,
        size: SSAValue | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(
            operands=[args, [seed] if seed else [], [tape] if tape else [], [size] if size else []],
            result_types=[[result_type] if result_type is not None else []],
            properties={
                "callee": callee,
                "activity": ArrayAttr([StringAttr(a) for a in activity]),
                "ret_activity": StringAttr(ret_activity),
                "tape_kind": StringAttr(tape_kind),
            },
            attributes=attributes or {},
        )

    @property
    def activities(self) -> list[str]:
        return [a.data for a in self.activity.data]

    def primal_and_shadow_args(self) -> list[tuple[SSAValue, SSAValue | None]]:
        """(primal, shadow or None) per callee argument."""
        return primal_and_shadow(self.args, self.activities)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_string(") activity ")
        _print_words(printer, self.activity.data)
        printer.print_string(f" ret {self.ret_activity.data} tape {self.tape_kind.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([a.type for a in self.operands], [r.type for r in self.results])

    @classmethod
    def parse(cls, parser: Parser) -> _SplitRequest:
        callee = parser.parse_symbol_name().data
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("activity")
        acts = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_identifier)
        parser.parse_keyword("ret")
        ret = parser.parse_identifier()
        parser.parse_keyword("tape")
        kind = parser.parse_identifier()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        ops = parser.resolve_operands(names, ft.inputs.data, parser.pos)
        if len(ft.outputs.data) > 1:
            parser.raise_error(f"{cls.name} has at most one result")
        n = len(acts) + sum(has_shadow(a) for a in acts)
        rest = ops[n:]
        seed = rest.pop(0) if cls.has_seed(ret) and rest else None
        tape = rest.pop(0) if cls.has_tape(kind) and rest else None
        size = rest.pop(0) if kind == "buffer" and rest else None
        if rest:
            parser.raise_error(f"too many operands for {cls.name}")
        rt = ft.outputs.data[0] if ft.outputs.data else None
        return cls(callee, ops[:n], acts, ret, kind, rt, seed, tape, size, attrs)

    @classmethod
    def has_seed(cls, ret_activity: str) -> bool:
        return False

    @classmethod
    def has_tape(cls, kind: str) -> bool:
        return kind != "value"

    def verify_(self) -> None:
        acts = self.activities
        for a in acts:
            if a not in ARG_ACTIVITIES:
                raise VerifyException(f"unknown activity '{a}' (expected one of {', '.join(ARG_ACTIVITIES)})")
        ra, kind = self.ret_activity.data, self.tape_kind.data
        if ra not in SPLIT_RET_ACTIVITIES:
            raise VerifyException(f"unknown return activity '{ra}' (expected one of {', '.join(SPLIT_RET_ACTIVITIES)})")
        if kind not in TAPE_KINDS:
            raise VerifyException(f"unknown tape kind '{kind}' (expected one of {', '.join(TAPE_KINDS)})")
        expected = len(acts) + sum(has_shadow(a) for a in acts)
        if len(self.args) != expected:
            raise VerifyException(f"expected {expected} arguments for activities {acts}, got {len(self.args)}")
        if (self.seed is not None) != self.has_seed(ra):
            raise VerifyException("a return adjoint is needed exactly for the reverse of an active return")
        if (self.tape is not None) != self.has_tape(kind):
            raise VerifyException(f"tape '{kind}' {'needs' if self.has_tape(kind) else 'takes no'} tape operand")
        if (self.size is not None) != (kind == "buffer"):
            raise VerifyException("a size is given exactly for a tape in a buffer")
        for primal, shadow in self.primal_and_shadow_args():
            if shadow is not None and shadow.type != primal.type:
                raise VerifyException(f"shadow type {shadow.type} does not match its primal type {primal.type}")


@irdl_op_definition
class AugmentOp(_SplitRequest):
    """The forward sweep of `callee`, keeping a tape for `autodiff.reverse`."""

    name = "autodiff.augment"


@irdl_op_definition
class ReverseOp(_SplitRequest):
    """The reverse sweep of `callee` from the tape of an `autodiff.augment`; returns the
    derivatives of the active arguments, as `autodiff.autodiff` does."""

    name = "autodiff.reverse"

    @classmethod
    def has_seed(cls, ret_activity: str) -> bool:
        return ret_activity == "active"

    @classmethod
    def has_tape(cls, kind: str) -> bool:
        return True


@irdl_op_definition
class AugmentSizeOp(IRDLOperation):
    """`%n = autodiff.augmentsize @f activity [dup] ret none : i64`: the bytes of @f's tape for
    these activities (what a `buffer` tape needs)."""

    name = "autodiff.augmentsize"

    callee = prop_def(SymbolRefAttr)
    activity = prop_def(ArrayAttr[StringAttr])
    ret_activity = prop_def(StringAttr)
    res = result_def(IntegerType)

    def __init__(self, callee: str | SymbolRefAttr, activity: Sequence[str], ret_activity: str, result_type: Attribute):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(
            result_types=[result_type],
            properties={
                "callee": callee,
                "activity": ArrayAttr([StringAttr(a) for a in activity]),
                "ret_activity": StringAttr(ret_activity),
            },
        )

    @property
    def activities(self) -> list[str]:
        return [a.data for a in self.activity.data]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string(" activity ")
        _print_words(printer, self.activity.data)
        printer.print_string(f" ret {self.ret_activity.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)

    @classmethod
    def parse(cls, parser: Parser) -> AugmentSizeOp:
        callee = parser.parse_symbol_name().data
        parser.parse_keyword("activity")
        acts = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_identifier)
        parser.parse_keyword("ret")
        ret = parser.parse_identifier()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(callee, acts, ret, parser.parse_type())
        op.attributes |= attrs
        return op


# ---------------------------------------------------------------------------------------------
# Caches
# ---------------------------------------------------------------------------------------------


def _cache_elem(v: SSAValue) -> Attribute:
    t = v.type
    if not isinstance(t, CacheType):
        raise VerifyException(f"expected an !autodiff.cache, got {t}")
    return t.element_type


@irdl_op_definition
class CacheInitOp(IRDLOperation):
    """`%c = autodiff.cache.init : !autodiff.cache<f64>`; `single` when pushed outside loops.

    With `in %storage` the cache's state lives in that memory (a field of a tape) instead of the
    function's stack frame, so that another function can `attach` to it: split mode, where the
    forward sweep and the reverse sweep are separate functions.  Such a cache is not freed when
    the function returns; `autodiff.cache.free` frees it.
    """

    name = "autodiff.cache.init"

    storage = opt_operand_def(LLVMPointerType)
    res = result_def(CacheType)
    single = opt_prop_def(UnitAttr)

    assembly_format = "(`single` $single^)? (`in` $storage^ `:` type($storage))? attr-dict `:` type($res)"

    def __init__(self, element_type: Attribute, single: bool = False, storage: SSAValue | None = None):
        super().__init__(
            operands=[[storage] if storage is not None else []],
            result_types=[CacheType(element_type)],
            properties={"single": UnitAttr() if single else None},
        )


@irdl_op_definition
class CacheAttachOp(IRDLOperation):
    """`%c = autodiff.cache.attach %storage : !autodiff.cache<f64>`: a cache that an
    `autodiff.cache.init in %storage` created, seen from another function (split mode)."""

    name = "autodiff.cache.attach"

    storage = operand_def(LLVMPointerType)
    res = result_def(CacheType)
    single = opt_prop_def(UnitAttr)

    assembly_format = "(`single` $single^)? $storage attr-dict `:` type($storage) `->` type($res)"

    def __init__(self, storage: SSAValue, element_type: Attribute, single: bool = False):
        super().__init__(
            operands=[storage],
            result_types=[CacheType(element_type)],
            properties={"single": UnitAttr() if single else None},
        )


@irdl_op_definition
class CacheFreeOp(IRDLOperation):
    """`autodiff.cache.free %c : !autodiff.cache<f64>`: release a tape-resident cache's buffer."""

    name = "autodiff.cache.free"

    cache = operand_def(CacheType)

    def __init__(self, cache: SSAValue | Operation):
        super().__init__(operands=[cache])

    @classmethod
    def parse(cls, parser: Parser) -> CacheFreeOp:
        return cls(_parse_cache_operand(parser))

    def print(self, printer: Printer) -> None:
        _print_cache_operand(printer, self)


def cache_storage_type(element_type: Attribute, single: bool) -> Attribute:
    """The memory a cache's state takes: the value itself for a `single` cache, otherwise
    `{data pointer, size, capacity}` of its stack."""
    if single:
        return element_type
    return LLVMStructType.from_type_list([LLVMPointerType(), IntegerType(64), IntegerType(64)])


@irdl_op_definition
class CachePushOp(IRDLOperation):
    """`autodiff.cache.push %c, %v : !autodiff.cache<f64>` -- forward sweep."""

    name = "autodiff.cache.push"

    cache = operand_def(CacheType)
    value = operand_def()

    def __init__(self, cache: SSAValue | Operation, value: SSAValue | Operation):
        super().__init__(operands=[cache, value])

    @classmethod
    def parse(cls, parser: Parser) -> CachePushOp:
        c = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        v = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ct = parser.parse_type()
        if not isinstance(ct, CacheType):
            parser.raise_error(f"expected an !autodiff.cache type, got {ct}")
        op = cls(parser.resolve_operand(c, ct), parser.resolve_operand(v, ct.element_type))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.cache)
        printer.print_string(", ")
        printer.print_ssa_value(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.cache.type)

    def verify_(self) -> None:
        if self.value.type != _cache_elem(self.cache):
            raise VerifyException(
                f"pushed value has type {self.value.type}, the cache holds {_cache_elem(self.cache)}"
            )


@irdl_op_definition
class CachePeekOp(IRDLOperation):
    """`%v = autodiff.cache.peek %c : !autodiff.cache<f64>`: the top value, left on the stack."""

    name = "autodiff.cache.peek"

    cache = operand_def(CacheType)
    res = result_def()

    def __init__(self, cache: SSAValue | Operation):
        super().__init__(operands=[cache], result_types=[_cache_elem(SSAValue.get(cache))])

    @classmethod
    def parse(cls, parser: Parser) -> CachePeekOp:
        return cls(_parse_cache_operand(parser))

    def print(self, printer: Printer) -> None:
        _print_cache_operand(printer, self)

    def verify_(self) -> None:
        if self.res.type != _cache_elem(self.cache):
            raise VerifyException("result type must be the cache's element type")


@irdl_op_definition
class CachePopOp(IRDLOperation):
    """`autodiff.cache.pop %c : !autodiff.cache<f64>`: removes the top value."""

    name = "autodiff.cache.pop"

    cache = operand_def(CacheType)

    def __init__(self, cache: SSAValue | Operation):
        super().__init__(operands=[cache])

    @classmethod
    def parse(cls, parser: Parser) -> CachePopOp:
        return cls(_parse_cache_operand(parser))

    def print(self, printer: Printer) -> None:
        _print_cache_operand(printer, self)


@irdl_op_definition
class CacheReserveOp(IRDLOperation):
    """`autodiff.cache.reserve %c, %n : !autodiff.cache<f64>`: room for `%n` more pushes.

    Placed where a loop is entered, with the loop's trip count: the pushes in the loop then
    never grow the buffer.  Only a hint -- pushes beyond it still grow the buffer.
    """

    name = "autodiff.cache.reserve"

    cache = operand_def(CacheType)
    count = operand_def(IntegerType(64))

    def __init__(self, cache: SSAValue | Operation, count: SSAValue | Operation):
        super().__init__(operands=[cache, count])

    @classmethod
    def parse(cls, parser: Parser) -> CacheReserveOp:
        c = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        n = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        ct = parser.parse_type()
        if not isinstance(ct, CacheType):
            parser.raise_error(f"expected an !autodiff.cache type, got {ct}")
        return cls(parser.resolve_operand(c, ct), parser.resolve_operand(n, IntegerType(64)))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.cache)
        printer.print_string(", ")
        printer.print_ssa_value(self.count)
        printer.print_string(" : ")
        printer.print_attribute(self.cache.type)


def _parse_cache_operand(parser: Parser) -> SSAValue:
    c = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    ct = parser.parse_type()
    if not isinstance(ct, CacheType):
        parser.raise_error(f"expected an !autodiff.cache type, got {ct}")
    return parser.resolve_operand(c, ct)


def _print_cache_operand(printer: Printer, op: Operation) -> None:
    printer.print_string(" ")
    printer.print_ssa_value(op.operands[0])
    printer.print_string(" : ")
    printer.print_attribute(op.operands[0].type)


# ---------------------------------------------------------------------------------------------
# Accumulation
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class AccumulateOp(IRDLOperation):
    """`autodiff.accumulate %ptr, %delta {mode = "plain"} : !llvm.ptr, f64`: `*ptr += delta`."""

    name = "autodiff.accumulate"

    ptr = operand_def(LLVMPointerType)
    delta = operand_def()
    mode = prop_def(StringAttr, default_value=StringAttr("plain"))
    alignment = opt_prop_def(IntegerAttr)
    """Alignment of the memory at `ptr`, when it is less than the type's natural alignment."""

    def __init__(
        self,
        ptr: SSAValue | Operation,
        delta: SSAValue | Operation,
        mode: str = "plain",
        alignment: int | None = None,
    ):
        super().__init__(
            operands=[ptr, delta],
            properties={
                "mode": StringAttr(mode),
                "alignment": IntegerAttr(alignment, 64) if alignment is not None else None,
            },
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.ptr)
        printer.print_string(", ")
        printer.print_ssa_value(self.delta)
        if self.mode.data != "plain":
            printer.print_string(f" {self.mode.data}")
        attrs = dict(self.attributes)
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        printer.print_op_attributes(attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.delta.type)

    @classmethod
    def parse(cls, parser: Parser) -> AccumulateOp:
        p = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        d = parser.parse_unresolved_operand()
        mode = parser.parse_optional_keyword_in(("atomic", "reduce")) or "plain"
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pt = parser.parse_type()
        parser.parse_punctuation(",")
        dt = parser.parse_type()
        align = attrs.pop("alignment", None)
        op = cls(
            parser.resolve_operand(p, pt),
            parser.resolve_operand(d, dt),
            mode,
            align.value.data if isinstance(align, IntegerAttr) else None,
        )
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        if self.mode.data not in ACCUMULATE_MODES:
            raise VerifyException(f"unknown accumulate mode '{self.mode.data}'")
        if not is_float_like(self.delta.type) and not _is_float_aggregate(self.delta.type):
            raise VerifyException(f"can only accumulate floating-point values, got {self.delta.type}")


def _is_float_aggregate(t: Attribute) -> bool:
    from xdsl.dialects.llvm import LLVMArrayType

    if isinstance(t, LLVMStructType):
        return all(is_float_like(m) or _is_float_aggregate(m) for m in t.types.data)
    if isinstance(t, LLVMArrayType):
        return is_float_like(t.type) or _is_float_aggregate(t.type)
    return False


# ---------------------------------------------------------------------------------------------
# What the activity analyses ask of ops of other dialects
# ---------------------------------------------------------------------------------------------


class ShadowedOperands(OpTrait):
    """An op some of whose pointer operands need shadow memory whatever the activity of the
    function's own values: memory receiving data that may carry derivatives from outside the
    function (another process's message), or memory whose shadow keeps what the op's
    derivative needs (a request's).  The op names them in `shadowed_operands()`; the activity
    analyses give that memory a shadow where it can have one (locals, heap, mutable globals)."""


def shadowed_operands(op: Operation) -> Sequence[SSAValue]:
    """The operands of `op` whose memory needs a shadow (`ShadowedOperands`), else none."""
    if op.get_trait(ShadowedOperands) is None:
        return ()
    return op.shadowed_operands()  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------------
# Forward-mode requests
# ---------------------------------------------------------------------------------------------

FWD_ARG_ACTIVITIES = ("dup", "dupnoneed", "const")
"""Forward mode's argument activities: a `dup` argument is followed by its tangent(s) -- for a
pointer, shadow pointer(s) whose memory provides input tangents and receives output tangents;
`dupnoneed` is `dup` whose primal results are not needed; `const` has no tangent."""

FWD_RET_ACTIVITIES = ("dup", "dupnoneed", "const", "none")
"""`dupnoneed`: the result is the return value's tangent(s); `dup`: its primal value and then its
tangent(s); `const`: no result; `none`: the function returns void."""


def fwddiff_result_type(ret: Attribute, ret_activity: str, width: int) -> Attribute | None:
    """The result of a forward-mode request for a function returning `ret`: the tangent (width 1)
    or a literal struct of the `width` tangents, preceded by the primal value for `dup`."""
    if ret_activity == "dupnoneed":
        return ret if width == 1 else LLVMStructType.from_type_list([ret] * width)
    if ret_activity == "dup":
        return LLVMStructType.from_type_list([ret] * (width + 1))
    return None


@irdl_op_definition
class FwdDiffOp(IRDLOperation):
    """Forward-mode derivative of `callee` at these arguments, in `width` directions at once.

        %t = autodiff.fwddiff @f(%x, %dx, %n) activity [dup, const] ret dupnoneed
                 : (f64, f64, i32) -> f64
        %t2 = autodiff.fwddiff @f(%x, %dx1, %dx2, %n) activity [dup, const] ret dupnoneed width 2
                 : (f64, f64, f64, i32) -> !llvm.struct<(f64, f64)>

    Operands are the primal arguments, each `dup`/`dupnoneed` argument followed by `width`
    tangents of its type (shadow pointers for a pointer).  The result follows the return
    activity (`fwddiff_result_type`).  `width` is printed only when it is not 1.
    """

    name = "autodiff.fwddiff"

    callee = prop_def(SymbolRefAttr)
    activity = prop_def(ArrayAttr[StringAttr])
    ret_activity = prop_def(StringAttr)
    width = prop_def(IntegerAttr, default_value=IntegerAttr(1, 64))
    args = var_operand_def()
    res = opt_result_def()

    def __init__(
        self,
        callee: str | SymbolRefAttr,
        args: Sequence[SSAValue],
        activity: Sequence[str],
        ret_activity: str,
        result_type: Attribute | None,
        width: int = 1,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(
            operands=[args],
            result_types=[[result_type] if result_type is not None else []],
            properties={
                "callee": callee,
                "activity": ArrayAttr([StringAttr(a) for a in activity]),
                "ret_activity": StringAttr(ret_activity),
                "width": IntegerAttr(width, 64),
            },
            attributes=attributes or {},
        )

    @property
    def activities(self) -> list[str]:
        return [a.data for a in self.activity.data]

    def primal_and_tangent_args(self) -> list[tuple[SSAValue, list[SSAValue]]]:
        """(primal, its tangents) per callee argument (no tangents for `const`)."""
        out: list[tuple[SSAValue, list[SSAValue]]] = []
        it = iter(self.args)
        n = self.width.value.data
        for act in self.activities:
            primal = next(it)
            out.append((primal, [next(it) for _ in range(n)] if has_shadow(act) else []))
        return out

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_ssa_value)
        printer.print_string(") activity ")
        _print_words(printer, self.activity.data)
        printer.print_string(f" ret {self.ret_activity.data}")
        if self.width.value.data != 1:
            printer.print_string(f" width {self.width.value.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([a.type for a in self.args], [r.type for r in self.results])

    @classmethod
    def parse(cls, parser: Parser) -> FwdDiffOp:
        callee = parser.parse_symbol_name().data
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("activity")
        acts = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_identifier)
        parser.parse_keyword("ret")
        ret = parser.parse_identifier()
        width = 1
        if parser.parse_optional_keyword("width") is not None:
            width = parser.parse_integer(allow_boolean=False, allow_negative=True)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        args = parser.resolve_operands(names, ft.inputs.data, parser.pos)
        if len(ft.outputs.data) > 1:
            parser.raise_error("autodiff.fwddiff has at most one result")
        rt = ft.outputs.data[0] if ft.outputs.data else None
        return cls(callee, args, acts, ret, rt, width, attrs)

    def verify_(self) -> None:
        acts = self.activities
        for a in acts:
            if a not in FWD_ARG_ACTIVITIES:
                raise VerifyException(
                    f"unknown forward-mode activity '{a}' (expected one of {', '.join(FWD_ARG_ACTIVITIES)})"
                )
        ra = self.ret_activity.data
        if ra not in FWD_RET_ACTIVITIES:
            raise VerifyException(
                f"unknown forward-mode return activity '{ra}' (expected one of {', '.join(FWD_RET_ACTIVITIES)})"
            )
        n = self.width.value.data
        if n < 1:
            raise VerifyException(f"width must be at least 1, got {n}")
        expected = len(acts) + n * sum(has_shadow(a) for a in acts)
        if len(self.args) != expected:
            raise VerifyException(
                f"expected {expected} operands for activities {acts} and width {n} (each dup "
                f"argument is followed by {n} tangent{'s' if n > 1 else ''}), got {len(self.args)}"
            )
        for act, (primal, tangents) in zip(acts, self.primal_and_tangent_args(), strict=True):
            if has_shadow(act) and not _has_tangent(primal.type):
                raise VerifyException(f"a {act} argument must be floating point or a pointer, got {primal.type}")
            for t in tangents:
                if t.type != primal.type:
                    raise VerifyException(f"tangent type {t.type} does not match its primal type {primal.type}")
        if ra in ("const", "none"):
            if self.res is not None:
                raise VerifyException(f"return activity '{ra}' has no result, got {self.res.type}")
        elif self.res is None:
            raise VerifyException(f"return activity '{ra}' needs a result")
        self._verify_callee()

    def _verify_callee(self) -> None:
        from xdsl.dialects.llvm import LLVMVoidType

        fn = SymbolTable.lookup_symbol(self, self.callee)
        if fn is None:
            return  # symbol resolution is checked where the module is complete
        params, ret = _callee_signature(fn, self.callee)
        if len(params) != len(self.activities):
            raise VerifyException(
                f"@{self.callee.string_value()} takes {len(params)} arguments, {len(self.activities)} activities given"
            )
        for i, ((primal, _), p) in enumerate(zip(self.primal_and_tangent_args(), params, strict=True)):
            if primal.type != p:
                raise VerifyException(f"argument {i} has type {primal.type}, the callee expects {p}")
        ra = self.ret_activity.data
        if ra == "none" and not isinstance(ret, LLVMVoidType):
            raise VerifyException("return activity 'none' needs a void function")
        if ra in ("dup", "dupnoneed"):
            if not _has_tangent(ret):
                raise VerifyException(f"return activity '{ra}' needs a floating-point or pointer return, got {ret}")
            expected = fwddiff_result_type(ret, ra, self.width.value.data)
            if self.res is not None and self.res.type != expected:
                raise VerifyException(f"result type must be {expected}, got {self.res.type}")


def _callee_signature(fn: Operation, callee: SymbolRefAttr) -> tuple[Sequence[Attribute], Attribute]:
    """(parameter types, return type) of a request's callee: an `llvm.func`, or a `func.func`
    of the structured dialects (one result at most; none is void), which `lower-structured`
    turns into an `llvm.func` before differentiation."""
    from xdsl.dialects import func
    from xdsl.dialects.llvm import FuncOp, LLVMVoidType

    if isinstance(fn, FuncOp):
        return fn.function_type.inputs.data, fn.function_type.output
    if isinstance(fn, func.FuncOp):
        outs = fn.function_type.outputs.data
        if len(outs) > 1:
            raise VerifyException(f"'{callee}' returns {len(outs)} values; a differentiated function returns at most one")
        return fn.function_type.inputs.data, outs[0] if outs else LLVMVoidType()
    raise VerifyException(f"'{callee}' is not an llvm.func or a func.func")


def _has_tangent(t: Attribute) -> bool:
    """Types a tangent or shadow can accompany: floats, float vectors and aggregates, pointers."""
    from xdsl.dialects.llvm import LLVMArrayType

    from xdsl.dialects.builtin import MemRefType

    if is_float_like(t) or isinstance(t, LLVMPointerType | MemRefType):
        return True
    if isinstance(t, VectorType):
        return isinstance(t.element_type, LLVMPointerType)
    if isinstance(t, LLVMStructType):
        return any(_has_tangent(m) for m in t.types.data)
    if isinstance(t, LLVMArrayType):
        return _has_tangent(t.type)
    return False


AUTODIFF = Dialect(
    "autodiff",
    [
        AutodiffOp, FwdDiffOp, AugmentOp, ReverseOp, AugmentSizeOp, CacheInitOp, CacheAttachOp, CacheFreeOp, CachePushOp, CachePeekOp, CachePopOp,
        CacheReserveOp, AccumulateOp,
    ],  # fmt: skip
    [CacheType],
)
