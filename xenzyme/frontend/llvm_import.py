"""LLVM IR -> xDSL `llvm` dialect.

LLVM parses and verifies the input first (llvmlite, LLVM 22): malformed IR is reported with
LLVM's own message and position and never reaches anything that could abort the process.  The
module is then printed back by LLVM in its canonical form -- one syntax whatever the producer
(clang 19, LLVM 22, hand-written), auto-upgraded, with every flag, predicate and metadata
attachment spelled out -- and that text is read here by a small tokenizer.  Walking llvmlite's
value objects instead is about 20x slower and hides flags and metadata.

The mapping follows MLIR's LLVM importer: phis become block arguments, constants become
`llvm.mlir.constant` / `llvm.mlir.zero` / ... ops at the start of the entry block (constant
expressions as the instructions they stand for), global initializers are a `value` attribute when
they are a scalar, a string or an array of numbers, and a region computing the value otherwise.
See `xenzyme.dialects.llvm_ext` for where flags, attributes and metadata are kept.

Two choices keep values exact where xDSL cannot hold or print them: x86_fp80 and fp128 constants
are `llvm.bitcast`s of their bits (`i80`, `i128`), and float vectors and arrays whose elements
xDSL's dense attributes would mangle in text are built element by element (insertelement /
insertvalue).  The exporter prints all of these back as the literals they were.

Unsupported constructs (blockaddress, callbr, Windows EH pads, ifunc, ...) are `XenzymeError`s
at the user's line and column: see `_SourceMapper` for how canonical lines are mapped back.
"""

from __future__ import annotations

import functools
import math
import re
import struct
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

import llvmlite.binding as llb
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnknownLoc,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.core import SSAValues, Use
from xdsl.irdl import IRDLOperation, OptionalDef
from xdsl.utils.exceptions import VerifyException

from xenzyme.diagnostics import XenzymeError, error_at
from xenzyme.dialects import llvm_ext as ext
from xenzyme.llvm_binding import paused_gc

# ---------------------------------------------------------------------------------------------
# LLVM parsing and verification
# ---------------------------------------------------------------------------------------------

_LLVM_DIAG = re.compile(r"<string>:(\d+):(\d+): error: (.*)")


def _ensure_llvm() -> None:
    from xenzyme.llvm_binding import initialize

    initialize()


def parse_llvm_module(text: str | bytes, filename: str = "<input>") -> llb.ModuleRef:
    """Parse (text or bitcode) and verify with LLVM; errors become `XenzymeError`s.

    Each module gets an LLVM context of its own: in the shared global context, a second module
    defining `%struct.S` would see it renamed to `%struct.S.0`.  IR of an older LLVM that LLVM
    22 rejects (the `mul` constant expressions of flang-19) is rewritten first: see
    `xenzyme.frontend.ir_upgrade`.
    """
    _ensure_llvm()
    if isinstance(text, bytes) and text[:2] != b"BC":
        text = text.decode("utf-8", errors="replace")
    if isinstance(text, str):
        _check_text(text, filename)
    try:
        module = _parse(text)
    except RuntimeError as e:
        module = _parse_upgraded(text, str(e), filename)
    try:
        module.verify()
    except RuntimeError as e:
        from xenzyme.llvm_binding import release

        detail = str(e).strip().splitlines()
        original = text if isinstance(text, str) else None
        canonical = str(module)
        release(module)
        where = _verifier_position(canonical, original, detail[1:])
        raise error_at(
            "invalid LLVM IR: " + (detail[0] if detail else "verification failed"),
            filename,
            *(where or (None, None)),
            notes=detail[1:4],
        ) from None
    return module


def _check_text(text: str, filename: str) -> None:
    """LLVM IR text holds no NUL character: LLVM's parser reads its input as a C string and
    would stop at the first one, taking binary garbage for an empty (or truncated) module."""
    nul = text.find("\0")
    if nul < 0:
        return
    line = text.count("\n", 0, nul) + 1
    column = nul - (text.rfind("\n", 0, nul) + 1) + 1
    raise error_at(
        "the input is not LLVM IR text: it contains a NUL byte", filename, line, column,
        ["LLVM IR is text (.ll) or bitcode (.bc, starting with the bytes 'BC'); "
         "this file looks like binary data of another kind"],
    )  # fmt: skip


def _parse(text: str | bytes) -> llb.ModuleRef:
    context = llb.create_context()
    if isinstance(text, bytes):
        if text[:2] == b"BC":
            return llb.parse_bitcode(text, context)
        text = text.decode("utf-8", errors="replace")
    return llb.parse_assembly(text, context)


def _parse_upgraded(text: str | bytes, message: str, filename: str) -> llb.ModuleRef:
    """Parse IR that LLVM 22 rejected with `message`, rewritten into today's syntax when the
    message is about a construct LLVM has removed; otherwise, or when that fails, the error."""
    from xenzyme.frontend import ir_upgrade

    bitcode = isinstance(text, bytes) and text[:2] == b"BC"
    removed = ir_upgrade.needs_upgrade(message)
    if removed is None:
        raise _parse_error(message, filename, bitcode) from None
    if bitcode:
        legacy = ir_upgrade.disassemble_19(text)  # type: ignore[arg-type]
        if legacy is None:
            raise _parse_error(message, filename, bitcode, [
                f"this bitcode was written by LLVM 19 or older and holds `{removed}` constant expressions, which "
                "LLVM 22 cannot upgrade in global initializers; xenzyme rewrites them from LLVM 19's text, but "
                "llvm-dis-19 is not installed (`apt-get install llvm-19`, or `make setup`)"]) from None  # fmt: skip
    else:
        legacy = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
    try:
        return _parse(ir_upgrade.upgrade_text(legacy))
    except RuntimeError as e:
        rewritten = ("xenzyme rewrites a `mul` by a constant or by a type's size, and this one is neither"
                     if removed == "mul" else "xenzyme rewrites only `mul`")
        bitcode_hint = ("" if bitcode else "; inside a function LLVM upgrades such an expression when it reads "
                        "bitcode: give the bitcode instead (`-c -emit-llvm`, or `llvm-as` of the LLVM that wrote the text)")
        hint = (f"{rewritten}{bitcode_hint}; in a global's initializer it has no form in LLVM 22: the program must "
                "compute that value at run time")  # fmt: skip
        notes = [f"the IR uses `{removed}` constant expressions, which LLVM has removed and LLVM 22 cannot read", hint]
        if bitcode:  # a position in LLVM 19's disassembly would mean nothing to the user
            m = _LLVM_DIAG.search(str(e))
            raise error_at(f"invalid bitcode: {m.group(3) if m else str(e).strip()}", filename, notes=notes) from None
        raise _parse_error(str(e), filename, False, notes) from None


def _parse_error(message: str, filename: str, bitcode: bool, notes: Sequence[str] = ()) -> XenzymeError:
    if m := _LLVM_DIAG.search(message):
        return error_at(m.group(3), filename, int(m.group(1)), int(m.group(2)),
                        [*notes] or ["LLVM could not parse the input; it must be LLVM IR (LLVM 19-22 syntax)"])  # fmt: skip
    what = "invalid bitcode" if bitcode else "invalid LLVM IR"
    return error_at(f"{what}: {message.strip().splitlines()[-1]}", filename, notes=notes)


def _verifier_position(
    canonical: str, original: str | None, detail: Sequence[str]
) -> tuple[int, int] | None:
    """The user's line and column of the first instruction LLVM's verifier quotes.

    The verifier names no position, but it prints the offending instruction as LLVM prints it,
    which is a line of the canonical text; that line is mapped back to the user's file.
    """
    quoted = next((d.strip() for d in detail if d.strip()), "")
    if original is None or not quoted:
        return None
    lines = canonical.split("\n")
    for i, line in enumerate(lines):
        if line.strip() != quoted:
            continue
        start = next((j for j in range(i, -1, -1) if lines[j].startswith("define ")), None)
        name = _DEFINED_NAME.search(lines[start]) if start is not None else None
        function = _name("@" + name.group(1)) if name else None
        return _SourceMapper(lines, original).position(i, function, start)
    return None


def import_llvm_ir(text: str | bytes, filename: str = "<input>") -> ModuleOp:
    """Import LLVM IR text (or bitcode) into an xDSL module of `llvm` ops."""
    from xenzyme.llvm_binding import release

    module = parse_llvm_module(text, filename)
    try:
        canonical = str(module)
    finally:
        release(module)
    original = text if isinstance(text, str) else None
    return ModuleReader(canonical, filename, original).read()


# ---------------------------------------------------------------------------------------------
# Shared attribute instances
# ---------------------------------------------------------------------------------------------
# Building an attribute verifies it (~10 us); a module repeats the same few alignments, flags,
# types and small integers thousands of times, so each distinct one is built once.  Attributes
# are immutable, so sharing them is safe.

_memo = functools.lru_cache(maxsize=1 << 16)
_UNIT = UnitAttr()
_UNKNOWN = UnknownLoc()


@_memo
def _int_attr(value: int, t: Attribute) -> IntegerAttr:
    return IntegerAttr(value, t)


@_memo
def _float_attr(tok: str, value: float, t: Attribute) -> FloatAttr:
    """Keyed by the literal too: 0.0 and -0.0 compare equal as floats."""
    return FloatAttr(value, t)


@_memo
def _str_attr(s: str) -> StringAttr:
    return StringAttr(s)


@_memo
def _md_attr(pairs: tuple[tuple[str, int], ...]) -> ext.MetadataAttachmentsAttr:
    return ext.MetadataAttachmentsAttr.from_pairs(pairs)


@_memo
def _sym(name: str) -> SymbolRefAttr:
    return SymbolRefAttr(name)


@_memo
def _dense(t: Attribute, values: tuple[int, ...]) -> DenseArrayBase:
    return DenseArrayBase.from_list(t, values)


@_memo
def _cconv(name: str) -> xllvm.CallingConventionAttr:
    return xllvm.CallingConventionAttr(name)


@_memo
def _tail(kind: str) -> xllvm.TailCallKindAttr:
    return xllvm.TailCallKindAttr(xllvm.TailCallKind(kind))


@_memo
def _dict_attr(items: tuple[tuple[str, Attribute], ...]) -> DictionaryAttr:
    return DictionaryAttr(dict(items))


@_memo
def _array_attr(items: tuple[Attribute, ...]) -> ArrayAttr:
    return ArrayAttr(items)


def _dicts(dicts: Sequence[dict[str, Attribute]]) -> ArrayAttr:
    """`[{...}, ...]` of parameter attributes, shared between identical lists."""
    return _array_attr(tuple(_dict_attr(tuple(d.items())) for d in dicts))


@_memo
def _int_type(width: int) -> IntegerType:
    return IntegerType(width)


@_memo
def _vector_type(elem: Attribute, n: int) -> VectorType:
    return VectorType(elem, [n])


@_memo
def _array_type(n: int, elem: Attribute) -> ext.LLVMArrayType:
    return ext.LLVMArrayType(n, elem)


@_memo
def _struct_type(fields: tuple[Attribute, ...]) -> ext.LLVMStructType:
    return ext.LLVMStructType.from_type_list(fields)


@_memo
def _function_type(params: tuple[Attribute, ...], ret: Attribute, vararg: bool) -> ext.LLVMFunctionType:
    """A function type; xDSL's takes only its own LLVM types in signatures (no packed structs)."""
    try:
        return ext.LLVMFunctionType(params, ret, vararg)
    except VerifyException as e:
        raise _Unsupported(f"function type not supported by xDSL's llvm dialect: {e}") from None


@_memo
def _ptr_type(space: int) -> ext.LLVMPointerType:
    return ext.LLVMPointerType(IntAttr(space)) if space else ext.LLVMPointerType()


def _create(
    cls: type[Operation],
    operands: Sequence[SSAValue] = (),
    result_types: Sequence[Attribute] = (),
    properties: dict[str, Attribute] | None = None,
    attributes: dict[str, Attribute] | None = None,
    successors: Sequence[Block] = (),
) -> Operation:
    """What `cls.create(...)` builds, at a third of the cost; ops are what an import makes most.

    `Operation.__init__` runs generic setters (use lists of empty successor tuples, a fresh
    `UnknownLoc` per op, default properties looked up per op); here the defaults come from a
    per-class table and the location is shared.  Like `create`, it does not check the op: the
    caller passes complete operands and, for variadic groups, `operandSegmentSizes`.
    """
    op = cls.__new__(cls)
    uses = []
    for i, v in enumerate(operands):
        use = Use(op, i)
        v.add_use(use)
        uses.append(use)
    op._operands = SSAValues(operands)
    op._operand_uses = tuple(uses)
    op.results = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)])
    default_props, default_attrs = _defaults(cls)
    op.properties = {**default_props, **properties} if properties else dict(default_props)
    op.attributes = {**default_attrs, **attributes} if attributes else dict(default_attrs)
    op.location = _UNKNOWN
    if successors:
        op.successors = successors
    return op


_DEFAULTS: dict[type, tuple[dict[str, Attribute], dict[str, Attribute]]] = {}


def _defaults(cls: type[Operation]) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """The properties and attributes an op of `cls` gets when not given (IRDL defaults)."""
    found = _DEFAULTS.get(cls)
    if found is not None:
        return found
    props: dict[str, Attribute] = {}
    attrs: dict[str, Attribute] = {}
    if issubclass(cls, IRDLOperation):
        op_def = cls.get_irdl_definition()
        for table, defs in ((props, op_def.properties), (attrs, op_def.attributes)):
            for name, d in defs.items():
                if not isinstance(d, OptionalDef) and d.default_value is not None:
                    table[name] = d.default_value
    _DEFAULTS[cls] = (props, attrs)
    return props, attrs


# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
      c?"[^"]*"                               # strings, c-strings
    | ;[^\n]*                                 # comments
    | [%@$!]"[^"]*"                           # quoted names
    | [%@$][-\w$.]+                           # names
    | ![-\w$.\\]*                             # metadata names and nodes, or a bare '!'
    | \#[-\w$.]+                              # attribute groups, debug records
    | \.\.\.
    | [-+]?0x[KLMHR]?[0-9A-Fa-f]+             # hex integers/floats
    | [-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?     # numbers
    | [A-Za-z_.][-\w$.]*                      # keywords, types
    | \S                                      # punctuation
    """,
    re.VERBOSE,
)

_SCALAR_TYPES: dict[str, Attribute] = {
    "half": Float16Type(),
    "bfloat": BFloat16Type(),
    "float": Float32Type(),
    "double": Float64Type(),
    "x86_fp80": Float80Type(),
    "fp128": Float128Type(),
    "ptr": ext.LLVMPointerType(),
    "void": ext.LLVMVoidType(),
    "metadata": ext.LLVMMetadataType(),
    "token": ext.LLVMTokenType(),
    "i1": i1,
    "i8": IntegerType(8),
    "i16": IntegerType(16),
    "i32": i32,
    "i64": i64,
    "i128": IntegerType(128),
}

_FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type, Float80Type, Float128Type)
_WIDE_FLOATS = (Float80Type, Float128Type)
"""Float types whose constants are kept as bits (xDSL can neither hold nor print their values)."""


_PACKING = {Float16Type: ">e", Float32Type: ">f", Float64Type: ">d"}


def _dense_float_ok(value: float, t: Attribute) -> bool:
    """Whether `value` may go into a dense attribute and survive xDSL's text form.

    xDSL writes a dense float that six-digit decimal does not hold exactly in hex, and reads
    that hex back as an integer value; such constants are built element by element instead.
    """
    fmt = _PACKING.get(type(t))
    if fmt is None or not math.isfinite(value):
        return False
    try:
        return struct.pack(fmt, float(f"{value:.6e}")) == struct.pack(fmt, value)
    except OverflowError:
        return False


def _wide_float_bits(tok: str, t: Attribute) -> tuple[int, int]:
    """(bits, width) of a float literal of type `t`, hex as LLVM prints it, or decimal."""
    if tok.lstrip("+-").startswith("0x"):
        return float_bits(tok.lstrip("+-"))
    from xenzyme.llvm_text import float_bits_of

    return float_bits_of(float(tok), t)

_LINKAGES = {
    "private", "internal", "available_externally", "linkonce", "weak", "common", "appending",
    "extern_weak", "linkonce_odr", "weak_odr", "external",
}  # fmt: skip
_VISIBILITY = {"default": 0, "hidden": 1, "protected": 2}
_UNNAMED_ADDR = {"local_unnamed_addr": 1, "unnamed_addr": 2}
_CCONVS = {
    "ccc", "fastcc", "coldcc", "webkit_jscc", "anyregcc", "preserve_mostcc", "preserve_allcc",
    "cxx_fast_tlscc", "tailcc", "swiftcc", "swifttailcc", "cfguard_checkcc", "x86_stdcallcc",
    "x86_fastcallcc", "x86_thiscallcc", "x86_vectorcallcc", "x86_regcallcc", "intel_ocl_bicc",
    "x86_64_sysvcc", "win64cc", "ptx_kernel", "ptx_device", "amdgpu_kernel", "spir_kernel",
    "spir_func",
}  # fmt: skip
_FMF = {"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"}

_CONST_KEYWORDS = {
    "true", "false", "null", "undef", "poison", "zeroinitializer", "none", "splat",
    "getelementptr", "ptrtoint", "inttoptr", "bitcast", "addrspacecast", "trunc", "zext", "sext",
    "add", "sub", "mul", "shl", "xor", "extractelement", "insertelement", "shufflevector",
    "blockaddress", "dso_local_equivalent", "no_cfi", "ptrauth", "asm",
}  # fmt: skip
"""Words that begin a value (so they end a list of parameter attributes)."""

_INT_PREDICATES = {str(f) for f in xllvm.ICmpPredicateFlag}
_FLOAT_PREDICATES = {str(f).lstrip("_") for f in xllvm.FCmpPredicateFlag}


class _Cursor:
    """Tokens of one construct (an instruction, a global, a header) with a read position."""

    __slots__ = ("line", "pos", "toks")

    def __init__(self, toks: list[str], line: int):
        self.toks = toks
        self.pos = 0
        self.line = line

    # The three accessors below run millions of times per module: no bounds test unless needed.

    def peek(self, ahead: int = 0) -> str:
        try:
            return self.toks[self.pos + ahead]
        except IndexError:
            return ""

    def next(self) -> str:
        pos = self.pos
        self.pos = pos + 1
        try:
            return self.toks[pos]
        except IndexError:
            return ""

    def accept(self, tok: str) -> bool:
        try:
            if self.toks[self.pos] == tok:
                self.pos += 1
                return True
        except IndexError:
            pass
        return False

    def expect(self, tok: str) -> None:
        if self.next() != tok:
            raise _Unsupported(f"expected '{tok}' near '{' '.join(self.toks[self.pos - 1 :][:6])}'")

    def at_end(self) -> bool:
        return self.pos >= len(self.toks)

    def rest(self) -> str:
        return " ".join(self.toks[self.pos :])

    def balanced(self) -> str:
        """Consume a parenthesised group starting at '(' and return its inner text."""
        self.expect("(")
        depth, parts = 1, []
        while True:
            t = self.next()
            if t == "":
                raise _Unsupported("unbalanced parentheses")
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
                if depth == 0:
                    return _join(parts)
            parts.append(t)


def _join(parts: Sequence[str]) -> str:
    """Tokens back into LLVM's spacing: `!DIExpression(DW_OP_plus_uconst, 8)`, `i32 (ptr)`."""
    out = ""
    last = ""
    for p in parts:
        glued = p in ",)]}:" or out[-1:] in ("(", "[", "{") or (p == "(" and last[:1] == "!")
        if out and not glued:
            out += " "
        out += p
        last = p
    return out


class _Unsupported(Exception):
    """Internal: a construct the importer does not handle; becomes a located XenzymeError."""


def _tokens(line: str) -> list[str]:
    toks = _TOKEN.findall(line)
    if ";" in line:
        return [t for t in toks if t[0] != ";"]
    return toks


# ---------------------------------------------------------------------------------------------
# Literals
# ---------------------------------------------------------------------------------------------


def _unescape(s: str) -> str:
    """LLVM string body (with \\XX escapes) -> str with one char per byte (latin-1)."""
    if "\\" not in s:
        return s
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 2 < len(s) + 1 and re.match(r"[0-9A-Fa-f]{2}", s[i + 1 : i + 3]):
            out.append(chr(int(s[i + 1 : i + 3], 16)))
            i += 3
        elif s[i] == "\\" and s[i + 1 : i + 2] == "\\":
            out.append("\\")
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def _signed(value: int, width: int) -> int:
    """`value` (any integer) as a signed `width`-bit integer."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _name(tok: str) -> str:
    """`%x`, `@"a b"` -> `x`, `a b`."""
    body = tok[1:]
    if body.startswith('"'):
        return _unescape(body[1:-1])
    return body


def _f80_to_float(bits: int) -> float:
    sign = -1 if bits >> 79 else 1
    exp = (bits >> 64) & 0x7FFF
    mant = bits & ((1 << 64) - 1)
    if exp == 0x7FFF:
        return sign * math.inf if mant << 1 == 0 else math.nan
    value = Fraction(mant) * Fraction(2) ** (exp - 16383 - 63 if exp else 1 - 16383 - 63)
    f = float(value)
    if Fraction(f) != value:
        raise _Unsupported("x86_fp80 constant is not exactly representable as a double")
    return sign * f


def _f128_to_float(bits: int) -> float:
    sign = -1 if bits >> 127 else 1
    exp = (bits >> 112) & 0x7FFF
    mant = bits & ((1 << 112) - 1)
    if exp == 0x7FFF:
        return sign * math.inf if mant == 0 else math.nan
    if exp:
        value = Fraction(mant + (1 << 112)) * Fraction(2) ** (exp - 16383 - 112)
    else:
        value = Fraction(mant) * Fraction(2) ** (1 - 16383 - 112)
    f = float(value)
    if Fraction(f) != value:
        raise _Unsupported("fp128 constant is not exactly representable as a double")
    return sign * f


_HEX_FLOAT_WIDTH = {"K": 80, "L": 128, "H": 16, "R": 16}
"""Bit width of the hex float literals LLVM writes for types other than float and double."""


def exact_float(tok: str, t: Attribute) -> float | None:
    """The literal's value as a Python float, or None when a float cannot hold it bit-exactly.

    Doubles (and floats, which LLVM writes as the equal double) always fit.  x86_fp80 and fp128
    values with more precision or range, and NaN payloads of the narrow types, do not: the
    importer keeps those as their bits, bitcast from an integer.
    """
    try:
        value = parse_float_literal(tok)
    except _Unsupported:
        return None
    if isinstance(t, Float64Type | Float32Type) or not tok.startswith("0x"):
        return value
    from xenzyme.llvm_text import float_literal

    return value if float_literal(value, t) == tok else None


def float_bits(tok: str) -> tuple[int, int]:
    """(bits, width) of a hex float literal (`0xK...`, `0xL...`, `0xH...`, `0xR...`, `0x...`).

    fp128 (`0xL`) is written low 64 bits first, then the high 64 bits.
    """
    kind = tok[2]
    if kind == "L":
        digits = tok[3:]
        return (int(digits[16:], 16) << 64) | int(digits[:16], 16), 128
    if kind in _HEX_FLOAT_WIDTH:
        return int(tok[3:], 16), _HEX_FLOAT_WIDTH[kind]
    return int(tok[2:], 16), 64


def parse_float_literal(tok: str) -> float:
    """LLVM float literal (decimal, or hex with the K/L/H/R prefixes) -> Python float."""
    neg = tok.startswith("-")
    body = tok.lstrip("+-")
    if not body.startswith("0x"):
        return float(tok)
    kind = body[2] if body[2] in "KLMHR" else ""
    if kind == "M":
        raise _Unsupported("ppc_fp128 constants are not supported")
    bits, _ = float_bits(body)
    if kind == "":
        value = struct.unpack(">d", bits.to_bytes(8, "big"))[0]
    elif kind == "H":
        value = struct.unpack(">e", bits.to_bytes(2, "big"))[0]
    elif kind == "R":
        value = struct.unpack(">f", (bits << 16).to_bytes(4, "big"))[0]
    elif kind == "K":
        value = _f80_to_float(bits)
    else:
        value = _f128_to_float(bits)
    return -value if neg else value


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------


def _attr_key(kind: str) -> str:
    return kind if kind.startswith('"') else f"llvm.{kind}"


class _AttrReader:
    """Parameter, return and function attributes in their LLVM spelling."""

    def __init__(self, types: Callable[[_Cursor], Attribute]):
        self.parse_type = types

    def param_attrs(self, cur: _Cursor, stop: Callable[[str], bool]) -> dict[str, Attribute]:
        """Attributes until `stop(token)` is true (a value, ',' or ')')."""
        out: dict[str, Attribute] = {}
        while not cur.at_end() and not stop(cur.peek()):
            tok = cur.next()
            if tok.startswith('"'):
                key = _unescape(tok[1:-1])
                val = ""
                if cur.accept("="):
                    val = _unescape(cur.next()[1:-1])
                out[key] = _str_attr(val)
            elif tok in ("align", "alignstack") and cur.peek() != "(":
                out[_attr_key(tok)] = _int_attr(int(cur.next()), i64)
            elif cur.peek() == "(":
                if tok in ("byval", "sret", "byref", "preallocated", "inalloca", "elementtype"):
                    cur.expect("(")
                    out[_attr_key(tok)] = self.parse_type(cur)
                    cur.expect(")")
                elif tok in ("dereferenceable", "dereferenceable_or_null", "align", "alignstack"):
                    out[_attr_key(tok)] = _int_attr(int(cur.balanced()), i64)
                else:
                    out[_attr_key(tok)] = _str_attr(cur.balanced())
            else:
                out[_attr_key(tok)] = _UNIT
        return out

    @staticmethod
    def fn_attrs(cur: _Cursor, groups: dict[str, list[Attribute]]) -> list[Attribute]:
        """Function attributes (inline or `#N` groups) until a non-attribute token."""
        out: list[Attribute] = []
        while not cur.at_end():
            tok = cur.peek()
            if tok.startswith("#") and tok[1:].isdigit():
                cur.next()
                out += groups.get(tok, [])
            elif tok.startswith('"'):
                cur.next()
                key = _unescape(tok[1:-1])
                val = _unescape(cur.next()[1:-1]) if cur.accept("=") else ""
                out.append(_array_attr((_str_attr(key), _str_attr(val))))
            elif re.fullmatch(r"[a-z_][a-z0-9_]*", tok) and tok not in (
                "section", "partition", "comdat", "align", "gc", "prefix", "prologue",
                "personality", "to", "unwind",
            ):  # fmt: skip
                cur.next()
                if cur.peek() == "(":
                    out.append(_str_attr(f"{tok}({cur.balanced()})"))
                else:
                    out.append(_str_attr(tok))
            else:
                break
        return out


def _group_attrs(body: str) -> list[Attribute]:
    cur = _Cursor(_tokens(body), 0)
    out: list[Attribute] = []
    while not cur.at_end():
        tok = cur.next()
        if tok.startswith('"'):
            key = _unescape(tok[1:-1])
            val = _unescape(cur.next()[1:-1]) if cur.accept("=") else ""
            out.append(_array_attr((_str_attr(key), _str_attr(val))))
        elif cur.peek() == "(":
            out.append(_str_attr(f"{tok}({cur.balanced()})"))
        elif tok == "alignstack" and cur.peek() == "=":
            cur.next()
            out.append(_str_attr(f"alignstack({cur.next()})"))
        else:
            out.append(_str_attr(tok))
    return out


# ---------------------------------------------------------------------------------------------
# Debug locations
# ---------------------------------------------------------------------------------------------

_FIELD = re.compile(r"(\w+): (\"(?:[^\"\\]|\\.)*\"|[^,)]+)")


class MetadataTable:
    """The module's numbered metadata, verbatim, with lookups for what passes need."""

    def __init__(self, lines: Sequence[str]):
        self.nodes: dict[int, str] = {}
        for line in lines:
            m = re.match(r"!(\d+) = (.*)", line)
            if m:
                self.nodes[int(m.group(1))] = m.group(2)
        self._locs: dict[int, tuple[str, int, int] | None] = {}

    def fields(self, node: int) -> dict[str, str]:
        return dict(_FIELD.findall(self.nodes.get(node, "")))

    def location(self, node: int) -> tuple[str, int, int] | None:
        """(file, line, column) of a DILocation node."""
        if node in self._locs:
            return self._locs[node]
        text = self.nodes.get(node, "")
        result = None
        if "DILocation(" in text:
            f = self.fields(node)
            result = (self._file_of(f.get("scope", "")), int(f.get("line", "0")), int(f.get("column", "0")))
        self._locs[node] = result
        return result

    def _file_of(self, scope_ref: str, depth: int = 0) -> str:
        if not scope_ref.startswith("!") or depth > 50:
            return "<unknown>"
        f = self.fields(int(scope_ref[1:]))
        if "filename" in f:
            return _unescape(f["filename"][1:-1])
        if "file" in f:
            return self._file_of(f["file"], depth + 1)
        return self._file_of(f.get("scope", ""), depth + 1)


# ---------------------------------------------------------------------------------------------
# Mapping canonical lines back to the user's file
# ---------------------------------------------------------------------------------------------

_DBG_REF = re.compile(r"!dbg !(\d+)")
_LABEL_LINE = re.compile(r'\s*(?:"[^"]*"|[-\w$.]+):(?:\s|;|$)')
_STRING = re.compile(r'"[^"]*"')
_CONTINUATION = ("to label", "unwind ", "cleanup", "catch ", "filter ", "]")
_DEFINED_NAME = re.compile(r'@("(?:[^"\\]|\\.)*"|[-\w$.]+)\s*\(')


def _opcode(line: str) -> str:
    """The instruction keyword of a statement line (`add` in `%x = add i32 ...`)."""
    words = line.split()
    if len(words) > 2 and words[1] == "=":
        words = words[2:]
    while words and words[0] in ("tail", "musttail", "notail"):
        words = words[1:]
    return words[0] if words else ""


class _SourceMapper:
    """Finds the user's line for a line of LLVM's canonical printing of the module."""

    def __init__(self, canonical: Sequence[str], original: str | None):
        self.canonical = canonical
        self.original = original.split("\n") if original is not None else None

    def position(
        self, line: int, function: str | None, function_start: int | None
    ) -> tuple[int, int] | None:
        """(line, column), both from 1, or None when the original is not text (bitcode)."""
        orig = self.original
        if orig is None or not 0 <= line < len(self.canonical):
            return None
        if function is None or function_start is None:
            found = self._top_level(self.canonical[line])
        elif line == function_start:
            found = self._function_start(function)
        else:
            found = self._in_function(line, function, function_start)
        if found is None:
            return None
        text = orig[found]
        return found + 1, len(text) - len(text.lstrip()) + 1

    def _top_level(self, text: str) -> int | None:
        if text.startswith(("define", "declare")) and (m := _DEFINED_NAME.search(text)):
            return self._function_start(_name("@" + m.group(1)))
        name = text.split(" ", 1)[0]
        for i, ln in enumerate(self.original or ()):
            if ln.startswith(name + " ") or ln.startswith(name + "="):
                return i
        return None

    def _function_start(self, function: str) -> int | None:
        for i, ln in enumerate(self.original or ()):
            if ln.lstrip().startswith(("define", "declare")) and (m := _DEFINED_NAME.search(ln)):
                if _name("@" + m.group(1)) == function:
                    return i
        return None

    def _in_function(self, line: int, function: str, start: int) -> int | None:
        index = next((k for k, i in enumerate(_statements(self.canonical, start)) if i == line), None)
        user_start = self._function_start(function)
        if index is None or user_start is None:
            return user_start
        user = list(_statements(self.original or (), user_start))
        if not user:
            return user_start
        want = _opcode(self.canonical[line])
        k = min(index, len(user) - 1)
        if _opcode(self.original[user[k]]) == want:  # type: ignore[index]
            return user[k]
        for d in range(1, len(user)):  # the nearest statement with the same opcode
            for j in (k - d, k + d):
                if 0 <= j < len(user) and _opcode(self.original[user[j]]) == want:  # type: ignore[index]
                    return user[j]
        return user[k]


def _statements(lines: Sequence[str], start: int) -> Iterator[int]:
    """Indices of the lines that begin an instruction in the body of the function at `start`.

    Labels, comments, blank lines and debug records are not instructions; switch cases and
    invoke destinations continue the line before.
    """
    depth = 0
    for i in range(start + 1, len(lines)):
        s = lines[i].strip()
        if s == "}" and depth <= 0:
            return
        bare = _STRING.sub("", s.split(";", 1)[0]) if '"' in s or ";" in s else s
        opened = bare.count("[") - bare.count("]")
        if depth > 0:
            depth += opened
            continue
        if not bare or _LABEL_LINE.match(s) or s.startswith(_CONTINUATION):
            continue
        if s.startswith(("#dbg_", "call void @llvm.dbg.", "tail call void @llvm.dbg.")):
            continue
        depth = opened
        yield i


# ---------------------------------------------------------------------------------------------
# Module
# ---------------------------------------------------------------------------------------------

_OPAQUE = object()


class ModuleReader:
    """Reads LLVM's canonical module text into a `builtin.module` of `llvm` ops."""

    def __init__(self, text: str, filename: str, original: str | None = None):
        self.text = text
        self.filename = filename
        self.original = original
        self.lines = text.split("\n")
        self.struct_bodies: dict[str, tuple[str, list[str]]] = {}
        self.struct_types: dict[str, Attribute] = {}
        self.attr_groups: dict[str, list[Attribute]] = {}
        self.metadata_lines: list[str] = []
        self.metadata = MetadataTable([])
        self.global_types: dict[str, Attribute] = {}
        self.attrs = _AttrReader(self.parse_type)
        self.loc_cache: dict[int, Attribute] = {}

    # ---- errors -------------------------------------------------------------------------

    def error(
        self,
        message: str,
        line: int,
        function: str | None = None,
        function_start: int | None = None,
        notes: Sequence[str] = (),
    ) -> XenzymeError:
        """An error about canonical line `line`, reported at the user's line and column.

        The user's file is not what was read: LLVM's canonical printing renames values,
        reorders attributes and drops comments.  Lines are mapped back by position -- the Nth
        instruction of a function is the Nth instruction of the same function in the original
        -- which holds as long as LLVM's auto-upgrade did not add or remove instructions; a
        mismatched opcode makes the mapper look for the nearest instruction with the right one.
        """
        text = self.lines[line].strip() if 0 <= line < len(self.lines) else ""
        where = f" in function @{function}" if function else ""
        found = _SourceMapper(self.lines, self.original).position(line, function, function_start)
        all_notes = [f"while reading: {text[:160]}"] if text else []
        if (m := _DBG_REF.search(text)) is not None and (loc := self.metadata.location(int(m.group(1)))):
            all_notes.append(f"the instruction comes from {loc[0]}:{loc[1]}:{loc[2]}")
        all_notes += notes
        return error_at(
            f"cannot import{where}: {message}",
            self.filename,
            found[0] if found else None,
            found[1] if found else None,
            notes=all_notes,
        )

    def _names_source(self, name: str) -> bool:
        """Whether the input itself says `source_filename = "name"` (LLVM invents `<string>`)."""
        return self.original is not None and f'source_filename = "{name}"' in self.original

    # ---- types ----------------------------------------------------------------------------

    def parse_type(self, cur: _Cursor) -> Attribute:
        t = self._parse_base_type(cur)
        while cur.peek() == "(":
            cur.next()
            params: list[Attribute] = []
            vararg = False
            while not cur.accept(")"):
                if cur.accept("..."):
                    vararg = True
                else:
                    params.append(self.parse_type(cur))
                cur.accept(",")
            t = _function_type(tuple(params), t, vararg)
        return t

    def _parse_base_type(self, cur: _Cursor) -> Attribute:
        tok = cur.next()
        if (t := _SCALAR_TYPES.get(tok)) is not None:
            if tok == "ptr" and cur.peek() == "addrspace":
                cur.next()
                return _ptr_type(int(cur.balanced()))
            return t
        if tok[0] == "i" and tok[1:].isdigit():
            return _int_type(int(tok[1:]))
        if tok == "<":
            if cur.peek() == "{":
                cur.next()
                fields = self._type_list(cur, "}")
                cur.expect(">")
                return ext.LLVMPackedStructType(StringAttr(""), ArrayAttr(fields))
            if cur.peek() == "vscale":
                raise _Unsupported("scalable vectors are not supported")
            n = int(cur.next())
            cur.expect("x")
            elem = self.parse_type(cur)
            cur.expect(">")
            return _vector_type(elem, n)
        if tok == "[":
            n = int(cur.next())
            cur.expect("x")
            elem = self.parse_type(cur)
            cur.expect("]")
            return _array_type(n, elem)
        if tok == "{":
            return _struct_type(tuple(self._type_list(cur, "}")))
        if tok.startswith("%"):
            return self.named_struct(_name(tok))
        if tok in ("ppc_fp128", "x86_amx", "label", "target"):
            raise _Unsupported(f"type '{tok}' is not supported")
        raise _Unsupported(f"expected a type, got '{tok}'")

    def _type_list(self, cur: _Cursor, close: str) -> list[Attribute]:
        out: list[Attribute] = []
        while not cur.accept(close):
            out.append(self.parse_type(cur))
            cur.accept(",")
        return out

    def named_struct(self, name: str) -> Attribute:
        if (t := self.struct_types.get(name)) is not None:
            return t
        if name not in self.struct_bodies:
            raise _Unsupported(f"unknown type %{name}")
        kind, body = self.struct_bodies[name]
        if kind == "opaque":
            t = ext.LLVMOpaqueStructType(StringAttr(name))
        else:
            cur = _Cursor(body, 0)
            inner = self.parse_type(cur)
            if isinstance(inner, ext.LLVMStructType):
                t = ext.LLVMStructType(StringAttr(name), inner.types)
            elif isinstance(inner, ext.LLVMPackedStructType):
                t = ext.LLVMPackedStructType(StringAttr(name), inner.types)
            else:
                t = inner
        self.struct_types[name] = t
        return t

    # ---- top level ------------------------------------------------------------------------

    def read(self) -> ModuleOp:
        with paused_gc():
            return self._read()

    def _read(self) -> ModuleOp:
        self._prescan()
        module_attrs: dict[str, Attribute] = {}
        body: list[Operation] = []
        comdats: dict[str, Attribute] = {}
        module_asm: list[Attribute] = []
        i = 0
        n = len(self.lines)
        while i < n:
            line = self.lines[i]
            if not line or line[0] == ";" or line.startswith("attributes #") or line[0] == "!":
                i += 1
                continue
            try:
                if line.startswith("define "):
                    end = i + 1
                    while end < n and self.lines[end] != "}":
                        end += 1
                    body.append(self._function(i, end))
                    i = end + 1
                    continue
                if line.startswith("declare "):
                    if not line.startswith("declare", 0) or "@llvm." not in line.split("(")[0]:
                        body.append(self._function(i, None))
                    # intrinsic declarations are implied by their uses
                elif line.startswith("@"):
                    body.append(self._global(i))
                elif line.startswith("source_filename = "):
                    name = _unescape(line[19:-1])
                    if name != "<string>" or self._names_source(name):
                        module_attrs["llvm.source_filename"] = StringAttr(name)
                elif line.startswith("target datalayout = "):
                    module_attrs["llvm.data_layout"] = StringAttr(line[21:-1])
                elif line.startswith("target triple = "):
                    module_attrs["llvm.target_triple"] = StringAttr(line[17:-1])
                elif line.startswith("module asm "):
                    module_asm.append(StringAttr(_unescape(line[12:-1])))
                elif line.startswith("$"):
                    m = re.match(r'(\$\S+) = comdat (\w+)', line)
                    if not m:
                        raise _Unsupported("malformed comdat")
                    comdats[_name(m.group(1))] = StringAttr(m.group(2))
                elif line.startswith("%"):
                    pass  # type definitions, read by _prescan
                else:
                    raise _Unsupported("unrecognised top-level entity")
            except _Unsupported as e:
                raise self.error(str(e), i) from None
            except (ValueError, KeyError, IndexError, AssertionError, TypeError) as e:
                raise self.error(
                    f"unexpected {type(e).__name__}: {e}",
                    i,
                    notes=["this is a bug in xenzyme's importer; please report it with the input"],
                ) from None
            i += 1
        if comdats:
            module_attrs["llvm.comdats"] = DictionaryAttr(comdats)
        if module_asm:
            module_attrs["llvm.module_asm"] = ArrayAttr(module_asm)
        if self.metadata_lines:
            module_attrs["llvm.metadata"] = ArrayAttr([StringAttr(s) for s in self.metadata_lines])
        module = ModuleOp(body)
        module.attributes.update(module_attrs)
        return module

    def _prescan(self) -> None:
        """Type definitions, attribute groups, metadata and global value types come first."""
        for i, line in enumerate(self.lines):
            if not line:
                continue
            c = line[0]
            if c == "%":
                m = re.match(r'(%"[^"]*"|%[-\w$.]+) = type (.*)', line)
                if m:
                    body = m.group(2)
                    self.struct_bodies[_name(m.group(1))] = (
                        ("opaque", []) if body == "opaque" else ("body", _tokens(body))
                    )
            elif c == "!":
                self.metadata_lines.append(line)
            elif line.startswith("attributes #"):
                m = re.match(r"attributes (#\d+) = \{ (.*) \}$", line)
                if m:
                    self.attr_groups[m.group(1)] = _group_attrs(m.group(2))
            elif c == "@":
                self._record_global_type(line, i)
            elif line.startswith(("define ", "declare ")):
                m = re.search(r'(@"[^"]*"|@[-\w$.]+)\(', line)
                if m:
                    self.global_types[_name(m.group(1))] = ext.LLVMPointerType()
        self.metadata = MetadataTable(self.metadata_lines)

    def _record_global_type(self, line: str, i: int) -> None:
        m = re.match(r'(@"[^"]*"|@[-\w$.]+) = ', line)
        if not m:
            return
        am = re.search(r"\baddrspace\((\d+)\)", line[: line.find(" global ") if " global " in line else len(line)])
        space = int(am.group(1)) if am and " alias " not in line else 0
        self.global_types[_name(m.group(1))] = (
            ext.LLVMPointerType(IntAttr(space)) if space else ext.LLVMPointerType()
        )

    # ---- globals --------------------------------------------------------------------------

    def _global(self, i: int) -> Operation:
        cur = _Cursor(_tokens(self.lines[i]), i)
        name = _name(cur.next())
        cur.expect("=")
        linkage = "external"
        props: dict[str, Attribute] = {}
        attrs: dict[str, Attribute] = {}
        while True:
            tok = cur.peek()
            if tok in _LINKAGES:
                linkage = cur.next()
            elif tok == "dso_local":
                cur.next()
                props["dso_local"] = _UNIT
            elif tok == "dso_preemptable":
                cur.next()
            elif tok in _VISIBILITY:
                cur.next()
                props["visibility_"] = _int_attr(_VISIBILITY[tok], i64)
            elif tok in ("dllimport", "dllexport"):
                attrs["dll_storage"] = StringAttr(cur.next())
            elif tok == "thread_local":
                cur.next()
                props["thread_local_"] = _UNIT
                if cur.peek() == "(":
                    attrs["tls_model"] = StringAttr(cur.balanced())
            elif tok in _UNNAMED_ADDR:
                cur.next()
                props["unnamed_addr"] = _int_attr(_UNNAMED_ADDR[tok], i64)
            elif tok == "addrspace":
                cur.next()
                props["addr_space"] = _int_attr(int(cur.balanced()), i32)
            elif tok == "externally_initialized":
                cur.next()
                attrs["externally_initialized"] = _UNIT
            else:
                break
        kind = cur.next()
        if kind == "alias":
            return self._alias(cur, name, linkage, props, attrs)
        if kind == "ifunc":
            raise _Unsupported("ifunc is not supported")
        if kind not in ("global", "constant"):
            raise _Unsupported(f"unexpected '{kind}' in global declaration")
        if kind == "constant":
            props["constant"] = _UNIT
        gtype = self.parse_type(cur)
        region = Region()
        if not cur.at_end() and cur.peek() != "," and not cur.peek().startswith("#"):
            value, region = self._initializer(cur, gtype)
            if value is not None:
                props["value"] = value
        md: list[tuple[str, int]] = []
        while cur.accept(","):
            tok = cur.next()
            if tok == "section":
                props["section"] = StringAttr(_unescape(cur.next()[1:-1]))
            elif tok == "partition":
                attrs["partition"] = StringAttr(_unescape(cur.next()[1:-1]))
            elif tok == "comdat":
                attrs["comdat"] = StringAttr(_name(cur.balanced()) if cur.peek() == "(" else name)
            elif tok == "align":
                props["alignment"] = _int_attr(int(cur.next()), i64)
            elif tok == "code_model":
                attrs["code_model"] = StringAttr(_unescape(cur.next()[1:-1]))
            elif tok.startswith("!"):
                md.append((tok[1:], int(cur.next()[1:])))
            else:
                raise _Unsupported(f"unexpected global attribute '{tok}'")
        if cur.peek().startswith("#"):
            attrs["attributes"] = ArrayAttr(self.attr_groups.get(cur.next(), []))
        if md:
            attrs["md"] = _md_attr(tuple(md))
        op = xllvm.GlobalOp.create(
            properties={
                "global_type": gtype,
                "sym_name": StringAttr(name),
                "linkage": xllvm.LinkageAttr(linkage),
                "addr_space": props.pop("addr_space", _int_attr(0, i32)),
                **props,
            },
            attributes=attrs,
            regions=[region],
        )
        return op

    def _alias(
        self,
        cur: _Cursor,
        name: str,
        linkage: str,
        props: dict[str, Attribute],
        attrs: dict[str, Attribute],
    ) -> Operation:
        value_type = self.parse_type(cur)
        cur.expect(",")
        ptr_type = self.parse_type(cur)
        builder = _ConstBuilder(self, None)
        v = builder.constant(cur, ptr_type)
        block = Block()
        block.add_ops([*builder.ops, xllvm.ReturnOp(v)])
        for k in ("dso_local", "thread_local_", "unnamed_addr", "visibility_"):
            if k in props:
                attrs[k] = props[k]
        attrs["value_type"] = value_type
        return ext.AliasOp(name, ptr_type, linkage, Region([block]), attrs)

    def _initializer(self, cur: _Cursor, gtype: Attribute) -> tuple[Attribute | None, Region]:
        """A global's initializer: a value attribute when simple, otherwise a region."""
        start = cur.pos
        simple = self._simple_initializer(cur, gtype)
        if simple is not None:
            return simple, Region()
        cur.pos = start
        builder = _ConstBuilder(self, None)
        v = builder.constant(cur, gtype)
        block = Block()
        block.add_ops([*builder.ops, xllvm.ReturnOp(v)])
        return None, Region([block])

    def _simple_initializer(self, cur: _Cursor, gtype: Attribute) -> Attribute | None:
        tok = cur.peek()
        if isinstance(gtype, IntegerType) and (tok.lstrip("-").isdigit() or tok in ("true", "false")):
            cur.next()
            return _int_attr(int(tok) if tok not in ("true", "false") else int(tok == "true"), gtype)
        if isinstance(gtype, _FLOAT_TYPES) and (tok[0].isdigit() or tok[0] in "+-"):
            value = exact_float(tok, gtype) if not isinstance(gtype, _WIDE_FLOATS) else None
            if value is None:
                return None
            cur.next()
            return FloatAttr(value, gtype)
        if tok.startswith('c"') and isinstance(gtype, ext.LLVMArrayType):
            cur.next()
            return StringAttr(_unescape(tok[2:-1]))
        if tok == "[" and isinstance(gtype, ext.LLVMArrayType):
            shape, elem = _array_shape(gtype)
            if elem is None:
                return None
            values = self._numbers(cur, gtype)
            if values is None:
                return None
            return DenseIntOrFPElementsAttr.from_list(TensorType(elem, shape), values)
        return None

    def _numbers(self, cur: _Cursor, t: Attribute) -> list[int] | list[float] | None:
        """Flatten a (nested) array literal of plain numbers; None if it holds anything else."""
        out: list = []

        def walk(t: Attribute) -> bool:
            tok = cur.next()
            if isinstance(t, ext.LLVMArrayType):
                if tok == "zeroinitializer":
                    n = math.prod(_array_shape(t)[0])
                    out.extend([0] * n)
                    return True
                if tok == "[":
                    first = True
                    while not cur.accept("]"):
                        if not first:
                            cur.expect(",")
                        first = False
                        if cur.peek() == "]":
                            continue
                        self.parse_type(cur)
                        if not walk(t.type):
                            return False
                    return True
                if tok.startswith('c"') and isinstance(t.type, IntegerType):
                    out.extend(ord(ch) for ch in _unescape(tok[2:-1]))
                    return True
                return False
            if isinstance(t, IntegerType):
                if tok in ("true", "false"):
                    out.append(int(tok == "true"))
                    return True
                if tok.lstrip("-").isdigit():
                    out.append(int(tok))
                    return True
                return False
            if tok[:1].isdigit() or tok[:1] in "+-":
                value = exact_float(tok, t)
                out.append(value)
                return value is not None and _dense_float_ok(value, t)
            return False

        try:
            return out if walk(t) else None
        except (_Unsupported, ValueError, IndexError):
            return None

    # ---- functions ------------------------------------------------------------------------

    def _function(self, i: int, end: int | None) -> Operation:
        return FunctionReader(self, i, end).read()

    def location(self, node: int) -> Attribute:
        if (loc := self.loc_cache.get(node)) is not None:
            return loc
        where = self.metadata.location(node)
        file, line, col = where if where is not None else ("<unknown>", 0, 0)
        loc = NameLoc(StringAttr(f"!{node}"), FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col)))
        self.loc_cache[node] = loc
        return loc


def _array_shape(t: Attribute) -> tuple[list[int], Attribute | None]:
    shape: list[int] = []
    while isinstance(t, ext.LLVMArrayType):
        shape.append(t.size.data)
        t = t.type
    if isinstance(t, IntegerType | Float16Type | BFloat16Type | Float32Type | Float64Type):
        return shape, t
    return shape, None


# ---------------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------------


class _ConstBuilder:
    """Turns constant syntax into ops (collected in `ops`), caching repeated constants."""

    def __init__(self, module: ModuleReader, fn: FunctionReader | None):
        self.m = module
        self.fn = fn
        self.ops: list[Operation] = []
        self.cache: dict[tuple[Attribute, str], SSAValue] = {}

    def _emit(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def constant(self, cur: _Cursor, t: Attribute) -> SSAValue:
        start = cur.pos
        tok = cur.peek()
        simple = tok not in ("<", "[", "{", "getelementptr", "splat") and not cur.peek(1) == "("
        if simple:
            key = (t, tok)
            if (v := self.cache.get(key)) is not None:
                cur.pos += 1
                return v
        mark = len(self.ops)
        v = self._constant(cur, t)
        if simple:
            self.cache[(t, tok)] = v
        elif cur.pos - start < 64:
            key = (t, " ".join(cur.toks[start : cur.pos]))
            if (old := self.cache.get(key)) is not None:
                self._discard(mark)
                return old
            self.cache[key] = v
        return v

    def _discard(self, mark: int) -> None:
        """Drop the ops built since `mark`: the constant they spell exists already.

        A constant's extent is only known once it is read, so a repeated one is built, found in
        the cache and thrown away (left in place it would be an unused instruction).
        """
        for op in reversed(self.ops[mark:]):
            op.erase(safe_erase=False)
        del self.ops[mark:]

    def _constant(self, cur: _Cursor, t: Attribute) -> SSAValue:
        tok = cur.next()
        if tok.startswith("@"):
            return self._emit(
                _create(
                    xllvm.AddressOfOp,
                    properties={"global_name": _sym(_name(tok))},
                    result_types=[t],
                )
            )
        if tok == "null" or tok == "zeroinitializer":
            return self.zero(t)
        if tok == "undef":
            return self._emit(_create(xllvm.UndefOp, result_types=[t]))
        if tok == "poison":
            return self._emit(_create(ext.PoisonOp, result_types=[t]))
        if tok in ("true", "false"):
            return self._scalar(_int_attr(int(tok == "true"), t), t)
        if isinstance(t, IntegerType) and (tok.lstrip("-").isdigit()):
            return self._scalar(_int_attr(int(tok), t), t)
        if isinstance(t, _FLOAT_TYPES) and (tok[:1].isdigit() or tok[:1] in "+-"):
            return self._float(tok, t)
        if tok == "splat":
            if not isinstance(t, VectorType):
                raise _Unsupported("splat of a non-vector type")
            cur.expect("(")
            et = self.m.parse_type(cur)
            elem = self._scalar_value(cur, et)
            if elem is not None:
                cur.expect(")")
                return self._scalar(DenseIntOrFPElementsAttr.from_list(t, [elem]), t)
            lane = self.constant(cur, et)
            cur.expect(")")
            return self._lanes(t, [lane] * t.get_shape()[0])
        if tok == "<" and cur.peek() != "{":
            return self._vector(cur, t)
        if tok in ("[", "{") or (tok == "<" and cur.peek() == "{"):
            if tok == "<":
                cur.next()
            return self._aggregate(cur, t, "]" if tok == "[" else "}", packed=tok == "<")
        if tok.startswith('c"'):
            return self._string(_unescape(tok[2:-1]), t)
        if tok == "getelementptr":
            return self._gep(cur, t)
        if tok in ("ptrtoint", "inttoptr", "bitcast", "addrspacecast", "trunc", "zext", "sext",
                   "ptrtoaddr"):  # fmt: skip
            cur.expect("(")
            st = self.m.parse_type(cur)
            v = self.constant(cur, st)
            cur.expect("to")
            rt = self.m.parse_type(cur)
            cur.expect(")")
            return self._emit(_create(_CAST_OPS[tok], operands=[v], result_types=[rt]))
        if tok in ("add", "sub", "mul", "shl", "xor"):
            flags = 0
            while cur.peek() in ("nuw", "nsw"):
                flags |= 1 if cur.next() == "nsw" else 2
            cur.expect("(")
            at = self.m.parse_type(cur)
            a = self.constant(cur, at)
            cur.expect(",")
            bt = self.m.parse_type(cur)
            b = self.constant(cur, bt)
            cur.expect(")")
            props = {"overflowFlags": _int_attr(flags, i32)} if tok != "xor" else {}
            return self._emit(_create(_INT_BINOPS[tok], operands=[a, b], result_types=[at], properties=props))
        if tok == "blockaddress":
            raise _Unsupported("constant 'blockaddress' (a label's address: computed goto) is not supported")
        if tok in ("dso_local_equivalent", "no_cfi", "ptrauth"):
            raise _Unsupported(f"constant '{tok}' is not supported")
        if tok == "none":
            raise _Unsupported("token constant 'none' is not supported")
        if tok.startswith("%") and self.fn is not None:
            cur.pos -= 1
            raise _Unsupported("internal: SSA value where a constant was expected")
        raise _Unsupported(f"unsupported constant '{tok}'")

    def _float(self, tok: str, t: Attribute) -> SSAValue:
        """A float constant; one a double cannot hold exactly is a bitcast of its bits.

        So are all x86_fp80 and fp128 constants: xDSL cannot print a FloatAttr of those types.
        """
        value = exact_float(tok, t) if not isinstance(t, _WIDE_FLOATS) else None
        if value is not None:
            return self._scalar(_float_attr(tok, value, t), t)
        bits, width = _wide_float_bits(tok, t)
        it = IntegerType(width)
        as_int = self._scalar(_int_attr(_signed(bits, width), it), it)
        return self._emit(_create(xllvm.BitcastOp, operands=[as_int], result_types=[t]))

    def _scalar(self, value: Attribute, t: Attribute) -> SSAValue:
        return self._emit(_create(xllvm.ConstantOp, properties={"value": value}, result_types=[t]))

    def zero(self, t: Attribute) -> SSAValue:
        if isinstance(t, IntegerType):
            return self._scalar(_int_attr(0, t), t)
        if isinstance(t, _FLOAT_TYPES):
            return self._float("0.0", t)
        if isinstance(t, VectorType) and isinstance(t.element_type, (IntegerType, *_FLOAT_TYPES)):
            zero = 0 if isinstance(t.element_type, IntegerType) else 0.0
            return self._scalar(DenseIntOrFPElementsAttr.from_list(t, [zero]), t)
        if isinstance(t, VectorType):
            # `llvm.mlir.zero` takes no vector of pointers: build the vector lane by lane.
            return self._lanes(t, [self.zero(t.element_type)] * t.get_shape()[0])
        return self._emit(_create(xllvm.ZeroOp, result_types=[t]))

    def _lanes(self, t: VectorType, lanes: Sequence[SSAValue | None]) -> SSAValue:
        """A vector constant from per-lane constants (None: poison), as insertelement ops."""
        acc = self._emit(_create(ext.PoisonOp, result_types=[t]))
        for idx, v in enumerate(lanes):
            if v is not None:
                pos = self._scalar(_int_attr(idx, i32), i32)
                acc = self._emit(_create(xllvm.InsertElementOp, [acc, v, pos], [t]))
        return acc

    def _scalar_value(self, cur: _Cursor, t: Attribute) -> int | float | None:
        tok = cur.peek()
        if isinstance(t, IntegerType):
            if tok in ("true", "false"):
                cur.next()
                return int(tok == "true")
            if tok.lstrip("-").isdigit():
                cur.next()
                return int(tok)
            return None
        if isinstance(t, _FLOAT_TYPES) and (tok[:1].isdigit() or tok[:1] in "+-"):
            value = exact_float(tok, t) if not isinstance(t, _WIDE_FLOATS) else None
            if value is None or not _dense_float_ok(value, t):
                return None
            cur.next()
            return value
        return None

    def _vector(self, cur: _Cursor, t: Attribute) -> SSAValue:
        assert isinstance(t, VectorType)
        start = cur.pos
        values: list = []
        numeric = True
        while not cur.accept(">"):
            et = self.m.parse_type(cur)
            v = self._scalar_value(cur, et)
            if v is None:
                numeric = False
                break
            values.append(v)
            cur.accept(",")
        if numeric and isinstance(t.element_type, (IntegerType, *_FLOAT_TYPES)):
            return self._scalar(DenseIntOrFPElementsAttr.from_list(t, values), t)
        cur.pos = start
        lanes: list[SSAValue | None] = []
        while not cur.accept(">"):
            et = self.m.parse_type(cur)
            lanes.append(None if cur.accept("poison") else self.constant(cur, et))
            cur.accept(",")
        return self._lanes(t, lanes)

    def _aggregate(self, cur: _Cursor, t: Attribute, close: str, packed: bool) -> SSAValue:
        acc = self._emit(_create(xllvm.UndefOp, result_types=[t]))
        idx = 0
        while not cur.accept(close):
            et = self.m.parse_type(cur)
            v = self.constant(cur, et)
            acc = self._emit(
                _create(xllvm.InsertValueOp,
                    operands=[acc, v],
                    properties={"position": _dense(i64, tuple([idx]))},
                    result_types=[t],
                )
            )
            idx += 1
            cur.accept(",")
        if packed:
            cur.expect(">")
        return acc

    def _string(self, s: str, t: Attribute) -> SSAValue:
        assert isinstance(t, ext.LLVMArrayType)
        acc = self._emit(_create(xllvm.UndefOp, result_types=[t]))
        for idx, ch in enumerate(s):
            v = self._scalar(_int_attr(ord(ch), t.type), t.type)
            acc = self._emit(
                _create(xllvm.InsertValueOp,
                    operands=[acc, v],
                    properties={"position": _dense(i64, tuple([idx]))},
                    result_types=[t],
                )
            )
        return acc

    def _gep(self, cur: _Cursor, t: Attribute) -> SSAValue:
        inbounds, flags, inrange = _gep_flags(cur)
        cur.expect("(")
        elem = self.m.parse_type(cur)
        cur.expect(",")
        pt = self.m.parse_type(cur)
        base = self.constant(cur, pt)
        consts: list[int] = []
        ssa: list[SSAValue] = []
        while cur.accept(","):
            it = self.m.parse_type(cur)
            tok = cur.peek()
            if isinstance(it, IntegerType) and tok.lstrip("-").isdigit() and -(2**31) <= int(tok) < 2**31:
                cur.next()
                consts.append(int(tok))
            else:
                consts.append(ext.GEP_USE_SSA_VAL)
                ssa.append(self.constant(cur, it))
        cur.expect(")")
        attrs = {"inrange": StringAttr(inrange)} if inrange else {}
        return self._emit(_make_gep(base, consts, ssa, elem, t, inbounds, flags, attrs))


def _gep_flags(cur: _Cursor) -> tuple[bool, int, str | None]:
    inbounds, flags, inrange = False, 0, None
    while True:
        tok = cur.peek()
        if tok == "inbounds":
            inbounds, flags = True, flags | ext.GEP_NUSW
        elif tok == "nusw":
            flags |= ext.GEP_NUSW
        elif tok == "nuw":
            flags |= ext.GEP_NUW
        elif tok == "inrange":
            cur.next()
            inrange = cur.balanced()
            continue
        else:
            return inbounds, flags, inrange
        cur.next()


def _make_gep(
    base: SSAValue,
    consts: list[int],
    ssa: list[SSAValue],
    elem: Attribute,
    rt: Attribute,
    inbounds: bool,
    flags: int,
    attrs: dict[str, Attribute],
) -> Operation:
    props: dict[str, Attribute] = {
        "rawConstantIndices": _dense(i32, tuple(consts)),
        "elem_type": elem,
        "noWrapFlags": _int_attr(flags, i32),
    }
    if inbounds:
        props["inbounds"] = _UNIT
    return _create(ext.GEPOp,
        operands=[base, *ssa], result_types=[rt], properties=props, attributes=attrs
    )


_INT_BINOPS: dict[str, type[Operation]] = {
    "add": xllvm.AddOp, "sub": xllvm.SubOp, "mul": xllvm.MulOp, "udiv": xllvm.UDivOp,
    "sdiv": xllvm.SDivOp, "urem": xllvm.URemOp, "srem": xllvm.SRemOp, "and": xllvm.AndOp,
    "or": xllvm.OrOp, "xor": xllvm.XOrOp, "shl": xllvm.ShlOp, "lshr": xllvm.LShrOp,
    "ashr": xllvm.AShrOp,
}  # fmt: skip
_OVERFLOW_OPS = {"add", "sub", "mul", "shl"}
_EXACT_OPS = {"udiv", "sdiv", "lshr", "ashr"}

_FLOAT_BINOPS: dict[str, type[Operation]] = {
    "fadd": xllvm.FAddOp, "fsub": xllvm.FSubOp, "fmul": xllvm.FMulOp, "fdiv": xllvm.FDivOp,
    "frem": xllvm.FRemOp,
}  # fmt: skip

_CAST_OPS: dict[str, type[Operation]] = {
    "trunc": xllvm.TruncOp, "zext": xllvm.ZExtOp, "sext": xllvm.SExtOp,
    "fptrunc": xllvm.FPTruncOp, "fpext": xllvm.FPExtOp, "fptoui": ext.FPToUIOp,
    "fptosi": ext.FPToSIOp, "uitofp": ext.UIToFPOp, "sitofp": xllvm.SIToFPOp,
    "ptrtoint": xllvm.PtrToIntOp, "inttoptr": xllvm.IntToPtrOp, "bitcast": xllvm.BitcastOp,
    "addrspacecast": ext.AddrSpaceCastOp,
}  # fmt: skip

_XDSL_ARITY: dict[str, int] = {
    "llvm.fabs": 1, "llvm.ceil": 1, "llvm.floor": 1, "llvm.sqrt": 1, "llvm.exp": 1,
    "llvm.exp2": 1, "llvm.log": 1, "llvm.log2": 1, "llvm.sin": 1, "llvm.cos": 1,
    "llvm.pow": 2, "llvm.maxnum": 2, "llvm.minnum": 2, "llvm.copysign": 2, "llvm.fma": 3,
    "llvm.vector.reduce.fadd": 2, "llvm.vector.reduce.fmul": 2,
}  # fmt: skip
"""xDSL's own intrinsic ops (fixed operand fields) that the importer uses."""

_INTRINSIC_OPS = {
    k: v
    for k, v in ext.intrinsic_op_by_name().items()
    if issubclass(v, ext._IntrinsicOp | ext._MemIntrinsicOp) or k in _XDSL_ARITY
}
def _fmf(flags: Sequence[str]) -> xllvm.FastMathAttr:
    return _fmf_attr(tuple(flags))


@_memo
def _fmf_attr(flags: tuple[str, ...]) -> xllvm.FastMathAttr:
    if not flags:
        return xllvm.FastMathAttr(None)
    if "fast" in flags:
        return xllvm.FastMathAttr("fast")
    return xllvm.FastMathAttr([xllvm.FastMathFlag(f) for f in flags])


# ---------------------------------------------------------------------------------------------
# Function bodies
# ---------------------------------------------------------------------------------------------


class FunctionReader:
    """One `define` or `declare`."""

    def __init__(self, module: ModuleReader, start: int, end: int | None):
        self.m = module
        self.start = start
        self.end = end
        self.values: dict[str, SSAValue] = {}
        self.forward: dict[str, Operation] = {}
        self.blocks: dict[str, Block] = {}
        self.block_order: list[Block] = []
        self.phis: dict[Block, list[tuple[Attribute, dict[str, list[str]]]]] = {}
        self.terminators: list[tuple[Block, _Cursor, str]] = []
        self.consts = _ConstBuilder(module, self)
        self.name = ""

    # ---- header ---------------------------------------------------------------------------

    def read(self) -> Operation:
        cur = _Cursor(_tokens(self.m.lines[self.start]), self.start)
        is_def = cur.next() == "define"
        linkage = "external"
        props: dict[str, Attribute] = {}
        attrs: dict[str, Attribute] = {}
        cconv = "ccc"
        while True:
            tok = cur.peek()
            if tok in _LINKAGES:
                linkage = cur.next()
            elif tok == "dso_local":
                cur.next()
                attrs["dso_local"] = _UNIT
            elif tok == "dso_preemptable":
                cur.next()
            elif tok in _VISIBILITY:
                cur.next()
                props["visibility_"] = _int_attr(_VISIBILITY[tok], i64)
            elif tok in ("dllimport", "dllexport"):
                attrs["dll_storage"] = StringAttr(cur.next())
            elif tok in _CCONVS:
                cconv = cur.next()
            elif tok == "cc":
                cur.next()
                cconv = f"cc {cur.next()}"
            else:
                break
        res_attrs = self.m.attrs.param_attrs(cur, lambda t: _is_type_start(t))
        ret_type = self.m._parse_base_type(cur)
        name_tok = cur.next()
        self.name = _name(name_tok)
        cur.expect("(")
        arg_types: list[Attribute] = []
        arg_names: list[str | None] = []
        arg_attrs: list[dict[str, Attribute]] = []
        vararg = False
        while not cur.accept(")"):
            if cur.accept("..."):
                vararg = True
                continue
            arg_types.append(self.m.parse_type(cur))
            arg_attrs.append(
                self.m.attrs.param_attrs(cur, lambda t: t in (",", ")") or t.startswith("%"))
            )
            arg_names.append(_name(cur.next()) if cur.peek().startswith("%") else None)
            cur.accept(",")
        while True:
            tok = cur.peek()
            if tok in _UNNAMED_ADDR:
                cur.next()
                props["unnamed_addr"] = _int_attr(_UNNAMED_ADDR[tok], i64)
            elif tok == "addrspace":
                cur.next()
                attrs["addr_space"] = _int_attr(int(cur.balanced()), i32)
            else:
                break
        passthrough = self.m.attrs.fn_attrs(cur, self.m.attr_groups)
        md: list[tuple[str, int]] = []
        while not cur.at_end() and cur.peek() != "{":
            tok = cur.next()
            if tok == "section":
                attrs["section"] = StringAttr(_unescape(cur.next()[1:-1]))
            elif tok == "partition":
                attrs["partition"] = StringAttr(_unescape(cur.next()[1:-1]))
            elif tok == "comdat":
                attrs["comdat"] = StringAttr(_name(cur.balanced()) if cur.peek() == "(" else self.name)
            elif tok == "align":
                attrs["alignment"] = _int_attr(int(cur.next()), i64)
            elif tok == "gc":
                attrs["gc"] = StringAttr(_unescape(cur.next()[1:-1]))
            elif tok in ("personality", "prefix", "prologue"):
                t = self.m.parse_type(cur)
                pv = cur.next()
                if not pv.startswith("@"):
                    raise _Unsupported(f"{tok} must be a function")
                del t
                attrs[tok] = SymbolRefAttr(_name(pv))
            elif tok.startswith("!"):
                md.append((tok[1:], int(cur.next()[1:])))
            else:
                raise _Unsupported(f"unexpected '{tok}' in function header")
        if md:
            attrs["md"] = _md_attr(tuple(md))
        ftype = _function_type(tuple(arg_types), ret_type, vararg)
        if any(arg_attrs):
            props["arg_attrs"] = _dicts(arg_attrs)
        if res_attrs:
            props["res_attrs"] = _dicts([res_attrs])
        if passthrough:
            props["passthrough"] = ArrayAttr(passthrough)
        region = Region()
        if is_def:
            try:
                region = self._body(arg_types, arg_names)
            except _Unsupported as e:
                raise self.m.error(str(e), self.line, self.name, self.start) from None
            except (ValueError, KeyError, IndexError, AssertionError, TypeError) as e:
                raise self.m.error(
                    f"unexpected {type(e).__name__}: {e}",
                    self.line,
                    self.name,
                    self.start,
                    ["this is a bug in xenzyme's importer; please report it with the input"],
                ) from None
        return xllvm.FuncOp.create(
            properties={
                "sym_name": StringAttr(self.name),
                "function_type": ftype,
                "CConv": xllvm.CallingConventionAttr(cconv),
                "linkage": xllvm.LinkageAttr(linkage),
                "visibility_": props.pop("visibility_", _int_attr(0, i64)),
                **props,
            },
            attributes=attrs,
            regions=[region],
        )

    # ---- body -----------------------------------------------------------------------------

    def _body(self, arg_types: list[Attribute], arg_names: list[str | None]) -> Region:
        lines = self.m.lines
        entry = Block(arg_types=arg_types)
        unnamed = 0
        for arg, name in zip(entry.args, arg_names, strict=True):
            if name is None:
                name = str(unnamed)
                unnamed += 1
            elif name.isdigit():
                unnamed = int(name) + 1
            self._define(name, arg)
        # Block labels: the entry block's is implicit unless named.
        first = lines[self.start + 1] if self.start + 1 < (self.end or 0) else ""
        current = entry
        self.block_order.append(entry)
        entry_label = str(unnamed)
        if _is_label(first):
            entry_label = _label_name(first)
            if not entry_label[0].isdigit() and _VALID_HINT.match(entry_label):
                entry.name_hint = entry_label
        self.blocks[entry_label] = entry
        for j in range(self.start + 1, self.end or 0):
            ln = lines[j]
            if _is_label(ln):
                label = _label_name(ln)
                if label not in self.blocks:
                    blk = Block()
                    self.blocks[label] = blk
                    self.block_order.append(blk)
                    if not label[0].isdigit() and _VALID_HINT.match(label):
                        blk.name_hint = label
        # Instructions
        j = self.start + 1
        started = False
        while j < (self.end or 0):
            ln = lines[j]
            self.line = j
            if not ln or ln.lstrip().startswith(";"):
                j += 1
                continue
            if _is_label(ln):
                blk = self.blocks[_label_name(ln)]
                if started or blk is not entry:
                    current = blk
                started = True
                j += 1
                continue
            started = True
            text = ln
            # multi-line instructions: switch cases, invoke destinations, landingpad clauses
            if text.endswith("[") and " switch " in text:
                while not lines[j].lstrip().startswith("]"):
                    j += 1
                    text += " " + lines[j].strip()
            while j + 1 < (self.end or 0) and lines[j + 1].strip().startswith(
                ("to label", "cleanup", "catch ", "filter ", "unwind ")
            ):
                j += 1
                text += " " + lines[j].strip()
            self._instruction(current, _Cursor(_tokens(text), j))
            j += 1
        self._finish_terminators()
        for name, placeholder in self.forward.items():
            raise _Unsupported(f"use of undefined value %{name}")
        if self.consts.ops:
            if entry.first_op is not None:
                entry.insert_ops_before(self.consts.ops, entry.first_op)
            else:
                entry.add_ops(self.consts.ops)
        return Region(self.block_order)

    def _define(self, name: str, value: SSAValue) -> None:
        if (ph := self.forward.pop(name, None)) is not None:
            ph.results[0].replace_all_uses_with(value)
            ph.erase()
        self.values[name] = value
        if not name[0].isdigit() and _VALID_HINT.match(name):
            value.name_hint = name

    def value(self, cur: _Cursor, t: Attribute) -> SSAValue:
        """An operand of type `t`: a local value or a constant."""
        tok = cur.peek()
        if tok.startswith("%"):
            cur.next()
            name = _name(tok)
            if (v := self.values.get(name)) is not None:
                return v
            if (ph := self.forward.get(name)) is None:
                ph = _create(UnrealizedConversionCastOp, result_types=[t])
                self.forward[name] = ph
            return ph.results[0]
        if tok == "metadata":
            raise _Unsupported("metadata operand in an unexpected position")
        return self.consts.constant(cur, t)

    def typed_value(self, cur: _Cursor) -> SSAValue:
        t = self.m.parse_type(cur)
        return self.value(cur, t)

    def _instruction(self, block: Block, cur: _Cursor) -> None:
        tok = cur.peek()
        if tok.startswith("#dbg_"):
            block.add_op(self._dbg_record(cur))
            return
        result = None
        if tok.startswith("%") and cur.peek(1) == "=":
            result = _name(cur.next())
            cur.next()
        opcode = cur.next()
        handler = _HANDLERS.get(opcode)
        if handler is None:
            raise _Unsupported(f"instruction '{opcode}' is not supported")
        if opcode == "phi":
            self._phi(block, cur, result)
            return
        if opcode in _TERMINATORS:  # built last, when every phi's incoming values are known
            self.terminators.append((block, cur, opcode))
            return
        op = handler(self, cur, opcode)
        self._trailer(cur, op)
        block.add_op(op)
        if result is not None:
            self._define(result, op.results[0])

    def _trailer(self, cur: _Cursor, op: Operation) -> None:
        """Metadata attachments at the end of an instruction."""
        md: list[tuple[str, int]] = []
        while cur.accept(","):
            kind = cur.next()
            if not kind.startswith("!"):
                raise _Unsupported(f"unexpected '{kind}' after instruction")
            node = cur.next()
            if not node.startswith("!") or not node[1:].isdigit():
                raise _Unsupported(f"unsupported inline metadata {node}")
            if kind == "!dbg":
                op.location = self.m.location(int(node[1:]))
            else:
                md.append((kind[1:], int(node[1:])))
        if not cur.at_end():
            raise _Unsupported(f"unexpected '{cur.rest()}'")
        if md:
            op.attributes["md"] = _md_attr(tuple(md))

    # ---- phis and terminators -------------------------------------------------------------

    def _phi(self, block: Block, cur: _Cursor, result: str | None) -> None:
        _fast_math_flags(cur)
        t = self.m.parse_type(cur)
        incoming: dict[str, list[str]] = {}
        while cur.accept("["):
            start = cur.pos
            depth = 0
            while not (cur.peek() == "," and depth == 0):
                tk = cur.next()
                if tk == "":
                    raise _Unsupported("malformed phi")
                depth += (tk in "[{<(") - (tk in "]}>)")
            value_toks = cur.toks[start : cur.pos]
            cur.expect(",")
            incoming[_name(cur.next())] = value_toks
            cur.expect("]")
            if cur.peek() == "," and cur.peek(1) == "[":
                cur.next()
        arg = block.insert_arg(t, len(block.args))
        if result is not None:
            self._define(result, arg)
        self.phis.setdefault(block, []).append((t, incoming))
        while cur.accept(","):  # a phi's !dbg is its block argument's location
            kind, node = cur.next(), cur.next()
            if kind != "!dbg" or not node[1:].isdigit():
                raise _Unsupported(f"metadata {kind} on a phi is not supported")
            arg.location = self.m.location(int(node[1:]))

    def _incoming(self, succ: Block, pred_label: str) -> list[SSAValue]:
        out: list[SSAValue] = []
        for t, incoming in self.phis.get(succ, []):
            toks = incoming.get(pred_label)
            if toks is None:
                raise _Unsupported(f"phi has no incoming value for %{pred_label}")
            out.append(self.value(_Cursor(toks, self.line), t))
        return out

    def _finish_terminators(self) -> None:
        labels = {b: name for name, b in self.blocks.items()}
        for block, cur, opcode in self.terminators:
            self.line = cur.line
            pred = labels[block]
            op = _TERMINATORS[opcode](self, cur, pred)
            self._trailer(cur, op)
            block.add_op(op)
            if opcode == "invoke" and op.results and cur.toks[0].startswith("%"):
                self._define(_name(cur.toks[0]), op.results[0])

    def _target(self, cur: _Cursor, pred: str) -> tuple[Block, list[SSAValue]]:
        cur.expect("label")
        label = _name(cur.next())
        blk = self.blocks[label]
        return blk, self._incoming(blk, pred)

    def _br(self, cur: _Cursor, pred: str) -> Operation:
        cur.pos = _after_opcode(cur)
        if cur.peek() == "label":
            dest, args = self._target(cur, pred)
            return _create(xllvm.BrOp, args, successors=(dest,))
        cur.expect("i1")
        cond = self.value(cur, i1)
        cur.expect(",")
        t_dest, t_args = self._target(cur, pred)
        cur.expect(",")
        f_dest, f_args = self._target(cur, pred)
        sizes = _dense(i32, (1, len(t_args), len(f_args)))
        return _create(
            xllvm.CondBrOp,
            [cond, *t_args, *f_args],
            properties={"operandSegmentSizes": sizes},
            successors=(t_dest, f_dest),
        )

    def _switch(self, cur: _Cursor, pred: str) -> Operation:
        cur.pos = _after_opcode(cur)
        t = self.m.parse_type(cur)
        v = self.value(cur, t)
        cur.expect(",")
        default, dargs = self._target(cur, pred)
        cur.expect("[")
        cases = []
        while not cur.accept("]"):
            self.m.parse_type(cur)
            tok = cur.next()
            val = int(tok == "true") if tok in ("true", "false") else int(tok)
            cur.expect(",")
            dest, args = self._target(cur, pred)
            cases.append((val, dest, args))
        return ext.SwitchOp(v, default, dargs, cases)

    def _ret(self, cur: _Cursor, pred: str) -> Operation:
        cur.pos = _after_opcode(cur)
        if cur.accept("void"):
            return _create(xllvm.ReturnOp)
        return _create(xllvm.ReturnOp, [self.typed_value(cur)])

    def _unreachable(self, cur: _Cursor, pred: str) -> Operation:
        cur.pos = _after_opcode(cur)
        return _create(xllvm.UnreachableOp)

    def _resume(self, cur: _Cursor, pred: str) -> Operation:
        cur.pos = _after_opcode(cur)
        return ext.ResumeOp(self.typed_value(cur))

    def _invoke(self, cur: _Cursor, pred: str) -> Operation:
        cur.pos = _after_opcode(cur)
        call = self._call_parts(cur)
        cur.expect("to")
        normal, nargs = self._target(cur, pred)
        cur.expect("unwind")
        unwind, uargs = self._target(cur, pred)
        callee, args, rtype, var_type, attrs, cconv = call
        op = ext.InvokeOp(callee, args, rtype, normal, unwind, nargs, uargs, var_type, attrs)
        if cconv != "ccc":
            op.properties["CConv"] = xllvm.CallingConventionAttr(cconv)
        return op

    # ---- instructions ---------------------------------------------------------------------

    def _int_binop(self, cur: _Cursor, opcode: str) -> Operation:
        flags = 0
        exact = disjoint = False
        while True:
            tok = cur.peek()
            if tok == "nsw":
                flags |= 1
            elif tok == "nuw":
                flags |= 2
            elif tok == "exact":
                exact = True
            elif tok == "disjoint":
                disjoint = True
            else:
                break
            cur.next()
        t = self.m.parse_type(cur)
        a = self.value(cur, t)
        cur.expect(",")
        b = self.value(cur, t)
        props: dict[str, Attribute] = {}
        if opcode in _OVERFLOW_OPS:
            props["overflowFlags"] = _int_attr(flags, i32)
        if exact:
            props["isExact"] = _UNIT
        if disjoint:
            props["isDisjoint"] = _UNIT
        return _create(_INT_BINOPS[opcode], operands=[a, b], result_types=[t], properties=props)

    def _float_binop(self, cur: _Cursor, opcode: str) -> Operation:
        fmf = _fast_math_flags(cur)
        t = self.m.parse_type(cur)
        a = self.value(cur, t)
        cur.expect(",")
        b = self.value(cur, t)
        return _create(_FLOAT_BINOPS[opcode],
            operands=[a, b], result_types=[t], properties={"fastmathFlags": _fmf(fmf)}
        )

    def _fneg(self, cur: _Cursor, opcode: str) -> Operation:
        fmf = _fast_math_flags(cur)
        t = self.m.parse_type(cur)
        a = self.value(cur, t)
        return _create(xllvm.FNegOp,
            operands=[a], result_types=[t], properties={"fastmathFlags": _fmf(fmf)}
        )

    def _cast(self, cur: _Cursor, opcode: str) -> Operation:
        props: dict[str, Attribute] = {}
        attrs: dict[str, Attribute] = {}
        fmf: list[str] = []
        while True:
            tok = cur.peek()
            if tok == "nneg":
                if opcode == "zext":
                    props["nonNeg"] = _UNIT
                else:
                    attrs["nneg"] = _UNIT
            elif tok in ("nuw", "nsw") and opcode == "trunc":
                old = props.get("overflowFlags", xllvm.OverflowAttr("none"))
                bit = 1 if tok == "nsw" else 2
                props["overflowFlags"] = xllvm.OverflowAttr.from_int(old.to_int() | bit)  # type: ignore[attr-defined]
            elif tok in _FMF:
                fmf.append(tok)
            else:
                break
            cur.next()
        if fmf:
            attrs["fastmathFlags"] = _fmf(fmf)
        v = self.typed_value(cur)
        cur.expect("to")
        rt = self.m.parse_type(cur)
        return _create(_CAST_OPS[opcode],
            operands=[v], result_types=[rt], properties=props, attributes=attrs
        )

    def _icmp(self, cur: _Cursor, opcode: str) -> Operation:
        samesign = cur.accept("samesign")
        pred = cur.next()
        if pred not in _INT_PREDICATES:
            raise _Unsupported(f"unknown icmp predicate '{pred}'")
        t = self.m.parse_type(cur)
        a = self.value(cur, t)
        cur.expect(",")
        b = self.value(cur, t)
        props: dict[str, Attribute] = {
            "predicate": _int_attr(xllvm.ICmpPredicateFlag(pred).to_int(), i64)
        }
        if samesign:
            props["samesign"] = _UNIT
        return _create(ext.ICmpOp, operands=[a, b], result_types=[ext._i1_like(t)], properties=props)

    def _fcmp(self, cur: _Cursor, opcode: str) -> Operation:
        fmf = _fast_math_flags(cur)
        pred = cur.next()
        if pred not in _FLOAT_PREDICATES:
            raise _Unsupported(f"unknown fcmp predicate '{pred}'")
        t = self.m.parse_type(cur)
        a = self.value(cur, t)
        cur.expect(",")
        b = self.value(cur, t)
        key = "_" + pred if pred in ("true", "false") else pred
        return _create(ext.FCmpOp,
            operands=[a, b],
            result_types=[ext._i1_like(t)],
            properties={
                "predicate": _int_attr(xllvm.FCmpPredicateFlag(key).to_int(), i64),
                "fastmathFlags": _fmf(fmf),
            },
        )

    def _select(self, cur: _Cursor, opcode: str) -> Operation:
        fmf = _fast_math_flags(cur)
        c = self.typed_value(cur)
        cur.expect(",")
        a = self.typed_value(cur)
        cur.expect(",")
        b = self.typed_value(cur)
        return _create(ext.SelectOp,
            operands=[c, a, b], result_types=[a.type], properties={"fastmathFlags": _fmf(fmf)}
        )

    def _alloca(self, cur: _Cursor, opcode: str) -> Operation:
        attrs: dict[str, Attribute] = {}
        if cur.accept("inalloca"):
            attrs["inalloca"] = _UNIT
        t = self.m.parse_type(cur)
        size: SSAValue | None = None
        props: dict[str, Attribute] = {"elem_type": t}
        rt: Attribute = ext.LLVMPointerType()
        while cur.accept(","):
            tok = cur.peek()
            if tok == "align":
                cur.next()
                props["alignment"] = _int_attr(int(cur.next()), i64)
            elif tok == "addrspace":
                cur.next()
                rt = _ptr_type(int(cur.balanced()))
            elif tok.startswith("!"):
                cur.pos -= 1
                break
            else:
                size = self.typed_value(cur)
        if size is None:  # `alloca T` is `alloca T, i32 1`
            size = self.consts.constant(_Cursor(["1"], 0), i32)
        return _create(xllvm.AllocaOp,
            operands=[size], result_types=[rt], properties=props, attributes=attrs
        )

    def _mem_flags(self, cur: _Cursor) -> tuple[bool, str | None, bool]:
        atomic = cur.accept("atomic")
        volatile = cur.accept("volatile")
        return atomic, None, volatile

    def _load(self, cur: _Cursor, opcode: str) -> Operation:
        atomic, _, volatile = self._mem_flags(cur)
        t = self.m.parse_type(cur)
        cur.expect(",")
        p = self.typed_value(cur)
        props: dict[str, Attribute] = {}
        attrs: dict[str, Attribute] = {}
        if volatile:
            attrs["volatile_"] = _UNIT
        if atomic:
            self._atomic_suffix(cur, props, attrs)
        while cur.peek() == "," and cur.peek(1) == "align":
            cur.next()
            cur.next()
            props["alignment"] = _int_attr(int(cur.next()), i64)
        props.setdefault("ordering", _int_attr(0, i64))
        return _create(xllvm.LoadOp, operands=[p], result_types=[t], properties=props, attributes=attrs)

    def _atomic_suffix(self, cur: _Cursor, props: dict, attrs: dict) -> None:
        if cur.accept("syncscope"):
            attrs["syncscope"] = StringAttr(_unescape(cur.balanced()[1:-1]))
        ordering = cur.next()
        if ordering not in ext.ORDERING_TO_INT:
            raise _Unsupported(f"unknown atomic ordering '{ordering}'")
        props["ordering"] = _int_attr(ext.ORDERING_TO_INT[ordering], i64)

    def _store(self, cur: _Cursor, opcode: str) -> Operation:
        atomic, _, volatile = self._mem_flags(cur)
        v = self.typed_value(cur)
        cur.expect(",")
        p = self.typed_value(cur)
        props: dict[str, Attribute] = {"ordering": _int_attr(0, i64)}
        attrs: dict[str, Attribute] = {}
        if volatile:
            props["volatile_"] = _UNIT
        if atomic:
            self._atomic_suffix(cur, props, attrs)
        while cur.peek() == "," and cur.peek(1) == "align":
            cur.next()
            cur.next()
            props["alignment"] = _int_attr(int(cur.next()), i64)
        return _create(ext.StoreOp, operands=[v, p], properties=props, attributes=attrs)

    def _gep(self, cur: _Cursor, opcode: str) -> Operation:
        inbounds, flags, inrange = _gep_flags(cur)
        elem = self.m.parse_type(cur)
        cur.expect(",")
        base = self.typed_value(cur)
        consts: list[int] = []
        ssa: list[SSAValue] = []
        vector_len = base.type.get_shape()[0] if isinstance(base.type, VectorType) else None
        while cur.peek() == "," and not cur.peek(1).startswith("!"):
            cur.next()
            it = self.m.parse_type(cur)
            tok = cur.peek()
            if isinstance(it, IntegerType) and tok.lstrip("-").isdigit() and -(2**31) <= int(tok) < 2**31:
                cur.next()
                consts.append(int(tok))
            else:
                if isinstance(it, VectorType):
                    vector_len = it.get_shape()[0]
                consts.append(ext.GEP_USE_SSA_VAL)
                ssa.append(self.value(cur, it))
        rt: Attribute = base.type if not isinstance(base.type, VectorType) else base.type
        if vector_len is not None and not isinstance(rt, VectorType):
            rt = _vector_type(base.type, vector_len)
        attrs = {"inrange": StringAttr(inrange)} if inrange else {}
        return _make_gep(base, consts, ssa, elem, rt, inbounds, flags, attrs)

    def _extractvalue(self, cur: _Cursor, opcode: str) -> Operation:
        agg = self.typed_value(cur)
        pos = []
        while cur.peek() == "," and cur.peek(1).isdigit():
            cur.next()
            pos.append(int(cur.next()))
        rt = agg.type
        for p in pos:
            rt = _member_type(rt, p)
        return _create(xllvm.ExtractValueOp,
            operands=[agg],
            result_types=[rt],
            properties={"position": _dense(i64, tuple(pos))},
        )

    def _insertvalue(self, cur: _Cursor, opcode: str) -> Operation:
        agg = self.typed_value(cur)
        cur.expect(",")
        v = self.typed_value(cur)
        pos = []
        while cur.peek() == "," and cur.peek(1).isdigit():
            cur.next()
            pos.append(int(cur.next()))
        return _create(xllvm.InsertValueOp,
            operands=[agg, v],
            result_types=[agg.type],
            properties={"position": _dense(i64, tuple(pos))},
        )

    def _extractelement(self, cur: _Cursor, opcode: str) -> Operation:
        vec = self.typed_value(cur)
        cur.expect(",")
        idx = self.typed_value(cur)
        assert isinstance(vec.type, VectorType)
        return _create(ext.ExtractElementOp, operands=[vec, idx], result_types=[vec.type.element_type])

    def _insertelement(self, cur: _Cursor, opcode: str) -> Operation:
        vec = self.typed_value(cur)
        cur.expect(",")
        v = self.typed_value(cur)
        cur.expect(",")
        idx = self.typed_value(cur)
        return _create(xllvm.InsertElementOp, operands=[vec, v, idx], result_types=[vec.type])

    def _shufflevector(self, cur: _Cursor, opcode: str) -> Operation:
        a = self.typed_value(cur)
        cur.expect(",")
        b = self.typed_value(cur)
        cur.expect(",")
        mt = self.m.parse_type(cur)
        assert isinstance(mt, VectorType) and isinstance(a.type, VectorType)
        n = mt.get_shape()[0]
        mask: list[int] = []
        tok = cur.next()
        if tok in ("zeroinitializer",):
            mask = [0] * n
        elif tok in ("poison", "undef"):
            mask = [-1] * n
        elif tok == "splat":
            cur.expect("(")
            self.m.parse_type(cur)
            v = cur.next()
            cur.expect(")")
            mask = [-1 if v in ("poison", "undef") else int(v)] * n
        else:
            if tok != "<":
                raise _Unsupported("unsupported shufflevector mask")
            while not cur.accept(">"):
                self.m.parse_type(cur)
                v = cur.next()
                mask.append(-1 if v in ("poison", "undef") else int(v))
                cur.accept(",")
        rt = _vector_type(a.type.element_type, n)
        return _create(xllvm.ShuffleVectorOp,
            operands=[a, b],
            result_types=[rt],
            properties={"mask": _dense(i32, tuple(mask))},
        )

    def _freeze(self, cur: _Cursor, opcode: str) -> Operation:
        v = self.typed_value(cur)
        return _create(ext.FreezeOp, operands=[v], result_types=[v.type])

    def _va_arg(self, cur: _Cursor, opcode: str) -> Operation:
        p = self.typed_value(cur)
        cur.expect(",")
        t = self.m.parse_type(cur)
        return _create(ext.VAArgOp, operands=[p], result_types=[t])

    def _atomicrmw(self, cur: _Cursor, opcode: str) -> Operation:
        volatile = cur.accept("volatile")
        binop = cur.next()
        p = self.typed_value(cur)
        cur.expect(",")
        v = self.typed_value(cur)
        scope = None
        if cur.accept("syncscope"):
            scope = _unescape(cur.balanced()[1:-1])
        ordering = cur.next()
        align = None
        while cur.peek() == "," and cur.peek(1) == "align":
            cur.next()
            cur.next()
            align = int(cur.next())
        return ext.AtomicRMWOp(binop, p, v, ordering, align, scope, volatile)

    def _cmpxchg(self, cur: _Cursor, opcode: str) -> Operation:
        weak = cur.accept("weak")
        volatile = cur.accept("volatile")
        p = self.typed_value(cur)
        cur.expect(",")
        c = self.typed_value(cur)
        cur.expect(",")
        n = self.typed_value(cur)
        scope = None
        if cur.accept("syncscope"):
            scope = _unescape(cur.balanced()[1:-1])
        succ = cur.next()
        fail = cur.next()
        align = None
        while cur.peek() == "," and cur.peek(1) == "align":
            cur.next()
            cur.next()
            align = int(cur.next())
        return ext.CmpXchgOp(p, c, n, succ, fail, align, scope, weak, volatile)

    def _fence(self, cur: _Cursor, opcode: str) -> Operation:
        scope = None
        if cur.accept("syncscope"):
            scope = _unescape(cur.balanced()[1:-1])
        return ext.FenceOp(cur.next(), scope)

    def _landingpad(self, cur: _Cursor, opcode: str) -> Operation:
        t = self.m.parse_type(cur)
        cleanup = cur.accept("cleanup")
        clauses = []
        while cur.peek() in ("catch", "filter"):
            kind = cur.next()
            clauses.append((kind, self.typed_value(cur)))
        return ext.LandingPadOp(t, clauses, cleanup)

    def _dbg_record(self, cur: _Cursor) -> Operation:
        kind = cur.next()
        cur.expect("(")
        parts: list[str] = []
        operands: list[SSAValue] = []
        depth = 1
        while True:
            tok = cur.peek()
            if tok == "":
                raise _Unsupported("unterminated debug record")
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
                if depth == 0:
                    cur.next()
                    break
            # A typed value: `ptr %0`, or a type of several tokens (`<2 x float> %0`).
            if _is_type_start(tok) and (cur.peek(1).startswith("%") or tok in ("<", "[", "{")):
                start = cur.pos
                try:
                    t = self.m.parse_type(cur)
                except (_Unsupported, ValueError):  # not a type: a constant such as `<double 1.0, ...>`
                    t = None
                if t is not None and cur.peek().startswith("%"):
                    parts.append(f"${len(operands)}")
                    operands.append(self.value(cur, t))
                    continue
                cur.pos = start
            parts.append(cur.next())
        return ext.DbgRecordOp(f"{kind}({_join(parts)})", operands)

    # ---- calls ----------------------------------------------------------------------------

    def _call_parts(self, cur: _Cursor):
        fmf = _fast_math_flags(cur)
        cconv = "ccc"
        if cur.peek() in _CCONVS:
            cconv = cur.next()
        elif cur.peek() == "cc":
            cur.next()
            cconv = f"cc {cur.next()}"
        res_attrs = self.m.attrs.param_attrs(cur, _is_type_start)
        if cur.peek() == "addrspace":
            raise _Unsupported("calls with an address space are not supported")
        rtype = self.m.parse_type(cur)
        var_type: ext.LLVMFunctionType | None = None
        if isinstance(rtype, ext.LLVMFunctionType):
            var_type = rtype
            rtype = rtype.output
        attrs: dict[str, Attribute] = {}
        if fmf:
            attrs["fastmathFlags"] = _fmf(fmf)
        callee_tok = cur.peek()
        callee: SymbolRefAttr | None = None
        args: list[SSAValue] = []
        asm: dict[str, Attribute] | None = None
        if callee_tok.startswith("@"):
            cur.next()
            callee = _sym(_name(callee_tok))
        elif callee_tok == "asm":
            cur.next()
            asm = {}
            while cur.peek() in ("sideeffect", "alignstack", "inteldialect", "unwind"):
                asm[cur.next()] = _UNIT
            asm["asm_string"] = StringAttr(_unescape(cur.next()[1:-1]))
            cur.expect(",")
            asm["constraints"] = StringAttr(_unescape(cur.next()[1:-1]))
        else:
            args.append(self.value(cur, ext.LLVMPointerType()))
        cur.expect("(")
        arg_attrs: list[dict[str, Attribute]] = []
        while not cur.accept(")"):
            t = self.m.parse_type(cur)
            a = self.m.attrs.param_attrs(cur, _is_value_start)
            if isinstance(t, ext.LLVMMetadataType):
                args.append(self._metadata_operand(cur))
            else:
                args.append(self.value(cur, t))
            arg_attrs.append(a)
            cur.accept(",")
        fn_attrs = self.m.attrs.fn_attrs(cur, self.m.attr_groups)
        bundles: list[tuple[str, list[SSAValue]]] = []
        if cur.accept("["):
            while not cur.accept("]"):
                tag = _unescape(cur.next()[1:-1])
                cur.expect("(")
                vals = []
                while not cur.accept(")"):
                    vals.append(self.typed_value(cur))
                    cur.accept(",")
                bundles.append((tag, vals))
                cur.accept(",")
        if any(arg_attrs):
            attrs["arg_attrs"] = _dicts(arg_attrs)
        if res_attrs:
            attrs["res_attrs"] = _dicts([res_attrs])
        if fn_attrs:
            attrs["fn_attrs"] = _array_attr(tuple(fn_attrs))
        if bundles:
            attrs["_bundles"] = bundles  # type: ignore[assignment]
        if asm is not None:
            attrs["_asm"] = asm  # type: ignore[assignment]
        rt = None if isinstance(rtype, ext.LLVMVoidType) else rtype
        return callee, args, rt, var_type, attrs, cconv

    def _metadata_operand(self, cur: _Cursor) -> SSAValue:
        parts: list[str] = []
        depth = 0
        while True:
            tok = cur.peek()
            if tok == "" or (depth == 0 and tok in (",", ")")):
                break
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
            parts.append(cur.next())
        text = _join(parts).replace("! ", "!")
        key = (ext.LLVMMetadataType(), text)
        if (v := self.consts.cache.get(key)) is not None:
            return v
        v = self.consts._emit(ext.MetadataOp(text))
        self.consts.cache[key] = v
        return v

    def _call(self, cur: _Cursor, opcode: str) -> Operation:
        tail = "none"
        if opcode in ("tail", "musttail", "notail"):
            tail = opcode
            cur.expect("call")
        callee, args, rtype, var_type, attrs, cconv = self._call_parts(cur)
        bundles = attrs.pop("_bundles", None)
        asm = attrs.pop("_asm", None)
        fmf = attrs.pop("fastmathFlags", _fmf(()))
        if asm is not None:
            props = {
                "asm_string": asm.pop("asm_string"),
                "constraints": asm.pop("constraints"),
                "tail_call_kind": _tail(tail),
            }
            if "sideeffect" in asm:
                props["has_side_effects"] = _UNIT
            if "alignstack" in asm:
                props["is_align_stack"] = _UNIT
            if "inteldialect" in asm:
                props["asm_dialect"] = _int_attr(1, i64)
            if "unwind" in asm:
                attrs["unwind"] = _UNIT
            return _create(xllvm.InlineAsmOp,
                operands=args,
                result_types=[rtype] if rtype is not None else [],
                properties=props,
                attributes=attrs,
            )
        if callee is not None and callee.string_value().startswith("llvm."):
            return self._intrinsic(callee.string_value(), args, rtype, fmf, attrs, bundles, tail)
        if bundles:
            raise _Unsupported("operand bundles on calls are not supported")
        props: dict[str, Attribute] = {
            "fastmathFlags": fmf,
            "CConv": _cconv(cconv),
            "TailCallKind": _tail(tail),
            "op_bundle_sizes": _dense(i32, tuple([])),
            "operandSegmentSizes": _dense(i32, tuple([len(args), 0])),
        }
        if callee is not None:
            props["callee"] = callee
        if var_type is not None:
            props["var_callee_type"] = var_type
        return _create(xllvm.CallOp,
            operands=args,
            result_types=[rtype] if rtype is not None else [],
            properties=props,
            attributes=attrs,
        )

    def _intrinsic(self, name, args, rtype, fmf, attrs, bundles, tail) -> Operation:
        base = ext.intrinsic_base_name(name)
        if tail != "none":
            attrs["tail"] = _str_attr(tail)
        op_cls = _INTRINSIC_OPS.get(base)
        if op_cls is not None and not bundles:
            if issubclass(op_cls, ext._MemIntrinsicOp):
                vol = args[3].owner
                if not (isinstance(vol, xllvm.ConstantOp) and isinstance(vol.value, IntegerAttr)):
                    raise _Unsupported(f"{name}: isvolatile must be a constant")
                if "arg_attrs" in attrs:
                    attrs["arg_attrs"] = ArrayAttr(attrs["arg_attrs"].data[:3])  # type: ignore[union-attr]
                return _create(op_cls,
                    operands=args[:3],
                    properties={"isVolatile": _int_attr(vol.value.value.data & 1, i1)},
                    attributes=attrs,
                )
            if issubclass(op_cls, ext._IntrinsicOp) or len(args) == _XDSL_ARITY.get(base):
                return _create(op_cls,
                    operands=args,
                    result_types=[rtype] if rtype is not None else [],
                    properties={"fastmathFlags": fmf},
                    attributes=attrs,
                )
        props = {
            "intrin": _str_attr(name),
            "fastmathFlags": fmf,
            "op_bundle_sizes": _dense(i32, tuple([len(v) for _, v in bundles or []])),
            "operandSegmentSizes": DenseArrayBase.from_list(
                i32, [len(args), sum(len(v) for _, v in bundles or [])]
            ),
        }
        if bundles:
            attrs["op_bundle_tags"] = ArrayAttr([StringAttr(t) for t, _ in bundles])
        return _create(xllvm.CallIntrinsicOp,
            operands=[*args, *(v for _, vs in bundles or [] for v in vs)],
            result_types=[rtype] if rtype is not None else [],
            properties=props,
            attributes=attrs,
        )



_VALID_HINT = re.compile(r"^[A-Za-z_][A-Za-z0-9_$.-]*$")


def _member_type(t: Attribute, idx: int) -> Attribute:
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        return t.types.data[idx]
    if isinstance(t, ext.LLVMArrayType):
        return t.type
    raise _Unsupported(f"cannot index into {t}")


def _is_label(line: str) -> bool:
    return bool(line) and not line[0].isspace() and line[0] != ";" and _LABEL.match(line) is not None


_LABEL = re.compile(r'^(?:"[^"]*"|[-\w$.]+):')


def _label_name(line: str) -> str:
    m = _LABEL.match(line)
    assert m
    s = m.group(0)[:-1]
    return _unescape(s[1:-1]) if s.startswith('"') else s


def _is_type_start(tok: str) -> bool:
    return (
        tok in _SCALAR_TYPES
        or (tok[:1] == "i" and tok[1:].isdigit())
        or tok in ("<", "[", "{")
        or tok.startswith("%")
    )


def _is_value_start(tok: str) -> bool:
    return (
        tok[:1] in ("%", "@", "<", "[", "{", "!")
        or tok[:1].isdigit()
        or tok[:1] in "+-"
        or tok.startswith('c"')
        or tok in _CONST_KEYWORDS
        or tok in (",", ")")
    )


def _fast_math_flags(cur: _Cursor) -> list[str]:
    out = []
    while cur.peek() in _FMF:
        out.append(cur.next())
    return out


def _after_opcode(cur: _Cursor) -> int:
    """Position just after the opcode (terminators are re-read at the end)."""
    i = 0
    if cur.toks[0].startswith("%") and cur.toks[1:2] == ["="]:
        i = 2
    return i + 1


_HANDLERS: dict[str, Callable[[FunctionReader, _Cursor, str], Operation | None]] = {
    **{k: FunctionReader._int_binop for k in _INT_BINOPS},
    **{k: FunctionReader._float_binop for k in _FLOAT_BINOPS},
    **{k: FunctionReader._cast for k in _CAST_OPS},
    "fneg": FunctionReader._fneg,
    "icmp": FunctionReader._icmp,
    "fcmp": FunctionReader._fcmp,
    "select": FunctionReader._select,
    "alloca": FunctionReader._alloca,
    "load": FunctionReader._load,
    "store": FunctionReader._store,
    "getelementptr": FunctionReader._gep,
    "extractvalue": FunctionReader._extractvalue,
    "insertvalue": FunctionReader._insertvalue,
    "extractelement": FunctionReader._extractelement,
    "insertelement": FunctionReader._insertelement,
    "shufflevector": FunctionReader._shufflevector,
    "freeze": FunctionReader._freeze,
    "va_arg": FunctionReader._va_arg,
    "atomicrmw": FunctionReader._atomicrmw,
    "cmpxchg": FunctionReader._cmpxchg,
    "fence": FunctionReader._fence,
    "landingpad": FunctionReader._landingpad,
    "call": FunctionReader._call,
    "tail": FunctionReader._call,
    "musttail": FunctionReader._call,
    "notail": FunctionReader._call,
    "phi": lambda self, cur, op: None,
    **{k: (lambda self, cur, op: None) for k in ("br", "switch", "ret", "unreachable", "resume", "invoke")},
}

_TERMINATORS: dict[str, Callable[[FunctionReader, _Cursor, str], Operation]] = {
    "br": FunctionReader._br,
    "switch": FunctionReader._switch,
    "ret": FunctionReader._ret,
    "unreachable": FunctionReader._unreachable,
    "resume": FunctionReader._resume,
    "invoke": FunctionReader._invoke,
}


def iter_functions(module: ModuleOp) -> Iterator[xllvm.FuncOp]:
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp):
            yield op
